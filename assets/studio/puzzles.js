// Puzzles: attempt a puzzle of the data folder's scenarios/puzzles, a mined
// one of scenarios/puzzles/mined (graded by difficulty, filtered here), or an
// uploaded scenario, against the solver's best defence. The goal is
// stated; a hint asks the solver; the recorded solution is shown only on
// request. A puzzle is a full-information position: the solver sees the
// whole table, so the page shows it whole. The board is the puzzle's own
// (`game` in the attempt: a puzzle may play on a variant's board).

import { api, game as gameInfo, h } from "/studio/api.js";
import { boardSvg, trackSvg } from "/studio/board.js";
import { ensureCss, readFile, tableSide } from "/studio/pages.js";

export async function mount(el) {
  ensureCss();
  const info = await gameInfo();
  const err = h("p", { class: "error", role: "alert", id: "puzzle-error" });
  const list = h("ul", { class: "puzzle-list", id: "puzzle-list" });
  const file = h("input", { type: "file", id: "puzzle-file", accept: ".ron,text/plain" });
  const begin = async (body) => {
    err.textContent = "";
    const wait = thinking(el, null);
    try {
      const v = await api("/api/puzzles/attempt", { method: "POST", body });
      wait.stop();
      new Attempt(el, info, v).draw();
    } catch (e) {
      wait.stop();
      el.replaceChildren(page);
      err.textContent = e.message;
    }
  };
  file.addEventListener("change", async () => {
    try {
      const f = await readFile(file);
      await begin({ text: f.text, name: f.name });
    } catch (e) { err.textContent = e.message; }
  });
  // The hand-made puzzles, or the mined ones (`watergate mine`), which are
  // graded easy, medium or hard: the list is asked for again on a change.
  const set = h("select", { id: "puzzle-set" },
    h("option", { value: "made" }, "Hand-made puzzles"),
    h("option", { value: "mined" }, "Mined puzzles (proven unique by the solver)"));
  const level = h("select", { id: "puzzle-difficulty" },
    h("option", { value: "" }, "every difficulty"),
    ["easy", "medium", "hard"].map((d) => h("option", { value: d }, d)));
  const count = h("p", { class: "puzzle-count", id: "puzzle-count" });
  const page = h("section", { class: "puzzles panel" },
    h("h1", {}, "Puzzles"),
    h("p", {}, "Play one side of a position; the solver answers with its best defence. A hint shows the solver's move; the solution is shown only when you ask for it."),
    h("p", { class: "puzzle-filter" }, h("label", {}, "Show ", set), " ", h("label", {}, "of ", level)),
    count,
    list,
    h("label", {}, "Or open a scenario file with a puzzle: ", file),
    err);
  el.replaceChildren(page);
  const load = async () => {
    list.replaceChildren();
    count.textContent = "";
    const q = new URLSearchParams({ set: set.value });
    if (level.value) q.set("difficulty", level.value);
    try {
      const ps = await api(`/api/puzzles?${q}`);
      const where = set.value === "mined" ? "scenarios/puzzles/mined" : "scenarios/puzzles";
      count.textContent = `${ps.length} puzzle${ps.length === 1 ? "" : "s"}${level.value ? ` of difficulty ${level.value}` : ""}.`;
      if (!ps.length) list.append(h("li", {}, level.value ? `No ${level.value} puzzles in ${where}.` : `No puzzles in ${where}.`));
      for (const p of ps) {
        list.append(h("li", {},
          p.difficulty ? h("span", { class: `difficulty ${p.difficulty}`, "data-difficulty": p.difficulty }, p.difficulty) : null,
          p.difficulty ? " " : "",
          h("button", { class: "open-puzzle", "data-file": p.file, disabled: !!p.problem, onclick: () => begin({ file: p.file, set: p.set }) }, p.name),
          p.goal ? ` — ${p.goal}` : "",
          p.problem ? h("span", { class: "error" }, ` (${p.problem})`) : null));
      }
    } catch (e) {
      list.append(h("li", { class: "error" }, e.message));
    }
  };
  set.addEventListener("change", load);
  level.addEventListener("change", load);
  await load();
}

// "The solver is thinking…" with the positions searched so far, while a
// request that runs the solver is pending.
function thinking(el, id) {
  const box = h("p", { class: "thinking-note", id: "thinking", role: "status" },
    h("span", { class: "spinner" }), " The solver is thinking…");
  const target = el.querySelector("#puzzle-status") || el;
  target.append(box);
  const started = Date.now();
  const timer = setInterval(async () => {
    const secs = Math.round((Date.now() - started) / 1000);
    let nodes = "";
    if (id) {
      try {
        const p = await api(`/api/puzzles/attempt/${id}/progress`);
        if (p.nodes) nodes = `, ${p.nodes.toLocaleString()} positions searched`;
      } catch (_) { /* the answer is on its way */ }
    }
    box.lastChild.textContent = ` The solver is thinking… ${secs} s${nodes}`;
  }, 500);
  return { stop() { clearInterval(timer); box.remove(); } };
}

class Attempt {
  constructor(el, info, v) {
    this.el = el;
    this.info = info;
    this.v = v;
    this.busy = false;
  }

  async send(path, body) {
    if (this.busy) return;
    this.busy = true;
    this.el.classList.add("thinking");
    this.el.querySelectorAll(".puzzle-options button, .tools button").forEach((b) => (b.disabled = true));
    const wait = thinking(this.el, this.v.id);
    try {
      this.v = await api(`/api/puzzles/attempt/${this.v.id}/${path}`, { method: "POST", body });
      this.error = "";
    } catch (e) {
      this.error = e.message;
    } finally {
      wait.stop();
      this.busy = false;
      this.el.classList.remove("thinking");
      this.draw();
    }
  }

  draw() {
    const v = this.v;
    // The track's tokens and the board's spaces answer the options that
    // name them, as on Play (an informant's space answers a `picture`).
    const pick = (index) => this.send("choose", { index });
    const byTarget = (kind, field) => Object.fromEntries(v.options.filter((o) => o.kind === kind).map((o) => [o[field], o.index]));
    const onBoard = byTarget("space", "space");
    for (const o of v.options.filter((o) => o.kind === "picture")) {
      const sp = v.game.spaces.find((x) => x.informant === o.name);
      if (sp) onBoard[sp.id] = o.index;
    }
    const options = h("div", { class: "puzzle-options", id: "puzzle-options" },
      v.options.map((o) => h("button", {
        class: "option", "data-index": o.index, "data-notation": o.notation,
        // What the option names on the table (a clickable space or token).
        "data-target": o.space || o.token || Object.keys(onBoard).find((id) => onBoard[id] === o.index && o.kind === "picture"),
        onclick: () => this.send("choose", { index: o.index }),
      }, h("code", {}, o.notation), o.text)));
    const notation = h("input", { id: "puzzle-notation", placeholder: "or type a move in notation (ev2, pass, …)" });
    const form = h("form", { class: "notation", onsubmit: (e) => { e.preventDefault(); if (notation.value.trim()) this.send("choose", { notation: notation.value }); } },
      notation, h("button", { type: "submit" }, "Play"));
    const reveal = h("button", {
      id: "reveal",
      onclick: () => { if (confirm("Show the recorded solution? It gives the puzzle away.")) this.send("reveal"); },
    }, "Show the solution");
    this.el.replaceChildren(h("section", { class: "puzzle" },
      h("div", { class: "panel" },
        h("h1", {}, `Puzzle: ${v.name}`),
        h("p", { class: "goal", id: "puzzle-goal" }, h("b", {}, "Goal: "), v.goal),
        h("p", {}, `You play ${v.side}; the solver plays ${v.opponent} with its best defence.`),
        h("p", { class: "notice" }, "This puzzle is a full-information position: the solver sees the whole table, so it is shown to you whole (face-down tokens and both hands included)."),
        v.verdict ? h("p", { class: `verdict ${v.ending}`, id: "puzzle-verdict" }, v.verdict) : null,
        h("div", { id: "puzzle-status" })),
      h("div", { class: "columns" },
        h("div", { class: "panel", id: "puzzle-table" },
          trackSvg(v.table, { clickable: byTarget("token", "token"), onToken: pick }),
          boardSvg(v.game, v.table, { clickable: onBoard, onSpace: pick }),
          tableSide(v.table)),
        h("div", {},
          h("div", { class: "panel" },
            v.prompt ? h("h2", {}, v.prompt) : h("h2", {}, v.ending ? "The attempt is over." : "Waiting…"),
            options, v.options.length ? form : null,
            this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
            v.hint ? h("p", { class: "hint", id: "puzzle-hint" }, v.hint) : null,
            h("div", { class: "tools" },
              v.ending ? null : h("button", { id: "hint", onclick: () => this.send("hint") }, "Hint"),
              v.revealed ? null : reveal,
              h("button", { onclick: () => mount(this.el) }, "Other puzzles")),
            h("p", { class: "counts" }, `Your moves: ${v.moves.length ? v.moves.join(" · ") : "none"} · hints used: ${v.hints} · solution shown: ${v.revealed ? "yes" : "no"}`)),
          v.solution ? h("div", { class: "panel solution", id: "puzzle-solution" },
            h("h2", {}, "Solution"),
            v.solution.theme ? h("p", {}, h("b", {}, "Theme: "), v.solution.theme) : null,
            v.solution.explanation.length ? h("div", {}, v.solution.explanation.map((l) => h("div", {}, l))) : null,
            h("p", {}, h("b", {}, "Moves from the start: "), v.solution.moves.length ? v.solution.moves.join(" · ") : "none recorded")) : null,
          h("div", { class: "panel" }, h("h2", {}, "What happened"),
            h("ol", { class: "narration", id: "puzzle-log" }, v.log.map((l) => h("li", {}, l))))))));
  }
}
