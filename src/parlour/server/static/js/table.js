// The table page: one seat's (or a spectator's) live window on a game.
//
// Everything shown comes from the server's messages, each built from this seat's view. The
// page holds no rule: it offers the legal moves the server lists, sends what is clicked, and
// shows the server's explanation when a move is refused. A turn of several steps (a
// GobbleStones play, a Stomple string) is composed with server previews and stored whole.
// Names are put on the page as text only (textContent), never parsed as HTML.
import { $, api, cleanName, copyRow, el, myName, newId, rememberGame, setMyName, shownName } from "./common.js";
import * as arrivals from "./arrivals.js";
import { keepInView } from "./boardfit.js";
import { drawFigures } from "./figures.js";
import * as life from "./tablelife.js";
import * as chatJump from "./chatjump.js";
import * as motion from "./motion.js";
import * as sound from "./sound.js";
import * as ratings from "./tableratings.js";
import * as turns from "./turns.js";
import { header, isDeleted, playerName, profileUrl } from "./account.js";
import { andList, LANG, t, tn } from "./i18n.js";

const path = window.location.pathname.split("/").filter(Boolean);
const MODE = path[0] === "play" ? "play" : "watch";
const KEY = path[1];
const API = MODE === "play" ? `/api/play/${KEY}` : `/api/watch/${KEY}`;
// the page's language goes with the websocket (a browser need not send Accept-Language there)
const WS = `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}/ws/${MODE}/${KEY}`
  + `?lang=${encodeURIComponent(LANG)}`;

let socket = null;
let latest = null;       // the last state message
let shown = null;        // what the board shows: latest, or a preview of a turn being composed
let pending = [];        // steps of the turn being composed (not stored yet)
let inflight = null;     // the act message awaiting its reply (resent after a reconnect)
let stored = 0;          // the version a move just stored makes: no play until its state is in
let renderer = null;
let rendererGame = null;
let replay = null;       // {steps, index} while stepping through a replay
let retry = 500;
let memo = {};           // a renderer's scratch state for the position on screen
let memoKey = "";
const keep = {};         // a renderer's choices that outlive a position (a chosen tile colour)
let curtainSeen = null;
let previous = null;     // this viewer's view before the last change (to mark what moved)
let animated = null;     // the version whose last move was animated already
let named = false;       // this page sent the player's name once
let howtoClosed = false;

const boards = {};
async function loadRenderer(game) {
  if (!boards[game]) {
    boards[game] = import(`./boards/${game.replace(/-/g, "_")}.js`)
      .catch(() => import("./boards/generic.js"))
      .then((m) => m.default);
  }
  return boards[game];
}

// -- names -----------------------------------------------------------------------------------
function colourOf(i) {
  const view = (shown || latest || {}).view || null;
  return renderer && renderer.seatColour ? renderer.seatColour(i, view) : null;
}

function personOf(i) {
  const seats = latest && latest.seats ? latest.seats : [];
  const seat = seats[i];
  if (!seat || !seat.name) return null;
  const name = playerName(seat.name);
  // two seats of one name (two computers of one strength) are numbered: "Computer 2 (easy)"
  const same = seats.filter((s) => s.name && playerName(s.name) === name);
  if (same.length < 2) return name;
  const k = same.indexOf(seat) + 1;
  const cut = name.indexOf(" (");
  return cut > 0 ? `${name.slice(0, cut)} ${k}${name.slice(cut)}` : `${name} ${k}`;
}

// The short name of a seat, for sentences: "Ada", "Computer (hard)", "White", "Player 2".
function shortName(i) {
  if (i === null || i === undefined || i < 0) return t("chance");
  const person = personOf(i);
  if (person) return person;
  const colour = colourOf(i);
  return colour && renderer.colourIsName ? colour : t("Player {n}", { n: i + 1 });
}

// The full name of a seat, with its colour: "Ada (White)", "Computer (hard, green)".
function seatName(i) {
  if (i === null || i === undefined || i < 0) return t("chance");
  const person = personOf(i);
  const colour = colourOf(i);
  if (!colour || (renderer.colourIsName && !person)) return shortName(i);
  const base = person || t("Player {n}", { n: i + 1 });
  return base.endsWith(")") ? `${base.slice(0, -1)}, ${colour})` : `${base} (${colour})`;
}

function mySeats() {
  return latest && latest.hand ? latest.hand.seats : [];
}

function say(text, isError = false) {
  const box = $("#message");
  // one style for every message: a sentence's first word has its capital ("a5 ..." is a square)
  box.textContent = (text || "").replace(/^[a-z](?=[a-z ])/, (c) => c.toUpperCase());
  box.className = isError ? "message error" : "message";
}

// -- talking to the server ----------------------------------------------------------------
function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(steps, extra = {}) {
  if (inflight) return;
  inflight = { type: "act", client_id: newId(), at: latest.version, steps, ...extra };
  send(inflight);
  draw();
}

function step(choice) {
  act([...pending, choice]);
}

function replace(steps) {
  // A renderer that composes a turn in its own order (a GobbleStones play is entered in board
  // order) sends the whole turn so far; an empty turn is simply cancelled.
  if (steps.length === 0) { pending = []; shown = latest; say(""); draw(); return; }
  act(steps);
}

function connect() {
  $("#conn").textContent = t("connecting…");
  $("#conn").dataset.state = "connecting";
  socket = new WebSocket(WS);
  socket.addEventListener("open", () => {
    retry = 500;
    $("#conn").textContent = t("live");
    $("#conn").dataset.state = "live";
    if (inflight) send(inflight);  // same client id: stored at most once
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    $("#conn").textContent = t("reconnecting…");
    $("#conn").dataset.state = "reconnecting";
    if (event.code === 4404) { $("#conn").textContent = t("no such table"); return; }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

async function sendName(name, seat) {
  try {
    await api(`${API}/name`, seat === undefined ? { name } : { name, seat });
  } catch (err) { say(err.message, true); }
}

function introduce(msg) {
  // Tell the table this player's name once, when their link is opened.
  // (not after the game: a finished game keeps the names it was played under)
  if (named || MODE !== "play" || msg.terminal || !msg.hand || msg.hand.seats.length !== 1) return;
  named = true;
  const seat = msg.seats[msg.hand.seats[0]];
  if (seat && seat.kind === "human" && seat.name !== myName()) sendName(myName());
}

async function receive(msg) {
  if (msg.type === "state") {
    if (rendererGame !== msg.game) {
      // the board's drawing first: the message is taken in (window.parlour.latest) and drawn at once
      renderer = await loadRenderer(msg.game);
      rendererGame = msg.game;
      $("#title").textContent = msg.title;
      document.title = t("parlour: {title}", { title: msg.title });
    }
    if (!latest || msg.version !== latest.version || msg.viewer !== latest.viewer) {
      previous = latest && msg.viewer === latest.viewer && msg.version !== latest.version
        ? latest.view : previous;
      if (latest && msg.viewer !== latest.viewer) previous = null;
      pending = [];
      shown = null;
    }
    if (latest && msg.viewer === latest.viewer && msg.version > latest.version) hear(msg, latest);
    if (!latest) {
      animated = msg.version;  // nothing to animate on arrival
      if (MODE === "play") rememberGame({ url: window.location.pathname, game: msg.game, title: msg.title });
    }
    latest = msg;
    introduce(msg);
    life.onState(msg);
    if (!shown || !shown.preview) shown = msg;
    draw();
  } else if (life.handles(msg)) {
    life.receive(msg);
  } else if (msg.type === "partial") {
    if (inflight && msg.client_id === inflight.client_id) inflight = null;
    pending = msg.steps;
    shown = { ...latest, ...msg };
    say(pending.length ? t("Go on with your turn, or undo.") : "");
    draw();
  } else if (msg.type === "ack") {
    if (inflight && msg.client_id === inflight.client_id) inflight = null;
    // the turn is stored; until the position it makes arrives, the board shown is the old
    // one and must not take a second move for a turn that is over
    if (latest && msg.version > latest.version) stored = msg.version;
    pending = [];
    say("");
    draw();
  } else if (msg.type === "error") {
    if (inflight && msg.client_id === inflight.client_id) inflight = null;
    if (msg.code === "stale") { pending = []; shown = latest; }
    if (life.refused(msg)) return;
    say(msg.message, true);
    draw();
  }
}

// -- sounds: what just happened, heard (sound.js; the header's toggle turns them off) ---------
function hear(msg, before) {
  const mine = MODE === "play" ? mySeats() : [];
  if (msg.terminal && !before.terminal) {
    const won = mine.length === 1 && msg.result && msg.result.returns[mine[0]] > 0;
    sound.cue(renderer && renderer.sound ? renderer.sound(msg.view, before.view, msg.last) || "move" : "move");
    sound.cue(won ? "win" : "end", 0.25);
    return;
  }
  const kind = renderer && renderer.sound ? renderer.sound(msg.view, before.view, msg.last)
    : msg.last && msg.last.player >= 0 ? "move" : null;
  if (kind) sound.cue(kind);
  const myTurn = (m) => mine.length === 1 && !m.terminal && m.to_act === mine[0] && m.legal.length > 0;
  if (myTurn(msg) && !myTurn(before)) sound.cue("turn", kind ? 0.18 : 0);
}

// -- drawing -------------------------------------------------------------------------------
function resultText(result) {
  if (!result) return "";
  if (result.reason === "expired") return t("The invitation expired: the game did not start.");
  const winners = result.returns.map((r, i) => (r > 0 ? i : -1)).filter((i) => i >= 0);
  const mine = MODE === "play" ? mySeats() : [];
  if (winners.length === 0) return t("Nobody wins.");
  if (mine.length === 1 && winners.length === 1 && winners[0] === mine[0]) return t("You win!");
  if (mine.length === 1 && winners.includes(mine[0])) {
    const others = winners.filter((i) => i !== mine[0]).map(shortName);
    return t("You share the win with {names}.", { names: andList(others) });
  }
  const names = winners.map(shortName);
  return winners.length > 1
    ? t("{names} share the win.", { names: andList(names) })
    : t("{name} wins.", { name: names[0] });
}

function statusText(model) {
  if (model.terminal) return resultText(model.result);
  if (model.started === false) {
    return arrivals.statusText(latest, MODE === "play" ? mySeats() : [], seatName)
      || t("Waiting for players to sit down…");
  }
  if (model.to_act < 0) return t("Dealing…");
  const mine = MODE === "play" && mySeats().includes(model.to_act);
  if (mine) {
    if (mySeats().length > 1) return t("{name}: your turn", { name: seatName(model.to_act) });
    const colour = colourOf(model.to_act);
    if (!colour) return t("Your turn");
    const playing = (renderer.youPlay && renderer.youPlay(model.to_act, model.view))
      || t("you play {colour}", { colour });
    return t("Your turn · {colour}", { colour: playing });
  }
  if (MODE === "watch") return t("{name} to move", { name: seatName(model.to_act) });
  return t("Waiting for {name}…", { name: seatName(model.to_act) });
}

function drawSeats(model) {
  // only the scores that mean something in this game (Clobber has none)
  const scores = renderer.scores ? renderer.scores(model.view) : null;
  const list = $("#seats");
  list.replaceChildren();
  for (const s of latest.seats) {
    const online = s.kind === "ai" || s.online;
    const you = MODE === "play" && mySeats().includes(s.seat);
    const acting = model.to_act === s.seat && !model.terminal;
    const item = el("li", { class: acting ? "acting" : "", "data-seat": s.seat },
      el("span", { class: online ? "dot on" : "dot", title: online ? t("here") : t("away"),
        "aria-label": online ? t("here") : t("away"), role: "img" }),
      s.account && s.name && !isDeleted(s.name)
        ? el("a", { class: "seat-name", href: profileUrl(s.name), text: seatName(s.seat) })
        : el("span", { class: "seat-name", text: seatName(s.seat) }),
      you ? el("span", { class: "tag", text: t("you") }) : null,
      s.bot ? el("span", { class: "tag", text: t("bot"), title: t("a program plays this seat") }) : null,
      acting ? el("span", { class: "visually-hidden", text: t("to move") }) : null,
      el("span", { class: "score", text: scores && scores[s.seat] !== undefined ? String(scores[s.seat]) : "" }));
    list.append(item);
  }
  const form = $("#name-form");
  const target = nameTarget(model);
  form.hidden = target === null;
  if (target === null || document.activeElement === $("#my-name")) return;
  // hot-seat: the person at the screen names the seat they are playing now
  const hot = mySeats().length > 1;
  $("#name-label").textContent = hot ? t("Name of {name}", { name: shortName(target) }) : t("Your name");
  $("#my-name").value = hot ? personOf(target) || "" : shownName(myName());
}

function nameTarget(model) {
  if (MODE !== "play") return null;
  // an account's seat is named by its username: nothing to name
  const humans = mySeats().filter((i) => latest.seats[i].kind === "human" && !latest.seats[i].account);
  if (!humans.length) return null;
  return humans.includes(model.viewer) ? model.viewer : humans[0];
}

function drawLog() {
  const log = $("#log");
  log.replaceChildren();
  for (const line of latest.log) {
    log.append(el("li", { value: line.turn, "data-turn": line.turn },
      el("span", { class: "who", text: shortName(line.player) }),
      el("span", { class: "what", text: line.text === null ? t("moved") : line.text })));
  }
  log.scrollTop = log.scrollHeight;
}

function drawBoard(model, interactive, before = previous, focus = null) {
  const key = `${model.version}|${model.viewer}|${JSON.stringify(pending)}|${replay ? replay.index : "live"}`;
  // the same position drawn again (an ack after its state) lets the last move's animation run
  if (key === memoKey && motion.busy() && !model.preview) return;
  if (key !== memoKey) { memo = {}; memoKey = key; }
  const board = $("#board");
  const active = document.activeElement && document.activeElement.closest
    ? document.activeElement.closest("#board [data-square], #board [data-section]") : null;
  const wanted = focus || (active ? active.dataset.square : null);
  const live = !replay && animated !== model.version && !model.preview;
  motion.skip();  // the next update ends what still moves
  const log = latest.log || [];
  renderer.render(board, {
    view: model.view,
    legal: interactive ? model.legal : [],
    last: model.last,
    viewer: model.viewer,
    toAct: model.to_act,
    interactive,
    pending,
    previous: before,
    seatName,
    shortName,
    animate: live,
    lastTurn: replay ? null : log[log.length - 1] || null,
    recentTurns: replay ? [] : log.slice(-6),
    mine: MODE === "play" ? mySeats() : [],
  }, { step, replace, say, memo, keep, redraw: (name) => { draw(); refocus(name); } });
  if (live) animated = model.version;
  if (wanted) refocus(wanted);
}

function refocus(name) {
  if (!name) return;
  const again = $(`#board [data-square="${name}"][tabindex]`) || $("#board [tabindex]");
  if (again) again.focus({ preventScroll: true });
}

function drawPrivate(model) {
  const info = renderer.info ? renderer.info(model.view, model.viewer, shortName) : null;
  $("#private-panel").hidden = !info;
  const mine = MODE === "play" && mySeats().length && !model.view.racks;  // racks turned up at the end
  $("#private-title").textContent = mine ? t("What you hold") : t("What the players hold");
  if (info) $("#private").replaceChildren(info);
}

function drawLegal(model, interactive) {
  const box = $("#legal-list");
  box.replaceChildren();
  $("#typed-help").textContent = interactive && model.legal.length
    ? t("Write a move in the game's notation, for example {move}; or choose one below.", { move: model.legal[0].s })
    : t("Moves can be typed here when it is your turn.");
  if (!interactive) return;
  for (const move of model.legal) {
    box.append(el("button", { class: "quiet", type: "button", text: move.s, "data-action": move.a,
      onclick: () => step(move.a) }));
  }
}

function drawCompose() {
  const on = pending.length > 0 && !replay && !renderer.ownCompose;
  $("#compose").classList.toggle("on", on);
  if (!on) return;
  const model = shown || latest;
  $("#compose-text").textContent = renderer.composeText ? renderer.composeText(model.view, pending)
    : t("Your turn is not over: go on, or undo.");
}

function drawEnd() {
  const over = latest.terminal;
  $("#moves-panel").hidden = MODE !== "play" || over || mySeats().length === 0;
  $("#end-panel").hidden = !over;
  if (!over) return;
  $("#result").textContent = resultText(latest.result);
  const reason = latest.result && latest.result.reason;
  const loser = reason ? shortName(latest.result.loser) : "";
  const details = reason === "expired" ? t("Nobody opened the invitation in time.")
    : reason ? (reason === "time" ? t("{name} ran out of time.", { name: loser }) : t("{name} resigned.", { name: loser }))
    : renderer.resultDetails ? renderer.resultDetails(latest.view, latest.result, shortName) : "";
  $("#result-details").textContent = details || "";
  $("#record-link").href = `${API}/record`;
  $("#rematch-button").hidden = MODE !== "play" || Boolean(latest.rematch);
  $("#rematch-link").hidden = !latest.rematch;
  if (latest.rematch) $("#rematch-link").href = latest.rematch;
  ratings.draw(latest);
}

function drawShare() {
  const box = $("#share");
  box.replaceChildren();
  for (const invite of latest.invites || []) {
    const names = andList(invite.seats.map((s) => seatName(s)));
    box.append(copyRow(t("Invitation for {names}", { names }), invite.url));
  }
  box.append(copyRow(t("Spectators"), latest.watch));
}

function drawNotices() {
  const notices = latest.notices || [];
  const box = $("#notices");
  box.hidden = notices.length === 0;
  box.replaceChildren(...notices.map((text) => el("p", { text })));
}

function drawHowto(model, interactive) {
  const first = interactive && !latest.log.some((line) => line.player === model.to_act);
  const box = $("#howto");
  const text = renderer.howTo ? renderer.howTo(model.view) : "";
  box.hidden = !(first && text && !howtoClosed);
  if (!box.hidden) {
    box.replaceChildren(el("span", { text: t("How to move: {text}", { text }) }),
      el("button", { class: "quiet small", type: "button", text: t("Got it"), "aria-label": t("Hide the how-to-move tip"),
        onclick: () => { howtoClosed = true; draw(); } }));
  }
}

// Whether the hot-seat curtain is up (it is drawn here): the screen passes to the next player.
function drawCurtain(model) {
  const hotseat = mySeats().length > 1 && !latest.public && MODE === "play";
  const needs = hotseat && !replay && !model.terminal && model.to_act === model.viewer &&
    curtainSeen !== model.viewer;
  $("#curtain").classList.toggle("on", needs);
  if (needs) $("#curtain-text").textContent = t("Pass the screen to {name}.", { name: seatName(model.viewer) });
  return needs;
}

// Under the curtain nothing of the next seat's view is on the page at all, not merely covered
// (a curtain can be seen through, and the page's text read): no board with its face-down
// tiles, no rack, no list of moves. They are drawn once that player lifts the curtain.
function drawUnderCurtain(model) {
  motion.skip();
  $("#board").replaceChildren();
  memoKey = "";
  $("#howto").hidden = true;
  $("#private-panel").hidden = true;
  $("#private").replaceChildren();
  drawLegal(model, false);
  $("#compose").classList.remove("on");
}

// Fair play: the analysis board names the winning move, so it is offered only where it cannot
// help one person against another: once the game is over (its replay included), or at a table
// with no human opponent (against the computer, hot-seat). A spectator is offered it only if
// at most one person plays. Open seats count as people: someone will sit there.
function analysisFair() {
  if (latest.terminal) return true;
  const people = latest.seats.filter((s) => s.kind !== "ai");
  if (MODE !== "play") return people.length <= 1;
  return people.every((s) => mySeats().includes(s.seat));
}

// Where the game's renderer knows an analysis board for the position shown (the live one or a
// replay's step), it opens there, in a tab of its own
function drawAnalyseLink(view) {
  const link = $("#analyse-link");
  const address = renderer && renderer.analysisLink && view
    ? renderer.analysisLink(view, latest.params || {}) : null;
  const can = Boolean(address) && analysisFair();
  link.hidden = !can;
  if (can) link.href = address;
}

function draw() {
  if (!latest || !renderer) return;
  if (replay) { drawReplay(); return; }
  const model = shown || latest;
  const interactive = MODE === "play" && !inflight && latest.version >= stored && !model.terminal &&
    model.legal.length > 0 && mySeats().includes(model.to_act);
  const status = $("#status");
  status.textContent = statusText(model);
  status.className = interactive ? "status mine" : "status";
  drawNotices();
  const curtained = drawCurtain(model);
  if (curtained) drawUnderCurtain(model);
  else { drawHowto(model, interactive); drawBoard(model, interactive); }
  drawSeats(model);
  drawLog();
  if (!curtained) { drawPrivate(model); drawLegal(model, interactive); drawCompose(); }
  drawEnd();
  drawShare();
  arrivals.draw(latest, MODE === "play" ? mySeats() : null, seatName);
  drawAnalyseLink(model.view);
  life.draw(latest);
  turns.atTable(interactive, model.version, statusText(model));
  if (MODE === "play" && !$("#notify-ask") && !latest.terminal) {
    const ask = turns.askButton(el);
    if (ask) $("#players-title").after(ask);
  }
  if ($("#notify-ask")) $("#notify-ask").hidden = latest.terminal || $("#notify-ask").hidden;
}

// -- replay ----------------------------------------------------------------------------------
async function startReplay() {
  const data = await api(`${API}/replay`);
  replay = { steps: data.steps, index: data.steps.length - 1 };
  const slider = $("#replay-slider");
  slider.max = String(data.steps.length - 1);
  slider.value = String(replay.index);
  $("#replay-bar").classList.add("on");
  draw();
  $("#replay-prev").focus();
}

function drawReplay() {
  const s = replay.steps[replay.index];
  const model = { ...latest, view: s.view, last: s.last, legal: [], version: s.version,
    terminal: false, to_act: -4 };
  $("#status").textContent = t("Replay: step {n} of {total}", { n: replay.index, total: replay.steps.length - 1 });
  $("#status").className = "status";
  $("#howto").hidden = true;
  drawBoard(model, false, replay.index > 0 ? replay.steps[replay.index - 1].view : null);
  drawPrivate(model);
  drawAnalyseLink(s.view);
  const last = s.last;
  const moved = last ? last.text ?? t("moved") : "";
  $("#replay-label").textContent = last ? t("{name}: {move}", { name: shortName(last.player), move: moved }) : t("the start");
  $("#replay-slider").value = String(replay.index);
  drawCompose();
}

function moveReplay(delta) {
  if (!replay) return;
  replay.index = Math.max(0, Math.min(replay.steps.length - 1, replay.index + delta));
  draw();
}

// -- wiring ----------------------------------------------------------------------------------
$("#undo").addEventListener("click", () => {
  const rest = pending.slice(0, -1);
  if (rest.length === 0) { pending = []; shown = latest; say(""); draw(); return; }
  act(rest, { preview: true });
});
$("#cancel").addEventListener("click", () => { pending = []; shown = latest; say(""); draw(); });
$("#typed-go").addEventListener("click", () => {
  const text = $("#typed").value.trim();
  if (text) { step(text); $("#typed").value = ""; }
});
$("#typed").addEventListener("keydown", (e) => { if (e.key === "Enter") $("#typed-go").click(); });
$("#replay-button").addEventListener("click", startReplay);
$("#replay-any").addEventListener("click", startReplay);
$("#replay-prev").addEventListener("click", () => moveReplay(-1));
$("#replay-next").addEventListener("click", () => moveReplay(1));
$("#replay-slider").addEventListener("input", (e) => { replay.index = Number(e.target.value); draw(); });
$("#replay-exit").addEventListener("click", () => {
  replay = null; $("#replay-bar").classList.remove("on"); draw();
});
$("#rematch-button").addEventListener("click", async () => {
  try {
    const data = await api(`${API}/rematch`, {});
    window.location.href = data.url;
  } catch (err) {
    // beside the button that was pressed, not below the fold
    const box = $("#end-message");
    box.textContent = err.message;
    box.hidden = false;
  }
});
$("#name-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const target = nameTarget(shown || latest);
  if (target === null) return;
  if (mySeats().length > 1) {
    const name = cleanName($("#my-name").value);
    if (name) await sendName(name, target);
    $("#my-name").blur();
    return;
  }
  const name = setMyName($("#my-name").value);
  $("#my-name").value = shownName(name);
  await sendName(name);
  $("#my-name").blur();
});
$("#curtain-go").addEventListener("click", () => {
  curtainSeen = (shown || latest).viewer; draw();
});
$("#rules-button").addEventListener("click", async () => {
  const dialog = $("#rules-dialog");
  if (!$("#rules").dataset.loaded && latest) {
    try {
      const data = await api(`/api/rules/${latest.game}`);
      $("#rules").innerHTML = data.html;  // rendered server-side from the project's own rules text
      drawFigures($("#rules"), renderer);
      $("#rules").append(el("p", {}, el("a", { href: `/learn/${latest.game}`, target: "_blank",
        rel: "noopener", text: t("Learn to play, step by step") })));
      $("#rules").dataset.loaded = "1";
    } catch (err) { $("#rules").textContent = err.message; }
  }
  dialog.showModal();
});
document.addEventListener("keydown", (e) => {
  if (!replay || e.target.closest("input")) return;
  if (e.key === "ArrowLeft") moveReplay(-1);
  if (e.key === "ArrowRight") moveReplay(1);
});
window.addEventListener("resize", () => { motion.skip(); if (latest) draw(); });

life.setup({ send, latest: () => latest, seatName, mySeats, say, key: KEY });
chatJump.setup({ mySeats });
keepInView();
sound.setupToggle($("#sound-toggle"));
window.parlour = { get latest() { return latest; }, get pending() { return pending; },
  get sounds() { return sound.played; },
  // a move sent and not answered, or stored and its position not in yet
  get busy() { return Boolean(inflight) || (latest !== null && latest.version < stored); } };
header(undefined, false);
connect();
