// The lobby: four game cards. One click plays the computer, invites a friend or starts a
// hot-seat game; the options a player cares about fold away under "Options" in their words,
// and the engine's own parameters stay under "Advanced". "Your games" lists the tables this
// browser has seats at, with whose turn it is.
import { $, api, copyRow, el, forgetGame, myGames, myName, setMyName, shownName } from "./common.js";
import * as publicLobby from "./lobbylist.js";
import { advancedInput, advancedParams, chosenClock, clockChoice, optionInput, playerOptions,
  readParams } from "./gameoptions.js";
import { cover as picture } from "./boards/art/covers.js";
import { header, send } from "./account.js";
import * as queue from "./queue.js";
import * as turns from "./turns.js";
import { challengeNotices } from "./challenges.js";
import { andList, t, tn } from "./i18n.js";

let signedIn = null;     // the signed-in account, or null for a guest
const GAMES_REFRESH_MS = 15000;

const STRENGTHS = [["easy", t("Easy")], ["medium", t("Medium")], ["hard", t("Hard")]];

// What a player reads about each game, and the options shown in a player's words (every other
// parameter is "Advanced"), come with the catalogue: each game's presentation says them.
let catalogue = null;
let clocks = [];         // the time controls (GET /api/queue): the card's one Clock choice

// -- small pictures of each board: boards/art/covers.js ------------------------------------------

// -- options: gameoptions.js (the same fields as the tournament form's) -----------------------
function noIds(text) {
  return String(text || "").replace(/\s*\((?:[A-Z]-?\d+(?:[,;]\s*)?)+[^)]*\)/g, "").replace(/\s*\[[A-Z]-?\d+\]/g, "");
}

function seatChoices(card, game, n) {
  const box = card.querySelector(".seat-choices");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  const ais = [...STRENGTHS.map(([a]) => a).filter((a) => game.agents.includes(a)),
    ...game.agents.filter((a) => !STRENGTHS.some(([s]) => s === a))];
  for (let i = 0; i < n; i++) {
    const id = `${game.name}-seat-${i}`;
    const select = el("select", { id, "data-seat": i });
    select.append(el("option", { value: "me", text: t("Me") }),
      el("option", { value: "invite", text: t("A friend (invitation link)") }),
      el("option", { value: "hotseat", text: t("Someone at this screen") }));
    for (const agent of ais) {
      const named = catalogue && catalogue.agent_names && catalogue.agent_names[agent];
      select.append(el("option", { value: `ai:${agent}`, text: named || t("Computer ({agent})", { agent }) }));
    }
    select.value = old[i] || (i === 0 ? "me" : "ai:easy");
    box.append(el("div", { class: "seat-choice" }, el("label", { for: id, text: t("Seat {n}", { n: i + 1 }) }), select));
  }
}

// -- creating a table -------------------------------------------------------------------------
async function create(card, game, mode) {
  const error = card.querySelector(".card-error");
  error.textContent = "";
  const params = readParams(card, game);
  const check = await api(`/api/games/${game.name}/check`, { params });
  if (!check.ok) { error.textContent = noIds(check.error); return; }
  const n = check.num_players;
  const me = { kind: "me", name: myName() };
  let seats;
  if (mode === "computer") {
    const strength = card.querySelector("input[name$='-strength']:checked").value;
    seats = [me, ...Array.from({ length: n - 1 }, () => ({ kind: "ai", agent: strength }))];
  } else if (mode === "invite") {
    seats = [me, ...Array.from({ length: n - 1 }, () => ({ kind: "invite" }))];
  } else if (mode === "hotseat") {
    seats = [me, ...Array.from({ length: n - 1 }, () => ({ kind: "hotseat" }))];
  } else if (mode === "open") {
    seats = [me, ...Array.from({ length: n - 1 }, () => ({ kind: "open" }))];
  } else {
    seatChoices(card, game, n);
    seats = [...card.querySelectorAll("[data-seat]")].map((s) =>
      s.value.startsWith("ai:") ? { kind: "ai", agent: s.value.slice(3) }
        : s.value === "me" ? me : { kind: s.value });
  }
  try {
    const chosen = chosenClock(card, clocks);
    const clock = chosen && chosen.clock;
    const rated = Boolean(signedIn && card.querySelector(".rated-choice:checked"));
    const table = await api("/api/tables", {
      game: game.name, params, seats, open: mode === "open", ...(clock ? { clock } : {}),
      ...(rated ? { rated } : {}),
    });
    if (table.invites.length === 0) {
      window.location.href = table.url;
      return;
    }
    const links = $("#links");
    links.replaceChildren();
    for (const invite of table.invites) {
      links.append(copyRow(tn("Invitation for seat {seats}", "Invitation for seats {seats}", invite.seats.length,
        { seats: andList(invite.seats.map((s) => s + 1)) }), invite.url));
    }
    links.append(copyRow(t("Spectators"), table.watch));
    if (table.seats.length) links.append(copyRow(t("Your own seat (to come back later)"), table.url));
    $("#go").href = table.url;
    $("#created").hidden = false;
    $("#created").scrollIntoView({ behavior: "smooth" });
    $("#go").focus({ preventScroll: true });
  } catch (err) {
    error.textContent = noIds(err.message);
  }
}

function gameCard(game) {
  const players = game.min_players === game.max_players
    ? tn("{n} player", "{n} players", game.min_players)
    : t("{min} to {max} players", { min: game.min_players, max: game.max_players });
  const titleId = `${game.name}-title`;
  const card = el("section", { class: "panel card", "data-game": game.name, "aria-labelledby": titleId });
  const strength = el("fieldset", { class: "strength" }, el("legend", { text: t("Computer's strength") }));
  for (const [value, text] of STRENGTHS) {
    if (!game.agents.includes(value)) continue;
    const id = `${game.name}-strength-${value}`;
    const radio = el("input", { type: "radio", id, name: `${game.name}-strength`, value });
    if (value === "easy") radio.checked = true;
    strength.append(el("label", { for: id }, radio, text));
  }
  const options = el("details", { class: "options" }, el("summary", { text: t("Options") }));
  for (const option of playerOptions(game)) {
    options.append(optionInput(game, option, `${game.name}-opt-${option.param}`));
  }
  if (signedIn) {
    const id = `${game.name}-rated`;
    options.append(el("div", { class: "option check" },
      el("input", { id, type: "checkbox", class: "rated-choice" }),
      el("label", { for: id, text: t("Rated (an open table with a clock: your rating changes)") })));
  }
  const advanced = el("details", { class: "advanced" }, el("summary", { text: t("Advanced") }),
    el("p", { class: "muted", text: t("The engine's own settings, and who sits where.") }));
  for (const p of advancedParams(game)) advanced.append(advancedInput(p, `${game.name}-adv-${p.name}`));
  advanced.append(el("div", { class: "seat-choices" }),
    el("button", { type: "button", class: "quiet", "data-mode": "custom", text: t("Create with these seats"),
      onclick: () => create(card, game, "custom") }));
  advanced.addEventListener("toggle", async () => {
    if (!advanced.open) return;
    const check = await api(`/api/games/${game.name}/check`, { params: readParams(card, game) });
    seatChoices(card, game, check.ok ? check.num_players : game.default_players);
  });
  options.append(advanced);
  card.append(
    el("h2", { id: titleId, text: game.title }),
    picture(game.name),
    el("p", { class: "blurb", text: game.blurb }),
    el("p", { class: "facts" }, el("span", { text: players }), el("span", { text: game.length }),
      el("a", { href: `/learn/${game.name}`, text: t("Learn to play") }),
      el("a", { href: `/rules/${game.name}`, text: t("Rules") }),
      game.puzzles ? el("a", { href: `/puzzles/${game.name}`, text: t("Puzzles") }) : null,
      game.analysis ? el("a", { href: game.analysis, text: t("Analysis board") }) : null),
    el("div", { class: "modes" },
      clockChoice(`${game.name}-clock`, clocks),
      strength,
      el("button", { type: "button", "data-mode": "computer", text: t("Play the computer"),
        onclick: () => create(card, game, "computer") }),
      el("button", { type: "button", class: "quiet", "data-mode": "invite", text: t("Invite a friend"),
        onclick: () => create(card, game, "invite") }),
      el("button", { type: "button", class: "quiet", "data-mode": "hotseat", text: t("Hot-seat: one screen"),
        onclick: () => create(card, game, "hotseat") }),
      el("button", { type: "button", class: "quiet", "data-mode": "open", text: t("Open table: anyone may join"),
        onclick: () => create(card, game, "open") })),
    queue.cardPart(game, signedIn, () => chosenClock(card, clocks), card),
    options,
    el("p", { class: "card-error error", role: "alert" }));
  return card;
}

// -- your games -------------------------------------------------------------------------------
function whoseTurn(state) {
  const name = (i) => (state.seats[i] && shownName(state.seats[i].name)) || t("Player {n}", { n: i + 1 });
  const mine = state.hand ? state.hand.seats : [];
  if (state.terminal) {
    const winners = state.result.returns.map((r, i) => (r > 0 ? i : -1)).filter((i) => i >= 0);
    if (winners.length === 1 && mine.length === 1 && winners[0] === mine[0]) return [t("Finished: you won"), false];
    return [winners.length ? t("Finished: {names} won", { names: andList(winners.map(name)) })
      : t("Finished: nobody won"), false];
  }
  const awaited = (state.awaited || []).filter((i) => !mine.includes(i));
  if (awaited.length) return [t("Waiting for {name}", { name: andList(awaited.map(name)) }), false];
  if (state.to_act < 0) return [t("Dealing"), false];
  if (mine.includes(state.to_act)) return [t("Your turn"), true];
  return [t("Waiting for {name}", { name: name(state.to_act) }), false];
}

function accountRow(g) {
  const finished = { win: t("Finished: you won"), loss: t("Finished: you lost"), draw: t("Finished: a draw") };
  const text = g.your_turn ? t("Your turn") : g.finished ? finished[g.result] || t("Finished")
    : g.archived ? t("Archived") : g.to_act === null ? t("Waiting for players") : t("Waiting");
  const title = g.rated ? t("{title} (rated)", { title: g.title }) : g.title;
  return el("li", {},
    el("a", { href: g.url, text: g.with.length ? t("{title} with {names}", { title, names: andList(g.with) }) : title }),
    el("span", { class: g.your_turn ? "state mine" : "state", text }));
}

async function accountGames() {
  let data;
  try { data = await send("GET", "/api/me/games"); } catch { return; }
  const list = $("#your-games-list");
  list.replaceChildren(...data.games.slice(0, 12).map(accountRow));
  $("#your-games").hidden = data.games.length === 0;
  turns.inLobby(data.games.filter((g) => g.your_turn).map((g) => ({
    url: g.url, title: g.title, with: g.with.join(", "), key: g.updated_at })));
}

async function yourGames() {
  if (signedIn) { await accountGames(); return; }
  const games = myGames().slice(0, 8);
  const list = $("#your-games-list");
  list.replaceChildren();
  const rows = await Promise.all(games.map(async (g) => {
    const token = g.url.split("/").pop();
    try {
      return [g, await api(`/api/play/${token}`)];
    } catch (err) {
      if (err.status === 404) forgetGame(g.url);
      return [g, null];
    }
  }));
  const waiting = [];
  for (const [g, state] of rows) {
    if (!state) continue;
    const [text, mine] = whoseTurn(state);
    if (mine) waiting.push({ url: g.url, title: state.title, key: state.version });
    const others = state.seats.filter((s) => !state.hand.seats.includes(s.seat))
      .map((s) => shownName(s.name) || t("Player {n}", { n: s.seat + 1 }));
    list.append(el("li", {},
      el("a", { href: g.url, text: others.length ? t("{title} with {names}", { title: state.title, names: andList(others) }) : state.title }),
      el("span", { class: mine ? "state mine" : "state", text }),
      el("button", { type: "button", class: "quiet small", text: t("Forget"),
        "aria-label": t("Forget {title} from your games", { title: state.title }),
        onclick: () => { forgetGame(g.url); yourGames(); } })));
  }
  $("#your-games").hidden = list.children.length === 0;
  turns.inLobby(waiting);
}

async function main() {
  signedIn = await header();
  challengeNotices();
  if (signedIn) {
    setMyName(signedIn.username);
    $("#my-name-label").hidden = true;
  }
  const name = $("#my-name");
  name.value = shownName(myName());  // a guest's name in the reader's words
  name.addEventListener("change", () => { name.value = shownName(setMyName(name.value)); });
  try {
    [catalogue, { clocks }] = await Promise.all([api("/api/games"), api("/api/queue")]);
  } catch (err) {
    $("#lobby-error").textContent = err.message;
    return;
  }
  $("#cards").replaceChildren(...catalogue.games.map(gameCard));
  publicLobby.setup(catalogue);
  const wanted = new URLSearchParams(window.location.search).get("game");
  if (wanted) {
    const card = document.querySelector(`[data-game="${CSS.escape(wanted)}"]`);
    if (card) card.scrollIntoView();
  }
  yourGames();
  setInterval(yourGames, GAMES_REFRESH_MS);
  const ask = turns.askButton(el);
  if (ask) $("#your-games-title").after(ask);
}

main();
