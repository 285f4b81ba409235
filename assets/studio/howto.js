// How to play: the rules (docs/rules.md) and the cards (docs/cards.md),
// rendered by the server (GET /api/docs/rules, /api/docs/cards: HTML whose
// only raw markup is the docs' anchors), with a table of contents.
// `#/howto/r5-6` opens the page at rule R5.6, `#/howto/nixon-howard-hunt`
// at a card; the docs' own links are such routes.

import { api, h, code } from "/studio/api.js";
import { ensureCss } from "/studio/pages.js";

const DOCS = ["rules", "cards"];
// Fetched once: a link within the page remounts it (a new route).
let docs = null;

async function load() {
  if (!docs) docs = await Promise.all(DOCS.map((d) => api(`/api/docs/${d}`)));
  return docs;
}

// `R5.6`, `r5-6`, `5.6` → the anchor `r5-6`; anything else as typed.
export function ruleAnchor(text) {
  const t = text.trim();
  const m = /^r?(\d+)(?:[.-](\d+))?$/i.exec(t);
  if (m) return m[2] ? `r${m[1]}-${m[2]}` : `r${m[1]}`;
  return t.toLowerCase().replace(/[._\s]+/g, "-");
}

// The anchor of the card named `text` on the page (`Deep Throat`,
// `follow the money`, `deep_throat`): its anchor with the side put in
// front, else the card whose heading reads `text` (letters and digits
// only compared), else the one whose heading holds it. `null` if none.
export function cardAnchor(text) {
  const norm = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
  const want = norm(text);
  if (!want) return null;
  const id = ruleAnchor(text);
  for (const side of ["editor", "nixon"]) {
    if (document.getElementById(`${side}-${id}`)) return `${side}-${id}`;
  }
  const cards = [...document.querySelectorAll('a[id^="editor-"], a[id^="nixon-"]')].map((a) => {
    // An anchor is empty: its card's heading is the block after it.
    const block = a.closest("p, li, h1, h2, h3, h4, section") || a;
    const heading = block.textContent.trim() ? block : block.nextElementSibling;
    return { id: a.id, name: heading ? norm(heading.textContent) : "" };
  });
  const card = cards.find((c) => c.name === want) || cards.find((c) => c.name.includes(want));
  return card ? card.id : null;
}

function contents(doc) {
  const entries = doc.toc.filter((t) => t.level >= 2 && t.level <= 4);
  return h("li", {},
    h("a", { href: `#/howto/${doc.name}` }, doc.title),
    h("ul", {}, ...entries.map((t) => h("li", { class: `toc-l${t.level}` },
      h("a", { href: `#/howto/${t.id}` }, t.text)))));
}

export async function mount(el, { params }) {
  ensureCss();
  let all;
  try {
    all = await load();
  } catch (e) {
    el.replaceChildren(h("p", { class: "error" }, code(e.message)));
    return;
  }
  const jump = h("input", { id: "howto-jump", type: "text", size: 12, placeholder: "R5.6", autocomplete: "off", "aria-label": "Rule number or card" });
  const missing = h("span", { class: "error", role: "alert" });
  const form = h("form", { class: "howto-jump", onsubmit: (e) => {
    e.preventDefault();
    const rule = ruleAnchor(jump.value);
    const id = document.getElementById(rule) ? rule : cardAnchor(jump.value);
    if (id) location.hash = `#/howto/${id}`;
    else missing.textContent = ` No rule or card ${jump.value.trim()}.`;
  } }, h("label", {}, "Go to rule ", jump), h("button", { type: "submit" }, "Go"), missing);
  const toc = h("nav", { class: "howto-toc panel", id: "howto-toc", "aria-label": "Contents" },
    h("h2", {}, "Contents"), form, h("ul", {}, ...all.map(contents)));
  const body = h("div", { class: "howto-docs" }, ...all.map((d) => {
    const s = h("section", { class: "doc panel", id: d.name, "data-doc": d.name });
    s.innerHTML = d.html; // The server's rendering: no raw HTML but anchors.
    return s;
  }));
  el.replaceChildren(h("div", { class: "howto" }, toc, body));
  const target = params[0] && document.getElementById(params.join("/"));
  if (target) {
    // An anchor is empty: light up what it marks (a rule's item, a card).
    let shown = target.closest("li, p, h1, h2, h3, h4, section") || target;
    if (!shown.textContent.trim() && shown.nextElementSibling) shown = shown.nextElementSibling;
    shown.classList.add("howto-target");
    // At once, before the page counts as drawn (api.js, holdLoad): a
    // one-shot screenshot then shows the rule, not a blank frame.
    target.scrollIntoView({ block: "start" });
  } else {
    window.scrollTo(0, 0);
  }
}
