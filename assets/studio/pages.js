// Small helpers shared by the Replay, Puzzles, Cards and Lab pages (their
// tables are drawn by table.js, as Play's).

import { h } from "/studio/api.js";

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
