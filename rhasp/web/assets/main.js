// rhasp serve: the page, as ES modules, no build step. This one starts it.
//
// The server owns the puzzle: it reads boards, draws the empty board (the same layout and
// colours as `rhasp render`), and answers hints, plans, checks and analyses from the position,
// sent as the start board's text plus the moves played (card notation). The page keeps only
// what playing needs: where each vehicle stands, the moves played (for undo, redo and the
// link), and which cells are free, to know how far a vehicle may slide.

import {$, game, status} from "./state.js";
import {analyse} from "./analyse.js";
import {hint} from "./hint.js";
import {generate, load, offerDatabase, pickCards, sayTypicalDepth} from "./pick.js";
import {buildFrames, pausePlaying, showFrame, stopShowing, togglePlaying} from "./plan.js";
import {redo, reset, undo} from "./play.js";
import {solve} from "./solve.js";

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
