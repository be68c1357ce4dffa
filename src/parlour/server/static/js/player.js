// A player's profile: ratings per game (and player count), games and wins, the last games
// with their replays, and the rating history drawn as an SVG line with its deviation band.
import { $, api, el } from "./common.js";
import { header, isDeleted, playerName, profileUrl, shownRating } from "./account.js";
import { challengeForm, challengeNotices } from "./challenges.js";
import { plot } from "./ratingplot.js";
import { LANG, andList, t, tn } from "./i18n.js";

const name = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");

function ratingCard(pool, r) {
  return el("div", { class: "rating-card", "data-pool": pool },
    el("h3", { text: r.title }),
    el("p", { class: "rating-big", text: shownRating(r) }),
    el("p", { class: "muted", text: r.provisional
      ? t("Provisional: between {low} and {high} (95%)", { low: Math.round(r.rating - 2 * r.rd), high: Math.round(r.rating + 2 * r.rd) })
      : t("Between {low} and {high} (95%)", { low: Math.round(r.rating - 2 * r.rd), high: Math.round(r.rating + 2 * r.rd) }) }),
    el("p", { class: "muted", text: tn("{n} rated game: {wins} won, {draws} drawn, {losses} lost",
      "{n} rated games: {wins} won, {draws} drawn, {losses} lost", r.games, { wins: r.wins, draws: r.draws, losses: r.losses }) }),
    el("a", { href: `/leaderboard/${pool}`, text: t("Leaderboard") }));
}

function puzzleCard(game, r) {  // a puzzle rating, beside the game ratings
  return el("div", { class: "rating-card", "data-puzzles": game },
    el("h3", { text: t("{game} puzzles", { game: r.title }) }),
    el("p", { class: "rating-big", text: r.shown }),
    el("p", { class: "muted", text: tn("{n} puzzle solved of {tried} tried",
      "{n} puzzles solved of {tried} tried", r.solved, { tried: r.attempts }) }),
    el("a", { href: r.page, text: t("Puzzles") }));
}

function gameRow(g) {
  const others = g.players.filter((p) => !p.you);
  const with_ = others.map((p) => (p.account && !isDeleted(p.name)
    ? el("a", { href: profileUrl(p.name), text: p.bot ? t("{name} (bot)", { name: p.name }) : p.name }) : el("span", { text: playerName(p.name) })));
  const label = { win: t("won"), loss: t("lost"), draw: t("drawn") }[g.outcome] || (g.finished ? t("over") : t("going on"));
  const change = g.change === null ? "" : ` (${g.change >= 0 ? "+" : ""}${g.change})`;
  const line = el("span", { class: "listing-title" }, g.rated ? t("{title}, rated, with ", { title: g.title })
    : t("{title} with ", { title: g.title }));
  with_.forEach((node, i) => { if (i) line.append(", "); line.append(node); });
  if (!with_.length) line.append(t("nobody"));
  return el("li", { class: "listing" }, line,
    el("span", { class: `state ${g.outcome || ""}`, text: `${label}${change}` }),
    el("a", { href: g.watch, class: "button quiet", text: g.finished ? t("Replay") : t("Watch"),
      "aria-label": g.finished
        ? t("Replay {title} with {names}", { title: g.title, names: andList(others.map((p) => playerName(p.name))) })
        : t("Watch {title} with {names}", { title: g.title, names: andList(others.map((p) => playerName(p.name))) }) }));
}

async function main() {
  await header();
  let p;
  try {
    p = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (err) {
    $("#player-name").textContent = name;
    $("#player-error").textContent = err.message;
    return;
  }
  document.title = t("parlour: {username}", { username: p.username });
  $("#crumb").textContent = p.username;
  $("#player-name").textContent = p.bot ? t("{name} (bot)", { name: p.username }) : p.username;
  const totals = p.totals;
  $("#player-facts").textContent = tn("Playing since {date} · {n} game finished, {wins} won",
    "Playing since {date} · {n} games finished, {wins} won", totals.games,
    { date: new Date(p.created_at * 1000).toLocaleDateString(LANG), wins: totals.wins });
  const pools = Object.entries(p.ratings);
  $("#ratings").replaceChildren(...pools.map(([pool, r]) => ratingCard(pool, r)));
  const puzzles = Object.entries(p.puzzles || {});
  $("#ratings").append(...puzzles.map(([game, r]) => puzzleCard(game, r)));
  if (!pools.length && !puzzles.length) $("#ratings").append(el("p", { class: "muted", text: t("No rated games yet.") }));
  const historyPools = Object.keys(p.history);
  const show = (pool) => {
    $("#history").replaceChildren(plot(p.history[pool], p.ratings[pool] ? p.ratings[pool].title : pool,
      $("#history").clientWidth || 640));
    for (const b of $("#history-pools").children) b.setAttribute("aria-pressed", String(b.dataset.pool === pool));
  };
  $("#history-pools").replaceChildren(...historyPools.map((pool) => el("button", {
    type: "button", class: "quiet small", "data-pool": pool,
    text: p.ratings[pool] ? p.ratings[pool].title : pool, onclick: () => show(pool) })));
  if (historyPools.length) show(historyPools[0]);
  else $("#history").append(el("p", { class: "muted", text: t("The plot appears after a first rated game.") }));
  $("#games").replaceChildren(...p.games.map(gameRow));
  if (!p.games.length) $("#games").append(el("li", { class: "muted", text: t("No games yet.") }));
  challengeNotices();
  challengeForm($("#challenge-panel"), p.username);
}

main();
