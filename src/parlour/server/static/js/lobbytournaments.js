// The lobby's tournaments: the ones being played now, then the upcoming ones open to join,
// each with its game, format and start, linking to its page; and for a signed-in player a
// form to hold one (POST /api/tournaments, docs/tournaments.md) with the game's options as its
// card offers them.
import { $, api, el } from "./common.js";
import { whoami } from "./account.js";
import { advancedInput, advancedParams, optionInput, playerOptions, readParams } from "./gameoptions.js";
import { LANG, t, tn } from "./i18n.js";

const FORMATS = { "round-robin": () => t("round robin"), swiss: () => t("Swiss") };
const SHOWN = 5;

function line(event) {
  const format = FORMATS[event.format]();
  const what = event.rated ? t("{game}, {format}, rated", { game: event.game_title, format })
    : t("{game}, {format}", { game: event.game_title, format });
  let state;
  if (event.status === "running") state = t("round {round} of {rounds}", { round: event.round, rounds: event.rounds });
  else if (event.starts_at) state = t("starts {when}", { when: new Date(event.starts_at * 1000).toLocaleString(LANG, { dateStyle: "medium", timeStyle: "short" }) });
  else state = t("open to join");
  const running = event.status === "running";
  return el("li", { class: "listing" },
    el("span", { class: "listing-title" }, el("a", { href: event.url, text: event.name }), el("span", { class: "muted", text: ` ${what}` })),
    el("span", { class: running ? "state mine" : "state", text: `${state} · ${tn("{n} player", "{n} players", event.players)}` }),
    el("a", { class: "button quiet", href: event.url, text: running ? t("Follow") : t("Join"),
      "aria-label": running ? t("Follow {name}", { name: event.name }) : t("Join {name}", { name: event.name }) }));
}

// The form's game options: the game card's own fields (gameoptions.js), from the game's
// presentation, so a tournament can be held on any board and variant a table can; the server
// checks them as it does a table's. A set-up position is left out: every game of a tournament
// starts from the game's own start.
function gameFields(g) {
  const labels = { players: t("Players at a table") };
  $("#t-new-options").replaceChildren(...playerOptions(g).map((option) =>
    optionInput(g, option, `t-new-opt-${option.param}`, labels)));
  const advanced = advancedParams(g, { setUps: false });
  $("#t-new-advanced-fields").replaceChildren(...advanced.map((p) => advancedInput(p, `t-new-adv-${p.name}`)));
  $("#t-new-advanced").hidden = advanced.length === 0;
}

async function holdForm() {
  const [{ games }, { clocks }] = await Promise.all([api("/api/games"), api("/api/queue")]);
  const game = $("#t-new-game");
  game.replaceChildren(...games.map((g) => el("option", { value: g.name, text: g.title })));
  const chosen = () => games.find((x) => x.name === game.value);
  game.addEventListener("change", () => { $("#t-new-error").textContent = ""; gameFields(chosen()); });
  gameFields(chosen());
  $("#t-new-clock").replaceChildren(...clocks.map((c) => el("option", { value: c.key, text: c.label })),
    el("option", { value: "", text: t("No clock (casual only)") }));
  const format = $("#t-new-format");
  format.addEventListener("change", () => { $("#t-new-rounds-label").hidden = format.value !== "swiss"; });
  $("#t-new-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("#t-new-error").textContent = "";
    const clock = clocks.find((c) => c.key === $("#t-new-clock").value);
    const start = $("#t-new-start").value;
    const body = { game: game.value, format: format.value, rated: $("#t-new-rated").checked,
      clock: clock ? clock.clock : null, name: $("#t-new-name").value || null,
      params: readParams($("#t-new-form"), chosen()),
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
