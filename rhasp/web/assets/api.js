// Talking to the server: every request sends the position as the start board's text and the
// moves played, in card notation.

import {game} from "./state.js";
import {notation} from "./rules.js";

export async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

export function position() {
  return {board: game.start, moves: notation(game.played)};
}
