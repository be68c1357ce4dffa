// A player's profile: ratings per game (and player count), games and wins, the last games
// with their replays, and the rating history drawn as an SVG line with its deviation band.
import { $, api, el } from "./common.js";
import { header, profileUrl, shownRating } from "./account.js";

const SVG = "http://www.w3.org/2000/svg";
const name = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// The rating after each rated game, with the band rating ± 2 RD, on a 640 x 240 canvas.
export function plot(points, title, width = 640) {
  // drawn at the width it is shown at (a phone gets a narrower canvas, so the text stays legible)
  const W = Math.max(300, Math.min(720, Math.round(width))), H = 240, L = 48, R = 12, T = 12, B = 28;
  const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "history-plot", role: "img",
    "aria-label": `${title}: rating after each rated game, from ${Math.round(points[0].rating)} to ${Math.round(points[points.length - 1].rating)}` });
  const lows = points.map((p) => p.rating - 2 * p.rd);
  const highs = points.map((p) => p.rating + 2 * p.rd);
  let lo = Math.min(...lows, ...points.map((p) => p.rating)) - 20;
  let hi = Math.max(...highs) + 20;
  lo = Math.floor(lo / 50) * 50; hi = Math.ceil(hi / 50) * 50;
  const n = points.length;
  const x = (i) => L + (n === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (n - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo || 1);
  const step = Math.max(50, Math.ceil((hi - lo) / 5 / 50) * 50);
  for (let v = lo; v <= hi; v += step) {
    box.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    box.append(svg("text", { x: L - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, String(v)));
  }
  const band = points.map((p, i) => `${x(i)},${y(p.rating + 2 * p.rd)}`)
    .concat(points.map((p, i) => `${x(i)},${y(p.rating - 2 * p.rd)}`).reverse());
  if (n === 1) {
    const p = points[0];
    box.append(svg("rect", { x: x(0) - 6, y: y(p.rating + 2 * p.rd), width: 12,
      height: y(p.rating - 2 * p.rd) - y(p.rating + 2 * p.rd), class: "band" }));
  } else {
    box.append(svg("polygon", { points: band.join(" "), class: "band" }));
  }
  box.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "line" }));
  points.forEach((p, i) => box.append(svg("circle", { cx: x(i), cy: y(p.rating), r: 3.5, class: "dot" },
    undefined)));
  box.append(svg("text", { x: L, y: H - 8, class: "axis" }, new Date(points[0].at * 1000).toLocaleDateString()));
  box.append(svg("text", { x: W - R, y: H - 8, class: "axis", "text-anchor": "end" },
    `${n} rated game${n === 1 ? "" : "s"}`));
  return box;
}

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
}

main();
