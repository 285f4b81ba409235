// Small helpers shared by the Replay, Puzzles, Cards and Lab pages.

import { h } from "/studio/api.js";
import { tokenSvg } from "/studio/board.js";

// Loads the pages' style sheet once (cards, print sheet, replay, puzzles, lab).
export function ensureCss() {
  if (document.getElementById("pages-css")) return;
  document.head.append(h("link", { id: "pages-css", rel: "stylesheet", href: "/studio/pages.css" }));
}

// Reads a file the user picked, as text.
export function readFile(input) {
  return new Promise((resolve, reject) => {
    const f = input.files && input.files[0];
    if (!f) { reject(new Error("pick a file first")); return; }
    const r = new FileReader();
    r.onload = () => resolve({ name: f.name, text: String(r.result) });
    r.onerror = () => reject(new Error(`cannot read ${f.name}`));
    r.readAsText(f);
  });
}

// A card of a hand or pile, small: number, name, value and colours.
export function miniCard(c) {
  return h("div", { class: `mini-card ${c.side.toLowerCase()}`, title: c.action_text },
    h("span", { class: "mini-no" }, `${c.number}`),
    h("span", { class: "mini-name" }, c.name),
    h("span", { class: "mini-value" }, `${c.value} ${c.colours.map((k) => k[0].toUpperCase()).join("")}`));
}

// Both hands, the piles and the momentum of a whole table (Replay, Puzzles).
export function tableSide(table) {
  const side = (name, key) => h("div", { class: `hand ${key}` },
    h("h3", {}, `${name}'s hand (${table.hands[key].length}) · deck ${table.deck_sizes[key]} · discard ${table.discards[key].length} · momentum ${table.momentum.on_card[key]}`),
    h("div", { class: "mini-cards" }, table.hands[key].map(miniCard)));
  return h("div", { class: "table-side" },
    h("p", { class: "table-status" },
      `Round ${table.round}, ${table.phase}; ${table.turn} to play; initiative: ${table.initiative}. ` +
      `Bag: ${table.bag} tokens. Momentum supply: ${table.momentum.supply}. ` +
      `Informants connected: ${table.connected_informants} of ${table.informants_to_connect}.`),
    table.outcome ? h("p", { class: "outcome" }, table.outcome.text) : null,
    side("Editor", "editor"), side("Nixon", "nixon"));
}

export { tokenSvg };
