// Talking to the studio's server: JSON in, JSON out; a refusal throws an
// ApiError carrying the server's reason (`{ "error": "…" }`) and status.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }

  // No answer at all (status 0): the server was stopped, or the network is gone.
  get unreachable() { return this.status === 0; }
}

// What a page says when the server does not answer (rather than the
// browser's "Failed to fetch").
export const NOT_ANSWERING = "The server is not answering: it may have been stopped. Start `watergate serve` again, then reload this page.";

// `api("/api/game")`, `api("/api/games", { method: "POST", body: {...}, seat })`.
// `seat` is a seat token, sent as X-Seat-Token.
export async function api(path, { method = "GET", body, seat, raw = false } = {}) {
  if (hold) {
    hold.pending++;
    try { return await request(path, { method, body, seat, raw }); } finally { hold.pending--; settle(); }
  }
  return request(path, { method, body, seat, raw });
}

async function request(path, { method, body, seat, raw }) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (seat) headers["X-Seat-Token"] = seat;
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (_) {
    // fetch rejects only when no answer came (a refusal is an answer).
    throw new ApiError(0, NOT_ANSWERING);
  }
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      const j = await res.json();
      if (j && j.error) message = j.error;
    } catch (_) { /* not JSON */ }
    throw new ApiError(res.status, message);
  }
  if (raw) return res;
  if (res.status === 204) return null;
  return res.json();
}

// A lab or comparison run the page shows: kept alive on the server while
// the page is open (a keep-alive every 2 s beside its event stream; the
// server cancels a run nobody watched for 10 s), and cancelled when the
// page leaves it (`leave()`, on leaving the area) or the tab goes (pagehide:
// a reload, a close, another site). `done()` once its result is in.
export function watchRun(id) {
  const cancel = () => {
    // keepalive: the request outlives the page that sends it.
    fetch(`/api/lab/${id}/cancel`, { method: "POST", keepalive: true }).catch(() => {});
  };
  const timer = setInterval(() => {
    fetch(`/api/lab/${id}/keep`, { method: "POST" }).catch(() => {});
  }, 2000);
  const gone = () => cancel();
  window.addEventListener("pagehide", gone);
  const done = () => { clearInterval(timer); window.removeEventListener("pagehide", gone); };
  return { done, leave: () => { done(); cancel(); } };
}

// The document's load event waits for the first page. Whatever waits for
// "load" takes the page then: a one-shot `chromium --headless --screenshot`
// or `--dump-dom`, a WebDriver `goto`. A page is drawn by script after the
// shell's `import()` of its module and the page's `fetch` calls, and
// neither delays the load event, so without a hold it fires with only the
// top bar drawn (issue 36; tests/studio/screenshot.rs). A frame whose
// document is open (`document.open()` before `close()`) is still loading,
// and so is the page that holds it: `holdLoad()` opens one (hidden); the
// function it returns says the page is drawn, and the frame is closed, so
// the load event fires, once every `api()` call begun meanwhile has
// answered (a page may draw its data after `mount` returns). After `ms`
// the hold ends anyway: a request that hangs never keeps the page loading.
let hold = null;

export function holdLoad(ms) {
  if (hold || document.readyState === "complete") return () => {};
  const frame = document.createElement("iframe");
  frame.hidden = true;
  frame.tabIndex = -1;
  frame.title = "loading";
  frame.setAttribute("aria-hidden", "true");
  document.body.append(frame);
  try {
    frame.contentDocument.open();
  } catch (_) {
    frame.remove();
    return () => {};
  }
  const held = { frame, pending: 0, drawn: false, timer: setTimeout(() => endHold(held), ms) };
  hold = held;
  return () => { held.drawn = true; settle(); };
}

// Ends the hold when the page is drawn and no request is out; after a task,
// so what a page does with an answer (maybe another request) runs first.
function settle() {
  const held = hold;
  if (!held || !held.drawn || held.pending) return;
  setTimeout(() => { if (!held.pending) endHold(held); }, 0);
}

function endHold(held) {
  if (hold !== held) return;
  hold = null;
  clearTimeout(held.timer);
  try { held.frame.contentDocument.close(); } catch (_) { /* gone already */ }
  held.frame.remove();
}

// The game's public data (board, pictures, momentum cards), fetched once.
let gameInfo = null;
export async function game(refresh = false) {
  if (!gameInfo || refresh) gameInfo = await api("/api/game");
  return gameInfo;
}

// A tiny element builder: h("div", { class: "x", onclick }, child, "text").
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

// Text whose `backticked` words (commands, names, values, as the server's
// messages and the cards write them) are drawn as <code>: strings and
// elements, for h() or replaceChildren(...). A lone backtick stays text.
export function code(text) {
  const parts = String(text ?? "").split("`");
  if (parts.length % 2 === 0) {
    const last = parts.pop();
    parts[parts.length - 1] += "`" + last;
  }
  return parts.map((p, i) => (i % 2 ? h("code", {}, p) : p)).filter((p) => p !== "");
}

// Offers text as a file download.
export function saveText(text, name) {
  const a = h("a", { href: URL.createObjectURL(new Blob([text], { type: "text/plain" })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

// A number with `digits` decimals as the command line prints it (Rust's
// `{:.N}`): the exact value rounded, a tie to the even digit, where
// JavaScript's toFixed takes the larger; so a page and the command line
// print the same figure (85 wins of 400 is 21.2 % in both, not 21.3 %).
export function fixed(x, digits) {
  const exact = Math.abs(x).toFixed(Math.min(100, digits + 60));
  const [whole, frac] = exact.split(".");
  if (!/^50*$/.test(frac.slice(digits))) return x.toFixed(digits);
  const kept = BigInt(whole + frac.slice(0, digits));
  const even = (kept % 2n === 0n ? kept : kept + 1n).toString().padStart(digits + 1, "0");
  const text = digits ? `${even.slice(0, -digits)}.${even.slice(-digits)}` : even;
  return x < 0 ? `-${text}` : text;
}
