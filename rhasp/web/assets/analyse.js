// Analysing the position: its cluster's figures and distance profile, as a chart.

import {$, game} from "./state.js";
import {api, position} from "./api.js";
import {tieToPosition} from "./panels.js";
import {counted} from "./words.js";

export async function analyse() {
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
