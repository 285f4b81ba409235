// Play: a game against an agent, or two players at one screen (hotseat).
// Everything shown comes from the seat's view the server sends
// (GET /api/games/{id}); a click sends the option's index, the text box
// sends notation.
//
// Each option names the drawn things it is chosen by (`targets`: a card
// in the hand or on the table, a track token, a board space, a pile, a
// colour of the card played, a momentum space) and what it would change
// (`effects`), as play/targets.rs derives them from the engine's decision.
// Those things are clickable where they are drawn; a thing several options
// share (a card's value and its action) opens a small menu of exactly
// those options beside it. Hover and keyboard focus light up what an
// option would affect. The option buttons and the notation box stay, for
// keyboards and screen readers.

import { api, game as gameInfo, h, saveText } from "/studio/api.js";
import { boardSvg, trackSvg, tokenSvg, markerSvg, svg } from "/studio/board.js";
import { SPEEDS, speedName, setSpeed, timing, snapshot, glide, pause } from "/studio/motion.js";

const STORE = "watergate.play";

function saved() {
  try { return JSON.parse(sessionStorage.getItem(STORE)); } catch (_) { return null; }
}

export async function mount(el, { params }) {
  const info = await gameInfo();
  const s = saved();
  if (s && (!params[0] || params[0] === s.game)) {
    const p = new Play(el, info, s);
    p.load(s.current).catch(() => { sessionStorage.removeItem(STORE); startScreen(el, info); });
  } else {
    startScreen(el, info);
  }
  const mq = window.matchMedia ? window.matchMedia(NARROW) : null;
  const again = () => { if (active) active.relayout(); };
  if (mq) mq.addEventListener("change", again);
  return () => {
    if (mq) mq.removeEventListener("change", again);
    if (active) { active.skipping = true; active.gone = true; }
    active = null;
    // The table takes the whole window (style.css): not so other pages.
    document.body.classList.remove("at-table");
  };
}

// The game on the page, if any.
let active = null;

function startScreen(el, info) {
  document.body.classList.remove("at-table");
  const mode = h("select", { id: "mode", name: "mode" },
    h("option", { value: "editor" }, "I play the Editor"),
    h("option", { value: "nixon" }, "I play Nixon"),
    h("option", { value: "hotseat" }, "Hotseat: two players at this screen"));
  // Any agent the engine knows: the list suggests, the box takes any
  // `ismcts:N` (iterations) or `ismcts:Nms` (a time budget).
  const ai = h("input", { id: "ai", name: "ai", list: "agents", value: "ismcts:1000:threads=2", size: 22, autocomplete: "off" });
  const agents = h("datalist", { id: "agents" }, ...info.agents.map((a) => h("option", { value: a })));
  const seed = h("input", { id: "seed", name: "seed", type: "number", min: 0, placeholder: "random" });
  const err = h("p", { class: "error", role: "alert" });
  const start = h("button", {
    id: "start", class: "primary",
    onclick: async () => {
      err.textContent = "";
      start.disabled = true;
      try {
        const body = { mode: mode.value };
        if (mode.value !== "hotseat") body.ai = ai.value.trim();
        if (seed.value !== "") body.seed = Number(seed.value);
        const c = await api("/api/games", { method: "POST", body });
        const first = c.seats.editor ? "editor" : "nixon";
        const s = { game: c.game, seats: c.seats, mode: c.mode, hotseat: mode.value === "hotseat", current: first, logs: {} };
        sessionStorage.setItem(STORE, JSON.stringify(s));
        el.replaceChildren();
        const p = new Play(el, info, s);
        await p.load(first);
      } catch (e) {
        err.textContent = e.message;
        start.disabled = false;
      }
    },
  }, "Start the game");
  el.replaceChildren(h("section", { class: "start panel" },
    h("h1", {}, "Play Watergate"),
    h("p", {}, `The game: ${info.source}. Each screen shows only what its player may see.`),
    h("label", {}, "Who plays ", mode),
    h("label", { class: "ai-choice" }, "The opponent ", ai, agents,
      h("span", { class: "hint" }, " random, heuristic, ismcts:N or ismcts:Nms")),
    h("label", {}, "Seed ", seed),
    start, err));
  mode.addEventListener("change", () => { ai.disabled = mode.value === "hotseat"; });
}

const SIDE = { editor: "the Editor", nixon: "Nixon" };
const key = (side) => side.toLowerCase();

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
class Targets {
  constructor(options, pick) {
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

class Play {
  constructor(el, info, s) {
    this.el = el;
    this.info = info;
    this.s = s;
    this.s.logs = this.s.logs || {};
    this.s.seen = this.s.seen || {};
    this.view = null;
    this.busy = false;
    // Playing moves back: `skipping` ends it at once (the Skip button).
    this.playing = false;
    this.skipping = false;
    active = this;
  }

  persist() { sessionStorage.setItem(STORE, JSON.stringify(this.s)); }

  // The track is drawn for the layout: draw again when the window crosses
  // from one layout to the other (not while moves are played back).
  relayout() {
    if (this.view && !this.playing && this.el.querySelector(".play.table")) this.render();
  }

  log(seat) { return (this.s.logs[seat] = this.s.logs[seat] || []); }

  // Keeps the narration the server sent: lines from `from` on.
  keepLog(v) {
    const l = this.log(key(v.seat));
    l.length = Math.min(l.length, v.log.from);
    l.push(...v.log.lines);
  }

  // A seat's whole view, narration from the start: in hotseat the other
  // player's choices (or an undo) may have changed it since this seat last
  // looked. Answers to this seat's own choices carry only the new lines.
  // The moves since the step the seat last saw come too, to be played
  // back (all of them the first time: an agent may have opened the game).
  async load(seat) {
    this.s.current = seat;
    const after = this.s.seen[seat] ?? 0;
    const v = await api(`/api/games/${this.s.game}?since=0&after=${after}`, { seat: this.s.seats[seat] });
    await this.show(v);
  }

  async show(v) {
    const seat = key(v.seat);
    const shown = this.view && key(this.view.seat) === seat ? this.s.seen[seat] : undefined;
    // The narration this seat's page had: what is after it is new.
    const linesBefore = Math.min(this.log(seat).length, v.log.from + v.log.lines.length);
    this.keepLog(v);
    this.view = v;
    this.persist();
    // Hotseat: when the other seat decides next, hand the screen over.
    if (this.s.hotseat && !v.outcome && v.waiting_for && key(v.waiting_for) !== seat) {
      this.handover(key(v.waiting_for));
      return;
    }
    const moves = (v.moves || []).filter((m) => shown === undefined || m.step > shown);
    let from = linesBefore, last = null;
    if (moves.length > 1 && timing().dwell > 0) {
      from = await this.playback(moves, v, linesBefore);
      if (!this.skipping) last = { index: moves.length - 1, count: moves.length, mover: moves[moves.length - 1].mover };
    }
    // A new game, or another page, while the moves played: nothing to draw.
    if (this.gone) return;
    const before = snapshot(this.el);
    this.render({ from, last });
    this.s.seen[seat] = v.step;
    this.persist();
    await glide(this.el, before, timing().glide);
    // The last move's words stay over the board a moment, then go.
    if (last) {
      const banner = this.el.querySelector("#banner");
      await pause(timing().dwell * 1.5, () => this.skipping || !banner || !banner.isConnected);
      if (banner) banner.remove();
    }
  }

  // The moves before the last one, each drawn as the seat saw the table
  // then, with its narration, gliding from the one before; the last move's
  // table is the view's own, drawn next. The seat's own choices pass
  // quickly, the opponent's and chance's stay for the player to follow.
  // Returns the first narration line the last move told.
  async playback(moves, v, linesBefore) {
    const seat = key(v.seat);
    this.playing = true;
    this.skipping = false;
    let from = linesBefore;
    try {
      for (let i = 0; i < moves.length - 1 && !this.skipping && !this.gone; i++) {
        const m = moves[i];
        const t = timing();
        const before = snapshot(this.el);
        this.render({ move: m, last: { index: i, count: moves.length, mover: m.mover }, from });
        await glide(this.el, before, t.glide);
        const own = m.mover && key(m.mover) === seat;
        await pause(own ? 0 : t.dwell, () => this.skipping);
        from = m.lines;
      }
    } finally {
      this.playing = false;
    }
    return this.skipping ? linesBefore : from;
  }

  handover(to) {
    document.body.classList.remove("at-table");
    this.el.replaceChildren(h("section", { class: "handover panel", id: "handover" },
      h("h1", {}, `Pass the screen to ${SIDE[to]}`),
      h("p", {}, `${SIDE[to]}, press the button when only you are looking.`),
      h("button", { id: "handover-ready", class: "primary", onclick: () => this.load(to).catch((e) => this.fail(e)) },
        `I am ${SIDE[to]}: show my view`)));
  }

  fail(e) {
    const box = this.el.querySelector("#message");
    if (box) { box.textContent = e.message; box.classList.add("error"); } else alert(e.message);
  }

  async choose(body) {
    if (this.busy) return;
    this.busy = true;
    const seat = key(this.view.seat);
    this.el.classList.add("thinking");
    try {
      const v = await api(`/api/games/${this.s.game}/choose`, {
        method: "POST", seat: this.s.seats[seat],
        body: { ...body, step: this.view.step, since: this.log(seat).length, moves: true },
      });
      this.el.classList.remove("thinking");
      await this.show(v);
    } catch (e) {
      this.fail(e);
    } finally {
      this.busy = false;
      this.el.classList.remove("thinking");
    }
  }

  async undo() {
    const seat = key(this.view.seat);
    try {
      const v = await api(`/api/games/${this.s.game}/undo`, { method: "POST", seat: this.s.seats[seat], body: { since: this.log(seat).length } });
      await this.show(v);
    } catch (e) { this.fail(e); }
  }

  async download(what) {
    const seat = key(this.view.seat);
    try {
      const res = await api(`/api/games/${this.s.game}/${what}`, { seat: this.s.seats[seat], raw: true });
      // The seed is in the name only where the server shows it (chosen,
      // or the game is over): an unchosen seed is a secret until the end.
      const tag = this.view.seed ?? "game";
      saveText(await res.text(), what === "scenario" ? `watergate-${tag}.ron` : `watergate-${tag}.log.ron`);
    } catch (e) { this.fail(e); }
  }

  newGame() {
    this.skipping = true;
    this.gone = true;
    sessionStorage.removeItem(STORE);
    api(`/api/games/${this.s.game}`, { method: "DELETE", seat: this.s.seats[this.s.current] }).catch(() => {});
    startScreen(this.el, this.info);
  }

  // The table. `move` (while playing moves back): draw that move's table
  // instead of the view's, with no decision; `from`: the first narration
  // line that is new (marked, and told in the banner).
  // `last`: the move whose words the banner over the board shows.
  render({ move = null, last = null, from = 0 } = {}) {
    const v = move ? { ...this.view, ...move, decision: null, outcome: null, can_undo: false } : this.view;
    const seat = key(v.seat);
    const d = v.decision;
    const opts = d ? d.options : [];
    const pick = (index) => this.choose({ option: index });
    if (this.targets) this.targets.closeMenu();
    // A card shown whole on hover belongs to the table drawn before.
    for (const z of document.querySelectorAll(".card-zoom")) z.remove();
    const tg = (this.targets = new Targets(opts, pick));
    const all = this.log(seat);
    const lines = move ? all.slice(0, move.lines) : all;
    const fresh = lines.slice(Math.min(from, lines.length));

    // The bar: whose view, the round, and how moves are shown.
    const speed = h("select", { id: "speed", "aria-label": "How the moves are shown",
      onchange: (e) => { setSpeed(e.target.value); if (e.target.value === "off") this.skipping = true; } },
      ...Object.entries(SPEEDS).map(([k, sp]) => h("option", { value: k, selected: k === speedName() }, sp.label)));
    const bar = h("div", { class: "bar" },
      h("h1", {}, `${v.seat}'s view`),
      h("span", { class: "facts" },
        h("span", {}, `Round ${v.round}`), h("span", {}, v.phase),
        h("span", {}, `${v.initiative} holds the initiative`),
        h("span", {}, v.mode === "hotseat" ? "Hotseat" : `Opponent: ${v.opponent}`)),
      h("label", { class: "speed", title: "How the other side's moves are played back: off shows the result at once" }, "Moves ", speed));
    const outcome = v.outcome ? h("div", { id: "outcome", class: `outcome ${key(v.outcome.winner)}` }, `Game over: ${v.outcome.text}`,
      v.seed != null ? h("span", { class: "seed" }, ` Seed ${v.seed}: play the same deal again with it.`) : null) : null;

    const track = h("section", { class: "panel track-panel" },
      h("h2", {}, h("span", { class: "nixon-end" }, "◂ Nixon"), "Research track", h("span", { class: "editor-end" }, "the Editor ▸")),
      trackSvg(v, { wire: tg.wire, ladder: narrow() }));
    // A board space answers a `space` option, and an informant's space a
    // `picture` option naming its informant: the targets say which.
    const who = last && (last.mover ? (key(last.mover) === seat ? "You" : SIDE[key(last.mover)]) : "Chance");
    const banner = last ? h("div", { class: "banner", id: "banner", "aria-live": "polite", "data-mover": last.mover ? key(last.mover) : "chance" },
      h("span", { class: "who" }, `${who[0].toUpperCase()}${who.slice(1)} · step ${last.index + 1} of ${last.count}`),
      fresh.slice(-4).map((l) => h("div", { class: "said" }, l)),
      move ? h("button", { id: "skip", onclick: () => { this.skipping = true; } }, "Skip") : null) : null;
    const board = h("section", { class: "panel board-panel" },
      h("h2", {}, `Evidence board — ${v.connected_informants} of ${v.informants_to_connect} informants connected`),
      h("div", { class: "board-box" }, boardSvg(this.info, v, { wire: tg.wire }), banner));

    const momentum = h("section", { class: "panel momentum" }, h("h2", {}, "Momentum cards"),
      ...this.info.momentum_cards.map((m) => momentumCard(m, v, tg)),
      h("p", { class: "supply", "data-anchor": "msupply" }, `Supply ${v.momentum.supply} · removed ${v.momentum.removed} · ${v.momentum.to_win} wins`));

    // A pile is one drawn thing: an option naming a card in it (a removed
    // card, a discarded one) is chosen by clicking the pile.
    const pile = (k, label, ...children) => {
      const li = h("li", { class: `pile ${k}`, "data-target": `pile:${k}` }, ...children);
      tg.wire(li, `pile:${k}`, label);
      return li;
    };
    const other = seat === "editor" ? "nixon" : "editor";
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
          ` ${v.hand_sizes[other]} in ${other === "editor" ? "the Editor's" : "Nixon's"} hand`),
        h("span", { "data-anchor": `deck:${other}` }, `${other === "editor" ? "her" : "his"} deck ${v.deck_sizes[other]}`),
        h("span", { "data-anchor": `deck:${seat}` }, `your deck ${v.deck_sizes[seat]}`)),
      supplied.length ? h("p", { class: "supplied" }, "Pictures in the supply: ",
        supplied.map((p) => h("span", { class: "picture-chip", "data-anim": `picture:${p.name}`, "data-kind": "picture:supply" }, p.name))) : null);

    // The cards on the table, each as a card: a drawn card's part, a
    // reaction's pass, the colour the Editor asks for (R5.6) are chosen on it.
    const table = v.in_play.length || v.held_token ? h("section", { class: "panel in-play" }, h("h2", {}, "On the table"),
      h("div", { class: "table-cards" }, ...v.in_play.map((p) => h("div", { class: "table-play" },
        tableCard(p.card, tg, key(p.player) === seat ? null : `hand:${key(p.player)}`),
        h("p", { title: `${p.player} plays ${p.card.name}${p.part ? ` for its ${p.part.toLowerCase()}` : ""}` },
          `${p.player}${p.part ? ` · for its ${p.part.toLowerCase()}` : ""}${p.cancelled ? " (cancelled)" : ""}`))),
      v.held_token ? h("p", { class: "held" }, "Token to pin: ", inlineToken(v.held_token), ` ${v.held_token.colours.join("/")}${v.held_token.symbol ? " ★" : ""}`) : null)) : null;

    // The hand: card faces; a legal play shows its buttons on the card.
    const plays = {};
    for (const o of opts) if ((o.kind === "play" || o.kind === "card" || o.kind === "react") && o.card) (plays[o.card] = plays[o.card] || []).push(o);
    const hand = h("section", { class: "panel hand" }, h("h2", {}, `Your hand (${v.hand.length})`),
      h("div", { class: "cards" }, ...v.hand.map((c) => {
        const face = cardFace(c, plays[c.id] || [], pick, `deck:${seat}`);
        tg.wire(face, `hand:${c.id}`, `${c.name}, in your hand`);
        zoomOnHover(face, c);
        return face;
      })));

    const decision = h("section", { class: "panel decision", id: "decision" });
    if (d) {
      decision.append(h("h2", { id: "prompt" }, d.prompt),
        h("ol", { class: "options", start: 1 }, ...opts.map((o) => {
          const b = h("button", { class: "option", "data-index": o.index, onclick: () => pick(o.index) }, o.text);
          tg.explain(b, o);
          return h("li", {}, b, h("code", {}, o.notation));
        })));
      const text = h("input", { id: "notation", type: "text", placeholder: "or type a choice: ev2, pass, deep_throat value…", autocomplete: "off" });
      decision.append(h("form", { class: "notation", onsubmit: (e) => { e.preventDefault(); if (text.value.trim()) this.choose({ text: text.value.trim() }); } },
        text, h("button", { type: "submit" }, "Choose")));
    } else if (move) {
      decision.append(h("h2", { id: "prompt" }, move.mover && key(move.mover) !== seat ? `${SIDE[key(move.mover)]} plays…` : "Your move…"));
    } else if (v.waiting_for) {
      decision.append(h("p", {}, `Waiting for ${v.waiting_for}…`));
    } else if (v.outcome) {
      decision.append(h("p", {}, "The game is over."));
    }
    decision.append(h("p", { id: "message", role: "alert" }));
    const tools = h("div", { class: "tools" },
      h("button", { id: "undo", disabled: !v.can_undo, title: v.why_no_undo ?? "Take back your last decision", onclick: () => this.undo() }, "Undo"),
      h("button", { id: "save", disabled: !v.can_save, title: v.can_save ? "" : "Against an agent, the position can be saved once the game is over (it holds the opponent's hand).", onclick: () => this.download("scenario") }, "Save position"),
      v.outcome ? h("button", { id: "save-log", onclick: () => this.download("log") }, "Download the log") : null,
      h("button", { id: "new-game", onclick: () => this.newGame() }, "New game"));
    decision.append(tools);

    const newFrom = lines.length - fresh.length;
    const narration = h("section", { class: "panel narration" }, h("h2", {}, "What happened"),
      h("ol", { id: "log", reversed: true, start: lines.length },
        ...lines.map((l, i) => h("li", { class: i >= newFrom ? "current" : null }, l)).reverse()));

    const root = h("div", { class: "play table", "data-step": v.step, "data-seat": seat, "data-playback": move ? `${last.index + 1}/${last.count}` : null },
      bar,
      h("div", { class: "table-area" }, track,
        h("div", { class: "table-middle" }, board,
          h("div", { class: "table-aside" }, table, momentum, piles))),
      h("div", { class: "side" }, outcome, decision, hand, narration));
    tg.root = root;
    document.body.classList.add("at-table");
    this.el.replaceChildren(root);
  }
}

// A narrow screen (a phone) has a layout of its own (style.css); the
// track is drawn as a ladder there.
const NARROW = "(max-width: 999px), (max-height: 619px)";
function narrow() {
  return !!(window.matchMedia && window.matchMedia(NARROW).matches);
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
function cardFace(c, options, pick, from) {
  const action = `action-${c.id}`;
  return h("article", { class: `card ${key(c.side)}${options.length ? " playable" : ""}`, "data-card": c.id,
    "data-anim": `card:${c.id}`, "data-kind": `card:${c.id}`, "data-from": from,
    title: c.action_text, tabindex: 0, "aria-describedby": action },
  h("header", {}, marked(c, "value", c.value, "value"), h("span", { class: "name" }, c.name)),
  h("div", { class: "kind" }, pips(c), h("span", { class: "type" }, c.card_type + (c.reaction ? " · reaction" : "")), marked(c, "number", `#${c.number}`, "number")),
  h("p", { class: "action", id: action }, c.action_text),
  c.quote ? marked(c, "quote", `“${c.quote}”`, "quote") : null,
  options.length ? h("div", { class: "card-options" }, ...options.map((o) =>
    // The card itself is a target too: a button's click is the button's.
    h("button", { class: "card-option", "data-index": o.index, title: o.text, "aria-label": o.text, onclick: (e) => { e.stopPropagation(); pick(o.index); } },
      o.kind === "play" ? o.part.toLowerCase() : o.kind === "react" ? "react" : "choose"))) : null);
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
      h("p", { class: "zoom-action" }, c.action_text),
      c.quote ? marked(c, "quote", `“${c.quote}”`, "quote") : null);
    document.body.append(zoom);
    // Left of the hand's panel, level with the card: no card of the hand
    // is covered.
    const panel = (face.closest(".hand") || face).getBoundingClientRect();
    const top = Math.max(8, Math.min(r.top, window.innerHeight - zoom.offsetHeight - 8));
    zoom.style.left = `${Math.max(8, panel.left - zoom.offsetWidth - 8)}px`;
    zoom.style.top = `${top}px`;
  });
  const away = () => { if (zoom) zoom.remove(); zoom = null; };
  face.addEventListener("mouseleave", away);
  face.addEventListener("click", away);
}
