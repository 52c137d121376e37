// The page's state, and where it speaks: what is shared by every module of the page.

export const SVG = "http://www.w3.org/2000/svg";
export const $ = (id) => document.getElementById(id);

export const game = {
  start: "",        // the board's text, as the link carries it
  view: null,       // the server's drawing of the start: sizes, vehicles, picture
  at: {},           // label -> position now (null: a target that has left)
  played: [],       // moves played: {label, delta}
  undone: [],       // moves undone, for redo
  keyed: null,      // the move the arrow keys are extending: {label, sign}
  showing: null,    // a plan being shown: {frames, index, timer}
  token: 0,         // bumped on every new board, so late answers for the old one are dropped
  engineChosen: false,  // the engine menu set by hand: a new board keeps it
};

export function status(text, kind = "") {
  const line = $("status");
  line.textContent = text;
  line.className = kind;
}

// A message of the game (a hint, the win, what went wrong) shown below the board and its
// controls, where a laptop's or a phone's screen can leave it past the bottom edge: the page
// scrolls just enough to show it, and not at all when it is in view.
export function tell(text, kind = "") {
  status(text, kind);
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  $("status").scrollIntoView({block: "nearest", behavior: still ? "auto" : "smooth"});
}
