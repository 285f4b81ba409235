// The designer's workbench (src/app/server/workbench/): open a file of the
// game (#/workbench/cards/game.ron), edit its text in a code box with line
// numbers or its values in a form, see the game's problems at their lines
// as you type (the check runs on the server, debounced), save it into the
// data folder, undo the session's edits, read the folder's diff and compare
// the game with the shipped one (or with the game as this page opened it)
// in the lab's paired comparison. Without --data everything is read-only.

import { api, fixed, h, watchRun, code } from "/studio/api.js";
import { ensureCss } from "/studio/pages.js";

// The game as the page opened it: one snapshot per page load (the module
// is loaded once), not one per file opened.
let snapshot = null;

const CHECK_DELAY = 300; // ms after the last key before the check runs

// The page in one column, the file list above the code box (workbench.css).
const ONE_COLUMN = "(max-width: 1100px)";

function ensureOwnCss() {
  ensureCss();
  if (document.getElementById("workbench-css")) return;
  document.head.append(h("link", { id: "workbench-css", rel: "stylesheet", href: "/studio/workbench.css" }));
}

const GROUPS = [
  ["settings", "Game and settings"], ["board", "Board"], ["tokens", "Tokens"],
  ["momentum", "Momentum cards"], ["card", "Cards"], ["script", "Scripts"],
];

export async function mount(el, { params }) {
  ensureOwnCss();
  let info;
  try { info = await api("/api/workbench"); } catch (e) {
    el.replaceChildren(h("p", { class: "error", role: "alert" }, code(e.message)));
    return;
  }
  if (info.writable && !snapshot) {
    try { snapshot = (await api("/api/workbench/snapshot", { method: "POST" })).id; } catch (_) { /* "as opened" is then not offered */ }
  }
  const current = params.join("/") || "cards/game.ron";
  let file = null; // the file as opened or last saved: { path, text, version, card, … }
  const timers = { check: null };
  let seq = 0; // answers to older checks are dropped
  let source = null; // the comparison's progress stream

  // ---- the file list ----
  const list = h("nav", { class: "wb-files", "aria-label": "game files" },
    GROUPS.map(([kind, title]) => {
      const files = info.files.filter((f) => f.kind === kind);
      if (!files.length) return null;
      return h("details", { open: kind !== "script" || current.startsWith("scripts/") },
        h("summary", {}, `${title} (${files.length})`),
        h("ul", {}, files.map((f) => h("li", {},
          // Leaving a file with unsaved changes is asked by the app shell
          // (`unsaved` below), whichever way the page is left.
          h("a", { href: `#/workbench/${f.path}`, "data-path": f.path, class: f.path === current ? "current" : "" },
          f.title ? `${f.title}` : f.path.split("/").pop())))));
    }));

  // Where the page is one column (workbench.css) the list lies above the
  // code box, all 76 files of it: there it is folded to one line that names
  // the file open, so the code box is in view; a file picked loads the page
  // again, folded. Beside the code box (a wide window) it is always open,
  // that line hidden.
  const files = h("details", { class: "wb-files-box", id: "wb-files-box" },
    h("summary", {}, "Files ", h("span", { class: "wb-files-count" }, `(${info.files.length})`), ": ", h("b", {}, current)),
    list);
  const oneColumn = window.matchMedia(ONE_COLUMN);
  const fold = () => { files.open = !oneColumn.matches; };
  // Opened above the code box, its box scrolled to the file open.
  files.addEventListener("toggle", () => {
    const here = files.open && oneColumn.matches && list.querySelector("a.current");
    if (here) list.scrollTop += here.getBoundingClientRect().top - list.getBoundingClientRect().top - list.clientHeight / 3;
  });
  fold();
  oneColumn.addEventListener("change", fold);
  const unfold = () => oneColumn.removeEventListener("change", fold);

  // ---- the code box ----
  const gutter = h("div", { class: "wb-gutter", id: "wb-gutter", "aria-hidden": "true" });
  const text = h("textarea", { id: "wb-text", class: "wb-text", spellcheck: "false", wrap: "off", autocomplete: "off",
    autocapitalize: "off", "aria-label": "the file's text" });
  text.readOnly = !info.writable;
  const state = h("span", { id: "wb-state", role: "status" });
  const save = h("button", { id: "wb-save", class: "primary", type: "button", disabled: true }, "Save");
  const revert = h("button", { id: "wb-revert", type: "button", disabled: true, title: "Back to the text as last opened or saved" }, "Revert");
  const problemsBox = h("div", { id: "wb-problems", class: "wb-problems", "aria-live": "polite" });
  const form = h("form", { id: "wb-form", class: "wb-form", onsubmit: (e) => e.preventDefault() });
  let problems = [];
  // `watergate check`'s warnings, found only when the game loads: advice
  // (a board outside D5, a choice that shows what the rules hide).
  let warnings = [];
  const found = (r) => { problems = r.problems; warnings = r.warnings || []; };
  // What the last save or undo said, shown until the next edit (checks
  // that run after it, on the live reload, keep it).
  let note = null;

  // A textarea gives its text with "\n" line ends whatever it was given:
  // a file written with "\r\n" gets them back, so a save leaves the
  // lines not edited as they were.
  const eol = () => (file && file.text.includes("\r\n") ? "\r\n" : "\n");
  const fileText = () => (eol() === "\n" ? text.value : text.value.replace(/\r?\n/g, "\r\n"));
  const dirty = () => file && fileText() !== file.text;
  const lines = () => text.value.split("\n").length;

  function drawGutter() {
    const at = (list) => {
      const byLine = new Map();
      for (const p of list) {
        if (p.file === current && p.line > 0) byLine.set(p.line, [...(byLine.get(p.line) || []), p.message]);
      }
      return byLine;
    };
    const bad = at(problems);
    const warned = at(warnings);
    const n = lines();
    const rows = [];
    for (let i = 1; i <= n; i++) {
      const msgs = bad.get(i) || warned.get(i);
      const cls = bad.has(i) ? "wb-ln bad" : warned.has(i) ? "wb-ln warn" : "wb-ln";
      rows.push(h("div", { class: cls, "data-line": i, title: msgs ? msgs.join("\n") : null }, String(i)));
    }
    gutter.replaceChildren(...rows);
    follow();
  }

  // The gutter scrolls with the code box. A wide file gives the box a
  // horizontal scrollbar, which the gutter lacks: padded by its height,
  // the gutter scrolls as far, and the last lines' numbers stay level
  // with them.
  function follow() {
    const bar = text.offsetHeight - text.clientHeight;
    gutter.style.paddingBottom = `${6 + Math.max(0, bar)}px`;
    gutter.scrollTop = text.scrollTop;
  }

  function jump(line, col) {
    const all = text.value.split("\n");
    let at = 0;
    for (let i = 0; i < Math.min(line - 1, all.length); i++) at += all[i].length + 1;
    at += Math.max(0, (col || 1) - 1);
    text.focus();
    text.setSelectionRange(at, at);
    const lh = parseFloat(getComputedStyle(text).lineHeight) || 20;
    text.scrollTop = Math.max(0, (line - 3) * lh);
  }

  // Problems or warnings, this file's first (a button to its line), then
  // the other files' (a link to open them).
  function findingsList(list, cls) {
    const here = list.filter((p) => p.file === current);
    const elsewhere = list.filter((p) => p.file !== current);
    return h("ul", {},
      here.map((p) => h("li", { class: cls, "data-line": p.line },
        h("button", { type: "button", class: "link", onclick: () => jump(p.line, p.col) }, p.line ? `line ${p.line}:${p.col}` : "this file"),
        ": ", code(p.message))),
      elsewhere.map((p) => h("li", { class: `${cls} other` },
        p.file ? h("a", { href: `#/workbench/${p.file}` }, p.line ? `${p.file}:${p.line}:${p.col}` : p.file)
          : h("span", { class: "where" }, p.line ? `${p.path}:${p.line}:${p.col}` : p.path),
        ": ", code(p.message))));
  }

  function drawProblems() {
    problemsBox.replaceChildren();
    if (!problems.length) {
      problemsBox.append(h("p", { class: "wb-ok", id: "wb-ok" }, "No problems: the game loads with this text."));
      if (warnings.length) {
        problemsBox.append(h("p", { id: "wb-warnings-head" }, `${warnings.length} warning${warnings.length === 1 ? "" : "s"}, advice only: the game loads with them.`));
        problemsBox.append(findingsList(warnings, "wb-warning"));
      }
      return;
    }
    problemsBox.append(h("p", {}, `${problems.length} problem${problems.length === 1 ? "" : "s"}: a game with them does not load, so new games keep the last rules that did.`));
    problemsBox.append(findingsList(problems, "wb-problem"));
  }

  function drawForm(fields) {
    if (!current.endsWith(".ron")) { form.replaceChildren(h("p", { class: "hint" }, "A script: edit it in the text.")); return; }
    if (form.contains(document.activeElement)) return; // do not redraw under the designer's cursor
    form.replaceChildren(...fields.map((f) => {
      const id = `wb-field-${f.path.replace(/[^A-Za-z0-9_]/g, "_")}`;
      const long = f.kind === "string" && f.value.length > 50;
      const input = long
        ? h("textarea", { id, rows: 3, "data-field": f.path })
        : h("input", { id, type: f.kind === "number" ? "number" : "text", "data-field": f.path, class: f.kind === "ron" || f.kind === "word" ? "mono" : "" });
      input.value = f.value;
      input.readOnly = !info.writable;
      input.addEventListener("change", () => setField(f.path, input.value, input));
      return h("div", { class: "wb-field" },
        h("label", { for: id }, h("span", { class: "wb-field-path" }, f.path), h("span", { class: "wb-field-line" }, ` line ${f.line}`)),
        input);
    }));
  }

  async function setField(path, value, input) {
    try {
      const r = await api("/api/workbench/field", { method: "POST", body: { path: current, text: fileText(), field: path, value } });
      text.value = r.text;
      input.classList.remove("bad");
      edited(0);
    } catch (e) {
      input.classList.add("bad");
      state.replaceChildren(...code(e.message));
    }
  }

  async function runCheck() {
    const mine = ++seq;
    state.textContent = "Checking…";
    try {
      const r = await api("/api/workbench/check", { method: "POST", body: { path: current, text: fileText() } });
      if (mine !== seq) return;
      found(r);
      drawGutter();
      drawProblems();
      drawForm(r.fields);
      showState();
    } catch (e) {
      if (mine === seq) state.replaceChildren(...code(e.message));
    }
  }

  function showState() {
    const here = problems.filter((p) => p.file === current).length;
    const where = here ? `${here} problem${here === 1 ? "" : "s"} in this file` : problems.length ? `${problems.length} problem${problems.length === 1 ? "" : "s"} in other files`
      : warnings.length ? `no problems, ${warnings.length} warning${warnings.length === 1 ? "" : "s"}` : "no problems";
    state.textContent = `${dirty() ? "Not saved" : note || "Saved"}; ${where}.`;
    save.disabled = !info.writable || !dirty();
    revert.disabled = !dirty();
    el.querySelector(".wb-main")?.classList.toggle("dirty", !!dirty());
  }

  function edited(delay = CHECK_DELAY) {
    note = null;
    drawGutter();
    showState();
    clearTimeout(timers.check);
    timers.check = setTimeout(runCheck, delay);
  }

  text.addEventListener("input", () => edited());
  text.addEventListener("scroll", follow);
  // Tab indents the line or the selected lines by four spaces (the files'
  // own indentation) and Shift+Tab takes them back, as in a code editor.
  // A keyboard user still leaves the box with Tab: Escape first, then Tab
  // moves on (the hint under the box says so). The text is changed with
  // the browser's own editing command, so Ctrl+Z and Ctrl+Y undo and redo
  // it with the typing around it.
  let tabLeaves = false;
  text.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "s") { e.preventDefault(); if (!save.disabled) doSave(false); return; }
    if (e.key === "Escape") { tabLeaves = true; return; }
    if (e.key !== "Tab" || e.ctrlKey || e.metaKey || e.altKey || text.readOnly || tabLeaves) { tabLeaves = false; return; }
    e.preventDefault();
    indent(e.shiftKey);
  });
  text.addEventListener("blur", () => { tabLeaves = false; });

  function indent(back) {
    const v = text.value;
    const start = text.selectionStart, end = text.selectionEnd;
    const first = v.lastIndexOf("\n", start - 1) + 1;
    if (!back && start === end) {
      // A caret: spaces to the next multiple of four.
      const pad = "    ".slice((start - first) % 4);
      document.execCommand("insertText", false, pad) || text.setRangeText(pad, start, end, "end");
      edited();
      return;
    }
    // The selected lines (a selection ending at a line's start leaves that line out).
    const last = end > start && v[end - 1] === "\n" ? end - 1 : end;
    const stop = v.indexOf("\n", last) === -1 ? v.length : v.indexOf("\n", last);
    const lines = v.slice(first, stop).split("\n");
    const moved = lines.map((l) => back ? l.replace(/^ {1,4}/, "") : "    " + l);
    const block = moved.join("\n");
    if (block === lines.join("\n")) return;
    const shift = (l, m) => m.length - l.length;
    text.setSelectionRange(first, stop);
    document.execCommand("insertText", false, block) || text.setRangeText(block, first, stop, "end");
    const startShift = Math.max(shift(lines[0], moved[0]), first - start);
    text.setSelectionRange(start + startShift, end + block.length - (stop - first));
    edited();
  }

  async function doSave(force) {
    save.disabled = true;
    state.textContent = "Saving…";
    try {
      const saved = fileText();
      const r = await api("/api/workbench/save", { method: "POST", body: { path: current, text: saved, base: file.version, force } });
      file = { ...file, text: saved, version: r.version };
      found(r);
      note = r.loaded
        ? "Saved. The game loads: new games use it"
        : `Saved, with ${r.problems.length} problem${r.problems.length === 1 ? "" : "s"}: new games keep the last rules that loaded`;
      drawGutter();
      drawProblems();
      showState();
      await drawHistory();
    } catch (e) {
      save.disabled = false;
      state.replaceChildren(...code(e.message));
      if (e.status === 409) {
        state.append(" ", h("button", { type: "button", id: "wb-force", onclick: () => doSave(true) }, "Save anyway"));
      }
    }
  }
  save.addEventListener("click", () => doSave(false));
  revert.addEventListener("click", () => { text.value = file.text; edited(0); });

  // ---- history and undo ----
  const undoBtn = h("button", { id: "wb-undo", type: "button", disabled: true }, "Undo the last edit");
  const historyList = h("ol", { id: "wb-history", class: "wb-history", reversed: true });
  async function drawHistory() {
    if (!info.writable) return;
    let v;
    try { v = await api("/api/workbench/history"); } catch (_) { return; }
    undoBtn.disabled = v.undoable === null;
    historyList.replaceChildren(...v.edits.map((e) => h("li", { class: e.undone ? "undone" : "", "data-edit": e.id },
      h("a", { href: `#/workbench/${e.path}` }, e.path),
      ` from line ${e.first_line} (${e.lines_before} → ${e.lines_after} lines), ${new Date(e.at * 1000).toLocaleTimeString()}`,
      e.undone ? " — undone" : "")));
    if (!v.edits.length) historyList.append(h("li", { class: "hint" }, "No edits yet in this session."));
  }
  undoBtn.addEventListener("click", async () => {
    if (dirty() && !confirm("Undo the last saved edit? This file's unsaved changes are lost if it is the one undone.")) return;
    undoBtn.disabled = true;
    try {
      const r = await api("/api/workbench/undo", { method: "POST" });
      if (r.path === current) {
        file = { ...file, text: r.text, version: r.version };
        text.value = r.text;
        found(r);
      }
      note = `Undone: ${r.path} is back as it was${r.loaded ? "; new games use it" : ", with problems: new games keep the last rules that loaded"}`;
      drawGutter(); drawProblems(); showState();
    } catch (e) { state.replaceChildren(...code(e.message)); }
    await drawHistory();
  });

  // ---- the diff ----
  const diffAgainst = h("select", { id: "wb-diff-against" },
    h("option", { value: "shipped" }, "the shipped game"),
    snapshot ? h("option", { value: "opened" }, "the game as this page opened it") : null);
  const diffOut = h("pre", { id: "wb-diff", class: "wb-diff" });
  const diffBtn = h("button", { id: "wb-diff-show", type: "button", disabled: !info.writable }, "Show the diff");
  diffBtn.addEventListener("click", async () => {
    diffOut.textContent = "…";
    try {
      const q = new URLSearchParams({ against: diffAgainst.value });
      if (snapshot) q.set("snapshot", snapshot);
      diffOut.textContent = (await api(`/api/workbench/diff?${q}`)).text;
    } catch (e) { diffOut.replaceChildren(...code(e.message)); }
  });

  // ---- the comparison ----
  const cmpAgainst = h("select", { id: "wb-against" },
    h("option", { value: "shipped" }, "the shipped game"),
    snapshot ? h("option", { value: "opened" }, "the game as this page opened it") : null);
  const agentBox = (id) => { const i = h("input", { id, size: 14, autocomplete: "off" }); i.value = info.default_agent; return i; };
  const cmpEditor = agentBox("wb-editor");
  const cmpNixon = agentBox("wb-nixon");
  const cmpGames = h("input", { id: "wb-games", type: "number", min: 1, max: info.max_search_games, value: 100 });
  const cmpRun = h("button", { id: "wb-compare", class: "primary", type: "button", disabled: !info.writable }, "Compare");
  const cmpCancel = h("button", { id: "wb-compare-cancel", type: "button", disabled: true }, "Cancel");
  const bar = h("progress", { id: "wb-progress", max: 1, value: 0 });
  const cmpStatus = h("p", { id: "wb-compare-status", role: "status" });
  const cmpOut = h("div", { id: "wb-compare-result" });
  let job = null;
  // Kept alive while shown, cancelled when the page is left (api.js).
  let watching = null;
  const finish = () => {
    if (source) source.close();
    source = null;
    if (watching) watching.done();
    watching = null;
    cmpRun.disabled = !info.writable;
    cmpCancel.disabled = true;
  };
  cmpCancel.addEventListener("click", async () => {
    if (!job) return;
    cmpCancel.disabled = true;
    try { await api(`/api/lab/${job}/cancel`, { method: "POST" }); cmpStatus.textContent = "Cancelling: the games already started finish first…"; }
    catch (e) { cmpStatus.replaceChildren(...code(e.message)); }
  });
  cmpRun.addEventListener("click", async () => {
    if (dirty()) { cmpStatus.textContent = "Save first: the comparison plays the game as saved in the folder."; return; }
    cmpRun.disabled = true;
    cmpOut.replaceChildren();
    const body = { against: cmpAgainst.value, editor: cmpEditor.value.trim(), nixon: cmpNixon.value.trim(), games: Number(cmpGames.value) };
    if (snapshot) body.snapshot = snapshot;
    try {
      const started = await api("/api/workbench/compare", { method: "POST", body });
      job = started.id;
      watching = watchRun(job);
      bar.max = started.total; bar.value = 0;
      cmpCancel.disabled = false;
      cmpStatus.textContent = `Playing ${started.total} games in each game…`;
      source = new EventSource(`/api/lab/${job}/events`);
      source.addEventListener("progress", (ev) => {
        const p = JSON.parse(ev.data);
        bar.value = p.done;
        cmpStatus.textContent = `${p.done} of ${p.total} seeds played…`;
      });
      source.addEventListener("result", (ev) => {
        const v = JSON.parse(ev.data);
        finish();
        if (v.error) { cmpStatus.textContent = ""; cmpOut.replaceChildren(h("p", { class: "error" }, v.error)); return; }
        bar.value = v.result.games;
        cmpStatus.textContent = v.result.cancelled
          ? `Cancelled: the figures cover the first ${v.result.games} of ${v.result.asked} seeds.`
          : `Done: ${v.result.games} seeds, each played in both games.`;
        cmpOut.replaceChildren(comparison(v.result, file && file.card));
      });
      source.onerror = () => { if (source) { cmpStatus.textContent = "The progress stream broke off."; finish(); } };
    } catch (e) {
      cmpStatus.textContent = "";
      cmpOut.replaceChildren(h("p", { class: "error", role: "alert" }, code(e.message)));
      finish();
    }
  });

  // ---- the page ----
  const title = h("h2", { id: "wb-path" }, current);
  el.replaceChildren(h("section", { class: "workbench" },
    h("div", { class: "wb-left" },
      h("h1", {}, "Workbench"),
      info.writable
        ? h("p", { class: "hint", id: "wb-mode" }, `Editing ${info.game}. Saving writes the file in the data folder.`)
        : h("p", { class: "notice", id: "wb-readonly", role: "note" }, `Read-only: ${info.read_only.replace(/^the workbench is read-only: /, "")}.`),
      files),
    h("div", { class: "wb-main" },
      h("div", { class: "wb-head" }, title, save, revert, state),
      h("div", { class: "wb-code" }, gutter, text),
      info.writable ? h("p", { class: "hint", id: "wb-keys" }, "Tab and Shift+Tab indent and outdent the line or the selected lines; Escape, then Tab, leaves the box. Ctrl+S saves.") : null,
      problemsBox,
      h("details", { class: "panel", open: true }, h("summary", {}, "Fields"), form)),
    h("div", { class: "wb-side" },
      h("div", { class: "panel" },
        h("h2", {}, "Compare"),
        h("p", { class: "hint" }, `The lab's paired comparison: the same seeds in both games, ${info.max_search_games} games at most with a searching agent (${info.max_games} otherwise), ${info.max_runs} runs at once on this server.`),
        h("label", {}, "With ", cmpAgainst),
        h("label", {}, "Editor ", cmpEditor), h("label", {}, "Nixon ", cmpNixon),
        h("label", {}, "Games ", cmpGames),
        h("div", { class: "tools" }, cmpRun, cmpCancel), bar, cmpStatus, cmpOut),
      h("div", { class: "panel" },
        h("h2", {}, "This session's edits"), undoBtn, historyList),
      h("div", { class: "panel" },
        h("h2", {}, "Diff"), h("label", {}, "Against ", diffAgainst), " ", diffBtn, diffOut))));

  try {
    file = await api(`/api/workbench/file?${new URLSearchParams({ path: current })}`);
  } catch (e) {
    text.value = "";
    text.readOnly = true;
    state.replaceChildren(...code(e.message));
    return () => { finish(); unfold(); };
  }
  text.value = file.text;
  found(file);
  drawGutter();
  drawProblems();
  drawForm(file.fields);
  showState();
  drawHistory();
  const onData = () => { if (!dirty()) runCheck(); };
  window.addEventListener("studio-data", onData);
  return {
    leave: () => { clearTimeout(timers.check); if (watching) watching.leave(); watching = null; finish(); unfold(); window.removeEventListener("studio-data", onData); },
    // Asked by the app shell before the page goes to another file, another
    // area, or away (a reload, the tab closed).
    unsaved: () => (dirty() ? `Leave ${current}? Its changes are not saved.` : null),
  };
}

const pct = (x) => `${fixed(100 * x, 1)}%`;
const iv = (i) => i ? `${pct(i.estimate)} (${pct(i.low)}–${pct(i.high)})` : "—";
const pts = (x) => `${x >= 0 ? "+" : "−"}${fixed(Math.abs(100 * x), 1)}`;
const diff = (i) => i ? `${pts(i.estimate)} points (${pts(i.low)} to ${pts(i.high)})` : "—";

// The comparison's result: the difference with its interval, then the
// card being edited, then the cards whose impact is clear across all the
// cards compared (the server's `significant`: Bonferroni's correction, so
// that forty cards tested at once do not show two by chance).
function comparison(r, card) {
  const row = (c) => h("tr", { class: `${c.significant ? "significant" : ""} ${c.id === card ? "this-card" : ""}`, "data-card": c.id },
    h("td", {}, c.id), h("td", {}, c.action_plays), h("td", {}, iv(c.action_win_rate)), h("td", {}, iv(c.other_action_win_rate)),
    h("td", {}, diff(c.difference) + (c.significant ? " *" : "")));
  const mine = r.cards.filter((c) => c.id === card);
  const clear = r.cards.filter((c) => c.significant && c.id !== card);
  return h("div", {},
    h("p", { id: "wb-difference", class: "wb-difference" },
      `Editor's win rate, this folder minus ${r.against}: `, h("strong", {}, diff(r.difference)), ", paired on the same seeds (95% interval)."),
    h("ul", {},
      h("li", {}, `This folder: Editor won ${r.this.editor_wins} of ${r.this.games}, ${iv(r.this.editor_rate)}.`),
      r.other ? h("li", {}, `${r.against}: Editor won ${r.other.editor_wins} of ${r.other.games}, ${iv(r.other.editor_rate)}.`) : null),
    h("table", { id: "wb-cards", class: "wb-cards" },
      h("thead", {}, h("tr", {}, h("th", {}, "card"), h("th", {}, "action plays"), h("th", {}, "its side wins when used"),
        h("th", {}, `… in ${r.against}`), h("th", {}, "difference"))),
      h("tbody", {}, mine.map(row), clear.map(row))),
    h("p", { class: "hint" }, mine.length || clear.length
      ? "* clear across every card compared: its interval at 95 % divided by their number (Bonferroni) leaves out 0."
      : "No card's impact is clear at this many games (no interval at 95 % divided by the number of cards compared leaves out 0)."));
}
