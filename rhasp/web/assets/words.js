// The page's own words for what it counts and names: the moves played, the horizons of a
// proof as they stream, the figures of an analysis. An answer's own words (a solution's) come
// from the server, and the page shows them as they are.

// The engines as the page names them.
export const ENGINE_NAMES = {asp: "ASP", astar: "A*", bfs: "BFS"};  // the confirming BFS last

// A count with its noun, singular for one: `1 move`, `2 moves`, `1,000 states` (the server's
// words use rhasp.errors.counted, the same rule).
export function counted(number, noun) {
  return `${number.toLocaleString("en")} ${noun}${number === 1 ? "" : "s"}`;
}

// The unit an objective counts in, the noun `counted` takes: "moves" counts a "move".
export function unitOf(objective) {
  return objective.replace(/s$/, "");
}

// What proved an answer, as the page names it: an engine, or "static analysis" as it comes.
export function proofName(proof) {
  return ENGINE_NAMES[proof] || proof;
}
