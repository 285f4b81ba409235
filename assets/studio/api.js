// Talking to the studio's server: JSON in, JSON out; a refusal throws an
// ApiError carrying the server's reason (`{ "error": "…" }`) and status.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// `api("/api/game")`, `api("/api/games", { method: "POST", body: {...}, seat })`.
// `seat` is a seat token, sent as X-Seat-Token.
export async function api(path, { method = "GET", body, seat, raw = false } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (seat) headers["X-Seat-Token"] = seat;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
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

// Offers text as a file download.
export function saveText(text, name) {
  const a = h("a", { href: URL.createObjectURL(new Blob([text], { type: "text/plain" })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}
