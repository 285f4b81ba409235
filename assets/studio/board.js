// Drawing the table as SVG: the evidence board from board.ron's hex
// coordinates, the research track and the momentum cards. Shared by Play,
// Replay and Puzzles.
//
//   boardSvg(game, table, { clickable, onSpace, wire })
//   trackSvg(table, { clickable, onToken, wire })
//   tokenSvg(kind, { faceUp, r, x, y, lacks })   one evidence token
//   markerSvg(name, { x, y, r })            the initiative or a momentum token
//
// `game` is GET /api/game (spaces with q/r, threads, pictures); `table` has
// `board` [{space, face_up, kind}], `pictures` [{name, place, space}],
// `track` [{slot, pos, face_up, kind|null, ruled_out?}], `initiative_token`,
// `momentum_token`, `track_length` — the shape of a seat's view in Play.
// `clickable` maps a space id (board) or a token name (`ev3`, `initiative`,
// `momentum`: track) to the option it answers.
//
// Every drawn space, token and track position also carries `data-target`,
// the key Play's option targets name it by (`space:e12`, `token:ev3`,
// `track:-2`, as play/targets.rs serializes them); `wire(el, key, label)`,
// if given, is called on each so the page can make it choose and light up.
// Every token and picture tile carries `data-anim` (what it is, from one
// table to the next: `ev3`, `board:o10`, `picture:Dean`) and `data-kind`
// (what it looks like), which Play's moves (motion.js) follow.
//
// Where text goes: no label of a space sits on its token. A space's slip
// letter is drawn above the middle, its name below it, and the token in
// the middle between them; a track position's name is on top of the cell,
// its tokens in a grid below (tests/studio/table_layout.rs measures it).

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
// only cue (stripes for blue, dots for yellow, crossing lines for green);
// `ink`, the colour a letter is written in on the full colour.
export const COLOURS = {
  blue: { fill: "#3b82c4", light: "#cfe2f5", letter: "B", ink: "#fff" },
  yellow: { fill: "#e3b505", light: "#f8ecb8", letter: "Y", ink: "#111" },
  green: { fill: "#3f9c4a", light: "#cfead2", letter: "G", ink: "#fff" },
};

function defs() {
  const p = (id, light, dark, shape) =>
    svg("pattern", { id, width: 8, height: 8, patternUnits: "userSpaceOnUse" },
      svg("rect", { width: 8, height: 8, fill: light }), shape(dark));
  return svg("defs", {},
    p("slip-blue", COLOURS.blue.light, "#8fb8e0",
      (c) => svg("path", { d: "M0,8 L8,0", stroke: c, "stroke-width": 1.2 })),
    p("slip-yellow", COLOURS.yellow.light, "#d8bd52",
      (c) => svg("circle", { cx: 4, cy: 4, r: 1.2, fill: c })),
    p("slip-green", COLOURS.green.light, "#8cc796",
      (c) => svg("path", { d: "M0,4 L8,4 M4,0 L4,8", stroke: c, "stroke-width": 1 })),
    p("face-down", "#5d5d66", "#7d7d88",
      (c) => svg("path", { d: "M0,8 L8,0 M0,0 L8,8", stroke: c, "stroke-width": 1 })));
}

// The words a token is described by.
export function kindWords(kind) {
  return kind ? `${kind.colours.join("/")}${kind.symbol ? " with momentum symbol" : ""}` : "face-down";
}

// What a token looks like, for following it from one table to the next.
function kindKey(kind, faceUp) {
  return kind ? `ev:${kind.colours.join("+")}${kind.symbol ? "*" : ""}` : `ev:${faceUp ? "?" : "down"}`;
}

// One evidence token: a disc in its colour(s) (two colours: two halves),
// its colour letters, a star for the momentum symbol. `kind` null: face
// down and unknown to the viewer; `lacks`, the colours it is known not to
// have (R5.6, an ask in vain), drawn under its "?" as crossed-out dots of
// those colours, each with its colour's letter (the colour is never the
// only cue). The outer group has no transform of its own (a move animates
// it); the inner one places it.
export function tokenSvg(kind, { faceUp = true, r = 11, x = 0, y = 0, title, lacks = [] } = {}) {
  const g = svg("g", { class: "token" + (faceUp ? "" : " face-down"), "data-kind": kind ? kindKey(kind) : "ev:?" });
  const at = svg("g", { transform: `translate(${x},${y})` });
  g.append(at);
  if (!kind) {
    const known = lacks.filter((c) => COLOURS[c]);
    at.append(svg("circle", { r, fill: "url(#face-down)", stroke: "#222", "stroke-width": 1.5 }),
      svg("text", { class: "tok-letter down", y: known.length ? -r * 0.12 : r * 0.3, "text-anchor": "middle",
        style: `font-size:${r * (known.length ? 0.62 : 0.8)}px` }, "?"));
    if (known.length) {
      // A row of dots inside the disc (so the token's box stays its disc),
      // each with its colour's letter and struck through: "not this
      // colour". Two at most with the shipped tokens (each has a colour),
      // smaller if a game has three.
      g.dataset.lacks = known.join(" ");
      const few = known.length <= 2;
      const step = r * (few ? 0.78 : 0.52), pip = r * (few ? 0.36 : 0.25), cy = r * (few ? 0.42 : 0.4);
      const row = svg("g", { class: "lacks" });
      known.forEach((c, i) => {
        const cx = (i - (known.length - 1) / 2) * step;
        row.append(svg("circle", { class: "lack", "data-colour": c, cx, cy, r: pip, fill: COLOURS[c].fill, stroke: "#fff", "stroke-width": 0.5 }),
          svg("text", { class: "lack-letter", x: cx, y: cy + pip * 0.5, "text-anchor": "middle", fill: COLOURS[c].ink,
            style: `font-size:${pip * 1.45}px` }, COLOURS[c].letter),
          svg("line", { x1: cx - pip * 0.95, y1: cy + pip * 0.95, x2: cx + pip * 0.95, y2: cy - pip * 0.95, stroke: "#e0443a", "stroke-width": pip * 0.2, "stroke-linecap": "round" }));
      });
      at.append(row);
    }
  } else {
    const cs = kind.colours.map((c) => COLOURS[c] || { fill: "#999", letter: "?" });
    if (cs.length === 2) {
      at.append(svg("path", { d: `M0,${-r} A${r},${r} 0 0 0 0,${r} Z`, fill: cs[0].fill }),
        svg("path", { d: `M0,${-r} A${r},${r} 0 0 1 0,${r} Z`, fill: cs[1].fill }));
    } else {
      at.append(svg("circle", { r, fill: cs[0] ? cs[0].fill : "#999" }));
    }
    at.append(svg("circle", {
      r, fill: "none", stroke: "#222",
      "stroke-width": faceUp ? 1.3 : 2.2, "stroke-dasharray": faceUp ? null : "3 2",
    }));
    const label = cs.map((c) => c.letter).join("") + (kind.symbol ? "★" : "");
    const size = r * (label.length > 2 ? 0.62 : label.length > 1 ? 0.75 : 0.9);
    at.append(svg("text", { class: "tok-letter", y: size * 0.36, "text-anchor": "middle", style: `font-size:${size}px` }, label));
  }
  const t = title || `${kindWords(kind)} token${faceUp ? "" : " (face down)"}`;
  g.append(svg("title", {}, t));
  return g;
}

// The initiative token (a round yellow disc, I) or a momentum token (a
// purple square, M).
export function markerSvg(name, { x = 0, y = 0, r = 10, title } = {}) {
  const initiative = name === "initiative";
  const g = svg("g", { class: `marker ${initiative ? "initiative" : "momentum"}`, "data-kind": initiative ? "initiative" : "momentum" });
  g.append(svg("g", { transform: `translate(${x},${y})` },
    svg("rect", { x: -r, y: -r, width: 2 * r, height: 2 * r, rx: initiative ? r : r * 0.25 }),
    svg("text", { y: r * 0.4, "text-anchor": "middle", style: `font-size:${r * 1.1}px` }, initiative ? "I" : "M")),
  svg("title", {}, title || `the ${initiative ? "initiative" : "momentum"} token`));
  return g;
}

const SIZE = 30;
const HEX = SIZE * 0.84;
function hexCorner(cx, cy, i, size) {
  const a = (Math.PI / 180) * (60 * i - 30);
  return [cx + size * Math.cos(a), cy + size * Math.sin(a)];
}
function pixel(q, r) {
  return [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];
}

// A name on two lines when it is long (an informant's, inside its hex).
function nameLines(name) {
  const words = name.split(" ");
  if (name.length <= 9 || words.length < 2) return [name];
  const half = Math.ceil(words.length / 2);
  return [words.slice(0, half).join(" "), words.slice(half).join(" ")];
}

export function boardSvg(game, table, { clickable = {}, onSpace, wire } = {}) {
  const pos = {};
  for (const s of game.spaces) pos[s.id] = pixel(s.q, s.r);
  const xs = Object.values(pos).map((p) => p[0]);
  const ys = Object.values(pos).map((p) => p[1]);
  const padX = HEX * 0.866 + 4, padY = HEX + 4;
  const minX = Math.min(...xs) - padX, minY = Math.min(...ys) - padY;
  const w = Math.max(...xs) + padX - minX, hgt = Math.max(...ys) + padY - minY;
  const root = svg("svg", {
    class: "board", viewBox: `${minX} ${minY} ${w} ${hgt}`, role: "img",
    "aria-label": "The evidence board", preserveAspectRatio: "xMidYMid meet",
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
    const pts = [0, 1, 2, 3, 4, 5].map((i) => hexCorner(x, y, i, HEX).join(",")).join(" ");
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
      g.append(svg("text", { class: "slip-letter label", x, y: y - 12.5, "text-anchor": "middle" }, COLOURS[s.slip].letter),
        svg("text", { class: "space-id label", x, y: y + 20, "text-anchor": "middle" }, s.id));
    } else if (s.kind === "nixon") {
      g.append(svg("text", { class: "nixon-label label", x, y: y + 4, "text-anchor": "middle" }, "NIXON"));
    } else {
      // The informant's tile, recruited (face up) or secured (face down),
      // above the name; an empty frame while it is in the supply.
      const p = pictures[s.id];
      const tile = { x: x - 17, y: y - 21, width: 34, height: 16, rx: 2 };
      if (p) {
        g.append(svg("g", { class: `picture-tile ${p.place}`, "data-anim": `picture:${p.name}`, "data-kind": `picture:${p.place}` },
          svg("rect", { class: `picture ${p.place}`, ...tile }),
          svg("text", { class: "picture-mark", x, y: y - 11, "text-anchor": "middle" },
            p.place === "recruited" ? "RECRUITED" : "SECURED"),
          svg("title", {}, `${p.name}'s picture, ${p.place}`)));
      } else {
        g.append(svg("rect", { class: "picture empty", ...tile }));
      }
      const lines = nameLines(s.informant);
      lines.forEach((l, i) => g.append(svg("text", {
        class: "informant-name label", x, y: y + (lines.length === 1 ? 11 : 6.5 + i * 9.5), "text-anchor": "middle",
      }, l)));
    }
    const name = s.kind === "evidence" ? `${s.id}: ${s.slip} slip` : s.kind === "nixon" ? "Nixon" : `informant ${s.informant}`;
    g.append(svg("title", {}, name));
    const t = tokens[s.id];
    if (t) {
      const tok = tokenSvg(t.kind, { faceUp: t.face_up, x, y, r: 9.5 });
      tok.dataset.anim = `board:${s.id}`;
      g.append(tok);
    }
    if (wire) {
      const what = t ? `, ${kindWords(t.kind)} token ${t.face_up ? "face up" : "face down"}` : "";
      wire(g, `space:${s.id}`, `board space ${name}${what}`);
    }
    root.append(g);
  }
  return root;
}

// The research track: positions -L…L (Nixon's side left, the Editor's
// right). Each cell names its position on top; below, its tokens in a grid
// of three columns and two rows: the evidence tokens, the initiative token
// (I) and the momentum token (M). Its size does not depend on the tokens.
//
// `ladder: true` draws it for a narrow screen: 0 on top across, Nixon's
// spaces down the left and the Editor's down the right, 1 to 5 going
// down, each cell's name at its left and its tokens in a row after it.
const CELL = 60, CELL_H = 66, COLS = 3;
const LADDER_W = 200, LADDER_COL = 97, LADDER_ROW = 26;
export function trackSvg(table, { clickable = {}, onToken, wire, ladder = false } = {}) {
  const L = table.track_length;
  const at = {};
  const put = (pos, item) => (at[pos] = at[pos] || []).push(item);
  for (const t of table.track || []) put(t.pos, { name: `ev${t.slot}`, token: t });
  if (table.initiative_token !== null && table.initiative_token !== undefined) put(table.initiative_token, { name: "initiative" });
  if (table.momentum_token !== null && table.momentum_token !== undefined) put(table.momentum_token, { name: "momentum" });
  const w = ladder ? LADDER_W : (2 * L + 1) * CELL;
  const hgt = ladder ? LADDER_ROW * (L + 1) + 2 : CELL_H;
  const root = svg("svg", { class: "track" + (ladder ? " ladder" : ""), viewBox: `0 0 ${w} ${hgt}`, role: "img", "aria-label": "The research track" }, defs());
  for (let p = -L; p <= L; p++) {
    // The cell: where it is, and where its name and its tokens go.
    const cell = ladder
      ? { x: p < 0 ? 0 : p > 0 ? LADDER_W - LADDER_COL : 0, y: Math.abs(p) * LADDER_ROW, w: p === 0 ? LADDER_W : LADDER_COL, h: LADDER_ROW - 2 }
      : { x: (p + L) * CELL, y: 0, w: CELL, h: CELL_H };
    const side = p < 0 ? "nixon" : p > 0 ? "editor" : "centre";
    const cellRect = svg("rect", { class: `track-cell ${side}${Math.abs(p) === L ? " end" : ""}`, x: cell.x + 1, y: cell.y + 1, width: cell.w - 2, height: cell.h - 2, rx: 4, "data-target": `track:${p}` });
    const name = p === 0 ? "0" : (p < 0 ? `N${-p}` : `E${p}`);
    root.append(cellRect, ladder
      ? svg("text", { class: "track-pos label", x: cell.x + 12, y: cell.y + cell.h / 2 + 4, "text-anchor": "middle" }, name)
      : svg("text", { class: "track-pos label", x: cell.x + CELL / 2, y: 13, "text-anchor": "middle" }, name));
    if (wire) wire(cellRect, `track:${p}`, `track space ${p === 0 ? "0" : (p < 0 ? `Nixon's ${-p}` : `the Editor's ${p}`)}`);
    const items = at[p] || [];
    items.forEach((item, i) => {
      let cx, cy, r = 9;
      if (ladder) {
        // In a row after the name, closer together when five share a cell.
        const step = Math.min(18, (cell.w - 24 - 18) / Math.max(1, items.length - 1));
        r = Math.min(8.5, step / 2 - 0.2);
        cx = cell.x + 24 + 9 + i * step;
        cy = cell.y + cell.h / 2 + 0.5;
      } else {
        // One row in the middle for up to three; two rows for more.
        const row = Math.floor(i / COLS), col = i % COLS;
        const inRow = Math.min(COLS, items.length - row * COLS);
        cx = cell.x + CELL / 2 + (col - (inRow - 1) / 2) * 19;
        cy = items.length <= COLS ? 40 : 29 + row * 20.5;
      }
      const option = clickable[item.name];
      let g;
      if (item.token) {
        const k = item.token.kind;
        // R5.6: what a vain ask told everyone about a face-down token.
        const lacks = item.token.ruled_out ? `, not ${item.token.ruled_out.join(" nor ")} (asked in vain)` : "";
        g = tokenSvg(k, { faceUp: item.token.face_up, x: cx, y: cy, r, lacks: item.token.ruled_out || [],
          title: `${item.name}: ${k ? k.colours.join("/") + (k.symbol ? "★" : "") : "face-down token"}${item.token.face_up ? "" : " (face down)"}${lacks}` });
      } else {
        g = markerSvg(item.name, { x: cx, y: cy, r: r - 0.5 });
      }
      g.dataset.token = item.name;
      g.dataset.target = `token:${item.name}`;
      g.dataset.anim = item.name;
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
