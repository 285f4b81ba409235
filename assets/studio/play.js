// Play: a game against an agent, or two players at one screen (hotseat).
// Everything shown comes from the seat's view the server sends
// (GET /api/games/{id}); a click sends the option's index, the text box
// sends notation.
//
// The table itself (track, board, momentum cards, piles, cards on the
// table, the hand) and choosing an option by clicking where it is drawn
// are table.js's, shared with Puzzles and Replay. Hover and keyboard focus
// light up what an option would affect. The option buttons and the
// notation box stay, for keyboards and screen readers.

import { api, game as gameInfo, h, saveText, code } from "/studio/api.js";
import { readFile } from "/studio/pages.js";
import { SPEEDS, speedName, setSpeed, timing, snapshot, glide, land, pause } from "/studio/motion.js";
import { NARROW, SIDE, Targets, drawTable, fitAside, fitSide, key, promptInView, dropZooms } from "/studio/table.js";

const STORE = "watergate.play";

function saved() {
  try { return JSON.parse(sessionStorage.getItem(STORE)); } catch (_) { return null; }
}

export async function mount(el, { params }) {
  const info = await gameInfo();
  const s = saved();
  if (s && (!params[0] || params[0] === s.game)) {
    const p = new Play(el, info, s);
    p.load(s.current).catch((e) => {
      // The server restarted (or forgot the game): say so. Not answering:
      // the game may still be there once it is back, so it is kept.
      if (e.status === 404) p.lost();
      else if (e.unreachable) p.fail(e);
      else { sessionStorage.removeItem(STORE); startScreen(el, info); }
    });
  } else {
    startScreen(el, info);
  }
  const mq = window.matchMedia ? window.matchMedia(NARROW) : null;
  const again = () => { if (active) active.relayout(); };
  if (mq) mq.addEventListener("change", again);
  // Within a layout, a window grown or shrunk fits its columns again.
  let frame = 0;
  const refit = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => { if (active) active.refit(); });
  };
  window.addEventListener("resize", refit);
  return () => {
    if (mq) mq.removeEventListener("change", again);
    window.removeEventListener("resize", refit);
    cancelAnimationFrame(frame);
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
  const ai = h("input", { id: "ai", name: "ai", list: "agents", value: "ismcts:10000:threads=2", size: 22, autocomplete: "off" });
  const agents = h("datalist", { id: "agents" }, ...info.agents.map((a) => h("option", { value: a })));
  const seed = h("input", { id: "seed", name: "seed", type: "number", min: 0, placeholder: "random" });
  const err = h("p", { class: "error", role: "alert", id: "start-error" });
  // A saved position (Save position, or `save` in the terminal) played on
  // from, with the players chosen above, instead of a new deal.
  const position = h("input", { type: "file", id: "position-file", accept: ".ron,text/plain" });
  const begin = async (from) => {
    err.textContent = "";
    start.disabled = true;
    try {
      const body = { mode: mode.value };
      if (mode.value !== "hotseat") body.ai = ai.value.trim();
      if (from) body.position = from;
      else if (seed.value !== "") body.seed = seed.value;
      const c = await api("/api/games", { method: "POST", body });
      const first = c.seats.editor ? "editor" : "nixon";
      const s = { game: c.game, seats: c.seats, mode: c.mode, hotseat: mode.value === "hotseat", current: first, logs: {} };
      sessionStorage.setItem(STORE, JSON.stringify(s));
      el.replaceChildren();
      const p = new Play(el, info, s);
      await p.load(first);
    } catch (e) {
      err.replaceChildren(...code(e.message));
      start.disabled = false;
    }
  };
  const start = h("button", { id: "start", class: "primary", onclick: () => begin(null) }, "Start the game");
  position.addEventListener("change", async () => {
    let f;
    try { f = await readFile(position); } catch (e) { err.replaceChildren(...code(e.message)); return; }
    position.value = "";
    await begin({ text: f.text, name: f.name });
  });
  el.replaceChildren(h("section", { class: "start panel" },
    h("h1", {}, "Play Watergate"),
    h("p", {}, `The game: ${info.source}. Each screen shows only what its player may see.`),
    h("label", {}, "Who plays ", mode),
    h("label", { class: "ai-choice" }, "The opponent ", ai, agents,
      h("span", { class: "hint" }, " random, heuristic, ismcts:N or ismcts:Nms")),
    h("label", {}, "Seed ", seed),
    start,
    h("label", { class: "position-choice" }, "Or play on from a saved position: ", position),
    err));
  mode.addEventListener("change", () => { ai.disabled = mode.value === "hotseat"; });
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

  // The columns fitted to the window again (fitAside, fitSide).
  refit() {
    const root = this.el.querySelector(".play.table");
    if (root) { fitAside(root); fitSide(root); }
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

  // Draws view `v`, its moves played back first; `drawn` is called once
  // its table is on the page, before its pieces glide.
  async show(v, drawn = null) {
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
    if (drawn) drawn();
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
    dropZooms();
    this.el.replaceChildren(h("section", { class: "handover panel", id: "handover" },
      h("h1", {}, `Pass the screen to ${SIDE[to]}`),
      h("p", {}, `${SIDE[to]}, press the button when only you are looking.`),
      h("button", { id: "handover-ready", class: "primary", onclick: () => this.load(to).catch((e) => this.fail(e)) },
        `I am ${SIDE[to]}: show my view`)));
  }

  // A refusal or no answer, said where the page shows messages. A game the
  // server no longer has (404: it was restarted, or forgot the game when
  // it was left idle) cannot go on: the page says so and offers a new one.
  fail(e) {
    if (e.status === 404) { this.lost(); return; }
    const box = this.el.querySelector("#message");
    if (box) { box.replaceChildren(...code(e.message)); box.classList.add("error"); }
    else this.el.prepend(h("p", { class: "error", role: "alert", id: "message" }, code(e.message)));
  }

  lost() {
    if (this.gone) return;
    this.skipping = true;
    this.gone = true;
    sessionStorage.removeItem(STORE);
    document.body.classList.remove("at-table");
    dropZooms();
    this.el.replaceChildren(h("section", { class: "panel gone", id: "game-gone" },
      h("h1", {}, "This game is gone"),
      h("p", { role: "alert" }, "The server no longer has this game: it was restarted, or it forgot the game after it was left idle. It cannot be played on."),
      h("button", { id: "gone-new-game", class: "primary", onclick: () => startScreen(this.el, this.info) }, "New game")));
  }

  // A choice is sent once: until its answer is drawn, the options on the
  // page are those it answered, and a click on them is dropped (a double
  // click). Once the answer is drawn its pieces may still glide, its
  // banner stay a moment: a click then is the next choice, taken at once,
  // the motion ending there (a quick player's click was once dropped until
  // the pieces had landed).
  async choose(body) {
    if (this.busy) return;
    this.busy = true;
    this.hurry();
    const seat = key(this.view.seat);
    // A choice made from the keyboard: the table is drawn again, and the
    // focused element with it, so focus would fall back to the top of the
    // page (nine menu links and the speed box before the next options).
    // Only from the keyboard (`:focus-visible`): a clicked button has focus
    // too, and a focused option lights its target, which a mouse user
    // would see lit without pointing at anything.
    const active = document.activeElement;
    const focused = this.el.contains(active) && active.matches(":focus-visible") ? active : null;
    this.el.classList.add("thinking");
    // The answer drawn (or none coming): the next choice may be made.
    let ready = false;
    const drawn = () => {
      ready = true;
      this.busy = false;
      this.el.classList.remove("thinking");
      if (focused) this.refocus(focused);
    };
    try {
      const v = await api(`/api/games/${this.s.game}/choose`, {
        method: "POST", seat: this.s.seats[seat],
        body: { ...body, step: this.view.step, since: this.log(seat).length, moves: true },
      });
      this.el.classList.remove("thinking");
      promptInView(this.el, "#decision");
      await this.show(v, drawn);
    } catch (e) {
      promptInView(this.el, "#decision");
      this.fail(e);
    } finally {
      // Drawn, a later choice may be under way: it is its own.
      if (!ready) drawn();
    }
  }

  // Ends the motion under way at once: the moves played back (as Skip
  // does), the glides, the banner's stay.
  hurry() {
    this.skipping = true;
    land();
  }

  // Focus back where the keyboard left it: the notation box if the choice
  // was typed there, else the first of the new options (or the decision).
  refocus(was) {
    if (this.el.contains(document.activeElement)) return;
    const typed = was.id === "notation" && this.el.querySelector("#notation");
    const next = typed || this.el.querySelector("#decision button.option") || this.el.querySelector("#decision");
    if (!next) return;
    if (!next.hasAttribute("tabindex") && !next.matches("button, input")) next.setAttribute("tabindex", "-1");
    next.focus({ preventScroll: true });
  }

  async undo() {
    this.hurry();
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
    dropZooms();
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

    // What just happened, over the board.
    const who = last && (last.mover ? (key(last.mover) === seat ? "You" : SIDE[key(last.mover)]) : "Chance");
    const banner = last ? h("div", { class: "banner", id: "banner", "aria-live": "polite", "data-mover": last.mover ? key(last.mover) : "chance" },
      h("span", { class: "who" }, `${who[0].toUpperCase()}${who.slice(1)} · step ${last.index + 1} of ${last.count}`),
      fresh.slice(-4).map((l) => h("div", { class: "said" }, l)),
      move ? h("button", { id: "skip", onclick: () => { this.skipping = true; } }, "Skip") : null) : null;
    const { track, board, momentum, piles, inPlay: table, hand } = drawTable(this.info, v, { tg, pick, banner });

    const decision = h("section", { class: "panel decision", id: "decision" });
    if (d) {
      decision.append(h("h2", { id: "prompt" }, d.prompt),
        h("ol", { class: "options", start: 1 }, ...opts.map((o) => {
          // Its notation is its tooltip too: a short column hides the one
          // beside it (table.js, fitSide).
          const b = h("button", { class: "option", "data-index": o.index, title: o.notation, onclick: () => pick(o.index) }, o.text);
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
    // The momentum cards drawn tighter when the column is short, as in
    // Puzzles and Replay, so the piles stay in view; the hand's cards
    // when the option list is squeezed.
    this.refit();
  }
}
