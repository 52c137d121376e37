// Drawing: the server's picture of the empty board, and each vehicle on it where it stands.

import {$, SVG, game} from "./state.js";
import {exitPosition, vehicle} from "./rules.js";

// The board of the game's view; listen(group, v) makes each vehicle playable.
export function drawBoard(listen) {
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
    listen(group, v);
  }
}

export function place(at, offsets = {}) {
  for (const group of $("board").querySelectorAll(".vehicle")) {
    const v = vehicle(group.dataset.label);
    const gone = at[v.label] === null;
    group.classList.toggle("gone", gone);
    const cells = (gone ? exitPosition(v) : at[v.label]) - v.position + (offsets[v.label] || 0);
    const shift = cells * game.view.cell;
    group.setAttribute("transform", v.orientation === "h" ? `translate(${shift},0)` : `translate(0,${shift})`);
  }
}

export function select(label) {
  for (const group of $("board").querySelectorAll(".vehicle")) {
    group.classList.toggle("selected", group.dataset.label === label);
  }
}
