// The app shell: hash routes (#/play, #/replay/…), one JavaScript module
// per area. An area module exports `mount(element, params)`; it may return
// a function that is called when the page leaves the area, or an object
// `{ leave, unsaved }` whose `unsaved()` says, when leaving would lose the
// user's work, what to ask before it (any route, a reload, the tab closed).
// Adding an area: a file `<area>.js` and a line in AREAS.

import { NOT_ANSWERING, code, holdLoad } from "/studio/api.js";

// A page that could not be drawn says why, in one line.
function alertLine(text) {
  const p = document.createElement("p");
  p.className = "error";
  p.id = "page-error";
  p.setAttribute("role", "alert");
  p.replaceChildren(...code(text));
  return p;
}

const AREAS = {
  play: "/studio/play.js",
  replay: "/studio/replay.js",
  puzzles: "/studio/puzzles.js",
  cards: "/studio/cards.js",
  print: "/studio/cards.js",
  lab: "/studio/lab.js",
  howto: "/studio/howto.js",
  workbench: "/studio/workbench.js",
};

let leave = null;
let unsaved = null;
// The route shown: where a route change the user took back returns to.
let here = location.hash;
// Which visit is the page's: a route that is still loading when the next
// one starts must neither draw over the newer page nor keep its listeners.
let visits = 0;

async function route() {
  const ask = unsaved && unsaved();
  if (ask && !confirm(ask)) {
    // Stayed: the address goes back to the page still shown (no new route).
    history.replaceState(null, "", here || location.pathname);
    return;
  }
  here = location.hash;
  unsaved = null;
  const visit = ++visits;
  const hash = location.hash.replace(/^#\/?/, "") || "play";
  const [area, ...params] = hash.split("/");
  document.querySelectorAll("#nav a").forEach((a) =>
    a.classList.toggle("current", a.dataset.area === area));
  const app = document.getElementById("app");
  if (leave) { try { leave(); } catch (e) { console.error(e); } leave = null; }
  // Each visit draws into an element of its own (`display: contents`, so
  // the layout is as if it were <main> itself): a visit left before its
  // data came draws into an element no longer on the page.
  const page = document.createElement("div");
  page.className = "area";
  app.replaceChildren(page);
  app.dataset.area = area;
  const file = AREAS[area];
  if (!file) {
    page.textContent = `No such page: #/${area}.`;
    return;
  }
  let mod;
  try {
    mod = await import(file);
  } catch (e) {
    // Every page is built in: one that does not come is not served.
    if (visit === visits) page.replaceChildren(alertLine(`The ${area} page could not be loaded. ${NOT_ANSWERING}`));
    return;
  }
  if (visit !== visits) return;
  let mounted;
  try {
    mounted = (await mod.mount(page, { area, params })) || null;
  } catch (e) {
    // A page that could not even start (the server not answering, say)
    // says why rather than staying empty.
    if (visit === visits) page.replaceChildren(alertLine(e.message));
    return;
  }
  const done = typeof mounted === "function" ? mounted : mounted && mounted.leave;
  if (visit === visits) {
    leave = done;
    unsaved = (mounted && mounted.unsaved) || null;
  } else if (done) {
    // Left while it mounted: its leaving runs now.
    try { done(); } catch (e) { console.error(e); }
  }
}

// The live-data notice (live.js), when that module is present.
import("/studio/live.js").then((m) => m.start && m.start(document.getElementById("live"))).catch(() => {});

// The first page is drawn before the document's load event (api.js,
// `holdLoad`): a one-shot headless screenshot shows it, not an empty page.
window.addEventListener("hashchange", route);
window.addEventListener("beforeunload", (e) => {
  if (unsaved && unsaved()) e.preventDefault();
});
const drawn = holdLoad(5000);
route().catch((e) => console.error(e)).finally(drawn);
