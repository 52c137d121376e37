// rhasp serve: the page. Plain JavaScript, no build step.
//
// The server owns the puzzle: it reads boards, draws the empty board (the same layout and
// colours as `rhasp render`), and answers hints, plans, checks and analyses from the position,
// sent as the start board's text plus the moves played (card notation). The page keeps only
// what playing needs: where each vehicle stands, the moves played (for undo, redo and the
// link), and which cells are free, to know how far a vehicle may slide.

"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const game = {
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

// The largest side of a board whose default engine is BFS; a larger board gets A*, as on the
// command line and the server (rhasp/solving.py SMALL_SIDE).
const SMALL_SIDE = 6;
// The engines as the page names them.
const ENGINE_NAMES = {asp: "ASP", astar: "A*", bfs: "BFS"};  // the confirming BFS last

// A count with its noun, singular for one: `1 move`, `2 moves`, `1,000 states` (the server's
// words use rhasp.errors.counted, the same rule).
function counted(number, noun) {
  return `${number.toLocaleString("en")} ${noun}${number === 1 ? "" : "s"}`;
}

// The unit an objective counts in, the noun `counted` takes: "moves" counts a "move".
function unitOf(objective) {
  return objective.replace(/s$/, "");
}

// What proved an answer, as the page names it: an engine, or "static analysis" as it comes.
function proofName(proof) {
  return ENGINE_NAMES[proof] || proof;
}

// --- talking to the server ---------------------------------------------------------------

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function position() {
  return {board: game.start, moves: notation(game.played)};
}

// --- moves in card notation (XR2: X two cells right) ---------------------------------------

function vehicle(label) {
  return game.view.vehicles.find((v) => v.label === label);
}

function cardMove(move) {
  const v = vehicle(move.label);
  const way = v.orientation === "h" ? (move.delta > 0 ? "R" : "L") : (move.delta > 0 ? "D" : "U");
  return `${move.label}${way}${Math.abs(move.delta)}`;
}

function notation(moves) {
  return moves.map(cardMove).join(" ");
}

// --- the board's cells ---------------------------------------------------------------------
//
// The rules a drag needs (how far a vehicle may slide, when a target leaves) are the only ones
// the page keeps; a browser test checks them against the Python model on random boards. A
// link's moves are checked by the server (/api/board), never replayed unchecked.

function cells(v, at) {
  const list = [];
  for (let i = 0; i < v.length; i++) {
    list.push(v.orientation === "h" ? [v.line, at + i] : [at + i, v.line]);
  }
  return list;
}

function occupied(at, except) {
  const taken = new Set(game.view.walls.map(([r, c]) => `${r},${c}`));
  for (const v of game.view.vehicles) {
    if (v.label !== except && at[v.label] !== null) {
      for (const [r, c] of cells(v, at[v.label])) taken.add(`${r},${c}`);
    }
  }
  return taken;
}

function lineLength(v) {
  return v.orientation === "h" ? game.view.width : game.view.height;
}

// How far vehicle v may go from where it stands: [lowest, highest] position.
function reach(v, at) {
  const taken = occupied(at, v.label);
  const free = (p) => cells(v, p).every(([r, c]) => !taken.has(`${r},${c}`));
  let low = at[v.label], high = at[v.label];
  while (low - 1 >= 0 && free(low - 1)) low--;
  while (high + 1 + v.length <= lineLength(v) && free(high + 1)) high++;
  return [low, high];
}

function exitSide(label) {
  const exit = game.view.exits.find((e) => e.label === label);
  return exit ? exit.side : null;
}

// A target that reaches its exit edge leaves at once.
function leaves(v, p) {
  const side = exitSide(v.label);
  if (side === "left" || side === "top") return p === 0;
  if (side === "right" || side === "bottom") return p + v.length === lineLength(v);
  return false;
}

function after(at, move) {
  const v = vehicle(move.label);
  const p = at[move.label] + move.delta;
  return {...at, [move.label]: leaves(v, p) ? null : p};
}

function startPositions() {
  const at = {};
  for (const v of game.view.vehicles) at[v.label] = leaves(v, v.position) ? null : v.position;
  return at;
}

function solved(at) {
  return game.view.exits.every((e) => at[e.label] === null);
}

// --- drawing ---------------------------------------------------------------------------------

function drawBoard() {
  const view = game.view;
  const board = $("board");
  const picture = new DOMParser().parseFromString(view.picture, "image/svg+xml").documentElement;
  board.setAttribute("viewBox", picture.getAttribute("viewBox"));
  board.replaceChildren(...[...picture.childNodes].map((node) => document.importNode(node, true)));
  for (const v of view.vehicles) {
    const group = document.createElementNS(SVG, "g");
    group.classList.add("vehicle");
    group.dataset.label = v.label;
    group.setAttribute("tabindex", "0");
    group.setAttribute("role", "button");
    group.setAttribute("aria-label", `${v.target ? "target " : ""}${v.label}`);
    const body = document.createElementNS(SVG, "rect");
    body.classList.add("body");
    for (const [key, value] of Object.entries({x: v.box.x, y: v.box.y, width: v.box.width,
      height: v.box.height, rx: v.box.radius, fill: v.box.fill})) body.setAttribute(key, value);
    const label = document.createElementNS(SVG, "text");
    for (const [key, value] of Object.entries({x: v.box.x + v.box.width / 2,
      y: v.box.y + v.box.height / 2, fill: v.text.fill, "font-size": v.text.size,
      "text-anchor": "middle", "dominant-baseline": "central"})) label.setAttribute(key, value);
    label.textContent = v.label;
    group.append(body, label);
    board.append(group);
    group.addEventListener("pointerdown", (event) => startDrag(event, v, group));
    group.addEventListener("keydown", (event) => keyMove(event, v));
    group.addEventListener("focus", () => select(v.label));
  }
}

function place(at, offsets = {}) {
  for (const group of $("board").querySelectorAll(".vehicle")) {
    const v = vehicle(group.dataset.label);
    const gone = at[v.label] === null;
    group.classList.toggle("gone", gone);
    const cells = (gone ? exitPosition(v) : at[v.label]) - v.position + (offsets[v.label] || 0);
    const shift = cells * game.view.cell;
    group.setAttribute("transform", v.orientation === "h" ? `translate(${shift},0)` : `translate(0,${shift})`);
  }
}

function exitPosition(v) {
  const side = exitSide(v.label);
  return side === "left" || side === "top" ? -v.length : lineLength(v);
}

function select(label) {
  for (const group of $("board").querySelectorAll(".vehicle")) {
    group.classList.toggle("selected", group.dataset.label === label);
  }
}

function update() {
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

// --- results belong to the position they describe --------------------------------------------

function describePosition(moves) {
  return moves === 0 ? "the start position" : `the position after ${counted(moves, "move")}`;
}

// A panel's result is for the position it was asked from; once the player moves on, it says so.
function tieToPosition(panel) {
  panel.dataset.at = notation(game.played);
  panel.dataset.moves = game.played.length;
  panel.classList.add("used");
  markStale();
}

function markStale() {
  for (const panel of [$("solve"), $("analyse")]) {
    const note = panel.querySelector(".for-position");
    const stale = panel.dataset.at !== undefined && panel.dataset.at !== notation(game.played);
    panel.classList.toggle("stale", stale);
    note.hidden = !stale;
    note.textContent = stale ? `For ${describePosition(Number(panel.dataset.moves))}, ` +
      `not the one on the board: ask again for this one.` : "";
  }
}

function untie(panel) {
  delete panel.dataset.at;
  delete panel.dataset.moves;
  panel.classList.remove("used");
}

// --- playing ---------------------------------------------------------------------------------

function play(move) {
  if (move.delta === 0 || solved(game.at)) return;
  clearHint();
  game.played.push(move);
  game.undone = [];
  game.at = after(game.at, move);
  status("");
  update();
  if (solved(game.at)) announceWin();
}

function undo() {
  if (!game.played.length) return;
  game.keyed = null;
  game.undone.push(game.played.pop());
  replayAll();
}

function redo() {
  if (!game.undone.length) return;
  game.keyed = null;
  game.played.push(game.undone.pop());
  replayAll();
  if (solved(game.at)) announceWin();
}

function reset() {
  game.played = [];
  game.undone = [];
  game.keyed = null;
  replayAll();
}

function replayAll() {
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

async function announceWin() {
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

function status(text, kind = "") {
  const line = $("status");
  line.textContent = text;
  line.className = kind;
}

// A message of the game (a hint, the win, what went wrong) shown below the board and its
// controls, where a laptop's or a phone's screen can leave it past the bottom edge: the page
// scrolls just enough to show it, and not at all when it is in view.
function tell(text, kind = "") {
  status(text, kind);
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  $("status").scrollIntoView({block: "nearest", behavior: still ? "auto" : "smooth"});
}

// --- hint ------------------------------------------------------------------------------------

async function hint() {
  clearHint();
  tell("Looking for the next move of an optimal plan…");
  const token = game.token, played = game.played.length;
  try {
    const found = await api("/api/hint", position());
    if (token !== game.token || played !== game.played.length || game.showing) return;
    if (found.unsolvable) {
      // Moves are reversible: no way out from here means none from the start either.
      tell("This puzzle has no solution: no sequence of moves gets the target out " +
        `(proven by ${proofName(found.proven_by)}).`);
      return;
    }
    const v = vehicle(found.label);
    const group = $("board").querySelector(`.vehicle[data-label="${found.label}"]`);
    group.classList.add("hinted");
    group.dataset.hint = found.move;
    const ghost = document.createElementNS(SVG, "rect");
    ghost.classList.add("ghost");
    const shift = (game.at[v.label] + found.delta - v.position) * game.view.cell;
    ghost.setAttribute("x", v.box.x + (v.orientation === "h" ? shift : 0));
    ghost.setAttribute("y", v.box.y + (v.orientation === "v" ? shift : 0));
    ghost.setAttribute("width", v.box.width);
    ghost.setAttribute("height", v.box.height);
    ghost.setAttribute("rx", v.box.radius);
    $("board").append(ghost);
    const left = found.moves_left;
    tell(`Hint: ${found.move}. You are ${counted(left, "move")} from the exit ` +
      `(proven by ${proofName(found.proven_by)}).`);
    $("status").dataset.hint = found.move;
  } catch (error) {
    tell(error.message);
  }
}

function clearHint() {
  for (const group of $("board").querySelectorAll(".hinted")) {
    group.classList.remove("hinted");
    delete group.dataset.hint;
  }
  for (const ghost of $("board").querySelectorAll(".ghost")) ghost.remove();
  if ($("status").dataset.hint) status("");  // the hint's words go with its outline
  delete $("status").dataset.hint;
}

// --- solve and show the plan -----------------------------------------------------------------

async function solve() {
  stopShowing();
  const request = {...position(), engine: $("engine").value, objective: $("objective").value};
  const proof = $("proof");
  proof.replaceChildren();
  tieToPosition($("solve"));
  $("solve-summary").textContent = "Solving…";
  $("solve-button").disabled = true;
  const token = game.token;
  try {
    const solution = request.engine === "asp" ? await streamProof(request, token) : await api("/api/solve", request);
    if (token !== game.token || !solution) return;
    showSolution(solution);
  } catch (error) {
    $("solve-summary").textContent = error.message;
    $("solve-summary").className = "error";
  } finally {
    $("solve-button").disabled = false;
  }
}

// The ASP horizon proof as server-sent events: each `horizon` event starts a horizon's solve
// and its `proved` event ends it, with a plan of so many steps or none of that many or fewer.
async function streamProof(request, token) {
  const response = await fetch("/api/solve", {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({...request, stream: true}),
  });
  if (!response.ok) throw new Error((await response.json()).error);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "", solution = null;
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const event = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (token !== game.token) continue;
      if (event.name === "horizon") provingHorizon(event.data);
      else if (event.name === "proved") provedHorizon(event.data, request.objective);
      else if (event.name === "error") throw new Error(event.data.error);
      else if (event.name === "solution") solution = event.data;
    }
  }
  return solution;
}

function parseEvent(text) {
  const event = {name: "message", data: null};
  for (const line of text.split("\n")) {
    if (line.startsWith("event: ")) event.name = line.slice(7);
    else if (line.startsWith("data: ")) event.data = JSON.parse(line.slice(6));
  }
  return event;
}

function provingHorizon(step) {
  const proof = $("proof");
  const item = document.createElement("li");
  item.dataset.horizon = step.horizon;
  item.textContent = `horizon ${step.horizon}: proving… (${step.seconds.toFixed(2)} s, ${counted(step.memo, "board")} in the memo)`;
  proof.append(item);
  proof.scrollTop = proof.scrollHeight;
}

// A horizon's solve ended: the plan it found (plans may end before the horizon, so it may be
// shorter), or none of that many steps or fewer, which proves every horizon below it too.
function provedHorizon(done, objective) {
  const item = $("proof").lastElementChild;
  if (!item) return;
  const unit = unitOf(objective);
  if (done.plan === null) {
    item.className = "unsat";
    const fewer = done.horizon > 0 ? " or fewer" : "";
    item.textContent = `horizon ${done.horizon}: no plan of ${counted(done.horizon, unit)}${fewer} (proven unsatisfiable)`;
  } else {
    item.className = "plan";
    item.textContent = `horizon ${done.horizon}: a plan of ${counted(done.plan, unit)}`;
  }
}

function showSolution(solution) {
  const summary = $("solve-summary");
  summary.className = "";
  summary.replaceChildren();
  const stopped = solution.stopped || {};
  const last = $("proof").lastElementChild;
  if (last && solution.asp && stopped.asp) {
    last.className = "stopped";
    last.textContent = `horizon ${last.dataset.horizon}: stopped (${stopped.asp})`;
  } else if (last && solution.asp && solution.solved) {
    // The proof's end: the shortest plan found, and no plan of one step fewer.
    const unit = unitOf(solution.objective);
    const item = document.createElement("li");
    item.className = "sat";
    const length = solution.asp.horizon;
    item.textContent = `optimal: ${counted(length, unit)}` +
      (length > 0 ? ` (a plan of ${length}, none of ${length - 1} or fewer)` : "");
    $("proof").append(item);
  }
  if (!solution.solved) {
    // Static analysis says why, cell by cell, as rhasp solve does.
    summary.textContent = solution.static ?
      `No plan: proven by static analysis: ${solution.static}.` :
      `No plan: proven by ${solution.proven_by.join(" and ").toUpperCase()}.`;
    return;
  }
  const proofs = solution.proven_by.map((p) => (p === "asp" ? "ASP horizon proof" : proofName(p)));
  const others = Object.entries(stopped).map(([name, why]) => `; ${stoppedWords(name, why)}`);
  const found = `${counted(solution.moves, "move")}, ${counted(solution.slides, "slide")}: fewest ` +
    `${solution.objective}, optimal (proven by ${proofs.join(", confirmed by ")}${others.join("")}) · ` +
    `${solution.seconds.toFixed(2)} s${searched(solution)}`;
  const atoms = solution.asp && !stopped.asp ? solution.asp.move_atoms : null;
  $("atoms-box").hidden = !atoms;
  $("atoms").textContent = atoms ? atoms.join("\n") : "";
  if (!stopped.asp) {
    summary.textContent = found;
    showPlan(solution.steps);
    return;
  }
  // The ASP proof stopped short; the horizons it proved stay listed above. BFS has proven
  // the optimum: one click shows its plan.
  summary.textContent = `The ASP proof stopped: ${stopped.asp}. BFS has proven the optimum: ` +
    `${counted(solution.length, unitOf(solution.objective))}. `;
  const token = game.token, played = game.played.length;
  const show = document.createElement("button");
  show.type = "button";
  show.id = "show-bfs-plan";
  show.textContent = "Show the BFS plan";
  show.addEventListener("click", () => {
    if (token !== game.token || played !== game.played.length) return;  // another position now
    summary.textContent = found;
    showPlan(solution.steps);
  });
  summary.append(show);
}

// `ASP stopped: timed out at horizon 76`; a BFS stopped at its share of confirming A* says so
// itself (`BFS stopped at 1,000,043 states, its share`), as rhasp solve prints it.
function stoppedWords(name, why) {
  const engine = ENGINE_NAMES[name] || name;
  return why.startsWith("stopped ") ? `${engine} ${why}` : `${engine} stopped: ${why}`;
}

// ` (A* 7,925 states, 0.08 s; BFS 1,000,043 states, 3.31 s)`: each search's states and
// seconds, when one engine was confirmed by another; else nothing.
function searched(solution) {
  const searches = Object.keys(ENGINE_NAMES).filter((name) => solution[name] && solution[name].seconds !== undefined);
  if (searches.length < 2) return "";
  const parts = searches.map((name) => {
    const figures = solution[name];
    const engine = ENGINE_NAMES[name];
    const states = figures.explored == null ? "" : `${counted(figures.explored, "state")}, `;
    return `${engine} ${states}${figures.seconds.toFixed(2)} s`;
  });
  return ` (${parts.join("; ")})`;
}

function showPlan(steps) {
  const base = game.at;
  game.showing = {steps, base, frames: [], index: 0, timer: null};
  buildFrames();
  $("animation").hidden = false;
  $("board").classList.add("showing");
  const list = $("plan");
  list.replaceChildren(...steps.map((step, n) => {
    const item = document.createElement("li");
    item.textContent = `${n + 1}. ${cardMove(step)}`;
    return item;
  }));
  clearHint();
  showFrame(0);
  update();
}

// One frame a move, or one a slide (a cell).
function buildFrames() {
  const show = game.showing;
  const bySlides = $("unit").value === "slides";
  const frames = [{at: show.base, move: 0}];
  let at = show.base;
  show.steps.forEach((step, n) => {
    const sign = Math.sign(step.delta);
    const parts = bySlides ? Array(Math.abs(step.delta)).fill({label: step.label, delta: sign}) : [step];
    for (const part of parts) {
      at = after(at, part);
      frames.push({at, move: n + 1});
    }
  });
  show.frames = frames;
}

function showFrame(index) {
  const show = game.showing;
  show.index = Math.max(0, Math.min(show.frames.length - 1, index));
  const frame = show.frames[show.index];
  place(frame.at);
  const unit = $("unit").value === "slides" ? "slide" : "move";
  $("frame").textContent = `${unit} ${show.index} of ${show.frames.length - 1}` +
    (solved(frame.at) ? " · the target is out" : "");
  [...$("plan").children].forEach((item, n) => item.classList.toggle("current", n + 1 === frame.move));
  const mover = frame.move ? show.steps[frame.move - 1].label : null;
  for (const group of $("board").querySelectorAll(".vehicle")) {
    group.classList.toggle("moving", group.dataset.label === mover);
  }
  $("back").disabled = $("first").disabled = show.index === 0;
  $("forward").disabled = show.index === show.frames.length - 1;
}

function togglePlaying() {
  const show = game.showing;
  if (show.timer) {
    pausePlaying();
    return;
  }
  if (show.index === show.frames.length - 1) showFrame(0);
  $("play-plan").textContent = "Pause";
  boardIntoView();
  const delay = $("unit").value === "slides" ? 350 : 700;
  show.timer = setInterval(() => {
    if (show.index >= show.frames.length - 1) pausePlaying();
    else showFrame(show.index + 1);
  }, delay);
}

// On a narrow screen the board sits far above the plan's controls, which then stay at the
// bottom of the screen (style.css): bring the board up so that both are seen while it plays.
function boardIntoView() {
  if (!window.matchMedia("(max-width: 760px)").matches) return;
  const top = $("board").getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight / 3) $("title").scrollIntoView({ block: "start" });
}

function pausePlaying() {
  if (game.showing && game.showing.timer) clearInterval(game.showing.timer);
  if (game.showing) game.showing.timer = null;
  $("play-plan").textContent = "Play";
}

function stopShowing() {
  pausePlaying();
  game.showing = null;
  for (const group of $("board").querySelectorAll(".moving")) group.classList.remove("moving");
  $("animation").hidden = true;
  $("board").classList.remove("showing");
  if (game.view) update();
}

// --- analyse ---------------------------------------------------------------------------------

async function analyse() {
  const figures = $("figures");
  figures.replaceChildren(entry("analysing", "…"));
  tieToPosition($("analyse"));
  $("profile").toggleAttribute("hidden", true);  // an svg element has no .hidden
  const token = game.token;
  try {
    const record = await api("/api/analyze", position());
    if (token !== game.token) return;
    if (record.proof) {  // too large to analyse, proven unsolvable by static analysis
      figures.replaceChildren(
        entry("fewest moves", `no plan (proven by static analysis: ${record.proof})`),
        entry("cluster", record.stopped),
      );
      return;
    }
    figures.replaceChildren(
      entry("cluster", `${counted(record.cluster.states, "state")}, ${counted(record.cluster.edges, "move")} between them`),
      entry("fewest moves", record.minimal_moves === null ? "no plan" : `${record.minimal_moves} (proven by BFS)`),
      entry("fewest slides", record.minimal_slides === null ? "no plan" : `${record.minimal_slides} (proven by BFS)`),
      entry("goal states", record.goal_states.toLocaleString("en")),
      entry("hardest states", record.hardest.distance === null ? "–" : `${record.hardest.states.length} at ${counted(record.hardest.distance, "move")}`),
    );
    drawProfile(record.distance_profile, record.minimal_moves);
  } catch (error) {
    figures.replaceChildren(entry("error", error.message));
    figures.lastElementChild.className = "error";
  }
}

function entry(term, text) {
  const fragment = document.createDocumentFragment();
  const dt = document.createElement("dt");
  const dd = document.createElement("dd");
  dt.textContent = term;
  dd.textContent = text;
  fragment.append(dt, dd);
  return fragment;
}

// The distance profile: how many states of the cluster lie at each distance from the exit;
// the position's own distance is red.
function drawProfile(profile, here) {
  const chart = $("profile");
  const distances = Object.keys(profile).map(Number).sort((a, b) => a - b);
  if (!distances.length) {
    chart.toggleAttribute("hidden", true);
    return;
  }
  const width = 380, height = 220, left = 58, bottom = 34, top = 26;  // labels of 14 px at 380
  const most = Math.max(...Object.values(profile));
  const slot = (width - left - 8) / (distances[distances.length - 1] + 1);
  const parts = [
    `<text x="${left - 6}" y="${top + 4}" text-anchor="end" font-size="14">${most.toLocaleString("en")}</text>`,
    `<text x="${left - 6}" y="${height - bottom}" text-anchor="end" font-size="14">0</text>`,
    `<line x1="${left}" y1="${height - bottom}" x2="${width - 4}" y2="${height - bottom}" stroke="#6c584c"/>`,
    `<text x="${(width + left) / 2}" y="${height - 4}" text-anchor="middle" font-size="14">moves from the exit</text>`,
    `<text transform="translate(14 ${(height - bottom + top) / 2}) rotate(-90)" text-anchor="middle" font-size="14">states</text>`,
  ];
  if (here !== null && here !== undefined && profile[here]) {
    parts.push(`<g class="legend"><rect x="${width - 210}" y="4" width="12" height="12" fill="#d62828"/>` +
      `<text x="${width - 193}" y="15" font-size="14">this position (${counted(here, "move")})</text></g>`);
  }
  for (const d of distances) {
    const h = (profile[d] / most) * (height - bottom - top);
    const x = left + d * slot + 1;
    const fill = d === here ? "#d62828" : "#8ecae6";
    parts.push(`<rect class="bar" x="${x}" y="${height - bottom - h}" width="${Math.max(1, slot - 2)}" height="${h}" fill="${fill}"><title>${counted(d, "move")}: ${counted(profile[d], "state")}</title></rect>`);
    if (d % 5 === 0) parts.push(`<text x="${x + slot / 2}" y="${height - bottom + 16}" text-anchor="middle" font-size="13">${d}</text>`);
  }
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  chart.innerHTML = parts.join("");
  chart.toggleAttribute("hidden", false);
}

// --- picking a puzzle ------------------------------------------------------------------------

// Load a board (and the moves a link played from it, checked by the server); false, with the
// error shown at errorAt, when the board cannot be read.
async function load(text, {moves = "", title = null, errorAt = $("input-error")} = {}) {
  errorAt.textContent = "";
  let view, played = [];
  try {
    view = await api("/api/board", {board: text});
  } catch (error) {
    errorAt.textContent = error.message;
    return false;
  }
  if (moves.trim()) {
    try {
      played = (await api("/api/board", {board: text, moves})).played;
    } catch (error) {
      errorAt.textContent = `The link's moves: ${error.message}; the start is shown instead.`;
    }
  }
  stopShowing();
  game.token++;
  game.view = view;
  game.start = view.link;
  if (!game.engineChosen) {
    const large = view.width > SMALL_SIDE || view.height > SMALL_SIDE;
    $("engine").value = large ? "astar" : "bfs";
  }
  game.undone = [];
  game.keyed = null;
  game.played = played.map(({label, delta}) => ({label, delta}));
  $("proof").replaceChildren();
  $("solve-summary").textContent = "";
  $("figures").replaceChildren();
  $("profile").toggleAttribute("hidden", true);  // an svg element has no .hidden
  untie($("solve"));
  untie($("analyse"));
  drawBoard();
  replayAll();
  const card = [...$("card").options].find((option) => option.dataset.board === game.start);
  $("card").value = card ? card.value : "";
  $("title").textContent = card ? `Card ${card.value.replace(/^card0?/, "")} · ${card.dataset.level}`
    : title || (view.name === "puzzle" ? "Your board" : view.name);
  // A board the player gave says how it was read (the target and its exit at least), so
  // that a reading other than the one meant shows at once; a card's is known.
  $("read").textContent = view.read ? `Read as: ${view.read}.` : "";
  $("read").hidden = Boolean(card) || !view.read;
  if (solved(game.at)) announceWin();
  return true;
}

async function pickCards() {
  const cards = await api("/api/puzzles");
  const select = $("card");
  const none = new Option("(another board)", "");
  none.disabled = true;
  select.append(none, ...cards.map((card, n) => {
    const option = new Option(`${n + 1} · ${card.level} · ${counted(card.moves, "move")}`, card.name);
    option.dataset.board = card.board;
    option.dataset.level = card.level;
    return option;
  }));
  return cards;
}

async function generate() {
  const field = $("min-moves"), button = $("generate");
  if (!field.checkValidity() || field.value === "") {
    // The field's limits are the server's (a test holds them equal): say them in words.
    $("input-error").textContent = `A new puzzle takes a whole number of moves from ${field.min} ` +
      `to ${field.max}: random boards seldom need more (the puzzle database holds harder ones).`;
    return;
  }
  button.disabled = true;
  $("input-error").textContent = "";
  status("Generating a puzzle…");
  try {
    const size = Number($("generate-size").value);
    const made = await api("/api/generate", {min_moves: Number(field.value), size});
    await load(made.board, {title: `New puzzle · ${counted(made.moves, "move")}`});
    const proof = made.proven_by === "bfs"
      ? `proven by BFS over its whole cluster of ${counted(made.cluster, "position")}`
      : "proven by A*";
    status(`A new puzzle: its minimum is ${counted(made.moves, "move")} (${proof}).`);
  } catch (error) {
    $("input-error").textContent = error.message;
    status("");
  } finally {
    button.disabled = false;
  }
}

// What four requests in five reach in the server's time on each size (bench/generate_page.py: the
// option's data-typical), said beside the field so that a larger board is asked for less.
function sayTypicalDepth() {
  const chosen = $("generate-size").selectedOptions[0];
  $("generate-typical").textContent =
    `(${chosen.text}: typically up to ${counted(Number(chosen.dataset.typical), "move")} in the server's time)`;
}

async function offerDatabase() {
  let database;
  try {
    database = await api("/api/database");
  } catch {
    return;  // the server has none (404): the control stays hidden
  }
  $("database-name").textContent = database.name;
  $("database-moves").replaceChildren(...Object.entries(database.counts).map(([moves, count]) =>
    new Option(`${counted(Number(moves), "move")} (${counted(Number(count), "puzzle")})`, moves)));
  $("database-moves").value = Object.keys(database.counts).at(-1);  // the hardest
  $("database").hidden = false;
  $("pick-database").addEventListener("click", pickFromDatabase);
}

async function pickFromDatabase() {
  $("input-error").textContent = "";
  try {
    const picked = await api("/api/database", {moves: Number($("database-moves").value)});
    const name = $("database-name").textContent, moves = counted(picked.moves, "move");
    await load(picked.board, {title: `${name}, line ${picked.line.toLocaleString("en")} · ${moves}`});
    const cluster = picked.cluster === null ? "" : `; its cluster has ${counted(picked.cluster, "state")}`;
    status(`Puzzle ${picked.number.toLocaleString("en")} of ${picked.of.toLocaleString("en")} ` +
           `with ${moves} (line ${picked.line.toLocaleString("en")} of ${name}${cluster}).`);
  } catch (error) {
    $("input-error").textContent = error.message;
  }
}

async function main() {
  const cards = await pickCards();
  offerDatabase();
  const query = new URLSearchParams(location.search);
  const loaded = query.has("board") && await load(query.get("board"), {moves: query.get("moves") || ""});
  if (!loaded) {
    const broken = $("input-error").textContent;
    await load(cards[0].board);
    if (broken) $("input-error").textContent = `The link's board: ${broken}; card 1 is shown instead.`;
  }
  $("card").addEventListener("change", () => {
    const option = $("card").selectedOptions[0];
    if (option && option.dataset.board) load(option.dataset.board);
  });
  $("generate").addEventListener("click", generate);
  $("generate-size").addEventListener("change", sayTypicalDepth);
  sayTypicalDepth();
  $("load").addEventListener("click", () => load($("paste").value));
  $("upload").addEventListener("change", async () => {
    const file = $("upload").files[0];
    if (file) {
      $("paste").value = await file.text();
      load($("paste").value);
    }
  });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("reset").addEventListener("click", reset);
  $("hint").addEventListener("click", hint);
  $("solve-button").addEventListener("click", solve);
  $("engine").addEventListener("change", () => { game.engineChosen = true; });
  $("first").addEventListener("click", () => { pausePlaying(); showFrame(0); });
  $("back").addEventListener("click", () => { pausePlaying(); showFrame(game.showing.index - 1); });
  $("forward").addEventListener("click", () => { pausePlaying(); showFrame(game.showing.index + 1); });
  $("play-plan").addEventListener("click", togglePlaying);
  $("leave").addEventListener("click", stopShowing);
  $("unit").addEventListener("change", () => {
    pausePlaying();
    const move = game.showing.frames[game.showing.index].move;
    buildFrames();
    showFrame(game.showing.frames.findIndex((frame) => frame.move === move));
  });
  $("analyse-button").addEventListener("click", analyse);
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("textarea, input, select")) return;
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && key === "z" && !game.showing) { event.preventDefault(); undo(); }
    if ((event.ctrlKey || event.metaKey) && key === "y" && !game.showing) { event.preventDefault(); redo(); }
  });
  document.body.dataset.ready = "true";
}

main().catch((error) => status(`The page could not start: ${error.message}`));
