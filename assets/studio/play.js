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
import { boardSvg, trackSvg, tokenSvg, svg } from "/studio/board.js";

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
}

function startScreen(el, info) {
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
    menu.style.top = `${a.bottom - base.top + 4}px`;
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
    this.view = null;
    this.busy = false;
  }

  persist() { sessionStorage.setItem(STORE, JSON.stringify(this.s)); }

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
  async load(seat) {
    this.s.current = seat;
    const v = await api(`/api/games/${this.s.game}?since=0`, { seat: this.s.seats[seat] });
    this.show(v);
  }

  show(v) {
    this.keepLog(v);
    this.view = v;
    this.persist();
    // Hotseat: when the other seat decides next, hand the screen over.
    if (this.s.hotseat && !v.outcome && v.waiting_for && key(v.waiting_for) !== key(v.seat)) {
      this.handover(key(v.waiting_for));
      return;
    }
    this.render();
  }

  handover(to) {
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
        body: { ...body, step: this.view.step, since: this.log(seat).length },
      });
      this.show(v);
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
      this.show(v);
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
    sessionStorage.removeItem(STORE);
    api(`/api/games/${this.s.game}`, { method: "DELETE", seat: this.s.seats[this.s.current] }).catch(() => {});
    startScreen(this.el, this.info);
  }

  render() {
    const v = this.view;
    const seat = key(v.seat);
    const d = v.decision;
    const opts = d ? d.options : [];
    const pick = (index) => this.choose({ option: index });
    if (this.targets) this.targets.closeMenu();
    const tg = (this.targets = new Targets(opts, pick));

    const header = h("div", { class: "status" },
      h("h1", {}, `${v.seat}'s view`),
      h("span", {}, `Round ${v.round}, ${v.phase}. ${v.initiative} holds the initiative. ${v.mode === "hotseat" ? "Hotseat." : `Opponent: ${v.opponent}.`}`));
    const outcome = v.outcome ? h("div", { id: "outcome", class: `outcome ${key(v.outcome.winner)}` }, `Game over: ${v.outcome.text}`,
      v.seed != null ? h("span", { class: "seed" }, ` Seed ${v.seed}: play the same deal again with it.`) : null) : null;

    const track = h("section", { class: "panel track-panel" }, h("h2", {}, "Research track"),
      trackSvg(v, { wire: tg.wire }));
    // A board space answers a `space` option, and an informant's space a
    // `picture` option naming its informant: the targets say which.
    const board = h("section", { class: "panel board-panel" }, h("h2", {}, `Evidence board — ${v.connected_informants} of ${v.informants_to_connect} informants connected`),
      boardSvg(this.info, v, { wire: tg.wire }));

    const momentum = h("section", { class: "panel momentum" }, h("h2", {}, "Momentum"),
      ...this.info.momentum_cards.map((m) => h("div", { class: `momentum-card ${key(m.side)}` },
        h("h3", {}, m.name === m.side ? `${m.side}'s momentum card` : `${m.name} (${m.side})`),
        h("p", {}, `${v.momentum.on_card[key(m.side)]} of ${v.momentum.to_win} momentum tokens`),
        h("ol", {}, ...m.spaces.map((sp, i) => {
          const li = h("li", { class: i < v.momentum.on_card[key(m.side)] ? "filled" : "", "data-target": `momentum:${key(m.side)}:${i + 1}` },
            sp.title ? `${sp.title}: ${sp.text || ""}` : "—");
          tg.wire(li, `momentum:${key(m.side)}:${i + 1}`, `${SIDE[key(m.side)]}'s momentum space ${i + 1}${sp.title ? `, ${sp.title}` : ""}`);
          return li;
        })))),
      h("p", {}, `Supply: ${v.momentum.supply}. Removed: ${v.momentum.removed}.`));

    // A pile is one drawn thing: an option naming a card in it (a removed
    // card, a discarded one) is chosen by clicking the pile.
    const pile = (k, label, ...children) => {
      const li = h("li", { class: "pile", "data-target": `pile:${k}` }, ...children);
      tg.wire(li, `pile:${k}`, label);
      return li;
    };
    const piles = h("section", { class: "panel piles" }, h("h2", {}, "Piles"),
      h("ul", {},
        pile("bag", "the evidence bag", `Evidence bag: ${v.bag} tokens`),
        ...["editor", "nixon"].map((sd) => pile(`${sd}_discard`, `${SIDE[sd]}'s discard pile`,
          `${SIDE[sd]}: ${v.hand_sizes[sd]} in hand, ${v.deck_sizes[sd]} in deck, ${v.discards[sd].length} discarded`,
          v.discards[sd].length ? h("span", { class: "pile-names" }, " — ", v.discards[sd].map((c) => c.name).join(", ")) : null)),
        v.removed.length || tg.byKey.has("pile:removed") ? pile("removed", "the cards out of the game", `Removed: ${v.removed.map((c) => c.name).join(", ")}`) : null,
        ...v.pictures.filter((p) => p.place === "supply").length ? [h("li", {}, `Pictures in the supply: ${v.pictures.filter((p) => p.place === "supply").map((p) => p.name).join(", ")}`)] : []));

    // The cards on the table, each as a small card: a drawn card's part, a
    // reaction's pass, the colour the Editor asks for (R5.6) are chosen on it.
    const table = v.in_play.length || v.held_token ? h("section", { class: "panel in-play" }, h("h2", {}, "On the table"),
      ...v.in_play.map((p) => h("div", { class: "table-play" },
        h("p", {}, `${p.player} plays ${p.card.name}${p.part ? ` for its ${p.part.toLowerCase()}` : ""}${p.cancelled ? " (cancelled)" : ""}`),
        tableCard(p.card, tg))),
      v.held_token ? h("p", {}, "Token to pin: ", h("svg", { class: "inline-token", viewBox: "-12 -12 24 24", width: 24, height: 24 }), ` ${v.held_token.colours.join("/")}${v.held_token.symbol ? " ★" : ""}`) : null) : null;
    if (table && v.held_token) table.querySelector(".inline-token").replaceWith(inlineToken(v.held_token));

    // The hand: card faces; a legal play shows its buttons on the card.
    const plays = {};
    for (const o of opts) if ((o.kind === "play" || o.kind === "card" || o.kind === "react") && o.card) (plays[o.card] = plays[o.card] || []).push(o);
    const hand = h("section", { class: "panel hand" }, h("h2", {}, `Your hand (${v.hand.length})`),
      h("div", { class: "cards" }, ...v.hand.map((c) => {
        const face = cardFace(c, plays[c.id] || [], pick);
        tg.wire(face, `hand:${c.id}`, `${c.name}, in your hand`);
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

    const lines = this.log(seat);
    const narration = h("section", { class: "panel narration" }, h("h2", {}, "What happened"),
      h("ol", { id: "log", reversed: true, start: lines.length }, ...lines.slice().reverse().map((l) => h("li", {}, l))));

    const root = h("div", { class: "play", "data-step": v.step, "data-seat": seat }, header, outcome,
      h("div", { class: "columns" },
        h("div", { class: "col-main" }, track, board, table),
        h("div", { class: "col-side" }, decision, hand, momentum, piles, narration)));
    tg.root = root;
    this.el.replaceChildren(root);
  }
}

// A card on the table, small: its value, name and colours. The card is a
// target (a drawn card's part, letting a play stand, a branch of its
// action); so is each colour printed on it (the Editor's ask, R5.6).
function tableCard(c, tg) {
  const el = h("article", { class: `card on-table ${key(c.side)}`, "data-card": c.id, "data-target": `table:${c.id}`, title: c.action_text },
    h("header", {}, h("span", { class: "value" }, c.value), h("span", { class: "name" }, c.name), h("span", { class: "number" }, `#${c.number}`)),
    h("div", { class: "colours" }, ...c.colours.map((col) => {
      const k = `colour:${c.id}:${col}`;
      const chip = h("span", { class: `colour ${col}`, "data-target": k }, col);
      tg.wire(chip, k, `the colour ${col} printed on ${c.name}`);
      return chip;
    })),
    h("p", { class: "type" }, c.card_type + (c.reaction ? " · reaction" : "")));
  tg.wire(el, `table:${c.id}`, `${c.name}, on the table`);
  return el;
}

function inlineToken(kind) {
  return svg("svg", { class: "inline-token", viewBox: "-12 -12 24 24", width: 24, height: 24 }, tokenSvg(kind, { r: 11 }));
}

// A card of the hand. Its action text is its `title` (a hover shows it) and
// its description for a screen reader; the card takes keyboard focus, and
// a focused card shows the text as a tooltip too (style.css).
function cardFace(c, options, pick) {
  const action = `action-${c.id}`;
  return h("article", { class: `card ${key(c.side)}${options.length ? " playable" : ""}`, "data-card": c.id,
    title: c.action_text, tabindex: 0, "aria-describedby": action },
    h("header", {}, h("span", { class: "value" }, c.value), h("span", { class: "name" }, c.name), h("span", { class: "number" }, `#${c.number}`)),
    h("div", { class: "colours" }, ...c.colours.map((col) => h("span", { class: `colour ${col}` }, col))),
    h("p", { class: "type" }, c.card_type + (c.reaction ? " · reaction" : "") + (c.informant ? ` · ${c.informant}` : "")),
    h("p", { class: "action", id: action }, c.action_text),
    c.quote ? h("p", { class: "quote" }, c.quote) : null,
    options.length ? h("div", { class: "card-options" }, ...options.map((o) =>
      // The card itself is a target too: a button's click is the button's.
      h("button", { class: "card-option", "data-index": o.index, onclick: (e) => { e.stopPropagation(); pick(o.index); } },
        o.kind === "play" ? `for its ${o.part.toLowerCase()}` : o.kind === "react" ? "react" : "choose"))) : null);
}
