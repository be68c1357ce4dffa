// Leaderboards per game (and player count): the top established ratings, provisional apart.
import { $, api, el } from "./common.js";
import { header, profileUrl } from "./account.js";
import { t, tn } from "./i18n.js";

const parts = window.location.pathname.split("/").filter(Boolean);
const BOTS = new URLSearchParams(window.location.search).get("bots") === "1";

function rows(body, players) {
  body.replaceChildren(...players.map((p, i) => el("tr", {},
    el("td", { text: String(i + 1) }),
    el("td", {}, el("a", { href: profileUrl(p.username), text: p.username }),
      p.bot ? el("span", { class: "tag", text: t("bot") }) : null),
    el("td", { class: "num", text: p.shown }),
    el("td", { class: "num", text: `${p.low}–${p.high}` }),
    el("td", { class: "num", text: String(p.games) }))));
}

async function main() {
  await header();
  // every game has a pool (the catalogue names them, as the lobby shows them); the pools with
  // rated players come after, each player count of its own
  const [known, { games }] = await Promise.all([
    api("/api/leaderboard").then((answer) => answer.pools), api("/api/games")]);
  const pool = parts[1] || (known[0] ? known[0].pool : games[0].name);
  const links = new Map(games.map((game) => [game.name, game.title]));
  for (const p of known) links.set(p.pool, p.title);
  $("#pools").replaceChildren(...[...links].map(([key, title]) => el("a", {
    href: `/leaderboard/${key}${BOTS ? "?bots=1" : ""}`, class: key === pool ? "button" : "button quiet", text: title,
    "aria-current": key === pool ? "page" : false })));
  $("#pools").append(el("a", { href: `/leaderboard/${pool}${BOTS ? "" : "?bots=1"}`, id: "bots-toggle",
    class: "button quiet", text: BOTS ? t("People") : t("Bots") }));
  let board;
  try { board = await api(`/api/leaderboard/${pool}${BOTS ? "?bots=true" : ""}`); } catch (err) {
    $("#board-title").textContent = err.message; return;
  }
  $("#board-title").textContent = BOTS ? t("Bots' leaderboard: {title}", { title: board.title })
    : t("Leaderboard: {title}", { title: board.title });
  document.title = BOTS ? t("parlour: {title} bots' leaderboard", { title: board.title })
    : t("parlour: {title} leaderboard", { title: board.title });
  rows($("#top tbody"), board.players);
  rows($("#prov tbody"), board.provisional);
  $("#top").hidden = !board.players.length;
  $("#top-empty").hidden = board.players.length > 0;
  $("#prov").hidden = !board.provisional.length;
  $("#prov-empty").hidden = board.provisional.length > 0;
}

main();
