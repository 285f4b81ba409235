// Puzzles: attempt a puzzle of the data folder's scenarios/puzzles, a mined
// one of scenarios/puzzles/mined (graded by difficulty, filtered here), or an
// uploaded scenario, against the solver's best defence. The goal is
// stated; a hint asks the solver; the recorded solution is shown only on
// request. A puzzle is a full-information position: the solver sees the
// whole table, so the page shows it whole. The board is the puzzle's own
// (`game` in the attempt: a puzzle may play on a variant's board).
//
// An attempt is drawn as Play's table (table.js): the player's options are
// chosen on the track, the board and the cards, and the opponent's hand
// lies face up, labelled as shown because the position is full-information.

import { api, game as gameInfo, h, code } from "/studio/api.js";
import { ensureCss, readFile } from "/studio/pages.js";
import { NARROW, SIDE_STEPS, Targets, asideRow, drawTable, fitAside, fitSide, key, promptInView, dropZooms } from "/studio/table.js";

// The window crossing into or out of the narrow layout (a tablet turned,
// a window resized: the track is a ladder there, table.js) draws the
// attempt on the page again, as Play does. One listener, the page's
// latest visit's: "Other puzzles" mounts the page again in place.
let relayout = null;
// Within a layout, a window grown or shrunk fits the attempt's columns
// again (table.js, fitAside and fitSide), as Play does.
let refit = null;
let frame = 0;
// Play's steps to fit the side column (table.js, fitSide), with the
// puzzle's own (style.css): first its tool buttons smaller, on one line;
// after Play's, the log, which gives way down to nothing before the
// decision, put away, its sliver of a heading with it; the line of counts
// (moves, hints, the solution shown); last the solution, when shown, gives
// way down to its heading (it scrolls).
const STEPS = ["tight-tools", ...SIDE_STEPS, "no-log", "no-counts", "short-solution"];
// The attempt on the page, if any (ended when the player leaves it).
let attempt = null;
// The list the player last chose (set and difficulty): "Other puzzles"
// comes back to it, not to the hand-made ones, so a player going through
// the mined puzzles need not choose them again after each one.
const chosen = { set: "made", level: "" };
const narrowQuery = window.matchMedia ? window.matchMedia(NARROW) : null;
function dropRelayout() {
  if (relayout && narrowQuery) narrowQuery.removeEventListener("change", relayout);
  relayout = null;
  if (refit) window.removeEventListener("resize", refit);
  refit = null;
  cancelAnimationFrame(frame);
}

export async function mount(el) {
  ensureCss();
  dropRelayout();
  // The list is a page of its own; an attempt takes the whole window.
  document.body.classList.remove("at-table");
  const info = await gameInfo();
  const err = h("p", { class: "error", role: "alert", id: "puzzle-error" });
  const list = h("ul", { class: "puzzle-list", id: "puzzle-list" });
  const file = h("input", { type: "file", id: "puzzle-file", accept: ".ron,text/plain" });
  attempt = null;
  const begin = async (body) => {
    err.textContent = "";
    const wait = thinking(el, null);
    try {
      const v = await api("/api/puzzles/attempt", { method: "POST", body });
      wait.stop();
      attempt = new Attempt(el, info, v);
      attempt.draw();
    } catch (e) {
      wait.stop();
      el.replaceChildren(page);
      err.replaceChildren(...code(e.message));
    }
  };
  file.addEventListener("change", async () => {
    try {
      const f = await readFile(file);
      await begin({ text: f.text, name: f.name });
    } catch (e) { err.replaceChildren(...code(e.message)); }
  });
  // The hand-made puzzles, or the mined ones (`watergate mine`), which are
  // graded easy, medium or hard: the list is asked for again on a change.
  const set = h("select", { id: "puzzle-set" },
    h("option", { value: "made" }, "Hand-made puzzles"),
    h("option", { value: "mined" }, "Mined puzzles (proven unique by the solver)"));
  const level = h("select", { id: "puzzle-difficulty" },
    h("option", { value: "" }, "every difficulty"),
    ["easy", "medium", "hard"].map((d) => h("option", { value: d }, d)));
  set.value = chosen.set;
  level.value = chosen.level;
  const count = h("p", { class: "puzzle-count", id: "puzzle-count" });
  const page = h("section", { class: "puzzles panel" },
    h("h1", {}, "Puzzles"),
    h("p", {}, "Play one side of a position; the solver answers with its best defence. A hint shows the solver's move; the solution is shown only when you ask for it."),
    h("p", { class: "puzzle-filter" }, h("label", {}, "Show ", set), " ", h("label", {}, "of ", level)),
    // A data folder without scenarios/: the shipped puzzles stand in.
    info.scenarios_note ? h("p", { class: "notice", id: "scenarios-note", role: "note" }, `Note: ${info.scenarios_note}.`) : null,
    count,
    list,
    h("label", {}, "Or open a scenario file with a puzzle: ", file),
    err);
  el.replaceChildren(page);
  // Only the latest choice's answer is listed: a list asked for before a
  // second change may arrive after it.
  let asked = 0;
  const load = async () => {
    const mine = ++asked;
    chosen.set = set.value;
    chosen.level = level.value;
    list.replaceChildren();
    count.textContent = "";
    const q = new URLSearchParams({ set: set.value });
    if (level.value) q.set("difficulty", level.value);
    try {
      const ps = await api(`/api/puzzles?${q}`);
      if (mine !== asked) return;
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
      if (mine === asked) list.append(h("li", { class: "error" }, code(e.message)));
    }
  };
  set.addEventListener("change", load);
  level.addEventListener("change", load);
  relayout = () => { if (attempt && !attempt.ended && !attempt.busy && el.querySelector("#puzzle-table")) attempt.draw(); };
  if (narrowQuery) narrowQuery.addEventListener("change", relayout);
  refit = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => { if (attempt && !attempt.ended) attempt.fit(); });
  };
  window.addEventListener("resize", refit);
  await load();
  // Other pages do not take the whole window.
  return () => {
    dropRelayout();
    if (attempt) attempt.end();
    attempt = null;
    document.body.classList.remove("at-table");
    dropZooms();
  };
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
    this.targets = null;
  }

  // The player leaves the attempt: the server forgets it (it keeps a
  // bounded number at once).
  end() {
    if (this.ended) return;
    this.ended = true;
    api(`/api/puzzles/attempt/${this.v.id}`, { method: "DELETE" }).catch(() => {});
  }

  async send(path, body) {
    if (this.busy) return;
    this.busy = true;
    // The solver's progress and then its verdict show above the decision.
    promptInView(this.el, ".bar");
    this.el.classList.add("thinking");
    this.el.querySelectorAll("#puzzle-options button, .tools button").forEach((b) => (b.disabled = true));
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

  // The table as Play draws it (table.js), from the player's chair: the
  // options are chosen on the track, the board, the cards; the opponent's
  // hand lies face up beside the board, the position being full-information.
  // The goal and the verdict lie above the table; the hint, the solution
  // and the log take Play's decision column.
  draw() {
    const v = this.v;
    const t = v.table;
    const pick = (index) => this.send("choose", { index });
    if (this.targets) this.targets.closeMenu();
    dropZooms();
    const tg = (this.targets = new Targets(v.options, pick));
    const seat = key(t.seat);
    const other = seat === "editor" ? "nixon" : "editor";
    const drawn = drawTable(v.game, t, { tg, pick, shown: t.hands ? t.hands[other] : null, shownLabel: "shown: full information" });

    const bar = h("div", { class: "bar" },
      h("h1", {}, `Puzzle: ${v.name}`),
      h("span", { class: "facts" },
        h("span", {}, `Round ${t.round}`), h("span", {}, t.phase),
        h("span", {}, `${t.initiative} holds the initiative`),
        h("span", {}, `You play ${v.side}; the solver plays ${v.opponent}`)),
      // "The solver is thinking…" goes here, in view whatever the column holds.
      h("div", { id: "puzzle-status" }));

    const brief = h("section", { class: "panel puzzle-brief" },
      h("p", { class: "goal", id: "puzzle-goal" }, h("b", {}, "Goal: "), v.goal),
      h("p", { class: "notice" }, "A full-information position: the solver sees the whole table, so you do too (face-down tokens, both hands)."),
      v.verdict ? h("p", { class: `verdict ${v.ending}`, id: "puzzle-verdict" }, v.verdict) : null);

    const options = h("ol", { class: "options puzzle-options", id: "puzzle-options", start: 1 },
      v.options.map((o) => {
        // Its notation is its tooltip too: a short column hides the one
        // beside it (table.js, fitSide).
        const b = h("button", { class: "option", "data-index": o.index, "data-notation": o.notation, title: o.notation, onclick: () => pick(o.index) }, o.text);
        tg.explain(b, o);
        return h("li", {}, b, h("code", {}, o.notation));
      }));
    const notation = h("input", { id: "puzzle-notation", placeholder: "or type a move in notation (ev2, pass, …)", autocomplete: "off" });
    const form = h("form", { class: "notation", onsubmit: (e) => { e.preventDefault(); if (notation.value.trim()) this.send("choose", { notation: notation.value }); } },
      notation, h("button", { type: "submit" }, "Play"));
    const reveal = h("button", {
      id: "reveal",
      onclick: () => { if (confirm("Show the recorded solution? It gives the puzzle away.")) this.send("reveal"); },
    }, "Show the solution");
    // The notation box and the tools share a line where it is wide enough
    // (the side column's height goes to the options).
    const decision = h("section", { class: "panel decision", id: "decision" },
      v.prompt ? h("h2", { id: "prompt" }, v.prompt) : h("h2", {}, v.ending ? "The attempt is over." : "Waiting…"),
      v.options.length ? options : null,
      h("div", { class: "decision-row" }, v.options.length ? form : null,
        h("div", { class: "tools" },
          v.ending ? null : h("button", { id: "hint", onclick: () => this.send("hint") }, "Hint"),
          v.revealed ? null : reveal,
          h("button", { id: "other-puzzles", onclick: () => { this.end(); mount(this.el); } }, "Other puzzles"))),
      this.error ? h("p", { class: "error", role: "alert" }, code(this.error)) : null,
      v.hint ? h("p", { class: "hint", id: "puzzle-hint" }, v.hint) : null,
      h("p", { class: "counts" }, `Your moves: ${v.moves.length ? v.moves.join(" · ") : "none"} · hints used: ${v.hints} · solution shown: ${v.revealed ? "yes" : "no"}`));
    const solution = v.solution ? h("section", { class: "panel solution", id: "puzzle-solution" },
      h("h2", {}, "Solution"),
      v.solution.theme ? h("p", {}, h("b", {}, "Theme: "), v.solution.theme) : null,
      v.solution.explanation.length ? h("div", {}, v.solution.explanation.map((l) => h("div", {}, l))) : null,
      h("p", {}, h("b", {}, "Moves from the start: "), v.solution.moves.length ? v.solution.moves.join(" · ") : "none recorded")) : null;
    const narration = h("section", { class: "panel narration" }, h("h2", {}, "What happened"),
      h("ol", { id: "puzzle-log" }, v.log.map((l) => h("li", {}, l))));

    // The goal above the table, the whole width: the column beside the
    // board keeps its height for the decision and the hand.
    const root = h("div", { class: "play table puzzle", id: "puzzle-table", "data-moves": v.moves.length },
      bar, brief,
      h("div", { class: "table-area" }, drawn.track,
        h("div", { class: "table-middle" }, drawn.board,
          h("div", { class: "table-aside" }, asideRow(drawn.inPlay, drawn.otherHand), drawn.momentum, drawn.piles))),
      h("div", { class: "side" }, decision, solution, drawn.hand, narration));
    tg.root = root;
    document.body.classList.add("at-table");
    this.el.replaceChildren(root);
    this.fit();
  }

  // The columns fitted to the window (table.js): beside the board, and the
  // decision's (four options in view, as on Play); the newest lines of
  // the log in view, within its own box.
  fit() {
    const root = this.el.querySelector("#puzzle-table");
    if (!root) return;
    fitAside(root);
    fitSide(root, STEPS);
    const log = root.querySelector("#puzzle-log");
    log.scrollTop = log.scrollHeight;
  }
}
