// Replay: open a game log (upload it, or pick one the server lists), then
// step and scrub through it. The server replays the log once
// (POST /api/replay) and sends every step with the whole table after it,
// so the slider moves without asking again. A log is written for both
// players, so the replay shows the whole game.

import { api, game as gameInfo, h } from "/studio/api.js";
import { boardSvg, trackSvg } from "/studio/board.js";
import { ensureCss, readFile, tableSide } from "/studio/pages.js";

let keyHandler = null;
function dropKeys() {
  if (keyHandler) document.removeEventListener("keydown", keyHandler);
  keyHandler = null;
}

export async function mount(el) {
  ensureCss();
  dropKeys();
  const info = await gameInfo();
  const err = h("p", { class: "error", role: "alert", id: "replay-error" });
  const file = h("input", { type: "file", id: "log-file", accept: ".ron,text/plain" });
  const open = async (body) => {
    err.textContent = "";
    try {
      const rp = await api("/api/replay", { method: "POST", body });
      show(el, info, rp);
    } catch (e) {
      err.textContent = e.message;
    }
  };
  file.addEventListener("change", async () => {
    try {
      const f = await readFile(file);
      await open({ text: f.text, name: f.name });
    } catch (e) { err.textContent = e.message; }
  });
  const list = h("ul", { id: "log-list" });
  el.replaceChildren(h("section", { class: "replay panel" },
    h("h1", {}, "Replay a game"),
    h("p", { class: "notice" }, "A game log is written for both players, so a replay shows the whole game: face-down tokens, both hands and every draw."),
    h("label", {}, "Open a log file: ", file),
    h("h2", {}, "Logs on this computer"), list, err));
  try {
    const logs = await api("/api/logs");
    if (!logs.length) list.append(h("li", {}, "None found (logs of `watergate play` and the data folder's logs/ appear here)."));
    for (const l of logs) {
      list.append(h("li", {}, h("button", {
        class: "open-log", "data-name": l.name,
        onclick: () => open({ log: { folder: l.folder, name: l.name } }),
      }, l.name), ` (${l.folder === "data" ? "data folder" : "your logs"}, ${Math.ceil(l.bytes / 1024)} KiB)`));
    }
  } catch (e) {
    list.append(h("li", { class: "error" }, e.message));
  }
  return dropKeys;
}

function show(el, info, rp) {
  const n = rp.steps.length - 1;
  const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: n, value: 0, step: 1, "aria-label": "Step" });
  const label = h("span", { class: "step-label", id: "step-label" });
  const choice = h("p", { id: "step-choice" });
  const boardBox = h("div", { id: "replay-board" });
  const sideBox = h("div", {});
  const narration = h("ol", { class: "narration", id: "replay-narration", start: 0 });
  const items = rp.steps.map((s) => {
    const li = h("li", { "data-step": s.index },
      s.actor ? [h("span", { class: "who" }, `${s.actor}: `), `${s.notation} — ${s.text}`] : h("span", { class: "who" }, "The deal"),
      s.narration.length ? h("ul", {}, s.narration.map((l) => h("li", {}, l))) : null);
    li.addEventListener("click", () => go(s.index));
    return li;
  });
  narration.append(...items);
  const go = (k) => {
    k = Math.max(0, Math.min(n, k));
    slider.value = k;
    const s = rp.steps[k];
    label.textContent = `Step ${k} of ${n}`;
    choice.textContent = s.actor ? `${s.actor}: ${s.notation} — ${s.text}` : "The start of the game, after the deal.";
    boardBox.replaceChildren(trackSvg(s.table), boardSvg(info, s.table));
    sideBox.replaceChildren(tableSide(s.table));
    items.forEach((li, i) => li.classList.toggle("current", i === k));
    items[k].scrollIntoView({ block: "nearest" });
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  const btn = (id, text, f) => h("button", { id, onclick: f }, text);
  const keys = (e) => {
    if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowRight") go(Number(slider.value) + 1);
    if (e.key === "ArrowLeft") go(Number(slider.value) - 1);
  };
  el.replaceChildren(h("section", { class: "replay" },
    h("div", { class: "panel" },
      h("h1", {}, `Replay: ${rp.name}`),
      h("p", {}, `${rp.start}; Editor: ${rp.players.editor}, Nixon: ${rp.players.nixon}; ${rp.choices} choices; the log records: ${rp.recorded}.`),
      h("p", { class: "notice" }, "The whole game is shown (logs are written for both players)."),
      rp.warning ? h("p", { class: "error" }, rp.warning) : null,
      rp.problem ? h("div", { class: "error", id: "replay-problem" },
        h("p", {}, `${rp.problem.path}${rp.problem.line ? `:${rp.problem.line}:${rp.problem.col}` : ""}: ${rp.problem.message}`),
        rp.problem.source_line ? h("pre", {}, rp.problem.source_line) : null) : null,
      h("div", { class: "scrub" },
        btn("first", "« first", () => go(0)), btn("prev", "◀", () => go(Number(slider.value) - 1)),
        slider,
        btn("next", "▶", () => go(Number(slider.value) + 1)), btn("last", "last »", () => go(n)),
        label),
      choice,
      h("button", { onclick: () => mount(el) }, "Open another log")),
    h("div", { class: "columns" },
      h("div", { class: "panel" }, boardBox),
      h("div", {}, h("div", { class: "panel" }, sideBox), h("div", { class: "panel" }, h("h2", {}, "Narration"), narration)))));
  dropKeys();
  keyHandler = keys;
  document.addEventListener("keydown", keys);
  go(0);
}
