// Who is signed in, shared by every page: the header's account link, and the calls the
// account page, the lobby and the table make. The session itself is an HttpOnly cookie that
// no script here can read; pages only ask the server who it belongs to.
import { $, api, el, myGames, setMyName, shownName } from "./common.js";
import { t, tn } from "./i18n.js";

let who = null;

export async function whoami(fresh = false) {
  if (who === null || fresh) {
    try {
      who = (await api("/api/whoami")).account;
    } catch { who = null; }
  }
  return who;
}

export async function send(method, path, body) {
  const response = await fetch(path, {
    method, headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.detail || data.message || t("The request failed ({status}).", { status: response.status }));
    error.status = response.status;
    throw error;
  }
  return data;
}

// After signing up or in: the guest games this browser remembers join the account, and the
// name this browser shows becomes the username.
export async function afterSignIn(account) {
  who = account;
  setMyName(account.username);
  const links = myGames().map((g) => g.url).slice(0, 20);
  if (links.length) {
    try { await send("POST", "/api/me/games", { links }); } catch { /* kept for next time */ }
  }
}

// The name a deleted account's games keep (the server stores it in English, for programs):
// shown in the reader's words, and linking to no profile.
export const DELETED = "deleted player";

export function isDeleted(name) {
  return name === DELETED;
}

// A guest's name ("Guest 353", stored in English) is read in the reader's language too.
export function playerName(name) {
  return isDeleted(name) ? t("deleted player") : shownName(name);
}

export function profileUrl(name) {
  return `/players/${encodeURIComponent(name)}`;
}

// A rating as players read it: "1520", or "1520?" while it is provisional.
export function shownRating(r) {
  return r.shown || `${Math.round(r.rating)}${r.provisional ? "?" : ""}`;
}

// The header: "Sign in" for a guest, the username (to the account page) when signed in.
export async function header(slot = $("#account-slot"), boards = true) {
  if (!slot) return null;
  const account = await whoami();
  const parts = [
    boards ? el("a", { href: "/leaderboard", class: "header-link boards-link", text: t("Leaderboards") }) : null,
    account
      ? el("a", { href: "/account", class: "header-link", id: "account-link",
        text: account.username, "aria-label": t("Your account: {username}", { username: account.username }) })
      : el("a", { href: "/account", class: "button quiet", id: "account-link", text: t("Sign in") })];
  slot.replaceChildren(...parts.filter(Boolean));
  return account;
}
