// The lobby's tournaments: the ones being played now, then the upcoming ones open to join,
// each with its game, format and start, linking to its page; and for a signed-in player a
// form to hold one (POST /api/tournaments, docs/tournaments.md).
import { $, api, el } from "./common.js";
import { whoami } from "./account.js";

const FORMATS = { "round-robin": "round robin", swiss: "Swiss" };
const SHOWN = 5;

function line(t) {
  const what = `${t.game_title}, ${FORMATS[t.format]}${t.rated ? ", rated" : ""}`;
  let state;
  if (t.status === "running") state = `round ${t.round} of ${t.rounds}`;
  else if (t.starts_at) state = `starts ${new Date(t.starts_at * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" })}`;
  else state = "open to join";
  return el("li", { class: "listing" },
    el("span", { class: "listing-title" }, el("a", { href: t.url, text: t.name }), el("span", { class: "muted", text: ` ${what}` })),
    el("span", { class: t.status === "running" ? "state mine" : "state", text: `${state} · ${t.players} player${t.players === 1 ? "" : "s"}` }),
    el("a", { class: "button quiet", href: t.url, text: t.status === "running" ? "Follow" : "Join",
      "aria-label": `${t.status === "running" ? "Follow" : "Join"} ${t.name}` }));
}

async function holdForm() {
  const [{ games }, { clocks }] = await Promise.all([api("/api/games"), api("/api/queue")]);
  const game = $("#t-new-game");
  game.replaceChildren(...games.map((g) => el("option", { value: g.name, text: g.title })));
  const players = () => {
    const g = games.find((x) => x.name === game.value);
    const counts = [];
    for (let n = g.min_players; n <= g.max_players; n += 1) counts.push(n);
    $("#t-new-players").replaceChildren(...counts.map((n) => el("option", { value: String(n), text: String(n), selected: n === g.default_players })));
    $("#t-new-players-label").hidden = counts.length < 2;
  };
  game.addEventListener("change", players);
  players();
  $("#t-new-clock").replaceChildren(...clocks.map((c) => el("option", { value: c.key, text: c.label })),
    el("option", { value: "", text: "No clock (casual only)" }));
  const format = $("#t-new-format");
  format.addEventListener("change", () => { $("#t-new-rounds-label").hidden = format.value !== "swiss"; });
  $("#t-new-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const clock = clocks.find((c) => c.key === $("#t-new-clock").value);
    const start = $("#t-new-start").value;
    const body = { game: game.value, format: format.value, rated: $("#t-new-rated").checked,
      clock: clock ? clock.clock : null, name: $("#t-new-name").value || null,
      params: $("#t-new-players-label").hidden ? {} : { players: Number($("#t-new-players").value) },
      starts_at: start ? new Date(start).toISOString() : null };
    if (format.value === "swiss") body.rounds = Number($("#t-new-rounds").value);
    try {
      const made = await api("/api/tournaments", body);
      window.location.href = made.url;
    } catch (err) { $("#t-new-error").textContent = err.message; }
  });
}

async function main() {
  let data;
  try { data = await api("/api/tournaments"); } catch { return; }
  const shown = [...data.running, ...data.upcoming].slice(0, SHOWN);
  $("#tournaments-list").replaceChildren(...shown.map(line));
  const account = await whoami();
  $("#tournaments").hidden = shown.length === 0 && !account;
  if (account) {
    $("#t-new").hidden = false;
    await holdForm();
  }
}

main();
