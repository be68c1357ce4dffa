// Puzzles: a position from a real game where exactly one move wins. The board is the table's
// own board code; every move goes to the server, which checks it against the line the solver
// proved and answers with the solver's reply. The page holds no rule and no solution: it shows
// what the server says. A guest's puzzle rating and the puzzles they finished are kept in this
// browser (localStorage); a signed-in player's are kept on their account by the server.
import { $, api, el } from "./common.js";
import { header } from "./account.js";
import { drawPosition, loadRenderer } from "./figures.js";
import { t, tn } from "./i18n.js";

// Every string a player reads on this page, in the reader's language (the catalog).
const COLOUR_TASK = { White: () => t("White to play and win"), Black: () => t("Black to play and win") };
const TEXT = {
  title: (game) => t("{game} puzzles", { game }),
  about: (rating, n) => tn("Puzzle rated {rating} · one move to find",
    "Puzzle rated {rating} · {n} moves to find", n, { rating }),
  task: (colour) => (COLOUR_TASK[colour] ? COLOUR_TASK[colour]() : t("{colour} to play and win", { colour })),
  first: () => t("Find the only winning move."),
  more: (reply) => t("The solver answered {move}. Find the next winning move.", { move: reply }),
  right: () => t("Right."),
  solved: () => t("Solved! The win is clear now."),
  failed: (move) => t("Not the winning move. The one that wins was {move}.", { move }),
  shown: () => t("The winning line, played out."),
  line: (moves) => {
    const mine = moves.filter((_, i) => i % 2 === 0).join(", ");
    const replies = moves.filter((_, i) => i % 2).join(", ");
    return moves.length > 1
      ? t("Your moves: {moves} · the solver's replies: {replies}", { moves: mine, replies })
      : t("Your moves: {moves}", { moves: mine });
  },
  rating: (shown) => t("Your puzzle rating: {rating}", { rating: shown }),
  change: (d) => (d >= 0 ? `+${d}` : `${d}`),
  unrated: () => t("(tried before: not rated again)"),
  guest: () => t("Kept in this browser. Sign in to keep it on your account."),
  none: () => t("No puzzle found."),
  you: () => t("You"),
  solver: () => t("The solver"),
  arena: () => t("From a game between two strong computer players."),
  server: () => t("From a game played on this server."),
  replay: () => t("See the game"),
};
const STORE = "parlour.puzzles";
const MAX_SEEN = 200;       // as the server's limit for ?seen=
const NEW = { rating: 1500, rd: 350, volatility: 0.06 };

const path = window.location.pathname.split("/").filter(Boolean);  // puzzles, GAME, [ID]
const GAME = path[1];
let puzzle = null;      // the puzzle as the server describes it (no line)
let reply = null;       // the server's last answer (or the puzzle's start)
let previous = null;    // the view before the last change (the board marks what moved)
let moves = [];         // the player's moves so far, in notation
let busy = false;
let answers = 0;        // answers received (the browser tests wait on it)
let renderer = null;
let account = null;
let you = null;         // the account's summary, or the guest's stored rating
let outcome = null;     // {status, change, rated} once the attempt is over
let showing = false;    // the winning line is being shown after a failure
let keep = {};
let memo = {};

// -- a guest's rating, remembered ----------------------------------------------------------
function saved() {
  try {
    const all = JSON.parse(window.localStorage.getItem(STORE) || "{}");
    const mine = all[GAME] || {};
    const rating = mine.rating && Number.isFinite(mine.rating.rating) ? mine.rating : { ...NEW };
    return { rating, seen: Array.isArray(mine.seen) ? mine.seen.slice(0, MAX_SEEN) : [] };
  } catch { return { rating: { ...NEW }, seen: [] }; }
}

function save(mine) {
  try {
    const all = JSON.parse(window.localStorage.getItem(STORE) || "{}");
    all[GAME] = { rating: mine.rating, seen: mine.seen.slice(0, MAX_SEEN) };
    window.localStorage.setItem(STORE, JSON.stringify(all));
  } catch { /* private mode: not remembered */ }
}

function markSeen(id) {
  const mine = saved();
  mine.seen = [id, ...mine.seen.filter((s) => s !== id)];
  save(mine);
}

// -- talking to the server ------------------------------------------------------------------
async function send(list) {
  if (busy) return;
  busy = true;
  drawBoard();
  const mine = saved();
  const firstTry = !mine.seen.includes(puzzle.id);
  try {
    const body = { moves: list };
    if (!account) body.rating = mine.rating;
    const answer = await api(`/api/puzzles/${GAME}/${puzzle.id}/answer`, body);
    previous = reply.view;
    reply = answer;
    moves = list;
    if (answer.you && !showing) finished(answer, mine, firstTry);
  } catch (err) {
    reply = { ...reply, message: err.message };
  } finally {
    busy = false;
    answers += 1;
  }
  draw();
}

function finished(answer, mine, firstTry) {
  const rated = answer.you.rated && (account || firstTry);
  outcome = { status: answer.status, change: rated ? Math.round(answer.you.change) : 0, rated };
  if (account) {
    you = { ...you, rating: answer.you.rating, rd: answer.you.rd };
  } else {
    if (rated) {
      mine.rating = { rating: answer.you.rating, rd: answer.you.rd, volatility: answer.you.volatility };
      save(mine);
    }
    markSeen(puzzle.id);
    you = saved().rating;
  }
}

function stepTo(choice) {
  if (!reply || reply.status && reply.status !== "going") return;
  const text = (reply.legal.find((m) => m.a === choice) || {}).s;
  send([...moves, text === undefined ? choice : text]);
}

// -- drawing ---------------------------------------------------------------------------------
function seatName(i) {
  return i === puzzle.player ? TEXT.you() : TEXT.solver();
}

function shownRating(r) {
  return `${Math.round(r.rating)}${r.rd > 110 ? "?" : ""}`;
}

function drawRating() {
  const box = $("#rating");
  if (!you) { box.replaceChildren(); return; }
  const parts = [el("span", { text: TEXT.rating(shownRating(you)) })];
  if (outcome && outcome.rated) {
    parts.push(" ", el("span", { class: `change ${outcome.change >= 0 ? "up" : "down"}`,
      text: TEXT.change(outcome.change) }));
  } else if (outcome) {
    parts.push(" ", el("span", { class: "muted", text: TEXT.unrated() }));
  }
  if (!account) parts.push(el("br"), el("span", { class: "muted", text: TEXT.guest() }));
  box.replaceChildren(...parts);
}

function drawFeedback() {
  const box = $("#feedback");
  box.className = "feedback";
  const status = reply.status || "going";
  if (reply.message) {
    box.classList.add("refused");
    box.replaceChildren(el("p", { text: reply.message }));
  } else if (showing) {
    box.classList.add("missed");
    box.replaceChildren(el("p", { class: "verdict", text: TEXT.shown() }),
      el("p", { class: "line", text: TEXT.line(reply.solution) }));
  } else if (status === "solved") {
    box.classList.add("right");
    box.replaceChildren(el("p", { class: "verdict", text: TEXT.solved() }),
      el("p", { class: "line", text: TEXT.line(reply.solution) }));
  } else if (status === "failed") {
    box.classList.add("missed");
    const wanted = reply.solution[reply.found];
    box.replaceChildren(el("p", { class: "verdict", text: TEXT.failed(wanted) }));
  } else if (reply.reply) {
    box.classList.add("right");
    box.replaceChildren(el("p", { class: "verdict", text: TEXT.right() }),
      el("p", { text: TEXT.more(reply.reply) }));
  } else {
    box.replaceChildren();
  }
}

function drawBoard() {
  if (!reply) return;
  const interactive = (reply.status || "going") === "going" && !busy && reply.legal.length > 0;
  drawPosition(renderer, $("#board"),
    { ...reply, viewer: puzzle.player, previous, mine: [puzzle.player] },
    { interactive, seatName, animate: previous !== null,
      hooks: { step: stepTo, memo, keep, redraw: () => drawBoard() } });
}

function drawSource(over) {
  // where the position comes from; the game's replay only once the attempt is over (the
  // game may show the winning move)
  const source = puzzle.source || {};
  const parts = [el("span", { text: source.kind === "server" ? TEXT.server() : TEXT.arena() })];
  if (over && source.replay) parts.push(" ", el("a", { href: source.replay, text: TEXT.replay() }));
  $("#source").replaceChildren(...parts);
}

function draw() {
  if (!puzzle || !reply) return;
  const status = reply.status || "going";
  drawSource(status !== "going");
  $("#about").textContent = TEXT.about(puzzle.rating, puzzle.moves_to_find);
  $("#task").textContent = TEXT.task(puzzle.colour);
  $("#instruction").textContent = status === "going" ? TEXT.first() : "";
  $("#instruction").hidden = status !== "going";
  drawFeedback();
  drawRating();
  drawBoard();
  $("#next").hidden = status === "going";
  $("#show").hidden = status !== "failed" || showing;
  $("#again").hidden = status !== "failed" && !showing;
  $("#skip").hidden = status !== "going";
}

// -- choosing a puzzle ------------------------------------------------------------------------
async function open(found) {
  puzzle = found;
  reply = found;
  previous = null;
  moves = [];
  outcome = null;
  showing = false;
  keep = {};
  memo = {};
  if (found.you && found.you.account) you = found.you;
  $("#title").textContent = TEXT.title(found.title);
  document.title = t("parlour: {title}", { title: TEXT.title(found.title) });
  history.replaceState(null, "", `/puzzles/${GAME}/${found.id}`);
  draw();
}

async function nextPuzzle() {
  const mine = saved();
  const query = account ? "" : `?rating=${Math.round(mine.rating.rating)}&seen=${mine.seen.join(",")}`;
  try {
    await open(await api(`/api/puzzles/${GAME}/next${query}`));
  } catch (err) {
    $("#feedback").replaceChildren(el("p", { text: err.message || TEXT.none() }));
  }
}

async function showLine() {
  // the line's own moves, played from the start: the server answers with the solved board
  showing = true;
  const line = reply.solution;
  reply = { ...puzzle };
  previous = null;
  await send(line.filter((_, i) => i % 2 === 0));
}

function tryAgain() {
  open(puzzle);  // not rated again: the server (an account) or this browser (a guest) knows
}

// -- wiring ----------------------------------------------------------------------------------
$("#next").addEventListener("click", nextPuzzle);
$("#skip").addEventListener("click", () => { if (!account) markSeen(puzzle.id); nextPuzzle(); });
$("#show").addEventListener("click", showLine);
$("#again").addEventListener("click", tryAgain);
window.addEventListener("resize", () => drawBoard());

async function main() {
  renderer = await loadRenderer(GAME);
  account = await header();
  if (!account) you = saved().rating;
  window.parlour = { get reply() { return reply; }, get puzzle() { return puzzle; },
    get busy() { return busy; }, get answers() { return answers; } };
  if (path[2]) {
    try {
      await open(await api(`/api/puzzles/${GAME}/${encodeURIComponent(path[2])}`));
      return;
    } catch { /* gone: the next one instead */ }
  }
  await nextPuzzle();
}

main();
