// "Play someone now" on a game card: wait in the queue on the card's Clock (the one time
// control every way of starting from the card uses; the server pairs people of similar rating
// on the same clock, in any of its processes), then go to the table. After 30 s the card offers
// the computer instead. Leaving the page leaves the queue.
import { api, el, myName, rememberGame } from "./common.js";
import { send } from "./account.js";
import { t } from "./i18n.js";

const POLL_MS = 1500;
const COMPUTER_AFTER_S = 30;
let waiting = null;  // {ticket, timer}

function leave(keepalive = false) {
  if (!waiting) return;
  clearTimeout(waiting.timer);
  fetch(`/api/queue/${waiting.ticket}`, { method: "DELETE", keepalive }).catch(() => {});
  waiting = null;
}

window.addEventListener("pagehide", () => leave(true));

async function playComputer(game, chosen, box) {
  leave();
  try {
    const table = await api("/api/tables", { game: game.name, params: {},
      ...(chosen ? { clock: chosen.clock } : {}),
      seats: [{ kind: "me", name: myName() }, { kind: "ai", agent: "medium" }] });
    window.location.href = table.url;
  } catch (err) { box.querySelector(".queue-status").textContent = err.message; }
}

function idle(box) {
  box.querySelector(".queue-wait").hidden = true;
  box.querySelector(".queue-start").hidden = false;
}

async function start(game, account, box, clockOf, card) {
  leave();
  const status = box.querySelector(".queue-status");
  const chosen = clockOf();
  if (!chosen) {  // a stranger is played on a clock: the card's choice says which
    status.textContent = t("Playing someone you do not know needs a clock: choose one under Clock.");
    card.querySelector(".clock-choice").focus();
    return;
  }
  const control = chosen.key;
  const rated = Boolean(account) && box.querySelector(".queue-rated").checked;
  let joined;
  try {
    joined = await send("POST", "/api/queue", { game: game.name, clock: control, rated,
      name: myName() });
  } catch (err) { status.textContent = err.message; return; }
  box.querySelector(".queue-start").hidden = true;
  box.querySelector(".queue-wait").hidden = false;
  box.querySelector(".queue-computer").hidden = true;
  const me = { ticket: joined.ticket, timer: null };
  waiting = me;
  const poll = async () => {
    if (waiting !== me) return;
    let now;
    try { now = await send("GET", `/api/queue/${me.ticket}`); } catch (err) {
      status.textContent = err.message; idle(box); waiting = null; return;
    }
    if (now.status === "paired") {
      waiting = null;
      rememberGame({ url: now.url, game: game.name, title: game.title });
      window.location.href = now.url;
      return;
    }
    const seconds = Math.round(now.waited);
    status.textContent = (rated ? t("Looking for someone rated near you: {seconds} s", { seconds })
      : t("Looking for someone: {seconds} s", { seconds }))
      + (now.waiting > 1 ? t(" · {n} waiting", { n: now.waiting }) : "");
    box.querySelector(".queue-computer").hidden = now.waited < COMPUTER_AFTER_S;
    me.timer = setTimeout(poll, POLL_MS);
  };
  poll();
}

// The card's "Play someone now": `clockOf()` is the card's Clock choice ({key, clock} or null).
export function cardPart(game, account, clockOf, card) {
  if (game.min_players > 2) return null;
  const ratedId = `${game.name}-queue-rated`;
  const box = el("div", { class: "queue", "data-queue": game.name });
  box.append(
    el("div", { class: "queue-start controls" },
      account ? el("span", { class: "option check" },
        el("input", { id: ratedId, type: "checkbox", class: "queue-rated", checked: true }),
        el("label", { for: ratedId, text: t("Rated") })) : null,
      el("button", { type: "button", class: "queue-go", text: t("Play someone now"),
        onclick: () => start(game, account, box, clockOf, card) })),
    el("div", { class: "queue-wait controls", hidden: true },
      el("button", { type: "button", class: "quiet queue-cancel", text: t("Stop looking"),
        onclick: () => { leave(); idle(box); box.querySelector(".queue-status").textContent = ""; } }),
      el("button", { type: "button", class: "quiet queue-computer", hidden: true,
        text: t("Play the computer instead"), onclick: () => playComputer(game, clockOf(), box) })),
    el("p", { class: "queue-status muted", role: "status", "aria-live": "polite" }));
  return box;
}
