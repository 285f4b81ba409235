// Moves shown as moves (issue 36): between two drawings of the table, each
// thing that is in both — a token, a picture tile, a card — glides from
// where it was to where it is now (a token along the track, onto its board
// space, a card from the hand to the table and on to its pile).
//
// Drawn things carry `data-anim`: what they are from one table to the next
// (`ev3`, `board:o10`, `card:nixon.segretti`); `data-kind`: what they look
// like (`ev:blue+yellow*`, `momentum`); and may carry `data-from`: where a
// thing that was nowhere before comes from (an opponent's card from their
// hand, a drawn card from the deck: a thing, or a `data-anchor`, a place
// that does not move itself). `snapshot()` notes where each is;
// after the page is drawn again, `glide()` pairs the new things with the
// old — by name, else by look (a token that left the track is the one that
// came onto the board), else from `data-from` — and flies a copy of each
// from its old place to its new one above the page, the thing itself
// unseen until the copy lands (a copy above everything is never clipped by
// the panel it leaves). Unseen, not hidden: a click on its place during
// the glide is the thing's, as it is once landed; and `land()` ends every
// glide at once (a player who chooses while the pieces still move). Nothing
// here decides anything: it only moves pictures of what the server sent.
//
// The speed is the player's (off, fast, normal, slow), kept in
// localStorage; with `prefers-reduced-motion` the default is off, and a
// speed chosen anyway steps through the moves without gliding.

const KEY = "watergate.speed";

export const SPEEDS = {
  off: { label: "off", glide: 0, dwell: 0 },
  fast: { label: "fast", glide: 260, dwell: 450 },
  normal: { label: "normal", glide: 450, dwell: 1000 },
  slow: { label: "slow", glide: 700, dwell: 2000 },
};

export function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

export function speedName() {
  let s = null;
  try { s = localStorage.getItem(KEY); } catch (_) { /* storage off */ }
  if (s && SPEEDS[s]) return s;
  return reducedMotion() ? "off" : "fast";
}

export function setSpeed(name) {
  try { localStorage.setItem(KEY, name); } catch (_) { /* storage off */ }
}

// The timings now: gliding is off under reduced motion whatever the speed.
export function timing() {
  const s = SPEEDS[speedName()];
  return { ...s, glide: reducedMotion() ? 0 : s.glide };
}

// Where each drawn thing under `root` is now, by its name.
export function snapshot(root) {
  const m = new Map();
  m.anchors = new Map();
  if (!root) return m;
  for (const el of root.querySelectorAll("[data-anim], [data-anchor]")) {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    if (el.dataset.anchor) m.anchors.set(el.dataset.anchor, r);
    else m.set(el.dataset.anim, { rect: r, kind: el.dataset.kind || "", el });
  }
  return m;
}

// Two looks of the same thing: a face-down token may turn up as any kind.
function sameLook(a, b) {
  if (a === b) return true;
  const down = (k) => k === "ev:?" || k === "ev:down";
  return (a.startsWith("ev:") && b.startsWith("ev:")) && (down(a) || down(b));
}

// Glides what moved between `before` (a snapshot) and the page under
// `root` now, for `ms` milliseconds; resolves when every copy has landed.
export function glide(root, before, ms) {
  if (!ms || !before.size) return Promise.resolve();
  const now = [...root.querySelectorAll("[data-anim]")];
  const used = new Set();
  const pairs = [];
  const unmatched = [];
  for (const el of now) {
    const old = before.get(el.dataset.anim);
    if (old && !used.has(el.dataset.anim) && sameLook(old.kind, el.dataset.kind || "")) {
      used.add(el.dataset.anim);
      pairs.push([el, old.rect]);
    } else {
      unmatched.push(el);
    }
  }
  const rest = [...before.entries()].filter(([k]) => !used.has(k) && !now.some((el) => el.dataset.anim === k));
  for (const el of unmatched) {
    const kind = el.dataset.kind || "";
    const i = kind ? rest.findIndex(([, o]) => o.kind === kind) : -1;
    if (i >= 0) {
      pairs.push([el, rest[i][1].rect]);
      rest.splice(i, 1);
    } else if (el.dataset.from) {
      const f = el.dataset.from;
      const here = before.get(f)?.rect || before.anchors?.get(f)
        || root.querySelector(`[data-anchor="${CSS.escape(f)}"], [data-anim="${CSS.escape(f)}"]`)?.getBoundingClientRect();
      if (here) pairs.push([el, here, true]);
    }
  }
  const flights = [];
  for (const [el, from, arriving] of pairs) {
    const to = el.getBoundingClientRect();
    if (!to.width || !to.height) continue;
    const dx = from.left - to.left, dy = from.top - to.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(from.width - to.width) < 1) continue;
    flights.push(fly(el, from, to, ms, arriving));
  }
  return Promise.all(flights);
}

// The glides under way: each one's ending, which lands it.
const flying = new Set();

// Ends every glide under way at once, each thing in its place.
export function land() {
  for (const done of [...flying]) done();
}

// A copy of `el` above the page, from rectangle `from` to `to`.
function fly(el, from, to, ms, arriving) {
  const ghost = copyOf(el, to);
  if (!ghost) return Promise.resolve();
  document.body.append(ghost);
  // Transparent rather than hidden: a hidden thing takes no click, which
  // went to what lies under it (a board space, the hand's panel) and was
  // lost.
  el.style.opacity = "0";
  // Grown or shrunk on the way when the sizes are near (a card from the
  // hand to the table); else centre to centre at its own size, fading in
  // (a card onto the small top of its pile).
  let sx = from.width / to.width || 1, sy = from.height / to.height || 1;
  const near = (k) => k > 0.6 && k < 1.7;
  let dx = from.left - to.left, dy = from.top - to.top;
  if (!near(sx) || !near(sy)) {
    dx += (from.width - to.width) / 2;
    dy += (from.height - to.height) / 2;
    sx = sy = 1;
    arriving = true;
  }
  const a = ghost.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})`, opacity: arriving ? 0.35 : 1 },
    { transform: "none", opacity: 1 },
  ], { duration: ms, easing: "cubic-bezier(.3,.7,.3,1)" });
  return new Promise((resolve) => {
    const done = () => {
      if (!flying.delete(done)) return;
      ghost.remove();
      el.style.opacity = "";
      resolve();
    };
    flying.add(done);
    a.finished.then(done, done);
    // A hidden tab may hold animations back: the move ends on time anyway.
    setTimeout(done, ms + 150);
  });
}

// A positioned copy of a drawn thing: an HTML element as it is, an SVG one
// inside a small SVG of its own showing the same part of its drawing.
function copyOf(el, r) {
  let ghost;
  const owner = el instanceof SVGElement ? el.ownerSVGElement : null;
  if (owner) {
    const m = owner.getScreenCTM();
    if (!m) return null;
    // The part of the owner's user space the element covers on screen.
    const x = (r.left - m.e) / m.a, y = (r.top - m.f) / m.d;
    ghost = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    ghost.setAttribute("viewBox", `${x} ${y} ${r.width / m.a} ${r.height / m.d}`);
    ghost.setAttribute("class", "ghost");
    ghost.append(el.cloneNode(true));
  } else {
    ghost = el.cloneNode(true);
    ghost.classList.add("ghost");
    // Out of its place it inherits nothing: it keeps its own letters.
    const cs = getComputedStyle(el);
    Object.assign(ghost.style, { font: cs.font, color: cs.color, lineHeight: cs.lineHeight, boxSizing: "border-box" });
  }
  ghost.setAttribute("aria-hidden", "true");
  // A copy is a picture only: nothing a page or a test looks for.
  for (const n of [ghost, ...ghost.querySelectorAll("*")]) {
    for (const a of ["id", "data-anim", "data-target", "data-options", "data-card", "data-token", "tabindex", "role"]) n.removeAttribute(a);
    n.classList.remove("targetable", "aimed", "effect");
    n.classList.add("ghost-part");
  }
  Object.assign(ghost.style, {
    position: "fixed", left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px`,
    margin: "0", zIndex: "50", pointerEvents: "none", transformOrigin: "0 0", visibility: "visible", overflow: "visible",
  });
  return ghost;
}

// Waits `ms`, or less when `skip` says so (checked every frame).
export function pause(ms, skip) {
  return new Promise((resolve) => {
    const end = performance.now() + ms;
    const tick = () => (skip() || performance.now() >= end ? resolve() : requestAnimationFrame(tick));
    // A hidden page runs no animation frames: a timer ends the wait then.
    setTimeout(resolve, ms + 50);
    tick();
  });
}
