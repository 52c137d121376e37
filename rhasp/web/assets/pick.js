// Picking a puzzle: a card, a new puzzle, one of the database's, a pasted or uploaded board,
// or a link's.

import {$, game, status} from "./state.js";
import {api} from "./api.js";
import {drawBoard} from "./board.js";
import {untie} from "./panels.js";
import {stopShowing} from "./plan.js";
import {announceWin, listen, replayAll} from "./play.js";
import {solved} from "./rules.js";
import {counted} from "./words.js";

// The largest side of a board whose default engine is BFS; a larger board gets A*, as on the
// command line and the server (rhasp/solving.py SMALL_SIDE).
const SMALL_SIDE = 6;

// Load a board (and the moves a link played from it, checked by the server); false, with the
// error shown at errorAt, when the board cannot be read.
export async function load(text, {moves = "", title = null, errorAt = $("input-error")} = {}) {
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
  drawBoard(listen);
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

export async function pickCards() {
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

export async function generate() {
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
export function sayTypicalDepth() {
  const chosen = $("generate-size").selectedOptions[0];
  $("generate-typical").textContent =
    `(${chosen.text}: typically up to ${counted(Number(chosen.dataset.typical), "move")} in the server's time)`;
}

export async function offerDatabase() {
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

export async function pickFromDatabase() {
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
