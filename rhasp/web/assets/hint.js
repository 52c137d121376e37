// A hint: the next move of an optimal plan, outlined on the board with where it goes.

import {$, SVG, game, status, tell} from "./state.js";
import {api, position} from "./api.js";
import {vehicle} from "./rules.js";
import {counted, proofName} from "./words.js";

export async function hint() {
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

export function clearHint() {
  for (const group of $("board").querySelectorAll(".hinted")) {
    group.classList.remove("hinted");
    delete group.dataset.hint;
  }
  for (const ghost of $("board").querySelectorAll(".ghost")) ghost.remove();
  if ($("status").dataset.hint) status("");  // the hint's words go with its outline
  delete $("status").dataset.hint;
}
