// Replay: open a game log (upload it, or pick one the server lists), then
// step and scrub through it. The server replays the log once
// (POST /api/replay) and sends every step with the table after it, so the
// slider moves without asking again. A log is written for both players, so
// the replay shows the whole game; it can be watched from one side's chair
// too (`view`), the table and the narration as that player had them, and
// only the choices that player saw made (the server folds the other side's
// secret ones, a pass in a reaction window, into the step before).
// Each step is drawn as Play's table (table.js): track, board, momentum
// cards, piles, the cards on the table and the hands, as cards.

import { api, game as gameInfo, h, code } from "/studio/api.js";
import { glide, snapshot, timing } from "/studio/motion.js";
import { ensureCss, readFile } from "/studio/pages.js";
import { NARROW, SIDE, Targets, asideRow, drawTable, fitAside, key, dropZooms } from "/studio/table.js";

// The shown replay's listeners: its keys, and its redraw when the window
// crosses into or out of the narrow layout (a tablet turned, a window
// resized): the track is drawn as a ladder there (table.js), so the step
// is drawn again, as Play does. Within a layout, a window grown or shrunk
// fits the column beside the board again (`refitHandler`), as Play and
// Puzzles do: fitted only when a step was drawn, a replay opened in a
// large window and then shrunk left that column scrolling, its momentum
// cards and piles out of view.
let keyHandler = null;
let layoutHandler = null;
let refitHandler = null;
let frame = 0;
const narrowQuery = window.matchMedia ? window.matchMedia(NARROW) : null;
function dropKeys() {
  if (keyHandler) document.removeEventListener("keydown", keyHandler);
  keyHandler = null;
  if (layoutHandler && narrowQuery) narrowQuery.removeEventListener("change", layoutHandler);
  layoutHandler = null;
  if (refitHandler) window.removeEventListener("resize", refitHandler);
  refitHandler = null;
  cancelAnimationFrame(frame);
}

export async function mount(el) {
  ensureCss();
  dropKeys();
  document.body.classList.remove("at-table");
  const info = await gameInfo();
  const err = h("p", { class: "error", role: "alert", id: "replay-error" });
  const file = h("input", { type: "file", id: "log-file", accept: ".ron,text/plain" });
  const open = async (body) => {
    err.textContent = "";
    try {
      const rp = await api("/api/replay", { method: "POST", body });
      show(el, info, rp, body, 0);
    } catch (e) {
      err.replaceChildren(...code(e.message));
    }
  };
  file.addEventListener("change", async () => {
    try {
      const f = await readFile(file);
      await open({ text: f.text, name: f.name });
    } catch (e) { err.replaceChildren(...code(e.message)); }
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
    list.append(h("li", { class: "error" }, code(e.message)));
  }
  return () => {
    dropKeys();
    document.body.classList.remove("at-table");
    dropZooms();
  };
}

// The replay `rp` of the log `body` asked for, at step `at`.
function show(el, info, rp, body, at) {
  const n = rp.steps.length - 1;
  const eyes = body.view || "whole";
  const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: n, value: 0, step: 1, "aria-label": "Step" });
  const label = h("span", { class: "step-label", id: "step-label" });
  const choice = h("p", { id: "step-choice" });
  // Whose eyes: the whole table, or one player's; the log is replayed
  // again for them, at the same moment of the game: the step that tells
  // the same choice of the log, or the one whose table follows it (one
  // side's view has fewer steps).
  const view = h("select", { id: "replay-view", "aria-label": "Whose view",
    onchange: async () => {
      view.disabled = true;
      try {
        const again = await api("/api/replay", { method: "POST", body: { ...body, view: view.value } });
        const choice = rp.steps[Number(slider.value)].index;
        show(el, info, again, { ...body, view: view.value }, Math.max(0, again.steps.findLastIndex((s) => s.index <= choice)));
      } catch (e) {
        choice.replaceChildren(...code(e.message));
        view.disabled = false;
      }
    } },
  h("option", { value: "whole", selected: eyes === "whole" }, "The whole table"),
  h("option", { value: "editor", selected: eyes === "editor" }, "The Editor's view"),
  h("option", { value: "nixon", selected: eyes === "nixon" }, "Nixon's view"));
  // An entry opens the step it narrates: its place in this list (in one
  // side's view the other side's secret choices are no steps, so a step's
  // place is not the log's choice number, `data-choice`).
  const items = rp.steps.map((s, i) => {
    // Reached by Tab and opened by Enter or Space too, as a button is.
    const li = h("li", { "data-step": i, "data-choice": s.index, tabindex: "0" },
      s.actor ? [h("span", { class: "who" }, `${s.actor}: `), `${s.notation} — ${s.text}`] : h("span", { class: "who" }, "The deal"),
      s.narration.length ? h("ul", {}, s.narration.map((l) => h("li", {}, l))) : null);
    li.addEventListener("click", () => go(i));
    li.addEventListener("keydown", (e) => {
      if (e.target !== li || (e.key !== "Enter" && e.key !== " ")) return;
      e.preventDefault();
      go(i);
    });
    return li;
  });
  const narration = h("ol", { id: "replay-narration", start: 0 }, ...items);
  const facts = h("span", { class: "facts" });
  const outcome = h("div", { id: "replay-outcome" });
  const btn = (id, text, f) => h("button", { id, onclick: f }, text);
  const controls = h("section", { class: "panel replay-controls" },
    h("p", {}, `${rp.start}; Editor: ${rp.players.editor}, Nixon: ${rp.players.nixon}; ${rp.choices} choices; the log records: ${rp.recorded}.`),
    h("p", { class: "notice" }, eyes === "whole"
      ? "The whole game is shown (logs are written for both players): face-down tokens and both hands."
      : `${SIDE[eyes][0].toUpperCase()}${SIDE[eyes].slice(1)}'s view: the table, the narration and the choices as ${eyes === "editor" ? "she" : "he"} saw them.`),
    rp.warning ? h("p", { class: "error" }, rp.warning) : null,
    rp.problem ? h("div", { class: "error", id: "replay-problem" },
      h("p", {}, `${rp.problem.path}${rp.problem.line ? `:${rp.problem.line}:${rp.problem.col}` : ""}: `, code(rp.problem.message)),
      rp.problem.source_line ? h("pre", {}, rp.problem.source_line) : null) : null,
    h("div", { class: "scrub" },
      btn("first", "« first", () => go(0)), btn("prev", "◀", () => go(Number(slider.value) - 1)),
      slider,
      btn("next", "▶", () => go(Number(slider.value) + 1)), btn("last", "last »", () => go(n)),
      label),
    choice,
    outcome,
    h("button", { id: "other-log", onclick: () => mount(el) }, "Open another log"));
  const area = h("div", { class: "table-area" });
  let hand = h("div", { class: "replay-hand" });
  const root = h("div", { class: "play table replay-table", id: "replay-table" },
    h("div", { class: "bar" }, h("h1", {}, `Replay: ${rp.name}`), facts, h("label", {}, "Show ", view)),
    area,
    h("div", { class: "side" }, controls, hand,
      h("section", { class: "panel narration" }, h("h2", {}, "Narration"), narration)));
  // Nothing is chosen on a replayed table: no options, nothing to click.
  const none = new Targets([], () => {});
  let shown = null;
  const go = (k) => {
    k = Math.max(0, Math.min(n, k));
    // One step on: what moved glides there, as Play plays a move back (at
    // the player's speed; not under reduced motion). A jump is drawn at once.
    const before = shown !== null && Math.abs(k - shown) === 1 ? snapshot(root) : null;
    shown = k;
    slider.value = k;
    const s = rp.steps[k];
    const t = s.table;
    label.textContent = `Step ${k} of ${n}`;
    choice.textContent = s.actor ? `${s.actor}: ${s.notation} — ${s.text}` : "The start of the game, after the deal.";
    dropZooms();
    const other = key(t.seat) === "editor" ? "nixon" : "editor";
    const d = drawTable(info, t, { tg: none, pick: () => {}, you: false,
      shown: t.hands ? t.hands[other] : null, shownLabel: t.hands ? "shown: the whole game" : "" });
    d.board.id = "replay-board";
    area.replaceChildren(d.track, h("div", { class: "table-middle" }, d.board,
      h("div", { class: "table-aside" }, asideRow(d.inPlay, d.otherHand), d.momentum, d.piles)));
    if (root.isConnected) fitAside(root);
    // The hand takes its place in the column; a step's table replaces it.
    hand.replaceWith(d.hand);
    hand = d.hand;
    facts.replaceChildren(h("span", {}, `Round ${t.round}`), h("span", {}, t.phase), h("span", {}, `${t.initiative} holds the initiative`));
    outcome.replaceChildren(t.outcome ? h("p", { id: "outcome", class: `outcome ${key(t.outcome.winner)}` }, t.outcome.text) : "");
    items.forEach((li, i) => {
      li.classList.toggle("current", i === k);
      if (i === k) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    });
    // Within the narration's own box: the page does not scroll.
    const b = narration.getBoundingClientRect(), r = items[k].getBoundingClientRect();
    if (r.top < b.top || r.bottom > b.bottom) narration.scrollTop += r.top - b.top - b.height / 3;
    if (before) glide(root, before, timing().glide);
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  const keys = (e) => {
    // The slider steps by itself (its own arrow keys); a text box or the
    // view's list keeps its keys.
    if (e.target.tagName === "INPUT") return;
    if (e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") go(Number(slider.value) + 1);
    if (e.key === "ArrowLeft") go(Number(slider.value) - 1);
  };
  document.body.classList.add("at-table");
  el.replaceChildren(root);
  dropKeys();
  keyHandler = keys;
  document.addEventListener("keydown", keys);
  layoutHandler = () => { if (root.isConnected && shown !== null) go(shown); };
  if (narrowQuery) narrowQuery.addEventListener("change", layoutHandler);
  // Once a frame at most while the window is dragged. The side column
  // needs no fitting of its own: fitSide keeps an option list in view, and
  // a replay has none.
  refitHandler = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => { if (root.isConnected) fitAside(root); });
  };
  window.addEventListener("resize", refitHandler);
  go(at);
}
