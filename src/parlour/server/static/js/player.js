// A player's profile: ratings per game (and player count), games and wins, the last games
// with their replays, and the rating history drawn as an SVG line with its deviation band.
import { $, api, el } from "./common.js";
import { header, profileUrl, shownRating } from "./account.js";
import { challengeForm, challengeNotices } from "./challenges.js";
import { plot } from "./ratingplot.js";

const name = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");

function ratingCard(pool, r) {
  return el("div", { class: "rating-card", "data-pool": pool },
    el("h3", { text: r.title }),
    el("p", { class: "rating-big", text: shownRating(r) }),
    el("p", { class: "muted", text: `${r.provisional ? "Provisional: " : ""}between ${Math.round(r.rating - 2 * r.rd)} and ${Math.round(r.rating + 2 * r.rd)} (95%)` }),
    el("p", { class: "muted", text: `${r.games} rated game${r.games === 1 ? "" : "s"}: ${r.wins} won, ${r.draws} drawn, ${r.losses} lost` }),
    el("a", { href: `/leaderboard/${pool}`, text: "Leaderboard" }));
}

function gameRow(g) {
  const others = g.players.filter((p) => !p.you);
  const with_ = others.map((p) => (p.account && p.name !== "deleted player"
    ? el("a", { href: profileUrl(p.name), text: p.bot ? `${p.name} (bot)` : p.name }) : el("span", { text: p.name })));
  const label = { win: "won", loss: "lost", draw: "drawn" }[g.outcome] || (g.finished ? "over" : "going on");
  const change = g.change === null ? "" : ` (${g.change >= 0 ? "+" : ""}${g.change})`;
  const line = el("span", { class: "listing-title" }, `${g.title}${g.rated ? ", rated" : ""} with `);
  with_.forEach((node, i) => { if (i) line.append(", "); line.append(node); });
  if (!with_.length) line.append("nobody");
  return el("li", { class: "listing" }, line,
    el("span", { class: `state ${g.outcome || ""}`, text: `${label}${change}` }),
    el("a", { href: g.watch, class: "button quiet", text: g.finished ? "Replay" : "Watch",
      "aria-label": `${g.finished ? "Replay" : "Watch"} ${g.title} with ${others.map((p) => p.name).join(", ")}` }));
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
  document.title = `parlour: ${p.username}`;
  $("#crumb").textContent = p.username;
  $("#player-name").textContent = p.bot ? `${p.username} (bot)` : p.username;
  const t = p.totals;
  $("#player-facts").textContent = `Playing since ${new Date(p.created_at * 1000).toLocaleDateString()} · ${t.games} game${t.games === 1 ? "" : "s"} finished, ${t.wins} won`;
  const pools = Object.entries(p.ratings);
  $("#ratings").replaceChildren(...pools.map(([pool, r]) => ratingCard(pool, r)));
  if (!pools.length) $("#ratings").append(el("p", { class: "muted", text: "No rated games yet." }));
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
  else $("#history").append(el("p", { class: "muted", text: "The plot appears after a first rated game." }));
  $("#games").replaceChildren(...p.games.map(gameRow));
  if (!p.games.length) $("#games").append(el("li", { class: "muted", text: "No games yet." }));
  challengeNotices();
  challengeForm($("#challenge-panel"), p.username);
}

main();
