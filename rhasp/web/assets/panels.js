// Results belong to the position they describe: once the player moves on, a panel says so.

import {$, game} from "./state.js";
import {notation} from "./rules.js";
import {counted} from "./words.js";

export function describePosition(moves) {
  return moves === 0 ? "the start position" : `the position after ${counted(moves, "move")}`;
}

// A panel's result is for the position it was asked from; once the player moves on, it says so.
export function tieToPosition(panel) {
  panel.dataset.at = notation(game.played);
  panel.dataset.moves = game.played.length;
  panel.classList.add("used");
  markStale();
}

export function markStale() {
  for (const panel of [$("solve"), $("analyse")]) {
    const note = panel.querySelector(".for-position");
    const stale = panel.dataset.at !== undefined && panel.dataset.at !== notation(game.played);
    panel.classList.toggle("stale", stale);
    note.hidden = !stale;
    note.textContent = stale ? `For ${describePosition(Number(panel.dataset.moves))}, ` +
      `not the one on the board: ask again for this one.` : "";
  }
}

export function untie(panel) {
  delete panel.dataset.at;
  delete panel.dataset.moves;
  panel.classList.remove("used");
}
