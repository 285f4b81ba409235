// The table as the pages draw it: the research track, the evidence board,
// the momentum cards as cards with their tokens, the piles, the cards on
// the table and a hand of cards — from a view in the shape Play's API
// sends (play/seat.rs: `SeatTable` and its `seat`). Play, Puzzles and
// Replay draw the same table from it, so a puzzle or a replayed step looks
// like the game it comes from.
//
// Each option of a decision names the drawn things it is chosen by
// (`targets`, play/targets.rs) and what it would change (`effects`);
// `Targets` makes those things clickable where they are drawn, and a thing
// several options share (a card's value and its action) opens a small
// menu of exactly those options beside it.

import { h, code } from "/studio/api.js";
import { boardSvg, trackSvg, tokenSvg, markerSvg, svg } from "/studio/board.js";

export const SIDE = { editor: "the Editor", nixon: "Nixon" };
export const key = (side) => side.toLowerCase();

// The key a target is drawn under (`data-target`), one per drawn thing;
// a pile is one thing whichever of its cards an option names.
export function targetKey(t) {
  switch (t.at) {
    case "hand": return `hand:${t.card}`;
    case "table": return `table:${t.card}`;
    case "pile": return `pile:${t.pile}`;
    case "colour": return `colour:${t.card}:${t.colour}`;
    case "token": return `token:${t.token}`;
    case "track": return `track:${t.pos}`;
    case "space": return `space:${t.space}`;
    case "momentum": return `momentum:${t.side}:${t.space}`;
    default: return `unknown:${t.at}`;
  }
}

// The table's side of a decision: which drawn things choose which
// options, the highlight of what an option affects, and the menu a
// shared target opens.
export class Targets {
  constructor(options, pick) {
    this.options = options;
    this.pick = pick;
    this.root = null;
    this.menu = null;
    this.byKey = new Map();
    for (const o of options) {
      for (const k of new Set((o.targets || []).map(targetKey))) {
        if (!this.byKey.has(k)) this.byKey.set(k, []);
        this.byKey.get(k).push(o);
      }
    }
    this.wire = this.wire.bind(this);
  }

  // Makes `el`, drawn as `k`, choose its options: a button to assistive
  // technology and the keyboard, named by what it is and what it does.
  wire(el, k, label) {
    const opts = this.byKey.get(k);
    if (!opts) return;
    el.classList.add("targetable");
    el.setAttribute("role", "button");
    el.setAttribute("tabindex", "0");
    el.setAttribute("data-options", opts.map((o) => o.index).join(" "));
    el.setAttribute("aria-label", `${label}: ${opts.map((o) => o.text).join("; or ")}`);
    if (opts.length > 1) el.setAttribute("aria-haspopup", "menu");
    el.addEventListener("click", (e) => { e.stopPropagation(); this.activate(el, opts); });
    el.addEventListener("keydown", (e) => {
      // A key on a button inside (a card's own option buttons) is the button's.
      if (e.target !== el) return;
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); this.activate(el, opts); }
    });
    el.addEventListener("mouseenter", () => this.light(opts));
    el.addEventListener("mouseleave", () => this.unlight());
    el.addEventListener("focus", () => this.light(opts));
    el.addEventListener("blur", () => this.unlight());
  }

  // An option button lights up where its option is chosen and what it
  // would change, as the drawn thing does.
  explain(button, o) {
    button.addEventListener("mouseenter", () => this.light([o]));
    button.addEventListener("mouseleave", () => this.unlight());
    button.addEventListener("focus", () => this.light([o]));
    button.addEventListener("blur", () => this.unlight());
  }

  activate(el, opts) {
    if (opts.length === 1) { this.closeMenu(); this.pick(opts[0].index); } else this.openMenu(el, opts);
  }

  drawn(k) {
    return this.root ? this.root.querySelectorAll(`[data-target="${CSS.escape(k)}"]`) : [];
  }

  light(opts) {
    this.unlight();
    for (const o of opts) {
      for (const t of o.targets || []) for (const el of this.drawn(targetKey(t))) el.classList.add("aimed");
      for (const t of o.effects || []) for (const el of this.drawn(targetKey(t))) el.classList.add("effect");
    }
  }

  unlight() {
    if (!this.root) return;
    for (const el of this.root.querySelectorAll(".aimed, .effect")) el.classList.remove("aimed", "effect");
  }

  // The options `anchor` stands for, as a menu beside it on the table.
  openMenu(anchor, opts) {
    this.closeMenu();
    const menu = h("div", { class: "target-menu", role: "menu", "aria-label": anchor.getAttribute("aria-label") || "Choose" });
    const close = () => { this.closeMenu(); anchor.focus(); };
    const items = opts.map((o) => {
      const b = h("button", { class: "target-option", role: "menuitem", "data-index": o.index,
        onclick: (e) => { e.stopPropagation(); this.closeMenu(); this.pick(o.index); } }, o.text);
      this.explain(b, o);
      return b;
    });
    menu.append(...items, h("button", { class: "target-cancel", onclick: (e) => { e.stopPropagation(); close(); } }, "Cancel"));
    menu.addEventListener("keydown", (e) => {
      const all = [...menu.querySelectorAll("button")];
      const i = all.indexOf(document.activeElement);
      if (e.key === "Escape") { e.preventDefault(); close(); }
      else if (e.key === "ArrowDown") { e.preventDefault(); all[(i + 1) % all.length].focus(); }
      else if (e.key === "ArrowUp") { e.preventDefault(); all[(i - 1 + all.length) % all.length].focus(); }
    });
    this.root.append(menu);
    const a = anchor.getBoundingClientRect(), base = this.root.getBoundingClientRect();
    const left = Math.max(0, Math.min(a.left - base.left, base.width - menu.offsetWidth));
    menu.style.left = `${left}px`;
    // Below the thing, or above it where the window ends first.
    const below = a.bottom + 4 + menu.offsetHeight <= window.innerHeight || a.top - 4 - menu.offsetHeight < 0;
    menu.style.top = `${below ? a.bottom - base.top + 4 : a.top - base.top - 4 - menu.offsetHeight}px`;
    this.menu = menu;
    // A click anywhere else closes it.
    this.outside = (e) => { if (!menu.contains(e.target)) this.closeMenu(); };
    document.addEventListener("click", this.outside);
    items[0].focus();
  }

  closeMenu() {
    if (this.menu) this.menu.remove();
    if (this.outside) document.removeEventListener("click", this.outside);
    this.menu = null;
    this.outside = null;
  }
}

// The drawn table of view `v` (its `seat` is whose hand is drawn as the
// hand), as panels a page lays out: `track`, `board`, `momentum`,
// `piles`, `inPlay` (null when nothing is on the table) and `hand`, and
// `otherHand` when the other side's cards are given face up (`shown`: a
// puzzle, a replay of the whole table), else null. `info` is the box the
// board is drawn from (GET /api/game, or a puzzle's own). Drawn things
// choose `tg`'s options; a card of the hand carries a button for each
// option naming it (`pick` sends it). `you`: the hand is the player's own
// ("Your hand"); otherwise it is named by its side. `banner` goes over the
// board.
export function drawTable(info, v, { tg, pick, you = true, shown = null, shownLabel = "", banner = null }) {
  const seat = key(v.seat);
  const opts = tg.options;

  const track = h("section", { class: "panel track-panel" },
    h("h2", {}, h("span", { class: "nixon-end" }, "◂ Nixon"), "Research track", h("span", { class: "editor-end" }, "the Editor ▸")),
    trackSvg(v, { wire: tg.wire, ladder: narrow() }));
  // A board space answers a `space` option, and an informant's space a
  // `picture` option naming its informant: the targets say which.
  const board = h("section", { class: "panel board-panel" },
    h("h2", {}, `Evidence board — ${v.connected_informants} of ${v.informants_to_connect} informants connected`),
    h("div", { class: "board-box" }, boardSvg(info, v, { wire: tg.wire }), banner));

  const momentum = h("section", { class: "panel momentum" }, h("h2", {}, "Momentum cards"),
    ...info.momentum_cards.map((m) => momentumCard(m, v, tg)),
    h("p", { class: "supply", "data-anchor": "msupply" }, `Supply ${v.momentum.supply} · removed ${v.momentum.removed} · ${v.momentum.to_win} wins`));

  // A pile is one drawn thing: an option naming a card in it (a removed
  // card, a discarded one) is chosen by clicking the pile.
  const pile = (k, label, ...children) => {
    const li = h("li", { class: `pile ${k}`, "data-target": `pile:${k}` }, ...children);
    tg.wire(li, `pile:${k}`, label);
    return li;
  };
  const other = seat === "editor" ? "nixon" : "editor";
  const whose = (sd) => (sd === "editor" ? "the Editor's" : "Nixon's");
  const supplied = v.pictures.filter((p) => p.place === "supply");
  const piles = h("section", { class: "panel piles" }, h("h2", {}, "Piles"),
    h("ul", {},
      pile("bag", "the evidence bag", h("span", { class: "bag-icon", "aria-hidden": "true", "data-anchor": "bag" }), h("span", {}, h("b", {}, v.bag), " in the bag")),
      ...["editor", "nixon"].map((sd) => pile(`${sd}_discard`, `${SIDE[sd]}'s discard pile`,
        pileTop(v.discards[sd], `${SIDE[sd]}'s discards`), h("span", {}, h("b", {}, v.discards[sd].length), ` ${sd === "editor" ? "Editor's" : "Nixon's"} discards`))),
      v.removed.length || tg.byKey.has("pile:removed") ? pile("removed", "the cards out of the game",
        pileTop(v.removed, "Out of the game"), h("span", {}, h("b", {}, v.removed.length), " out")) : null),
    h("div", { class: "decks" },
      h("span", { class: "backs", title: `${SIDE[other]}'s hand` }, h("span", { "data-anchor": `hand:${other}` }, cardBacks(v.hand_sizes[other], other)),
        ` ${v.hand_sizes[other]} in ${whose(other)} hand`),
      h("span", { "data-anchor": `deck:${other}` }, `${you ? (other === "editor" ? "her" : "his") : whose(other)} deck ${v.deck_sizes[other]}`),
      h("span", { "data-anchor": `deck:${seat}` }, `${you ? "your" : whose(seat)} deck ${v.deck_sizes[seat]}`)),
    supplied.length ? h("p", { class: "supplied" }, "Pictures in the supply: ",
      supplied.map((p) => h("span", { class: "picture-chip", "data-anim": `picture:${p.name}`, "data-kind": "picture:supply" }, p.name))) : null);

  // The cards on the table, each as a card: a drawn card's part, a
  // reaction's pass, the colour the Editor asks for (R5.6) are chosen on it.
  const inPlay = v.in_play.length || v.held_token ? h("section", { class: "panel in-play" }, h("h2", {}, "On the table"),
    h("div", { class: "table-cards" }, ...v.in_play.map((p) => h("div", { class: "table-play" },
      tableCard(p.card, tg, key(p.player) === seat ? null : `hand:${key(p.player)}`),
      h("p", { title: `${p.player} plays ${p.card.name}${p.part ? ` for its ${p.part.toLowerCase()}` : ""}` },
        `${p.player}${p.part ? ` · for its ${p.part.toLowerCase()}` : ""}${p.cancelled ? " (cancelled)" : ""}`))),
    v.held_token ? h("p", { class: "held" }, "Token to pin: ", inlineToken(v.held_token), ` ${v.held_token.colours.join("/")}${v.held_token.symbol ? " ★" : ""}`) : null)) : null;

  // The hand: card faces; a legal play shows its buttons on the card.
  const plays = {};
  for (const o of opts) if ((o.kind === "play" || o.kind === "card" || o.kind === "react") && o.card) (plays[o.card] = plays[o.card] || []).push(o);
  const owner = you ? "your hand" : `${whose(seat)} hand`;
  const hand = h("section", { class: "panel hand" }, h("h2", {}, you ? `Your hand (${v.hand.length})` : `${SIDE[seat][0].toUpperCase()}${SIDE[seat].slice(1)}'s hand (${v.hand.length})`),
    h("div", { class: "cards" }, ...v.hand.map((c) => {
      const face = cardFace(c, plays[c.id] || [], pick, `deck:${seat}`);
      tg.wire(face, `hand:${c.id}`, `${c.name}, in ${owner}`);
      zoomOnHover(face, c);
      return face;
    })));

  // The other side's hand face up, where it is shown (a full-information
  // position): small cards, the whole card on hover.
  const otherHand = shown ? h("section", { class: "panel other-hand" },
    h("h2", {}, `${SIDE[other][0].toUpperCase()}${SIDE[other].slice(1)}'s hand (${shown.length})`, shownLabel ? h("span", { class: "shown-label" }, shownLabel) : null),
    h("div", { class: "cards compact" }, ...shown.map((c) => {
      const face = cardFace(c, [], pick, `deck:${other}`);
      zoomOnHover(face, c);
      return face;
    }))) : null;

  return { track, board, momentum, piles, inPlay, hand, otherHand };
}

// The cards on the table and the other hand shown face up, side by side
// beside the board (style.css), or whichever of them there is.
export function asideRow(inPlay, otherHand) {
  return inPlay && otherHand ? h("div", { class: "aside-row" }, inPlay, otherHand) : inPlay || otherHand;
}

// Beside the board (Puzzles, Replay: the other hand lies there too): when
// what lies there is taller than the board, the two momentum cards go side
// by side, their spaces' titles left to their tooltips (`tight`); when it
// still is, the cards on the table go one line each (`tighter`). Call once
// the table is on the page; a phone's one column is never tight.
export function fitAside(root) {
  const aside = root.querySelector(".table-aside");
  if (!aside) return;
  aside.classList.remove("tight", "tighter");
  const over = () => aside.scrollHeight > aside.clientHeight + 1;
  if (over()) aside.classList.add("tight");
  if (over()) aside.classList.add("tighter");
}

// The side column (Play, Puzzles): the option list gives way first when
// the column is short, and a hand of two cards a row (a window 1000 to
// 1350 px wide) squeezed it to a row or less. The list's height cap
// (style.css) is raised to what four options (or all, if fewer) take, so
// that it never holds them to three in a short window (a laptop's 630 px);
// while they still do not show without scrolling the list, the column is
// drawn tighter, a step at a time (style.css): the hand's cards with one
// line of their action text; the options without their notation (each
// keeps it as its button's tooltip); the cards without action text (it is
// the card's tooltip, and the whole card shows on hover); without their
// type line; their names on one line. A page may add steps of its own
// (`steps`: Puzzles). Call once the table is on the page, and again when
// the window is resized; a phone's one column is never tight.
export const OPTIONS_IN_VIEW = 4;
export const SIDE_STEPS = ["short-actions", "no-notation", "no-actions", "no-types", "short-names"];
export function fitSide(root, steps = SIDE_STEPS) {
  const side = root.querySelector(".side");
  if (!side) return;
  side.classList.remove(...steps);
  const list = side.querySelector(".options");
  if (!list) return;
  list.classList.remove("unscrolled");
  list.style.removeProperty("--rows-in-view");
  if (!narrow()) fitOptions(side, list, steps);
  // The list is measured above with its scroll bar's room kept (style.css);
  // a list that then does not scroll gives that room to its rows. Wider,
  // they wrap no more than before; but a list squeezed by a full column
  // may still come to scroll (its bar then wraps its rows again, taller
  // than the room it had): it keeps the room then.
  const scrolls = () => list.scrollHeight > list.clientHeight;
  if (scrolls()) return;
  list.classList.add("unscrolled");
  if (scrolls()) list.classList.remove("unscrolled");
}

// fitSide's steps, until the option list shows four options.
function fitOptions(side, list, steps) {
  const rows = [...list.children];
  const want = rows[Math.min(OPTIONS_IN_VIEW, rows.length) - 1];
  if (!want) return;
  // How high the list must be for that row to show at its top (the list
  // may be scrolled).
  const need = () => want.getBoundingClientRect().bottom - list.getBoundingClientRect().top + list.scrollTop;
  const lift = () => list.style.setProperty("--rows-in-view", `${Math.ceil(need())}px`);
  // Its box, not `clientHeight`: that is rounded, and a list squeezed
  // by less than a pixel hid a row's last half pixel.
  const short = () => need() > list.getBoundingClientRect().height + 0.5;
  lift();
  for (const step of steps) {
    if (!short()) break;
    side.classList.add(step);
    // A step may make the rows shorter (no notation beside a button).
    lift();
  }
}

// A narrow screen (a phone) has a layout of its own (style.css); the
// track is drawn as a ladder there.
export const NARROW = "(max-width: 999px), (max-height: 619px)";
export function narrow() {
  return !!(window.matchMedia && window.matchMedia(NARROW).matches);
}

// On a narrow screen the page is one column with the decision near its
// top: a choice clicked lower down (a card of the hand, a space of the
// board) would leave the next prompt above the window. Scrolls `to` (the
// decision, or the bar above it where a puzzle shows the solver at work)
// to the window's top when the prompt is out of view above. Called before
// the answer is drawn, so that its moves glide where they are seen.
export function promptInView(root, to) {
  if (!narrow()) return;
  const prompt = root.querySelector("#decision h2");
  const top = root.querySelector(to);
  if (prompt && top && prompt.getBoundingClientRect().bottom <= 0) top.scrollIntoView({ block: "start" });
}

// A momentum card as its card: its name, its five spaces in a row, the
// momentum tokens on the lowest ones (R7.3) and each space's title. A
// space is a target where an option names it.
function momentumCard(m, v, tg) {
  const side = key(m.side);
  const on = v.momentum.on_card[side];
  return h("article", { class: `momentum-card ${side}`, "data-card": m.id },
    h("header", {}, h("span", { class: "name" }, m.name), h("span", { class: "count" }, `${on} of ${m.spaces.length}`)),
    h("ol", {}, ...m.spaces.map((sp, i) => {
      const k = `momentum:${side}:${i + 1}`;
      const li = h("li", { class: i < on ? "filled" : "", "data-target": k, title: sp.title ? `${i + 1}. ${sp.title}: ${sp.text || ""}` : `space ${i + 1}` },
        h("span", { class: "slot" }, i < on
          ? svg("svg", { class: "mtoken", viewBox: "-10 -10 20 20", "data-anim": `mcard:${side}:${i + 1}`, "data-kind": "momentum", "data-from": "momentum" },
            markerSvg("momentum", { r: 9 }))
          : h("span", { class: "no" }, i + 1)),
        h("span", { class: "title" }, sp.title || ""));
      tg.wire(li, k, `${SIDE[side]}'s momentum space ${i + 1}${sp.title ? `, ${sp.title}` : ""}`);
      return li;
    })));
}

// The top card of a pile, small, or an empty place.
function pileTop(cards, label) {
  const top = cards[cards.length - 1];
  if (!top) return h("span", { class: "pile-empty", title: label }, "empty");
  return h("span", { class: `mini ${key(top.side)}`, "data-anim": `card:${top.id}`, "data-kind": `card:${top.id}`,
    title: `${label}: ${cards.map((c) => c.name).join(", ")}` },
  h("b", { class: "value" }, top.value), h("span", { class: "mini-name" }, top.name));
}

// The backs of the cards in a hand the seat may not see: only how many.
function cardBacks(n, side) {
  return h("span", { class: `card-backs ${side}`, "aria-hidden": "true" },
    ...Array.from({ length: Math.min(n, 6) }, () => h("span", { class: "back" })));
}

// A card on the table: its value, name, colours and type. The card is a
// target (a drawn card's part, letting a play stand, a branch of its
// action); so is each colour printed on it (the Editor's ask, R5.6). An
// opponent's card comes from their hand (`from`).
function tableCard(c, tg, from) {
  const el = h("article", { class: `card on-table ${key(c.side)}`, "data-card": c.id, "data-target": `table:${c.id}`, title: c.action_text,
    "data-anim": `card:${c.id}`, "data-kind": `card:${c.id}`, "data-from": from },
  h("header", {}, h("span", { class: "value" }, c.value), h("span", { class: "name" }, c.name)),
  h("div", { class: "colours" }, ...c.colours.map((col) => {
    const k = `colour:${c.id}:${col}`;
    const chip = h("span", { class: `colour ${col}`, "data-target": k, title: col }, col);
    tg.wire(chip, k, `the colour ${col} printed on ${c.name}`);
    return chip;
  })),
  h("p", { class: "type" }, c.card_type + (c.reaction ? " · reaction" : "")));
  tg.wire(el, `table:${c.id}`, `${c.name}, on the table`);
  return el;
}

function inlineToken(kind) {
  const t = tokenSvg(kind, { r: 11 });
  t.dataset.anim = "held";
  return svg("svg", { class: "inline-token", viewBox: "-12 -12 24 24", width: 24, height: 24 }, t);
}

// A field of a card, marked when the data says its value is a placeholder
// (with the open question that explains it, docs/open-questions.md).
function marked(c, field, content, cls) {
  const p = (c.placeholders || []).find((x) => x.field === field);
  return h("span", { class: cls + (p ? " placeholder" : ""), title: p ? `placeholder value (${p.question || "open question"})` : null }, content);
}

function pips(c) {
  return marked(c, "colours", c.colours.map((col) => h("span", { class: `pip ${col}`, title: col }, col[0].toUpperCase())), "pips");
}

// A card of the hand, drawn as the card: value, name, number, colours,
// type, action text and quote, the placeholders marked. Its action text is
// its `title` (a hover shows it, and the card grows into a full card
// beside the hand) and its description for a screen reader; the card takes
// keyboard focus, and a focused card shows the text as a tooltip too
// (style.css).
export function cardFace(c, options, pick, from) {
  const action = `action-${c.id}`;
  return h("article", { class: `card ${key(c.side)}${options.length ? " playable" : ""}`, "data-card": c.id,
    "data-anim": `card:${c.id}`, "data-kind": `card:${c.id}`, "data-from": from,
    title: c.action_text, tabindex: 0, "aria-describedby": action },
  h("header", {}, marked(c, "value", c.value, "value"), h("span", { class: "name" }, c.name)),
  h("div", { class: "kind" }, pips(c), h("span", { class: "type" }, c.card_type + (c.reaction ? " · reaction" : "")), marked(c, "number", `#${c.number}`, "number")),
  h("p", { class: "action", id: action }, code(c.action_text)),
  c.quote ? marked(c, "quote", `“${c.quote}”`, "quote") : null,
  options.length ? h("div", { class: "card-options" }, ...options.map((o) =>
    // The card itself is a target too: a button's click is the button's.
    h("button", { class: "card-option", "data-index": o.index, title: o.text, "aria-label": o.text, onclick: (e) => { e.stopPropagation(); pick(o.index); } },
      o.kind === "play" ? o.part.toLowerCase() : o.kind === "react" ? "react" : "choose"))) : null);
}

// Removes every card shown whole on hover: it belongs to the table drawn
// before, and its face may be gone without the pointer leaving it (a new
// table, or the hotseat handover screen, which must show nothing of the
// previous player's hand).
export function dropZooms() {
  for (const z of document.querySelectorAll(".card-zoom")) z.remove();
}

// The whole card, large, beside the hand while the pointer is on a card
// (the hand's cards are small): nothing is clipped there.
function zoomOnHover(face, c) {
  let zoom = null;
  face.addEventListener("mouseenter", () => {
    if (narrow()) return;
    const r = face.getBoundingClientRect();
    zoom = h("div", { class: `card-zoom card ${key(c.side)}`, "aria-hidden": "true" },
      h("header", {}, marked(c, "value", c.value, "value"), h("span", { class: "name" }, c.name), marked(c, "number", `#${c.number}`, "number")),
      h("div", { class: "kind" }, pips(c), h("span", { class: "type" }, c.card_type + (c.reaction ? " · reaction" : "") + (c.informant ? ` · ${c.informant}` : ""))),
      h("p", { class: "zoom-action" }, code(c.action_text)),
      c.quote ? marked(c, "quote", `“${c.quote}”`, "quote") : null);
    document.body.append(zoom);
    // Left of the hand's panel, level with the card: no card of the hand
    // is covered.
    const panel = (face.closest(".hand, .other-hand") || face).getBoundingClientRect();
    const top = Math.max(8, Math.min(r.top, window.innerHeight - zoom.offsetHeight - 8));
    zoom.style.left = `${Math.max(8, panel.left - zoom.offsetWidth - 8)}px`;
    zoom.style.top = `${top}px`;
  });
  const away = () => { if (zoom) zoom.remove(); zoom = null; };
  face.addEventListener("mouseleave", away);
  face.addEventListener("click", away);
}
