// Cards: a gallery of every card of the current rules (GET /api/cards),
// and the print-and-play sheet (#/print): nine cards per A4 or Letter
// page with cut marks, through print CSS (pages.css, @media print).
// Fields the data labels placeholders are marked with their open question
// (D1–D7, docs/open-questions.md).

import { api, h, code } from "/studio/api.js";
import { ensureCss } from "/studio/pages.js";

const PER_PAGE = 9;
// Card size (poker size) and the sheet's grid, in millimetres.
const W = 63, H = 88, MARK = 5;
const PAGES = { a4: { w: 210, h: 297, label: "A4" }, letter: { w: 215.9, h: 279.4, label: "Letter" } };

function mark(card, field) {
  const p = card.placeholders.find((x) => x.field === field);
  return p ? p : null;
}

// A field's value, marked when it is a placeholder.
function field(card, name, content, cls = "") {
  const p = mark(card, name);
  return h("span", {
    class: `f-${name} ${cls}` + (p ? " placeholder" : ""),
    "data-field": name,
    title: p ? `placeholder value (${p.question || "open question"}, docs/open-questions.md)` : null,
  }, content, p && p.question ? h("sup", { class: "q" }, p.question) : null);
}

function pip(c) {
  return h("span", { class: `pip ${c}`, title: c }, c[0].toUpperCase());
}

export function cardFace(card) {
  const side = card.side.toLowerCase();
  if (card.kind === "momentum") {
    return h("article", { class: `pp-card momentum ${side}`, "data-card": card.id },
      h("header", {}, field(card, "number", `${card.number}`, "no"),
        h("span", { class: "name" }, card.name)),
      h("div", { class: "type" }, `${card.side}'s momentum card`),
      // The spaces the momentum tokens are put on, lowest first (R7.3).
      h("div", { class: "mslots", "aria-hidden": "true" },
        card.spaces.map((s, i) => h("span", { class: "mslot", title: s.title || "" }, i + 1))),
      h("ol", { class: "spaces" + (mark(card, "spaces") ? " placeholder" : "") },
        card.spaces.map((s) => h("li", {}, s.title ? h("b", {}, s.title + ": ") : null, s.text || "—"))),
      mark(card, "spaces") ? h("div", { class: "placeholder-note" }, "spaces ", h("sup", { class: "q" }, mark(card, "spaces").question)) : null);
  }
  return h("article", { class: `pp-card ${side}` + (card.reaction ? " reaction" : ""), "data-card": card.id },
    h("header", {},
      field(card, "number", `${card.number}`, "no"),
      h("span", { class: "name" }, card.name),
      field(card, "value", `${card.value}`, "value")),
    h("div", { class: "type" }, `${card.side} · ${card.type}${card.reaction ? " · reaction" : ""}`,
      " ", field(card, "colours", card.colours.map(pip), "colours")),
    card.informant ? h("div", { class: "informant" }, `Informant: ${card.informant}`,
      card.steps !== null ? [" · ", field(card, "steps", `${card.steps} step${card.steps === 1 ? "" : "s"}`)] : null) : null,
    // The requirement, unless the action text states it already.
    card.requirement && !/requirement/i.test(card.action_text) ? h("div", { class: "requirement" }, `Requirement: ${card.requirement}`) : null,
    h("p", { class: "action" }, code(card.action_text)),
    field(card, "quote", card.quote ? `“${card.quote}”` : "(no quote)", "quote"));
}

export async function mount(el, { area }) {
  ensureCss();
  const render = async () => {
    let doc;
    try {
      doc = await api("/api/cards");
    } catch (e) {
      el.replaceChildren(h("p", { class: "error" }, code(e.message)));
      return;
    }
    if (area === "print") printSheet(el, doc);
    else gallery(el, doc);
  };
  await render();
  // Live data: redraw when the data folder changes (live.js).
  const again = () => render();
  window.addEventListener("studio-data", again);
  return () => window.removeEventListener("studio-data", again);
}

function gallery(el, doc) {
  const marked = doc.cards.filter((c) => c.placeholders.length).length;
  el.replaceChildren(h("section", { class: "gallery" },
    h("h1", {}, `The ${doc.cards.length} cards of ${doc.game}`),
    h("p", { class: "legend" },
      `Drawn from the data (fingerprint ${doc.fingerprint}). `,
      h("span", { class: "placeholder" }, "Dashed fields", h("sup", { class: "q" }, "D2")),
      ` are placeholder values the sources do not give (${marked} cards have some); the mark names the open question in docs/open-questions.md. `,
      h("a", { href: "#/print" }, "Print-and-play sheet")),
    h("div", { class: "pp-cards" }, doc.cards.map(cardFace))));
}

function setPageSize(key) {
  const p = PAGES[key];
  let st = document.getElementById("page-size");
  if (!st) { st = h("style", { id: "page-size" }); document.head.append(st); }
  st.textContent = `@page { size: ${p.w}mm ${p.h}mm; margin: 0; }
.sheet { width: ${p.w}mm; height: ${p.h - 0.5}mm; }`;
}

// One page: a 3 × 3 grid of cards with cut marks outside it, along every
// cutting line.
function sheet(cards, n, total) {
  const gw = 3 * W, gh = 3 * H;
  const marks = [];
  for (let i = 0; i <= 3; i++) {
    const x = MARK + i * W, y = MARK + i * H;
    marks.push(`M${x},0 V${MARK - 1} M${x},${gh + MARK + 1} V${gh + 2 * MARK}`);
    marks.push(`M0,${y} H${MARK - 1} M${gw + MARK + 1},${y} H${gw + 2 * MARK}`);
  }
  const ns = "http://www.w3.org/2000/svg";
  const cut = document.createElementNS(ns, "svg");
  cut.setAttribute("class", "cut-marks");
  cut.setAttribute("viewBox", `0 0 ${gw + 2 * MARK} ${gh + 2 * MARK}`);
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", marks.join(" "));
  cut.append(path);
  return h("div", { class: "sheet", "data-page": n },
    h("div", { class: "sheet-area" }, cut,
      h("div", { class: "sheet-grid" }, cards.map(cardFace))),
    h("div", { class: "sheet-foot" }, `Watergate print-and-play · page ${n} of ${total} · cut along the marks`));
}

function printSheet(el, doc) {
  const choice = localStorage.getItem("watergate.page") || "a4";
  const size = h("select", { id: "page-size-choice" },
    Object.entries(PAGES).map(([k, p]) => h("option", { value: k, selected: k === choice }, p.label)));
  const pages = [];
  for (let i = 0; i < doc.cards.length; i += PER_PAGE) pages.push(doc.cards.slice(i, i + PER_PAGE));
  const sheets = pages.map((cs, i) => sheet(cs, i + 1, pages.length));
  size.addEventListener("change", () => {
    localStorage.setItem("watergate.page", size.value);
    setPageSize(size.value);
  });
  setPageSize(choice);
  el.replaceChildren(
    h("section", { class: "print-controls panel no-print" },
      h("h1", {}, "Print-and-play sheet"),
      h("p", {}, `${doc.cards.length} cards, ${PER_PAGE} a page: ${pages.length} pages of ${W} × ${H} mm cards with cut marks. Print at 100% scale (no “fit to page”). Placeholder values keep their marks, so a playtest copy shows what is still to be checked.`),
      h("label", {}, "Paper ", size), " ",
      h("button", { class: "primary", onclick: () => window.print() }, "Print")),
    h("div", { class: "sheets" }, sheets));
}
