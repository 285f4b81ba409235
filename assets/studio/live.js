// Live data: the studio tells every page when the data folder changed
// (server-sent events from GET /api/live). A reload that loads: new games
// use it, and pages that draw the data (Cards) redraw on the
// `studio-data` event. A reload with problems: each is listed with
// path:line:col, the message and the line of the file, until fixed.

import { game, h } from "/studio/api.js";

export function start(el) {
  if (!el || !window.EventSource) return;
  let seen = null;
  const src = new EventSource("/api/live");
  src.addEventListener("status", async (ev) => {
    const s = JSON.parse(ev.data);
    const changed = seen !== null && s.version !== seen;
    seen = s.version;
    if (changed) {
      try { await game(true); } catch (_) { /* the next page load asks again */ }
      window.dispatchEvent(new CustomEvent("studio-data", { detail: s }));
    }
    el.replaceChildren();
    if (!s.watching) return;
    if (s.problems.length) {
      el.append(h("span", { class: "live-badge bad", id: "live-badge" }, `data: ${s.problems.length} problem${s.problems.length === 1 ? "" : "s"}`),
        h("div", { class: "live-problems", id: "live-problems", role: "alert" },
          h("p", {}, "The data folder no longer loads; new games keep the last rules that did. Fix these and save:"),
          s.problems.map((p) => h("div", { class: "problem" },
            h("div", {}, h("span", { class: "where" }, p.line ? `${p.path}:${p.line}:${p.col}` : p.path), `: ${p.message}`),
            p.source_line !== null ? h("pre", {}, `${p.line} | ${p.source_line}\n${" ".repeat(String(p.line).length)} | ${" ".repeat(Math.max(0, p.col - 1))}^`) : null))));
    } else {
      el.append(h("span", { class: "live-badge", id: "live-badge", title: `fingerprint ${s.fingerprint}` },
        changed || s.version > 0 ? `data reloaded (${s.version})` : "watching the data folder"));
    }
  });
}
