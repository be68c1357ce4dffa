// Helpers shared by the lobby and the table page. No game rule lives in the browser.
// Names and links are always put on the page as text (textContent), never as HTML.
import { t, tn } from "./i18n.js";

export const $ = (sel, root = document) => root.querySelector(sel);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.detail || data.message || t("The request failed ({status}).", { status: response.status }));
    error.status = response.status;
    throw error;
  }
  return data;
}

export function absolute(path) {
  return new URL(path, window.location.href).href;
}

// A link shown whole (it wraps, never cut off) with a one-click Copy button.
export function copyRow(label, path) {
  const url = absolute(path);
  const text = el("a", { class: "link-text", href: url, text: url });
  const copy = el("button", {
    class: "quiet copy", type: "button", text: t("Copy"), "aria-label": t("Copy the link: {label}", { label }),
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(url);
      } catch {
        const range = document.createRange();
        range.selectNodeContents(text);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        document.execCommand("copy");
      }
      copy.textContent = t("Copied");
      setTimeout(() => { copy.textContent = t("Copy"); }, 2000);
    },
  });
  return el("div", { class: "link-row" }, el("span", { class: "link-label", text: label }), text, copy);
}

export function newId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + Math.random().toString(36).slice(2);
}

// -- the player's name and games, remembered in this browser ------------------------------
export const MAX_NAME = 24;
const NAME_KEY = "parlour.name";
const GAMES_KEY = "parlour.games";
const MAX_REMEMBERED = 20;

function stored(key) {
  try { return window.localStorage.getItem(key); } catch { return null; }
}

function store(key, value) {
  try { window.localStorage.setItem(key, value); } catch { /* private mode: not remembered */ }
}

export function cleanName(text) {
  // the server cleans names too; this keeps what the player sees equal to what is stored
  const kept = String(text || "").replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g, "");
  return kept.replace(/\s+/g, " ").trim().slice(0, MAX_NAME).trim();
}

// A guest's name is stored and sent in English ("Guest 353": other players read it in their
// own language, shownName) and translated only where it is shown.
const GUEST = /^Guest (\d{1,6})$/;

function guestPattern(text) {  // "Invité {n}" as a pattern over a whole name
  const parts = text.split("{n}");
  if (parts.length !== 2) return null;
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escape(parts[0])}(\\d{1,6})${escape(parts[1])}$`);
}

export function shownName(name) {
  const guest = GUEST.exec(name || "");
  return guest ? t("Guest {n}", { n: guest[1] }) : name;
}

export function myName() {
  let name = cleanName(stored(NAME_KEY));
  // a name a page made in the reader's words before names were kept in English
  const local = hasChosenName() ? null : guestPattern(t("Guest {n}"));
  const made = local && name ? local.exec(name) : null;
  if (made) {
    name = `Guest ${made[1]}`;
    store(NAME_KEY, name);
  }
  if (!name) {
    name = `Guest ${100 + Math.floor(Math.random() * 900)}`;
    store(NAME_KEY, name);
  }
  return name;
}

export function hasChosenName() {
  return Boolean(stored(`${NAME_KEY}.chosen`));
}

export function setMyName(text) {
  const kept = cleanName(stored(NAME_KEY));
  // the guest's name as shown ("Invité 353") is the stored one ("Guest 353"), kept in English
  const name = kept && cleanName(text) === shownName(kept) ? kept : cleanName(text);
  if (name) { store(NAME_KEY, name); store(`${NAME_KEY}.chosen`, "1"); }
  return name || myName();
}

export function myGames() {
  try {
    const games = JSON.parse(stored(GAMES_KEY) || "[]");
    return Array.isArray(games) ? games.filter((g) => g && typeof g.url === "string") : [];
  } catch { return []; }
}

export function rememberGame(entry) {
  const games = myGames().filter((g) => g.url !== entry.url);
  games.unshift({ ...entry, at: Date.now() });
  store(GAMES_KEY, JSON.stringify(games.slice(0, MAX_REMEMBERED)));
}

export function forgetGame(url) {
  store(GAMES_KEY, JSON.stringify(myGames().filter((g) => g.url !== url)));
}
