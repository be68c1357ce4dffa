// "Learn to play": a game's tutorial, one real position a step. The board is the table's own
// board code; every move is sent to the server, which plays it in the step's position with
// the game's engine and answers with its verdict and the learner's view. The page holds no
// rule: it shows what the server says. Progress is remembered in this browser.
import { $, api, el, myName, shownName } from "./common.js";
import { drawPosition, loadRenderer } from "./figures.js";
import { t, tn } from "./i18n.js";

// Every string a player reads on this page, in one place.
const TEXT = {
  progress: (title, n, total) => t("{title} · step {n} of {total}", { title, n, total }),
  dot: (n, title, done) => (done ? t("Step {n}: {title} (done)", { n, title })
    : t("Step {n}: {title}", { n, title })),
  right: t("That's it."),
  missed: t("Not quite."),
  shown: t("Here is one way."),
  next: t("Next step"),
  last: t("Finish"),
  again: t("Start again"),
  tryAgain: t("Try again"),
  you: () => shownName(myName()),
  opponent: t("Opponent"),
  mover: (mine) => (mine ? t("You") : t("Opponent")),
  finishTitle: t("You are ready to play"),
  other: { bluffing: t("Learn the bluffing game"), basics: t("Back to the basic game") },
  noGame: t("This game has no tutorial."),
};
const STORE = "parlour.learn";

const path = window.location.pathname.split("/").filter(Boolean);  // learn, GAME, [TUTORIAL]
const GAME = path[1];
let course = null;      // {game, title, tutorials}
let tutorial = null;    // the tutorial being followed
let index = 0;          // its step on screen
let reply = null;       // the server's last answer for this step
let previous = null;    // the view before the last change (the board marks what moved)
let pending = [];       // the learner's moves in this step so far
let busy = false;
let answers = 0;        // how many answers came (for tests that wait for one)
let renderer = null;
let memo = {};
let memoKey = "";
let keep = {};

// -- progress, remembered ---------------------------------------------------------------------
function doneSteps() {
  try {
    const all = JSON.parse(window.localStorage.getItem(STORE) || "{}");
    const mine = all[`${GAME}/${tutorial.id}`];
    return new Set(Array.isArray(mine) ? mine : []);
  } catch { return new Set(); }
}

function markDone(stepId) {
  try {
    const all = JSON.parse(window.localStorage.getItem(STORE) || "{}");
    const key = `${GAME}/${tutorial.id}`;
    all[key] = [...new Set([...(all[key] || []), stepId])];
    window.localStorage.setItem(STORE, JSON.stringify(all));
  } catch { /* private mode: not remembered */ }
}

// -- talking to the server ----------------------------------------------------------------
async function send(moves) {
  if (busy) return;
  busy = true;
  const step = tutorial.steps[index];
  try {
    const answer = await api(`/api/learn/${GAME}/${tutorial.id}/${step.id}`, { moves });
    if (reply && JSON.stringify(answer.view) !== JSON.stringify(reply.view)) previous = reply.view;
    reply = answer;
    pending = answer.moves;
    if (answer.status === "done") markDone(step.id);
  } catch (err) {
    reply = { ...reply, message: err.message, status: "going" };
  } finally {
    busy = false;
    answers += 1;
  }
  draw();
}

function stepTo(choice) { send([...pending, choice]); }

function replace(steps) { send(steps); }

function say(text) {
  // a renderer's own remark (choose a colour first...): shown where the verdicts are
  const box = $("#feedback");
  box.replaceChildren(el("p", { class: "note", text }));
}

// -- drawing ---------------------------------------------------------------------------------
function seatName(i) {
  return reply && i === reply.learner ? TEXT.you() : TEXT.opponent;
}

function drawDots() {
  const done = doneSteps();
  const list = $("#dots");
  list.replaceChildren(...tutorial.steps.map((step, i) => el("li", {},
    el("button", {
      type: "button", class: `dot${done.has(step.id) ? " done" : ""}`,
      "aria-current": i === index ? "step" : null,
      "aria-label": TEXT.dot(i + 1, step.title, done.has(step.id)),
      text: done.has(step.id) ? "✓" : String(i + 1),
      onclick: () => openStep(i),
    }))));
}

// what was played in the step, in the table's words ("c4 > d4 > e5", "trusted the play")
function moveList() {
  if (!reply.log || !reply.log.length) return null;
  return el("ul", { class: "step-moves" }, ...reply.log.map((line) => el("li", {},
    el("span", { class: "who", text: t("{name}: ", { name: TEXT.mover(line.player === reply.learner) }) }),
    el("span", { text: line.text }))));
}

function drawFeedback(step) {
  const box = $("#feedback");
  box.className = "feedback";
  if (!reply) { box.replaceChildren(); return; }
  if (reply.message) {
    box.classList.add("refused");
    box.replaceChildren(el("p", { text: reply.message }));
  } else if (reply.status === "done") {
    box.classList.add("right");
    box.replaceChildren(...[el("p", { class: "verdict", text: reply.shown ? TEXT.shown : TEXT.right }),
      moveList(), el("p", { text: step.explain })].filter(Boolean));
  } else if (reply.status === "missed") {
    box.classList.add("missed");
    box.replaceChildren(...[el("p", { class: "verdict", text: TEXT.missed }), moveList(),
      el("p", { text: step.hint })].filter(Boolean));
  } else {
    box.replaceChildren();
  }
}

function drawBoard() {
  const interactive = reply.status === "going" && !busy && reply.legal.length > 0;
  const key = `${index}|${JSON.stringify(pending)}|${reply.status}`;
  if (key !== memoKey) { memo = {}; memoKey = key; }
  drawPosition(renderer, $("#board"),
    { ...reply, viewer: reply.learner, previous, mine: [reply.learner] },
    { interactive, pending, seatName, animate: previous !== null,
      hooks: { step: stepTo, replace, say, memo, keep, redraw: () => drawBoard() } });
}

function draw() {
  if (!tutorial || !reply) return;
  const step = tutorial.steps[index];
  const last = index === tutorial.steps.length - 1;
  $("#progress").textContent = TEXT.progress(tutorial.title, index + 1, tutorial.steps.length);
  $("#step-title").textContent = step.title;
  $("#intro").textContent = tutorial.intro;
  $("#intro").hidden = index !== 0;
  $("#instruction").textContent = step.instruction;
  drawDots();
  drawFeedback(step);
  drawBoard();
  const over = reply.status !== "going";
  $("#next").hidden = reply.status !== "done";
  $("#next").textContent = last ? TEXT.last : TEXT.next;
  $("#again").textContent = reply.status === "missed" ? TEXT.tryAgain : TEXT.again;
  $("#again").className = reply.status === "missed" ? "" : "quiet";
  $("#again").hidden = reply.status === "done" || (!over && pending.length === 0 && !reply.message);
  $("#show").hidden = reply.status === "done";
}

async function openStep(i) {
  index = Math.max(0, Math.min(tutorial.steps.length - 1, i));
  reply = null;
  previous = null;
  pending = [];
  keep = {};
  $("#finish").hidden = true;
  $("#lesson").hidden = false;
  history.replaceState(null, "", `#${tutorial.steps[index].id}`);
  await send([]);
}

function finish() {
  $("#lesson").hidden = true;
  $("#finish").hidden = false;
  $("#finish-title").textContent = TEXT.finishTitle;
  $("#finish-text").textContent = tutorial.finish;
  const other = course.tutorials.find((t) => t.id !== tutorial.id);
  const link = $("#other-tutorial");
  link.hidden = !other;
  if (other) {
    link.href = `/learn/${GAME}/${other.id}`;
    link.textContent = TEXT.other[other.id] || other.title;
  }
  $("#play-easy").focus();
}

async function playEasy() {
  $("#finish-error").textContent = "";
  try {
    const check = await api(`/api/games/${GAME}/check`, { params: tutorial.params });
    if (!check.ok) throw new Error(check.error);
    const seats = [{ kind: "me", name: myName() },
      ...Array.from({ length: check.num_players - 1 }, () => ({ kind: "ai", agent: "easy" }))];
    const table = await api("/api/tables", { game: GAME, params: tutorial.params, seats });
    window.location.href = table.url;
  } catch (err) {
    $("#finish-error").textContent = err.message;
  }
}

// -- wiring ----------------------------------------------------------------------------------
$("#next").addEventListener("click", () => {
  if (index === tutorial.steps.length - 1) finish();
  else openStep(index + 1);
});
$("#again").addEventListener("click", () => openStep(index));
$("#show").addEventListener("click", async () => {
  pending = [];
  previous = reply ? reply.view : null;
  const step = tutorial.steps[index];
  reply = null;
  await send(step.solution);
  if (reply) { reply.shown = reply.status === "done"; draw(); showPlayed(); }
});

// After "Show me" the played squares come into view (on a phone the board is under the
// lesson, and may show only part of itself): the board's marks of the last move, else the board.
function showPlayed() {
  const board = $("#board");
  const marks = [...board.querySelectorAll("svg.board-pic [data-last]")];
  const target = marks[0] || board;
  const box = target.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  target.scrollIntoView({ block: "center" });
}
$("#play-easy").addEventListener("click", playEasy);
window.addEventListener("resize", () => { if (reply) drawBoard(); });
window.addEventListener("hashchange", () => {  // a link to a step of this tutorial
  const wanted = tutorial ? tutorial.steps.findIndex((s) => `#${s.id}` === window.location.hash) : -1;
  if (wanted >= 0 && wanted !== index) openStep(wanted);
});

async function main() {
  try {
    course = await api(`/api/learn/${GAME}`);
  } catch (err) {
    $("#instruction").textContent = err.message || TEXT.noGame;
    return;
  }
  tutorial = course.tutorials.find((t) => t.id === path[2]) || course.tutorials[0];
  document.title = t("parlour: {title}", { title: tutorial.title });
  $("#title").textContent = course.title;
  $("#rules-link").href = `/rules/${GAME}`;
  $("#finish-rules").href = `/rules/${GAME}`;
  $("#back-link").href = `/?game=${GAME}`;
  renderer = await loadRenderer(GAME);
  window.parlour = { get reply() { return reply; }, get pending() { return pending; },
    get step() { return tutorial.steps[index]; }, get busy() { return busy; }, get answers() { return answers; } };
  const wanted = tutorial.steps.findIndex((s) => `#${s.id}` === window.location.hash);
  const done = doneSteps();
  const fresh = tutorial.steps.findIndex((s) => !done.has(s.id));
  await openStep(wanted >= 0 ? wanted : Math.max(0, fresh));
}

main();
