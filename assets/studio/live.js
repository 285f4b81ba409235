// Live data: the studio tells every page when the data folder changed
// (server-sent events from GET /api/live). A reload that loads: new games
// use it, and pages that draw the data (Cards) redraw on the
// `studio-data` event. A reload with problems: each is listed with
// path:line:col, the message and the line of the file, until fixed. The
// list lies over the page: Hide (or the red badge) puts it away, so a game
// in progress stays playable; the badge shows it again, and a new set of
// problems (another reload) shows itself.

import { game, h, code } from "/studio/api.js";

// A badge's words, and the short ones a narrow menu shows instead
// (style.css): the full words stay its tooltip.
function said(words, short) {
  return [h("span", { class: "long" }, words), h("span", { class: "short", "aria-hidden": "true" }, short)];
}

export function start(el) {
  if (!el || !window.EventSource) return;
  let seen = null;
  // The reload whose problems the player hid.
  let hidden = null;
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
      const show = (on) => { list.hidden = !on; hidden = on ? null : s.version; badge.setAttribute("aria-expanded", String(on)); };
      const list = h("div", { class: "live-problems", id: "live-problems", role: "alert", hidden: hidden === s.version },
        h("p", {}, s.stand_in
          ? "The data folder does not load: new games use the shipped game until it does. Fix these (the Workbench opens each file) and save:"
          : "The data folder no longer loads; new games keep the last rules that did. Fix these and save:",
          h("button", { class: "live-hide", id: "live-hide", title: "Put the list away (the red badge shows it again)", onclick: () => show(false) }, "Hide")),
        s.problems.map((p) => h("div", { class: "problem" },
          h("div", {}, h("span", { class: "where" }, p.line ? `${p.path}:${p.line}:${p.col}` : p.path), ": ", code(p.message)),
          p.source_line !== null ? h("pre", {}, `${p.line} | ${p.source_line}\n${" ".repeat(String(p.line).length)} | ${" ".repeat(Math.max(0, p.col - 1))}^`) : null)));
      const words = `data: ${s.problems.length} problem${s.problems.length === 1 ? "" : "s"}`;
      const badge = h("button", { class: "live-badge bad", id: "live-badge", "aria-controls": "live-problems", "aria-expanded": String(hidden !== s.version),
        "aria-label": words, title: `${words}: show or hide the data folder's problems`, onclick: () => show(list.hidden) },
      said(words, `⚠ ${s.problems.length}`));
      el.append(badge, list);
    } else {
      const reloaded = changed || s.version > 0;
      const words = reloaded ? `data reloaded (${s.version})` : "watching the data folder";
      el.append(h("span", { class: "live-badge", id: "live-badge", title: `${words}; fingerprint ${s.fingerprint}` },
        said(words, reloaded ? "live ↻" : "live")));
    }
  });
}
