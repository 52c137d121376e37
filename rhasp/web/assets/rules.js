// Moves in card notation (XR2: X two cells right) and the board's cells.

import {game} from "./state.js";

export function vehicle(label) {
  return game.view.vehicles.find((v) => v.label === label);
}

export function cardMove(move) {
  const v = vehicle(move.label);
  const way = v.orientation === "h" ? (move.delta > 0 ? "R" : "L") : (move.delta > 0 ? "D" : "U");
  return `${move.label}${way}${Math.abs(move.delta)}`;
}

export function notation(moves) {
  return moves.map(cardMove).join(" ");
}

// --- the board's cells ---------------------------------------------------------------------
//
// The rules a drag needs (how far a vehicle may slide, when a target leaves) are the only ones
// the page keeps; a browser test checks them against the Python model on random boards. A
// link's moves are checked by the server (/api/board), never replayed unchecked.

export function cells(v, at) {
  const list = [];
  for (let i = 0; i < v.length; i++) {
    list.push(v.orientation === "h" ? [v.line, at + i] : [at + i, v.line]);
  }
  return list;
}

export function occupied(at, except) {
  const taken = new Set(game.view.walls.map(([r, c]) => `${r},${c}`));
  for (const v of game.view.vehicles) {
    if (v.label !== except && at[v.label] !== null) {
      for (const [r, c] of cells(v, at[v.label])) taken.add(`${r},${c}`);
    }
  }
  return taken;
}

export function lineLength(v) {
  return v.orientation === "h" ? game.view.width : game.view.height;
}

// How far vehicle v may go from where it stands: [lowest, highest] position.
export function reach(v, at) {
  const taken = occupied(at, v.label);
  const free = (p) => cells(v, p).every(([r, c]) => !taken.has(`${r},${c}`));
  let low = at[v.label], high = at[v.label];
  while (low - 1 >= 0 && free(low - 1)) low--;
  while (high + 1 + v.length <= lineLength(v) && free(high + 1)) high++;
  return [low, high];
}

export function exitSide(label) {
  const exit = game.view.exits.find((e) => e.label === label);
  return exit ? exit.side : null;
}

// A target that reaches its exit edge leaves at once.
export function leaves(v, p) {
  const side = exitSide(v.label);
  if (side === "left" || side === "top") return p === 0;
  if (side === "right" || side === "bottom") return p + v.length === lineLength(v);
  return false;
}

export function after(at, move) {
  const v = vehicle(move.label);
  const p = at[move.label] + move.delta;
  return {...at, [move.label]: leaves(v, p) ? null : p};
}

export function startPositions() {
  const at = {};
  for (const v of game.view.vehicles) at[v.label] = leaves(v, v.position) ? null : v.position;
  return at;
}

export function solved(at) {
  return game.view.exits.every((e) => at[e.label] === null);
}

export function exitPosition(v) {
  const side = exitSide(v.label);
  return side === "left" || side === "top" ? -v.length : lineLength(v);
}
