// "It's your turn" for a game the player is not looking at: the tab's title, and a browser
// notification if they allowed them. Permission is asked only when they click the button,
// never on load.
import { t, tn } from "./i18n.js";
const base = () => document.title.replace(/^\(\d+\) |^● /, "");

export function canNotify() {
  return "Notification" in window;
}

export function permission() {
  return canNotify() ? Notification.permission : "denied";
}

// A button that asks for permission (after a click) and says what it does.
export function askButton(el) {
  if (!canNotify() || Notification.permission !== "default") return null;
  const button = el("button", { type: "button", class: "quiet small", id: "notify-ask",
    text: t("Tell me when it's my turn"),
    onclick: async () => {
      await Notification.requestPermission();
      button.hidden = true;
    } });
  return button;
}

const told = new Set();

function notify(key, title, body, url) {
  if (permission() !== "granted" || told.has(key)) return;
  told.add(key);
  try {
    const note = new Notification(title, { body, tag: key });
    note.onclick = () => { window.focus(); if (url) window.location.href = url; note.close(); };
  } catch { /* some browsers only notify from a service worker: the title still shows it */ }
}

// The table page: mark the title while it is this player's turn and the tab is hidden.
export function atTable(mine, version, title) {
  const plain = base();
  if (mine && document.hidden) {
    document.title = `● ${plain}`;
    notify(`turn:${window.location.pathname}:${version}`, t("Your turn"), title, null);
  } else {
    document.title = plain;
  }
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) document.title = base();
});

// The lobby: "(2) parlour..." when two of the player's games wait for them.
export function inLobby(waiting) {
  const plain = base();
  document.title = waiting.length ? `(${waiting.length}) ${plain}` : plain;
  for (const g of waiting) {
    notify(`turn:${g.url}:${g.key}`, t("Your turn"),
      g.with ? t("{title} with {names}", { title: g.title, names: g.with }) : g.title, g.url);
  }
}
