// Leaderboards per game (and player count): the top established ratings, provisional apart.
import { $, api, el } from "./common.js";
import { header, profileUrl } from "./account.js";

const parts = window.location.pathname.split("/").filter(Boolean);
const GAMES = [["clobber", "Clobber"], ["stomple", "Stomple"], ["stomp-the-plank", "Stomp the Plank"], ["gobblestones", "GobbleStones"]];

function rows(body, players) {
  body.replaceChildren(...players.map((p, i) => el("tr", {},
    el("td", { text: String(i + 1) }),
    el("td", {}, el("a", { href: profileUrl(p.username), text: p.username }),
      p.bot ? el("span", { class: "tag", text: "bot" }) : null),
    el("td", { class: "num", text: p.shown }),
    el("td", { class: "num", text: `${p.low}–${p.high}` }),
    el("td", { class: "num", text: String(p.games) }))));
}

async function main() {
  await header();
  const known = (await api("/api/leaderboard")).pools;
  const pool = parts[1] || (known[0] ? known[0].pool : "clobber");
  const links = new Map(GAMES);
  for (const p of known) links.set(p.pool, p.title);
  $("#pools").replaceChildren(...[...links].map(([key, title]) => el("a", {
    href: `/leaderboard/${key}`, class: key === pool ? "button" : "button quiet", text: title,
    "aria-current": key === pool ? "page" : false })));
  let board;
  try { board = await api(`/api/leaderboard/${pool}`); } catch (err) {
    $("#board-title").textContent = err.message; return;
  }
  $("#board-title").textContent = `Leaderboard: ${board.title}`;
  document.title = `parlour: ${board.title} leaderboard`;
  rows($("#top tbody"), board.players);
  rows($("#prov tbody"), board.provisional);
  $("#top").hidden = !board.players.length;
  $("#top-empty").hidden = board.players.length > 0;
  $("#prov").hidden = !board.provisional.length;
  $("#prov-empty").hidden = board.provisional.length > 0;
}

main();
