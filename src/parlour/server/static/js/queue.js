// "Play someone now" on a game card: choose a time control, wait in the queue (the server
// pairs people of similar rating, in any of its processes), then go to the table. After 30 s
// the card offers the computer instead. Leaving the page leaves the queue.
import { api, el, myName, rememberGame } from "./common.js";
import { send } from "./account.js";
import { t, tn } from "./i18n.js";

const POLL_MS = 1500;
const COMPUTER_AFTER_S = 30;
const CONTROLS = [["3+2", t("3 min + 2 s")], ["10+5", t("10 min + 5 s")], ["1d", t("A day a move")]];
let waiting = null;  // {ticket, timer}

function leave(keepalive = false) {
  if (!waiting) return;
  clearTimeout(waiting.timer);
  fetch(`/api/queue/${waiting.ticket}`, { method: "DELETE", keepalive }).catch(() => {});
  waiting = null;
}

window.addEventListener("pagehide", () => leave(true));

async function playComputer(game, control, box) {
  leave();
  const clock = { "3+2": { initial: 180, increment: 2 }, "10+5": { initial: 600, increment: 5 },
    "1d": { per_move: 86400 } }[control];
  try {
    const table = await api("/api/tables", { game: game.name, params: {}, clock,
      seats: [{ kind: "me", name: myName() }, { kind: "ai", agent: "medium" }] });
    window.location.href = table.url;
  } catch (err) { box.querySelector(".queue-status").textContent = err.message; }
}

function idle(box) {
  box.querySelector(".queue-wait").hidden = true;
  box.querySelector(".queue-start").hidden = false;
}

async function start(game, account, box) {
  leave();
  const status = box.querySelector(".queue-status");
  const control = box.querySelector(".queue-clock").value;
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

export function cardPart(game, account) {
  if (game.min_players > 2) return null;
  const id = `${game.name}-queue-clock`;
  const select = el("select", { id, class: "queue-clock" });
  for (const [value, text] of CONTROLS) select.append(el("option", { value, text }));
  select.value = "10+5";
  const ratedId = `${game.name}-queue-rated`;
  const box = el("div", { class: "queue", "data-queue": game.name });
  box.append(
    el("div", { class: "queue-start controls" },
      el("label", { for: id, class: "visually-hidden", text: t("Time control") }), select,
      account ? el("span", { class: "option check" },
        el("input", { id: ratedId, type: "checkbox", class: "queue-rated", checked: true }),
        el("label", { for: ratedId, text: t("Rated") })) : null,
      el("button", { type: "button", class: "queue-go", text: t("Play someone now"),
        onclick: () => start(game, account, box) })),
    el("div", { class: "queue-wait controls", hidden: true },
      el("button", { type: "button", class: "quiet queue-cancel", text: t("Stop looking"),
        onclick: () => { leave(); idle(box); box.querySelector(".queue-status").textContent = ""; } }),
      el("button", { type: "button", class: "quiet queue-computer", hidden: true,
        text: t("Play the computer instead"), onclick: () => playComputer(game, select.value, box) })),
    el("p", { class: "queue-status muted", role: "status", "aria-live": "polite" }));
  return box;
}
