// Around the game at a table: the clock, waiting for players, resigning, the computer holding a
// seat, undo with consent, and the chat. The server decides everything; this page shows what it
// says and sends what the player asks. Chat is always put on the page as text.
import { $, api, el, shownName } from "./common.js";
import { t, tn } from "./i18n.js";

let ctx = null;          // {send, latest, seatName, mySeats, say, isPlay, key}
let clockTimer = null;
let receivedAt = 0;      // this browser's time when the last clock figures came
let chatLines = [];
const MAX_CHAT_SHOWN = 100;

export function setup(context) {
  ctx = context;
  const side = document.querySelector(".side");
  const play = document.querySelector(".play-area");
  const clock = el("section", { class: "clock-panel", id: "clock-panel", hidden: true,
    "aria-label": t("Clock") }, el("ul", { id: "clocks", class: "clocks" }),
    el("p", { id: "clock-warning", class: "clock-warning", role: "alert" }));
  play.insertBefore(clock, $("#board"));
  const actions = el("section", { class: "panel", id: "table-actions", hidden: true,
    "aria-labelledby": "table-actions-title" },
    el("h2", { id: "table-actions-title", text: t("At the table") }),
    el("p", { id: "table-note", class: "muted" }),
    el("div", { id: "table-buttons", class: "controls" }));
  const chat = el("section", { class: "panel chat", id: "chat-panel", "aria-labelledby": "chat-title" },
    el("h2", { id: "chat-title", text: t("Chat") }),
    el("ol", { id: "chat-log", class: "chat-log", "aria-live": "polite", tabindex: "0",
      "aria-label": t("Chat messages") }),
    el("form", { id: "chat-form", class: "chat-form" },
      el("label", { for: "chat-text", class: "visually-hidden", text: t("Message") }),
      el("input", { id: "chat-text", maxlength: "500", autocomplete: "off",
        placeholder: t("Say something") }),
      el("button", { type: "submit", text: t("Send") })),
    el("p", { id: "chat-error", class: "error", role: "alert" }));
  side.insertBefore(actions, side.firstChild);
  side.append(chat);
  $("#chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("#chat-text").value.trim();
    if (!text) return;
    ctx.send({ type: "chat", text });
    $("#chat-text").value = "";
  });
  clockTimer = setInterval(tickClock, 250);
}

// -- messages -------------------------------------------------------------------------------
export function handles(msg) {
  return ["chat", "chat_history", "resigned", "reclaimed", "undo"].includes(msg.type);
}

export function receive(msg) {
  if (msg.type === "chat_history") {
    chatLines = msg.messages.slice(-MAX_CHAT_SHOWN);
    $("#chat-title").textContent = msg.channel === "spectators" ? t("Spectators' chat") : t("Chat");
    drawChat();
  } else if (msg.type === "chat") {
    chatLines.push(msg);
    chatLines = chatLines.slice(-MAX_CHAT_SHOWN);
    $("#chat-error").textContent = "";
    drawChat();
    document.dispatchEvent(new CustomEvent("parlour:chat", { detail: msg }));  // chatjump.js counts it
  } else if (msg.type === "undo" && msg.state === "asked") {
    ctx.say(t("Your opponent is asked to let you take your move back."));
  } else if (msg.type === "undo" && msg.state === "declined") {
    ctx.say(t("The move stays: taking it back was declined."));
  }
}

export function refused(msg) {
  // errors about chat show under the chat, others where the table shows its errors
  if (["too_long", "empty"].includes(msg.code) || (msg.code === "rate_limited" && msg.scope === "chat")) {
    $("#chat-error").textContent = `${msg.message}.`;
    return true;
  }
  return false;
}

function drawChat() {
  const log = $("#chat-log");
  log.replaceChildren(...chatLines.map((m) => el("li", {},
    el("span", { class: "chat-name", text: `${shownName(m.name)}: ` }), el("span", { text: m.text }))));
  log.scrollTop = log.scrollHeight;
}

// -- the clock ------------------------------------------------------------------------------
function format(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tickClock() {
  const latest = ctx && ctx.latest();
  const panel = $("#clock-panel");
  if (!latest || !latest.clock) { if (panel) panel.hidden = true; return; }
  panel.hidden = false;
  const clock = latest.clock;
  const elapsed = (Date.now() - receivedAt) / 1000;
  const running = latest.terminal ? null : clock.running;
  const list = $("#clocks");
  const items = latest.seats.map((seat) => {
    let left;
    if (clock.remaining) left = clock.remaining[seat.seat] - (seat.seat === running ? elapsed : 0);
    else left = seat.seat === running ? clock.left - elapsed : clock.per_move;
    const low = seat.seat === running && left <= 10;
    return el("li", { class: `clock${seat.seat === running ? " running" : ""}${low ? " low" : ""}` },
      el("span", { class: "clock-name", text: ctx.seatName(seat.seat) }),
      el("span", { class: "clock-time", text: format(left) }));
  });
  list.replaceChildren(...items);
  const mine = running !== null && ctx.mySeats().includes(running);
  const left = clock.left === null ? null : clock.left - elapsed;
  const warning = mine && left !== null && left <= 10 ? tn("{n} second left to move", "{n} seconds left to move", Math.max(0, Math.ceil(left))) : "";
  if ($("#clock-warning").textContent !== warning) $("#clock-warning").textContent = warning;
}

// -- the table's own buttons ------------------------------------------------------------------
// The page's own dialog, not the browser's plain confirm box: it reads as the page does.
function askToResign(latest, ctx) {
  const dialog = document.getElementById("resign-dialog");
  document.getElementById("resign-text").textContent = latest.num_players === 2
    ? t("Resign and lose this game?")
    : t("Resign? The computer plays your seat for the rest of the game.");
  dialog.returnValue = "";
  dialog.onclose = () => { if (dialog.returnValue === "resign") ctx.send({ type: "resign" }); };
  dialog.showModal();
}

function button(text, onclick, quiet = true) {
  return el("button", { type: "button", class: quiet ? "quiet" : null, text, onclick });
}

// A state message came: its clock figures are as of now (the page ticks from here).
export function onState(msg) {
  if (msg.clock) receivedAt = Date.now();
}

export function draw(latest) {
  const panel = $("#table-actions");
  const note = $("#table-note");
  const buttons = $("#table-buttons");
  buttons.replaceChildren();
  note.textContent = "";
  const mine = ctx.mySeats();
  if (latest.archived) note.textContent = t("This table was archived: it can be replayed, not played.");
  const free = latest.seats.filter((s) => s.kind === "open");
  if (!latest.started && free.length) {  // an open table (invited players: see arrivals.js)
    note.textContent = tn("Waiting for a player to take the free seat from the lobby.",
      "Waiting for {n} players to take the free seats from the lobby.", free.length);
    if (latest.invites !== undefined && latest.num_players > 2) {  // the creator: start now
      const seated = latest.seats.length - free.length;
      buttons.append(button(tn("Start now with {n} player", "Start now with {n} players", seated), async () => {
        try {
          await api(`/api/play/${ctx.key}/start`, {});
        } catch (err) { ctx.say(err.message, true); }
      }));
    }
    if (latest.invites !== undefined) {  // the creator: fill a seat with the computer
      for (const seat of free) {
        buttons.append(button(t("Computer (medium) in seat {n}", { n: seat.seat + 1 }), async () => {
          try {
            await api(`/api/play/${ctx.key}/fill`, { seat: seat.seat, agent: "medium" });
          } catch (err) { ctx.say(err.message, true); }
        }));
      }
    }
  }
  if (mine.length && latest.started && !latest.terminal && !latest.archived) {
    const held = mine.filter((s) => latest.taken_over.includes(s) && !latest.resigned.includes(s));
    if (held.length) {
      note.textContent = t("The computer is playing your seat after your time ran out.");
      buttons.append(button(t("Take my seat back"), () => ctx.send({ type: "reclaim" }), false));
    }
    if (!mine.every((s) => latest.resigned.includes(s))) {
      buttons.append(button(t("Resign"), () => askToResign(latest, ctx)));
    }
    const undoable = latest.public && latest.num_players === 2 && !latest.clock && mine.length === 1;
    if (undoable && latest.undo && latest.undo.by !== mine[0]) {
      note.textContent = t("{name} asks to take their last move back.", { name: ctx.seatName(latest.undo.by) });
      buttons.append(button(t("Allow"), () => ctx.send({ type: "undo", answer: "accept" }), false),
        button(t("Refuse"), () => ctx.send({ type: "undo", answer: "decline" })));
    } else if (undoable && !latest.undo && latest.log.some((m) => m.player === mine[0])) {
      buttons.append(button(t("Ask to take my move back"), () => ctx.send({ type: "undo", answer: "ask" })));
    } else if (undoable && latest.undo) {
      note.textContent = t("Waiting for your opponent to answer your request to take your move back.");
    }
  }
  panel.hidden = !note.textContent && !buttons.children.length;
  tickClock();
}
