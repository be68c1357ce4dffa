// Challenges (issue 31): challenging a player from their profile, and the notice of the
// challenges that wait for you (the lobby, profiles, the account page). Accepting one starts
// a table and takes you to your seat; the server checks everything again.
import { $, api, el } from "./common.js";
import { playerName, send, whoami } from "./account.js";
import { t } from "./i18n.js";

const POLL_MS = 1500;      // how often a sent challenge is asked about while you wait
const NOTICE_MS = 5000;    // how often the notice looks for new challenges

function describe(c, titles) {
  const who = c.direction === "in" ? c.challenger : c.opponent;
  const name = who.bot ? t("{name} (bot)", { name: playerName(who.username) }) : playerName(who.username);
  const game = titles[c.game] || c.game;
  const clock = c.clock_label || t("no clock");
  return { name, game, terms: c.rated ? t("rated, {clock}", { clock }) : t("casual, {clock}", { clock }) };
}

async function gameTitles() {
  const { games } = await api("/api/games");
  return Object.fromEntries(games.map((g) => [g.name, g.title]));
}

// "Challenge NAME": the form on another player's profile (for a signed-in visitor).
export async function challengeForm(slot, username) {
  const me = await whoami();
  if (!slot || !me || me.username.toLowerCase() === username.toLowerCase()) return;
  const [{ games }, { clocks }] = await Promise.all([api("/api/games"), api("/api/queue")]);
  const titles = Object.fromEntries(games.map((g) => [g.name, g.title]));
  const game = el("select", { id: "challenge-game" },
    ...games.map((g) => el("option", { value: g.name, text: g.title })));
  const clock = el("select", { id: "challenge-clock" },
    el("option", { value: "60", text: t("1 minute a move") }),
    ...clocks.map((c) => el("option", { value: c.key, text: c.label })));
  const rated = el("input", { type: "checkbox", id: "challenge-rated" });
  const status = el("p", { class: "muted", id: "challenge-status", role: "status" });
  const error = el("p", { class: "error", id: "challenge-error", role: "alert" });
  const button = el("button", { type: "submit", id: "challenge-send", text: t("Challenge {name}", { name: username }) });
  const form = el("form", { class: "stack", id: "challenge-form" },
    el("label", { for: "challenge-game", text: t("Game") }), game,
    el("label", { for: "challenge-clock", text: t("Time") }), clock,
    el("div", { class: "option check" }, rated, el("label", { for: "challenge-rated", text: t("Rated") })),
    button, status, error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const chosen = clock.value === "60" ? { per_move: 60 }
      : clocks.find((c) => c.key === clock.value).clock;
    let sent;
    try {
      sent = await send("POST", "/api/challenges", {
        opponent: username, game: game.value, rated: rated.checked, clock: chosen });
    } catch (err) { error.textContent = err.message; return; }
    button.disabled = true;
    status.textContent = t("Waiting for {name} to answer your {game} challenge…", { name: username, game: titles[sent.game] || sent.game });
    const cancel = el("button", { type: "button", class: "quiet", id: "challenge-cancel", text: t("Cancel"),
      onclick: async () => { try { await send("POST", `/api/challenges/${sent.id}/decline`, {}); } catch { /* answered */ } } });
    status.after(cancel);
    for (;;) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      let now;
      try { now = await api(`/api/challenges/${sent.id}`); } catch { continue; }
      if (now.status === "waiting") continue;
      cancel.remove();
      button.disabled = false;
      if (now.status === "accepted" && now.url) { window.location.assign(now.url); return; }
      const declined = now.reason ? t("{name} declined: {reason}.", { name: username, reason: now.reason })
        : t("{name} declined.", { name: username });
      status.textContent = { declined, cancelled: t("You cancelled the challenge."),
        lapsed: t("{name} did not answer in time.", { name: username }) }[now.status] || t("The challenge is over.");
      return;
    }
  });
  slot.replaceChildren(el("h2", { id: "challenge-title", text: t("Play {name}", { name: username }) }), form);
  slot.hidden = false;
}

// The challenges waiting for you, with Accept and Decline, kept fresh while the page is open.
export async function challengeNotices(slot = $("#challenge-notices")) {
  const me = await whoami();
  if (!slot || !me || me.bot) return;
  const titles = await gameTitles().catch(() => ({}));
  const shown = new Map();
  async function refresh() {
    let waiting;
    try { waiting = (await api("/api/challenges")).challenges.filter((c) => c.direction === "in"); }
    catch { return; }
    const ids = new Set(waiting.map((c) => c.id));
    for (const [id, node] of shown) if (!ids.has(id)) { node.remove(); shown.delete(id); }
    for (const c of waiting) {
      if (shown.has(c.id)) continue;
      const { name, game, terms } = describe(c, titles);
      const problem = el("span", { class: "error", role: "alert" });
      const answer = async (verb) => {
        try {
          const done = await send("POST", `/api/challenges/${c.id}/${verb}`, {});
          if (verb === "accept" && done.url) { window.location.assign(done.url); return; }
          row.remove(); shown.delete(c.id);
        } catch (err) { problem.textContent = err.message; }
      };
      const row = el("p", { class: "challenge", "data-challenge": c.id },
        el("span", { text: t("{name} challenges you to {game} ({terms}).", { name, game, terms }) + " " }),
        el("button", { type: "button", class: "small", text: t("Accept"), onclick: () => answer("accept") }),
        " ",
        el("button", { type: "button", class: "small quiet", text: t("Decline"), onclick: () => answer("decline") }),
        " ", problem);
      shown.set(c.id, row);
      slot.append(row);
    }
    slot.hidden = shown.size === 0;
  }
  await refresh();
  setInterval(refresh, NOTICE_MS);
}
