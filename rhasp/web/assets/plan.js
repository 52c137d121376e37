// A plan shown on the board: a frame a move or a slide, played, paused or stepped through.

import {$, game} from "./state.js";
import {place} from "./board.js";
import {clearHint} from "./hint.js";
import {update} from "./play.js";
import {after, cardMove, solved} from "./rules.js";

export function showPlan(steps) {
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
export function buildFrames() {
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

export function showFrame(index) {
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

export function togglePlaying() {
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

export function pausePlaying() {
  if (game.showing && game.showing.timer) clearInterval(game.showing.timer);
  if (game.showing) game.showing.timer = null;
  $("play-plan").textContent = "Play";
}

export function stopShowing() {
  pausePlaying();
  game.showing = null;
  for (const group of $("board").querySelectorAll(".moving")) group.classList.remove("moving");
  $("animation").hidden = true;
  $("board").classList.remove("showing");
  if (game.view) update();
}
