// Drawing the table as SVG: the evidence board from board.ron's hex
// coordinates, and the research track. Shared by Play, Replay and Puzzles.
//
//   boardSvg(game, table, { clickable, onSpace, wire })
//   trackSvg(table, { clickable, onToken, wire })
//   tokenSvg(kind, { faceUp, r })   one token, for legends and hands
//
// `game` is GET /api/game (spaces with q/r, threads, pictures); `table` has
// `board` [{space, face_up, kind}], `pictures` [{name, place, space}],
// `track` [{slot, pos, face_up, kind|null}], `initiative_token`,
// `momentum_token`, `track_length` — the shape of a seat's view in Play.
// `clickable` maps a space id (board) or a token name (`ev3`, `initiative`,
// `momentum`: track) to the option it answers.
//
// Every drawn space, token and track position also carries `data-target`,
// the key Play's option targets name it by (`space:e12`, `token:ev3`,
// `track:-2`, as play/targets.rs serializes them); `wire(el, key, label)`,
// if given, is called on each so the page can make it choose and light up.

const NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// Slip and token colours, with a pattern each so the colour is never the
// only cue (stripes for blue, dots for yellow, crossing lines for green).
export const COLOURS = {
  blue: { fill: "#3b82c4", light: "#cfe2f5", letter: "B" },
  yellow: { fill: "#e3b505", light: "#f8ecb8", letter: "Y" },
  green: { fill: "#3f9c4a", light: "#cfead2", letter: "G" },
};

function defs() {
  const p = (id, light, dark, shape) =>
    svg("pattern", { id, width: 8, height: 8, patternUnits: "userSpaceOnUse" },
      svg("rect", { width: 8, height: 8, fill: light }), shape(dark));
  return svg("defs", {},
    p("slip-blue", COLOURS.blue.light, COLOURS.blue.fill,
      (c) => svg("path", { d: "M0,8 L8,0", stroke: c, "stroke-width": 1.4 })),
    p("slip-yellow", COLOURS.yellow.light, "#9a7a00",
      (c) => svg("circle", { cx: 4, cy: 4, r: 1.3, fill: c })),
    p("slip-green", COLOURS.green.light, COLOURS.green.fill,
      (c) => svg("path", { d: "M0,4 L8,4 M4,0 L4,8", stroke: c, "stroke-width": 1 })),
    p("face-down", "#6b6b6b", "#8d8d8d",
      (c) => svg("path", { d: "M0,8 L8,0 M0,0 L8,8", stroke: c, "stroke-width": 1 })));
}

// One evidence token: a disc in its colour(s) (two colours: two halves),
// its colour letters, a star for the momentum symbol. `kind` null: face
// down and unknown to the viewer.
export function tokenSvg(kind, { faceUp = true, r = 11, x = 0, y = 0, title } = {}) {
  const g = svg("g", { transform: `translate(${x},${y})`, class: "token" + (faceUp ? "" : " face-down") });
  if (!kind) {
    g.append(svg("circle", { r, fill: "url(#face-down)", stroke: "#222", "stroke-width": 1.5 }),
      svg("text", { class: "tok-letter", y: 4, "text-anchor": "middle", fill: "#fff" }, "?"));
  } else {
    const cs = kind.colours.map((c) => COLOURS[c] || { fill: "#999", letter: "?" });
    if (cs.length === 2) {
      g.append(svg("path", { d: `M0,${-r} A${r},${r} 0 0 0 0,${r} Z`, fill: cs[0].fill }),
        svg("path", { d: `M0,${-r} A${r},${r} 0 0 1 0,${r} Z`, fill: cs[1].fill }));
    } else {
      g.append(svg("circle", { r, fill: cs[0] ? cs[0].fill : "#999" }));
    }
    g.append(svg("circle", {
      r, fill: "none", stroke: faceUp ? "#222" : "#222",
      "stroke-width": faceUp ? 1.5 : 2.5, "stroke-dasharray": faceUp ? null : "3 2",
    }));
    const label = cs.map((c) => c.letter).join("") + (kind.symbol ? "★" : "");
    g.append(svg("text", { class: "tok-letter", y: 4, "text-anchor": "middle" }, label));
  }
  const t = title || (kind ? `${kind.colours.join("/")}${kind.symbol ? " with momentum symbol" : ""} token${faceUp ? "" : " (face down)"}` : "face-down token");
  g.append(svg("title", {}, t));
  return g;
}

const SIZE = 30;
function hexCorner(cx, cy, i, size) {
  const a = (Math.PI / 180) * (60 * i - 30);
  return [cx + size * Math.cos(a), cy + size * Math.sin(a)];
}
function pixel(q, r) {
  return [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];
}

export function boardSvg(game, table, { clickable = {}, onSpace, wire } = {}) {
  const pos = {};
  for (const s of game.spaces) pos[s.id] = pixel(s.q, s.r);
  const xs = Object.values(pos).map((p) => p[0]);
  const ys = Object.values(pos).map((p) => p[1]);
  const pad = SIZE * 1.6;
  const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
  const w = Math.max(...xs) - minX + pad, hgt = Math.max(...ys) - minY + pad;
  const root = svg("svg", {
    class: "board", viewBox: `${minX} ${minY} ${w} ${hgt}`, role: "img",
    "aria-label": "The evidence board",
  }, defs());
  const threads = svg("g", { class: "threads" });
  for (const [a, b] of game.threads) {
    threads.append(svg("line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1] }));
  }
  root.append(threads);
  const tokens = {};
  for (const t of table.board || []) tokens[t.space] = t;
  const pictures = {};
  for (const p of table.pictures || []) if (p.space) pictures[p.space] = p;
  for (const s of game.spaces) {
    const [x, y] = pos[s.id];
    const pts = [0, 1, 2, 3, 4, 5].map((i) => hexCorner(x, y, i, SIZE * 0.84).join(",")).join(" ");
    const option = clickable[s.id];
    const fill = s.kind === "evidence" ? `url(#slip-${s.slip})` : s.kind === "nixon" ? "#3a2f4f" : "#f4efe6";
    const g = svg("g", {
      class: `space ${s.kind}` + (option !== undefined ? " clickable" : ""),
      "data-space": s.id,
      "data-target": `space:${s.id}`,
      tabindex: option !== undefined ? 0 : null,
      onclick: option !== undefined && onSpace ? () => onSpace(option, s.id) : null,
      onkeydown: option !== undefined && onSpace ? (e) => { if (e.key === "Enter" || e.key === " ") onSpace(option, s.id); } : null,
    }, svg("polygon", { points: pts, fill }));
    if (s.kind === "evidence") {
      g.append(svg("text", { class: "slip-letter", x: x - SIZE * 0.55, y: y - SIZE * 0.3 }, COLOURS[s.slip].letter));
      g.append(svg("text", { class: "space-id", x, y: y + SIZE * 0.72, "text-anchor": "middle" }, s.id));
    } else if (s.kind === "nixon") {
      g.append(svg("text", { class: "nixon-label", x, y: y + 4, "text-anchor": "middle" }, "NIXON"));
    } else {
      const p = pictures[s.id];
      if (p) {
        g.append(svg("rect", {
          class: `picture ${p.place}`, x: x - SIZE * 0.7, y: y - SIZE * 0.62, width: SIZE * 1.4, height: SIZE * 0.9, rx: 3,
        }), svg("text", { class: "picture-mark", x, y: y - SIZE * 0.05, "text-anchor": "middle" },
          p.place === "recruited" ? "RECRUITED" : "SECURED"));
      }
      g.append(svg("text", { class: "informant-name", x, y: y + SIZE * 0.55, "text-anchor": "middle" }, s.informant));
    }
    const name = s.kind === "evidence" ? `${s.id}: ${s.slip} slip` : s.kind === "nixon" ? "Nixon" : `informant ${s.informant}`;
    g.append(svg("title", {}, name));
    const t = tokens[s.id];
    if (t) g.append(tokenSvg(t.kind, { faceUp: t.face_up, x, y: y - SIZE * 0.08, r: SIZE * 0.4 }));
    if (wire) {
      const what = t ? `, ${t.kind.colours.join("/")}${t.kind.symbol ? " with momentum symbol" : ""} token ${t.face_up ? "face up" : "face down"}` : "";
      wire(g, `space:${s.id}`, `board space ${name}${what}`);
    }
    root.append(g);
  }
  return root;
}

// The research track: positions -L…L (Nixon's side left, the Editor's
// right), each with the evidence tokens there, the initiative token (I)
// and the momentum token (M).
export function trackSvg(table, { clickable = {}, onToken, wire } = {}) {
  const L = table.track_length;
  const cell = 46, top = 22;
  const at = {};
  const put = (pos, item) => (at[pos] = at[pos] || []).push(item);
  for (const t of table.track || []) put(t.pos, { name: `ev${t.slot}`, token: t });
  if (table.initiative_token !== null && table.initiative_token !== undefined) put(table.initiative_token, { name: "initiative" });
  if (table.momentum_token !== null && table.momentum_token !== undefined) put(table.momentum_token, { name: "momentum" });
  const rows = Math.max(2, ...Object.values(at).map((v) => v.length));
  const w = (2 * L + 1) * cell, hgt = top + rows * 26 + 8;
  const root = svg("svg", { class: "track", viewBox: `0 0 ${w} ${hgt}`, role: "img", "aria-label": "The research track" }, defs());
  for (let p = -L; p <= L; p++) {
    const x = (p + L) * cell;
    const side = p < 0 ? "nixon" : p > 0 ? "editor" : "centre";
    const cellRect = svg("rect", { class: `track-cell ${side}`, x, y: 0, width: cell, height: hgt, "data-target": `track:${p}` });
    root.append(cellRect,
      svg("text", { class: "track-pos", x: x + cell / 2, y: 14, "text-anchor": "middle" },
        p === 0 ? "0" : (p < 0 ? `N${-p}` : `E${p}`)));
    if (wire) wire(cellRect, `track:${p}`, `track space ${p === 0 ? "0" : (p < 0 ? `Nixon's ${-p}` : `the Editor's ${p}`)}`);
    (at[p] || []).forEach((item, i) => {
      const cx = x + cell / 2, cy = top + 12 + i * 26;
      const option = clickable[item.name];
      let g;
      if (item.token) {
        g = tokenSvg(item.token.kind, { faceUp: item.token.face_up, x: cx, y: cy, title: `${item.name}: ${item.token.kind ? item.token.kind.colours.join("/") + (item.token.kind.symbol ? "★" : "") : "face-down token"}${item.token.face_up ? "" : " (face down)"}` });
      } else {
        const letter = item.name === "initiative" ? "I" : "M";
        g = svg("g", { transform: `translate(${cx},${cy})`, class: `marker ${item.name}` },
          svg("rect", { x: -11, y: -11, width: 22, height: 22, rx: item.name === "initiative" ? 11 : 3 }),
          svg("text", { y: 5, "text-anchor": "middle" }, letter),
          svg("title", {}, `the ${item.name} token`));
      }
      g.dataset.token = item.name;
      g.dataset.target = `token:${item.name}`;
      g.dataset.pos = p;
      if (wire) wire(g, `token:${item.name}`, g.querySelector("title").textContent + ` on track space ${p}`);
      if (option !== undefined) {
        g.classList.add("clickable");
        g.setAttribute("tabindex", 0);
        if (onToken) {
          g.addEventListener("click", () => onToken(option, item.name));
          g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") onToken(option, item.name); });
        }
      }
      root.append(g);
    });
  }
  return root;
}
