// A tournament's page: what it is, joining and starting it, the standings with their
// tiebreak, each round's games (watch or replay), your own games, and at the end of a rated
// one each player's rating through it (the profile's plot). Refreshed every few seconds.
import { $, api, el } from "./common.js";
import { header, profileUrl, send } from "./account.js";
import { plot } from "./ratingplot.js";

const id = window.location.pathname.split("/").filter(Boolean)[1] || "";
const TIEBREAKS = {
  buchholz: ["Buchholz", "Buchholz", "Ties are broken by Buchholz: the points of everyone a player met."],
  sonneborn_berger: ["SB", "Sonneborn-Berger", "Ties are broken by Sonneborn-Berger (SB): the points of the players someone beat, plus half those of the ones they drew with."],
};
const FORMATS = { "round-robin": "Round robin", swiss: "Swiss" };
let signedIn = null;
let plotted = null;

function clockText(clock) {
  if (!clock) return "no clock";
  const span = (s) => (s >= 86400 && s % 86400 === 0 ? `${s / 86400} day${s === 86400 ? "" : "s"}`
    : s >= 60 && s % 60 === 0 ? `${s / 60} minute${s === 60 ? "" : "s"}` : `${s} seconds`);
  if (clock.per_move) return `${span(clock.per_move)} a move`;
  return `${Math.round(clock.initial / 60)} min + ${clock.increment || 0} s a move`;
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

function playerLink(name, bot) {
  const link = name === "deleted player" ? el("span", { text: name }) : el("a", { href: profileUrl(name), text: name });
  return bot ? el("span", {}, link, el("span", { class: "tag", text: "bot" })) : link;
}

function points(x) {
  return String(Math.round(x * 100) / 100);
}

function statusLine(t) {
  if (t.cancelled) return `Cancelled: ${t.cancelled}.`;
  if (t.status === "open") {
    const start = t.starts_at ? `Starts ${when(t.starts_at)}` : "Starts when its creator starts it";
    return `${start}. ${t.players} of ${t.max_players} players have joined.`;
  }
  if (t.status === "running") return `Round ${t.round} of ${t.rounds} is being played.`;
  return `Finished after ${t.round} round${t.round === 1 ? "" : "s"}${t.finished_at ? `, ${when(t.finished_at)}` : ""}.`;
}

function actions(t) {
  const you = t.you;
  const box = $("#t-actions");
  box.replaceChildren();
  if (!you) {
    if (t.status === "open") box.append(el("a", { class: "button", href: `/account?next=${encodeURIComponent(location.pathname)}`, text: "Sign in to join" }));
    return;
  }
  const act = (label, path, quiet = false) => el("button", { type: "button", class: quiet ? "quiet" : "", text: label,
    onclick: async () => {
      $("#t-error").textContent = "";
      try { await send("POST", path); } catch (err) { $("#t-error").textContent = err.message; }
      refresh();
    } });
  if (you.can_join) box.append(act("Join", `/api/tournaments/${id}/join`));
  if (t.status === "open" && you.joined) box.append(act("Leave", `/api/tournaments/${id}/leave`, true));
  if (you.can_start) box.append(act("Start now", `/api/tournaments/${id}/start`));
  if (t.status === "open" && you.joined) box.append(el("span", { class: "muted", text: "You are in." }));
}

function standings(t) {
  const open = t.status === "open";
  $("#t-standings-title").textContent = open ? `Players (${t.players})` : "Standings";
  $("#t-standings").classList.toggle("before-start", open);
  const [short, title, note] = TIEBREAKS[t.tiebreak];
  $("#t-tiebreak").replaceChildren(short === title ? title : el("abbr", { title, text: short }));
  $("#t-tiebreak-note").textContent = `${note} A bye scores ${t.format === "swiss" ? "a win" : "nothing (everyone has one)"}.`;
  const rows = t.standings.length ? t.standings : t.entrants.map((e, i) => ({ place: i + 1, player: e.player, bot: e.bot, points: 0, [t.tiebreak]: 0, wins: 0, draws: 0, losses: 0 }));
  $("#t-standings tbody").replaceChildren(...rows.map((s) => el("tr", {},
    el("td", { text: String(s.place) }),
    el("td", {}, playerLink(s.player, s.bot)),
    el("td", { class: "num", text: points(s.points) }),
    el("td", { class: "num", text: points(s[t.tiebreak]) }),
    el("td", { class: "num", text: `${s.wins}–${s.draws}–${s.losses}`,
      "aria-label": `${s.wins} won, ${s.draws} drawn, ${s.losses} lost` }))));
}

function result(g) {
  if (!g.over) return "playing";
  if (g.players.length === 2) {
    const [a, b] = g.points;
    return a === b ? "½–½" : `${a > b ? 1 : 0}–${a > b ? 0 : 1}`;
  }
  return g.points.map(points).join(" · ");
}

function rounds(t) {
  const box = $("#t-rounds");
  if (!t.rounds_played.length) {
    box.replaceChildren(el("p", { class: "muted", text: t.status === "open" ? "The first round is paired when the tournament starts." : "No rounds were played." }));
    return;
  }
  box.replaceChildren(...[...t.rounds_played].reverse().map((r) => el("div", { class: "round" },
    el("h3", { text: `Round ${r.round}` }),
    el("ul", { class: "listings" }, ...r.games.map((g) => {
      const line = el("span", { class: "listing-title" });
      g.players.forEach((p, i) => { if (i) line.append(" – "); line.append(p); });
      const forfeit = g.forfeits.length ? ` (${g.forfeits.join(", ")} did not show)` : "";
      return el("li", { class: "listing" }, line,
        el("span", { class: g.over ? "state" : "state mine", text: `${result(g)}${forfeit}` }),
        el("a", { class: "button quiet", href: g.watch, text: g.over ? "Replay" : "Watch",
          "aria-label": `${g.over ? "Replay" : "Watch"} round ${r.round}: ${g.players.join(" against ")}` }));
    })),
    r.byes.length ? el("p", { class: "muted", text: `Round off (a bye): ${r.byes.join(", ")}` }) : null)));
}

function yours(t) {
  const tables = t.you ? t.you.tables : [];
  const games = new Map(t.games.map((g) => [g.table, g]));
  $("#t-yours").hidden = !tables.length;
  $("#t-yours-list").replaceChildren(...[...tables].reverse().map((y) => {
    const g = games.get(y.table);
    const against = g ? g.players.filter((p) => p !== signedIn.username).join(", ") : "";
    const mine = g && g.over ? g.points[g.players.indexOf(signedIn.username)] : null;
    const outcome = mine === null ? "" : g.players.length === 2 ? { 1: "won", 0.5: "drawn", 0: "lost" }[mine] : `${points(mine)} points`;
    return el("li", { class: "listing" },
      el("span", { class: "listing-title", text: `Round ${y.round}${against ? ` against ${against}` : ""}` }),
      outcome ? el("span", { class: `state ${{ won: "win", lost: "loss" }[outcome] || ""}`, text: outcome }) : null,
      el("a", { class: y.over ? "button quiet" : "button", href: y.url, text: y.over ? "See the game" : "Play your game" }));
  }));
}

function ratings(t) {
  const order = t.standings.map((s) => s.player);
  const names = Object.keys(t.ratings || {}).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  $("#t-ratings").hidden = !names.length;
  if (!names.length) return;
  if (!plotted || !names.includes(plotted)) plotted = signedIn && names.includes(signedIn.username) ? signedIn.username : (t.standings[0] ? t.standings[0].player : names[0]);
  $("#t-rating-players").replaceChildren(...names.map((n) => el("button", { type: "button",
    class: n === plotted ? "" : "quiet", text: n, "aria-pressed": n === plotted ? "true" : "false",
    onclick: () => { plotted = n; ratings(t); } })));
  const points_ = t.ratings[plotted];
  $("#t-rating-plot").replaceChildren(plot(points_, `${plotted} in ${t.name}`, $("#t-rating-plot").clientWidth || 640,
    `start, then ${points_.length - 1} game${points_.length === 2 ? "" : "s"}`));
}

async function refresh() {
  let t;
  try { t = await api(`/api/tournaments/${id}`); } catch (err) {
    $("#t-title").textContent = err.message; return null;
  }
  document.title = `parlour: ${t.name}`;
  $("#t-title").textContent = t.name;
  const rounds_ = t.rounds ? `${t.rounds} rounds` : "a round for each opponent";
  $("#t-about").textContent = `${FORMATS[t.format]} of ${t.game_title}${t.players_per_table > 2 ? `, ${t.players_per_table} to a table` : ""}, ${rounds_}, ${clockText(t.clock)}, ${t.rated ? "rated" : "casual"}. Created by ${t.created_by}.`;
  $("#t-status").textContent = statusLine(t);
  actions(t);
  yours(t);
  standings(t);
  rounds(t);
  ratings(t);
  return t;
}

async function main() {
  signedIn = await header();
  const t = await refresh();
  if (!t) return;
  const again = async () => {
    const now = await refresh();
    if (now && now.status !== "finished") setTimeout(again, 3000);
  };
  if (t.status !== "finished") setTimeout(again, 3000);
}

main();
