// A tournament's page: what it is, joining and starting it, the standings with their
// tiebreak, each round's games (watch or replay), your own games, and at the end of a rated
// one each player's rating through it (the profile's plot). Refreshed every few seconds.
import { $, api, el } from "./common.js";
import { header, isDeleted, playerName, profileUrl, send } from "./account.js";
import { plot } from "./ratingplot.js";
import { LANG, andList, number, t, tn } from "./i18n.js";

const id = window.location.pathname.split("/").filter(Boolean)[1] || "";
const TIEBREAKS = {
  buchholz: () => ["Buchholz", "Buchholz", t("Ties are broken by Buchholz: the points of everyone a player met.")],
  sonneborn_berger: () => [t("SB"), "Sonneborn-Berger", t("Ties are broken by Sonneborn-Berger (SB): the points of the players someone beat, plus half those of the ones they drew with.")],
};
let signedIn = null;
let plotted = null;

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(LANG, { dateStyle: "medium", timeStyle: "short" });
}

function playerLink(name, bot) {
  const link = isDeleted(name) ? el("span", { text: playerName(name) }) : el("a", { href: profileUrl(name), text: name });
  return bot ? el("span", {}, link, el("span", { class: "tag", text: t("bot") })) : link;
}

function names(list) {
  return andList(list.map(playerName));
}

function points(x) {
  return number(Math.round(x * 100) / 100);
}

function statusLine(tour) {
  if (tour.cancelled) return t("Cancelled: {why}.", { why: tour.cancelled });
  if (tour.status === "open") {
    const joined = tn("{n} of {max} players has joined.", "{n} of {max} players have joined.", tour.players, { max: tour.max_players });
    return tour.starts_at ? t("Starts {when}. {joined}", { when: when(tour.starts_at), joined })
      : t("Starts when its creator starts it. {joined}", { joined });
  }
  if (tour.status === "running") return t("Round {round} of {rounds} is being played.", { round: tour.round, rounds: tour.rounds });
  return tour.finished_at
    ? tn("Finished after {n} round, {when}.", "Finished after {n} rounds, {when}.", tour.round, { when: when(tour.finished_at) })
    : tn("Finished after {n} round.", "Finished after {n} rounds.", tour.round);
}

function actions(tour) {
  const you = tour.you;
  const box = $("#t-actions");
  box.replaceChildren();
  if (!you) {
    if (tour.status === "open") box.append(el("a", { class: "button", href: `/account?next=${encodeURIComponent(location.pathname)}`, text: t("Sign in to join") }));
    return;
  }
  const act = (label, path, quiet = false) => el("button", { type: "button", class: quiet ? "quiet" : "", text: label,
    onclick: async () => {
      $("#t-error").textContent = "";
      try { await send("POST", path); } catch (err) { $("#t-error").textContent = err.message; }
      refresh();
    } });
  if (you.can_join) box.append(act(t("Join"), `/api/tournaments/${id}/join`));
  if (tour.status === "open" && you.joined) box.append(act(t("Leave"), `/api/tournaments/${id}/leave`, true));
  if (you.can_start) box.append(act(t("Start now"), `/api/tournaments/${id}/start`));
  if (tour.status === "open" && you.joined) box.append(el("span", { class: "muted", text: t("You are in.") }));
}

function standings(tour) {
  const open = tour.status === "open";
  $("#t-standings-title").textContent = open ? t("Players ({n})", { n: tour.players }) : t("Standings");
  $("#t-standings").classList.toggle("before-start", open);
  const [short, title, note] = TIEBREAKS[tour.tiebreak]();
  $("#t-tiebreak").replaceChildren(short === title ? title : el("abbr", { title, text: short }));
  const bye = tour.format === "swiss" ? t("A bye scores a win.") : t("A bye scores nothing (everyone has one).");
  $("#t-tiebreak-note").textContent = `${note} ${bye}`;
  const rows = tour.standings.length ? tour.standings : tour.entrants.map((e, i) => ({ place: i + 1, player: e.player, bot: e.bot, points: 0, [tour.tiebreak]: 0, wins: 0, draws: 0, losses: 0 }));
  $("#t-standings tbody").replaceChildren(...rows.map((s) => el("tr", {},
    el("td", { text: String(s.place) }),
    el("td", {}, playerLink(s.player, s.bot)),
    el("td", { class: "num", text: points(s.points) }),
    el("td", { class: "num", text: points(s[tour.tiebreak]) }),
    el("td", { class: "num", text: `${s.wins}–${s.draws}–${s.losses}`,
      "aria-label": t("{wins} won, {draws} drawn, {losses} lost", { wins: s.wins, draws: s.draws, losses: s.losses }) }))));
}

function result(g) {
  if (!g.over) return t("playing");
  if (g.players.length === 2) {
    const [a, b] = g.points;
    return a === b ? "½–½" : `${a > b ? 1 : 0}–${a > b ? 0 : 1}`;
  }
  return g.points.map(points).join(" · ");
}

function rounds(tour) {
  const box = $("#t-rounds");
  if (!tour.rounds_played.length) {
    box.replaceChildren(el("p", { class: "muted", text: tour.status === "open" ? t("The first round is paired when the tournament starts.") : t("No rounds were played.") }));
    return;
  }
  box.replaceChildren(...[...tour.rounds_played].reverse().map((r) => el("div", { class: "round" },
    el("h3", { text: t("Round {round}", { round: r.round }) }),
    el("ul", { class: "listings" }, ...r.games.map((g) => {
      const line = el("span", { class: "listing-title" });
      g.players.forEach((p, i) => { if (i) line.append(" – "); line.append(playerName(p)); });
      const state = g.forfeits.length
        ? tn("{result} ({names} did not show)", "{result} ({names} did not show)", g.forfeits.length, { result: result(g), names: names(g.forfeits) })
        : result(g);
      const who = andList(g.players.map(playerName));
      return el("li", { class: "listing" }, line,
        el("span", { class: g.over ? "state" : "state mine", text: state }),
        el("a", { class: "button quiet", href: g.watch, text: g.over ? t("Replay") : t("Watch"),
          "aria-label": g.over ? t("Replay round {round}: {players}", { round: r.round, players: who })
            : t("Watch round {round}: {players}", { round: r.round, players: who }) }));
    })),
    r.byes.length ? el("p", { class: "muted", text: t("Round off (a bye): {names}", { names: names(r.byes) }) }) : null)));
}

function yours(tour) {
  const tables = tour.you ? tour.you.tables : [];
  const games = new Map(tour.games.map((g) => [g.table, g]));
  $("#t-yours").hidden = !tables.length;
  const outcomes = { 1: ["win", t("won")], 0.5: ["", t("drawn")], 0: ["loss", t("lost")] };
  $("#t-yours-list").replaceChildren(...[...tables].reverse().map((y) => {
    const g = games.get(y.table);
    const against = g ? g.players.filter((p) => p !== signedIn.username) : [];
    const mine = g && g.over ? g.points[g.players.indexOf(signedIn.username)] : null;
    const [style, outcome] = mine === null ? ["", ""] : g.players.length === 2 ? outcomes[mine] || ["", ""]
      : ["", tn("{n} point", "{n} points", mine, { n: points(mine) })];
    return el("li", { class: "listing" },
      el("span", { class: "listing-title", text: against.length
        ? t("Round {round} against {names}", { round: y.round, names: names(against) }) : t("Round {round}", { round: y.round }) }),
      outcome ? el("span", { class: `state ${style}`, text: outcome }) : null,
      el("a", { class: y.over ? "button quiet" : "button", href: y.url, text: y.over ? t("See the game") : t("Play your game") }));
  }));
}

function ratings(tour) {
  const order = tour.standings.map((s) => s.player);
  const rated = Object.keys(tour.ratings || {}).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  $("#t-ratings").hidden = !rated.length;
  if (!rated.length) return;
  if (!plotted || !rated.includes(plotted)) plotted = signedIn && rated.includes(signedIn.username) ? signedIn.username : (tour.standings[0] ? tour.standings[0].player : rated[0]);
  $("#t-rating-players").replaceChildren(...rated.map((n) => el("button", { type: "button",
    class: n === plotted ? "" : "quiet", text: playerName(n), "aria-pressed": n === plotted ? "true" : "false",
    onclick: () => { plotted = n; ratings(tour); } })));
  const points_ = tour.ratings[plotted];
  $("#t-rating-plot").replaceChildren(plot(points_, t("{name} in {tournament}", { name: playerName(plotted), tournament: tour.name }),
    $("#t-rating-plot").clientWidth || 640,
    tn("start, then {n} game", "start, then {n} games", points_.length - 1)));
}

function about(tour) {
  const format = tour.format === "swiss" ? t("Swiss") : t("Round robin");
  const parts = [tour.players_per_table > 2
    ? t("{format} of {game}, {n} to a table", { format, game: tour.game_title, n: tour.players_per_table })
    : t("{format} of {game}", { format, game: tour.game_title })];
  parts.push(...(tour.settings || []));  // the game's options, in the server's words
  parts.push(tour.rounds ? tn("{n} round", "{n} rounds", tour.rounds) : t("a round for each opponent"));
  parts.push(tour.clock_label || t("no clock"));
  parts.push(tour.rated ? t("rated") : t("casual"));
  return t("{details}. Created by {name}.", { details: parts.join(", "), name: playerName(tour.created_by) });
}

async function refresh() {
  let tour;
  try { tour = await api(`/api/tournaments/${id}`); } catch (err) {
    $("#t-title").textContent = err.message; return null;
  }
  document.title = t("parlour: {name}", { name: tour.name });
  $("#t-title").textContent = tour.name;
  $("#t-about").textContent = about(tour);
  $("#t-status").textContent = statusLine(tour);
  actions(tour);
  yours(tour);
  standings(tour);
  rounds(tour);
  ratings(tour);
  return tour;
}

async function main() {
  signedIn = await header();
  const tour = await refresh();
  if (!tour) return;
  const again = async () => {
    const now = await refresh();
    if (now && now.status !== "finished") setTimeout(again, 3000);
  };
  if (tour.status !== "finished") setTimeout(again, 3000);
}

main();
