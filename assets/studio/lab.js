// Lab: a simulation, or two games compared on the same seeds, run from the
// page with the library code of `watergate simulate` (--against). The
// run's progress streams in as server-sent events; it can be cancelled
// (the result then covers exactly its first games); the result is the
// win rates with 95% intervals, the chart and the per-card table. The
// server cancels a run no page watches (`watchRun`): leaving the page, or
// closing the tab, cancels it at once.

import { api, fixed, h, watchRun, code } from "/studio/api.js";
import { ensureCss } from "/studio/pages.js";

export async function mount(el) {
  ensureCss();
  let limits = { variants: [], max_games: 20000, max_search_games: 200, max_iterations: 2000 };
  try { limits = await api("/api/lab/variants"); } catch (_) { /* shown on run */ }
  // Any agent the engine knows: the list suggests (the engine's own list),
  // the box takes any spec; the server checks it and says what is wrong.
  let suggested = ["random", "heuristic"];
  try { suggested = (await api("/api/game")).agents.filter((a) => !a.endsWith("ms")); } catch (_) { /* the two above */ }
  const agents = h("datalist", { id: "lab-agents" }, suggested.map((a) => h("option", { value: a })));
  const agent = (id, value) => h("input", { id, name: id, list: "lab-agents", value, size: 14, autocomplete: "off", required: true });
  const games = h("input", { id: "lab-games", type: "number", min: 1, max: limits.max_games, value: 200 });
  const seed = h("input", { id: "lab-seed", type: "number", min: 0, value: 1 });
  const editor = agent("lab-editor", "random");
  const nixon = agent("lab-nixon", "random");
  const variant = h("select", { id: "lab-variant" }, h("option", { value: "" }, "none"),
    limits.variants.map((v) => h("option", { value: v }, v)));
  const against = h("select", { id: "lab-against" },
    h("option", { value: "" }, "nothing (one game)"),
    h("option", { value: "shipped" }, "the shipped game"),
    h("option", { value: "base" }, "this game without the variant"),
    limits.variants.map((v) => h("option", { value: v }, `variant ${v}`)));
  const run = h("button", { id: "lab-run", class: "primary", type: "submit" }, "Run");
  const cancel = h("button", { id: "lab-cancel", type: "button", disabled: true }, "Cancel");
  const bar = h("progress", { id: "lab-progress", max: 1, value: 0 });
  const status = h("p", { id: "lab-status", role: "status" });
  const out = h("div", { id: "lab-result" });
  let source = null;
  let job = null;
  let watching = null;
  const finish = () => {
    if (source) source.close();
    source = null;
    if (watching) watching.done();
    watching = null;
    run.disabled = false;
    cancel.disabled = true;
  };
  cancel.addEventListener("click", async () => {
    if (!job) return;
    cancel.disabled = true;
    try { await api(`/api/lab/${job}/cancel`, { method: "POST" }); status.textContent = "Cancelling: the games already started finish first…"; }
    catch (e) { status.replaceChildren(...code(e.message)); }
  });
  const form = h("form", {
    onsubmit: async (e) => {
      e.preventDefault();
      out.replaceChildren();
      status.textContent = "";
      run.disabled = true;
      // The seed as typed: a decimal string keeps a seed above 2^53 whole.
      const body = { games: Number(games.value), seed: seed.value.trim(), editor: editor.value.trim(), nixon: nixon.value.trim() };
      if (variant.value) body.variant = variant.value;
      if (against.value) body.against = against.value;
      try {
        const started = await api("/api/lab", { method: "POST", body });
        job = started.id;
        watching = watchRun(job);
        bar.dataset.run = job;
        bar.max = started.total;
        bar.value = 0;
        cancel.disabled = false;
        status.textContent = `Playing ${started.total} games…`;
        source = new EventSource(`/api/lab/${job}/events`);
        source.addEventListener("progress", (ev) => {
          const p = JSON.parse(ev.data);
          bar.value = p.done;
          status.textContent = `${p.done} of ${p.total} games played…`;
        });
        source.addEventListener("result", (ev) => {
          const v = JSON.parse(ev.data);
          finish();
          if (v.error) { status.textContent = ""; out.replaceChildren(h("p", { class: "error" }, v.error)); return; }
          bar.value = v.result.games;
          status.textContent = v.result.cancelled
            ? `Cancelled: the figures cover the first ${v.result.games} of ${v.result.asked} games.`
            : `Done: ${v.result.games} games.`;
          out.replaceChildren(result(v.result));
        });
        source.onerror = () => { if (source) { status.textContent = "The progress stream broke off."; finish(); } };
      } catch (err) {
        status.textContent = "";
        out.replaceChildren(h("p", { class: "error", role: "alert" }, code(err.message)));
        finish();
      }
    },
  },
  h("label", {}, "Games ", games), h("label", {}, "Seed ", seed),
  h("label", {}, "Editor ", editor), h("label", {}, "Nixon ", nixon), agents,
  h("p", { class: "hint" }, `Agents: random, heuristic or ismcts:N (N at most ${limits.max_iterations} iterations a decision).`),
  h("label", {}, "Variant ", variant), h("label", {}, "Compare with ", against),
  h("div", { class: "tools" }, run, cancel));
  el.replaceChildren(h("section", { class: "lab" },
    h("div", { class: "panel" },
      h("h1", {}, "Lab"),
      h("p", {}, `Simulate games between agents, or compare two versions of the game on the same seeds (as \`watergate simulate --against\`). At most ${limits.max_games} games a run (${limits.max_search_games} with an ismcts agent).`),
      limits.scenarios_note ? h("p", { class: "notice", id: "scenarios-note", role: "note" }, `Note: ${limits.scenarios_note}.`) : null,
      form, bar, status),
    h("div", { class: "panel" }, out)));
  // Left while it plays: the run is cancelled, its slot free for others.
  return () => {
    if (source) source.close();
    source = null;
    if (watching) watching.leave();
    watching = null;
  };
}

const pct = (x) => `${fixed(100 * x, 1)}%`;
const iv = (i) => i ? `${pct(i.estimate)} (${pct(i.low)}–${pct(i.high)})` : "—";
const diff = (i) => i ? `${fixed(100 * i.estimate, 1)} (${fixed(100 * i.low, 1)} to ${fixed(100 * i.high, 1)})` : "—";

function result(r) {
  const line = (name, s) => h("li", {}, `${name}: Editor won ${s.editor_wins} of ${s.games} games, ${iv(s.editor_rate)}; mean length ${fixed(s.mean_rounds, 2)} rounds.`);
  const chart = h("div", { class: "chart", id: "lab-chart" });
  if (r.chart) chart.innerHTML = r.chart; // SVG drawn by the server (chart.rs)
  const other = !!r.other;
  return h("div", {},
    h("h2", {}, `${r.label}${other ? ` against ${r.against}` : ""}: ${r.editor} (Editor) vs ${r.nixon} (Nixon), seed ${r.seed}`),
    h("ul", {}, line(r.label, r.this), other ? line(r.against, r.other) : null,
      r.difference ? h("li", {}, `Difference in the Editor's win rate, paired on the same seeds: ${diff(r.difference)} points.`) : null),
    chart,
    h("h2", {}, "Cards"),
    h("p", {}, "Plays for value and for action, and the win rate of the card's side in the games where its action was used (95% interval).",
      other ? " * marks a difference clear across every card compared (each at 95% divided by their number: Bonferroni)." : ""),
    h("table", { id: "lab-cards" },
      h("thead", {}, h("tr", {}, h("th", {}, "card"), h("th", {}, "value plays"), h("th", {}, "action plays"),
        h("th", {}, "win rate when used"), other ? [h("th", {}, `… in ${r.against}`), h("th", {}, "difference (points)")] : null)),
      h("tbody", {}, r.cards.map((c) => h("tr", { class: c.significant ? "significant" : "" },
        h("td", {}, c.id), h("td", {}, c.value_plays), h("td", {}, c.action_plays), h("td", {}, iv(c.action_win_rate)),
        other ? [h("td", {}, iv(c.other_action_win_rate)), h("td", {}, diff(c.difference) + (c.significant ? " *" : ""))] : null)))));
}
