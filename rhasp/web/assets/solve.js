// Solving from the position: the plan and its proof, the ASP proof streamed horizon by
// horizon; the solution's words are the server's.

import {$, game} from "./state.js";
import {api, position} from "./api.js";
import {tieToPosition} from "./panels.js";
import {showPlan, stopShowing} from "./plan.js";
import {counted, unitOf} from "./words.js";

export async function solve() {
  stopShowing();
  const request = {...position(), engine: $("engine").value, objective: $("objective").value};
  const proof = $("proof");
  proof.replaceChildren();
  tieToPosition($("solve"));
  $("solve-summary").textContent = "Solving…";
  $("solve-button").disabled = true;
  const token = game.token;
  try {
    const solution = request.engine === "asp" ? await streamProof(request, token) : await api("/api/solve", request);
    if (token !== game.token || !solution) return;
    showSolution(solution);
  } catch (error) {
    $("solve-summary").textContent = error.message;
    $("solve-summary").className = "error";
  } finally {
    $("solve-button").disabled = false;
  }
}

// The ASP horizon proof as server-sent events: each `horizon` event starts a horizon's solve
// and its `proved` event ends it, with a plan of so many steps or none of that many or fewer.
async function streamProof(request, token) {
  const response = await fetch("/api/solve", {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({...request, stream: true}),
  });
  if (!response.ok) throw new Error((await response.json()).error);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "", solution = null;
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const event = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (token !== game.token) continue;
      if (event.name === "horizon") provingHorizon(event.data);
      else if (event.name === "proved") provedHorizon(event.data, request.objective);
      else if (event.name === "error") throw new Error(event.data.error);
      else if (event.name === "solution") solution = event.data;
    }
  }
  return solution;
}

function parseEvent(text) {
  const event = {name: "message", data: null};
  for (const line of text.split("\n")) {
    if (line.startsWith("event: ")) event.name = line.slice(7);
    else if (line.startsWith("data: ")) event.data = JSON.parse(line.slice(6));
  }
  return event;
}

function provingHorizon(step) {
  const proof = $("proof");
  const item = document.createElement("li");
  item.dataset.horizon = step.horizon;
  item.textContent = `horizon ${step.horizon}: proving… (${step.seconds.toFixed(2)} s, ${counted(step.memo, "board")} in the memo)`;
  proof.append(item);
  proof.scrollTop = proof.scrollHeight;
}

// A horizon's solve ended: the plan it found (plans may end before the horizon, so it may be
// shorter), or none of that many steps or fewer, which proves every horizon below it too.
function provedHorizon(done, objective) {
  const item = $("proof").lastElementChild;
  if (!item) return;
  const unit = unitOf(objective);
  if (done.plan === null) {
    item.className = "unsat";
    const fewer = done.horizon > 0 ? " or fewer" : "";
    item.textContent = `horizon ${done.horizon}: no plan of ${counted(done.horizon, unit)}${fewer} (proven unsatisfiable)`;
  } else {
    item.className = "plan";
    item.textContent = `horizon ${done.horizon}: a plan of ${counted(done.plan, unit)}`;
  }
}

function showSolution(solution) {
  const summary = $("solve-summary");
  summary.className = "";
  summary.replaceChildren();
  const stopped = solution.stopped || {};
  const last = $("proof").lastElementChild;
  if (last && solution.asp && (stopped.asp || solution.limit)) {
    // Stopped short: BFS proved the answer, or a plan came after the limit, not proven
    // minimal (the server's words below say so); never "optimal" here.
    last.className = "stopped";
    last.textContent = `horizon ${last.dataset.horizon}: stopped (${stopped.asp || solution.limit})`;
  } else if (last && solution.asp && solution.optimal) {
    // The proof's end: the shortest plan found, and no plan of one step fewer.
    const unit = unitOf(solution.objective);
    const item = document.createElement("li");
    item.className = "sat";
    const length = solution.asp.horizon;
    item.textContent = `optimal: ${counted(length, unit)}` +
      (length > 0 ? ` (a plan of ${length}, none of ${length - 1} or fewer)` : "");
    $("proof").append(item);
  }
  // The solution in the server's words (what print(solution) shows above the plan), the
  // static proof among them where one says why there is no plan.
  const words = solution.text;
  if (!solution.solved) {
    summary.textContent = words;
    return;
  }
  const atoms = solution.asp && !stopped.asp && !solution.limit ? solution.asp.move_atoms : null;
  $("atoms-box").hidden = !atoms;
  $("atoms").textContent = atoms ? atoms.join("\n") : "";
  if (!stopped.asp) {
    summary.textContent = words;
    showPlan(solution.steps);
    return;
  }
  // The ASP proof stopped short; the horizons it proved stay listed above. BFS has proven
  // the optimum: one click shows its plan.
  summary.textContent = `The ASP proof stopped: ${stopped.asp}.\n${words}\n`;
  const token = game.token, played = game.played.length;
  const show = document.createElement("button");
  show.type = "button";
  show.id = "show-bfs-plan";
  show.textContent = "Show the BFS plan";
  show.addEventListener("click", () => {
    if (token !== game.token || played !== game.played.length) return;  // another position now
    summary.textContent = words;
    showPlan(solution.steps);
  });
  summary.append(show);
}
