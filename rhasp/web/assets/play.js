// Playing: moves by drag and by the arrow keys, undo, redo, reset, and the win.

import {$, game, status, tell} from "./state.js";
import {api} from "./api.js";
import {place, select} from "./board.js";
import {clearHint} from "./hint.js";
import {markStale} from "./panels.js";
import {after, notation, reach, solved, startPositions} from "./rules.js";
import {counted} from "./words.js";

export function update() {
  place(game.at);
  const moves = game.played.length;
  const slides = game.played.reduce((sum, m) => sum + Math.abs(m.delta), 0);
  $("counter").textContent = `${counted(moves, "move")} · ${counted(slides, "slide")}`;
  $("undo").disabled = moves === 0 || !!game.showing;
  $("redo").disabled = game.undone.length === 0 || !!game.showing;
  $("reset").disabled = moves === 0 && game.undone.length === 0;
  $("hint").disabled = solved(game.at) || !!game.showing;
  const query = new URLSearchParams({board: game.start});
  if (moves) query.set("moves", notation(game.played));
  history.replaceState(null, "", `?${query}`);
  markStale();
}

export function play(move) {
  if (move.delta === 0 || solved(game.at)) return;
  clearHint();
  game.played.push(move);
  game.undone = [];
  game.at = after(game.at, move);
  status("");
  update();
  if (solved(game.at)) announceWin();
}

export function undo() {
  if (!game.played.length) return;
  game.keyed = null;
  game.undone.push(game.played.pop());
  replayAll();
}

export function redo() {
  if (!game.undone.length) return;
  game.keyed = null;
  game.played.push(game.undone.pop());
  replayAll();
  if (solved(game.at)) announceWin();
}

export function reset() {
  game.played = [];
  game.undone = [];
  game.keyed = null;
  replayAll();
}

export function replayAll() {
  clearHint();
  status("");
  game.at = game.played.reduce(after, startPositions());
  update();
}

function startDrag(event, v, group) {
  if (game.showing || game.at[v.label] === null || solved(game.at)) return;
  event.preventDefault();
  group.focus();
  group.setPointerCapture(event.pointerId);
  group.classList.add("dragging");
  game.keyed = null;
  const [low, high] = reach(v, game.at);
  const from = game.at[v.label];
  const matrix = $("board").getScreenCTM().inverse();
  const point = (e) => new DOMPoint(e.clientX, e.clientY).matrixTransform(matrix);
  const origin = point(event);
  let offset = 0;
  const move = (e) => {
    const here = point(e);
    const pixels = v.orientation === "h" ? here.x - origin.x : here.y - origin.y;
    offset = Math.max(low - from, Math.min(high - from, pixels / game.view.cell));
    place(game.at, {[v.label]: offset});
  };
  const end = () => {
    group.removeEventListener("pointermove", move);
    group.removeEventListener("pointerup", end);
    group.removeEventListener("pointercancel", end);
    group.classList.remove("dragging");
    const delta = Math.round(offset);
    if (delta) play({label: v.label, delta});
    else place(game.at);
  };
  group.addEventListener("pointermove", move);
  group.addEventListener("pointerup", end);
  group.addEventListener("pointercancel", end);
}

const ARROWS = {ArrowLeft: ["h", -1], ArrowRight: ["h", 1], ArrowUp: ["v", -1], ArrowDown: ["v", 1]};

// Arrow keys slide the selected vehicle a cell at a time; presses in one direction, one after
// another, make one move (as one drag does), so the counter counts what the cards count.
function keyMove(event, v) {
  const arrow = ARROWS[event.key];
  if (!arrow || game.showing) return;
  event.preventDefault();
  const [orientation, sign] = arrow;
  if (orientation !== v.orientation || game.at[v.label] === null || solved(game.at)) return;
  const [low, high] = reach(v, game.at);
  const to = game.at[v.label] + sign;
  if (to < low || to > high) return;
  const last = game.played[game.played.length - 1];
  if (game.keyed && game.keyed.label === v.label && game.keyed.sign === sign && last
      && last.label === v.label) {
    game.played.pop();
    game.at = game.played.reduce(after, startPositions());
    play({label: v.label, delta: last.delta + sign});
  } else {
    play({label: v.label, delta: sign});
  }
  game.keyed = {label: v.label, sign};
}

export async function announceWin() {
  const played = game.played.length;
  tell(`Solved in ${counted(played, "move")}!`, "win");
  const token = game.token;
  try {
    const check = await api("/api/check", {board: game.start, plan: notation(game.played)});
    if (token !== game.token || !check.solves) return;
    const verdict = check.moves_minimal ? " — optimal!" : "";
    tell(`Solved in ${counted(check.moves, "move")}; the minimum is ` +
      `${check.minimal_moves} (proven by ${check.proven_by.join(" and ").toUpperCase()})${verdict}`, "win");
  } catch (error) {
    tell(`Solved in ${counted(played, "move")} (the minimum could not be proven: ${error.message})`, "win");
  }
}

// Make a drawn vehicle playable: dragged, moved by the arrow keys, selected when focused.
export function listen(group, v) {
  group.addEventListener("pointerdown", (event) => startDrag(event, v, group));
  group.addEventListener("keydown", (event) => keyMove(event, v));
  group.addEventListener("focus", () => select(v.label));
}
