// The public lobby: open tables with a free seat (take one), and games being played (watch),
// newest first, refreshed every few seconds. Private tables never appear here.
import { $, api, el, myName, rememberGame } from "./common.js";
import { t, tn } from "./i18n.js";

const REFRESH_MS = 4000;
let page = 0;
let titles = {};

function seatsText(entry) {
  const free = entry.seats.filter((s) => s.free).length;
  const total = entry.seats.length;
  return t("{seated} of {total} seated", { seated: total - free, total });
}

function optionsText(entry) {
  const parts = [];
  const p = entry.params || {};
  if (p.rows && p.columns) parts.push(t("board {rows} x {columns}", { rows: p.rows, columns: p.columns }));
  if (p.size) parts.push(t("board {size}", { size: p.size }));
  if (p.bluff) parts.push(t("bluffing"));
  if (entry.custom_start) parts.push(t("custom start"));
  if (entry.rated) parts.push(t("rated"));
  if (entry.clock) parts.push(entry.clock);
  return parts.join(", ");
}

async function take(entry, seat) {
  try {
    const taken = await api(`/api/tables/${entry.table}/seats/${seat}`, { name: myName() });
    rememberGame({ url: taken.url, game: entry.game, title: entry.title });
    window.location.href = taken.url;
  } catch (err) {
    $("#open-error").textContent = err.message;
    refresh();
  }
}

function openRow(entry) {
  const seat = entry.seats.find((s) => s.free);
  const label = `${entry.title}${optionsText(entry) ? ` (${optionsText(entry)})` : ""}`;
  return el("li", { class: "listing" },
    el("span", { class: "listing-title", text: label }),
    el("span", { class: "muted", text: seatsText(entry) }),
    el("button", { type: "button", text: t("Take a seat"), "aria-label": t("Take a seat at {label}", { label }),
      onclick: () => take(entry, seat.seat) }),
    el("a", { href: entry.watch, class: "button quiet", text: t("Watch"),
      "aria-label": t("Watch {label}", { label }) }));
}

function playingRow(entry) {
  const label = `${entry.title}${optionsText(entry) ? ` (${optionsText(entry)})` : ""}`;
  return el("li", { class: "listing" },
    el("span", { class: "listing-title", text: label }),
    el("span", { class: "muted", text: tn("{n} move so far", "{n} moves so far", entry.moves) }),
    el("a", { href: entry.watch, class: "button quiet", text: t("Watch"), "aria-label": t("Watch {label}", { label }) }));
}

export async function refresh() {
  let listing;
  try {
    listing = await api(`/api/tables?page=${page}`);
  } catch {
    return;  // a missed refresh: the next one comes in a few seconds
  }
  const open = $("#open-list");
  const playing = $("#playing-list");
  open.replaceChildren(...listing.open.map(openRow));
  playing.replaceChildren(...listing.playing.map(playingRow));
  // nothing listed: one short line, so the game cards stay near the top
  const none = listing.open.length === 0 && listing.playing.length === 0 && page === 0;
  $("#open-empty").hidden = listing.open.length > 0;
  $("#playing-title").hidden = none;
  $("#playing-empty").hidden = none || listing.playing.length > 0;
  $("#open-intro").hidden = none;
  $("#lobby-more").hidden = listing.next === null && page === 0;
  $("#lobby-next").disabled = listing.next === null;
  $("#lobby-prev").disabled = page === 0;
  place(none);
}

// With tables to join or watch, the public lobby comes first; with none, it waits under the
// game cards (one short line), so that an empty panel never takes the top of the page.
function place(none) {
  const section = $("#public-lobby");
  const cards = $("#cards");
  if (none && section.nextElementSibling === cards) cards.after(section);
  else if (!none && section.previousElementSibling === cards) cards.before(section);
  section.hidden = false;
}

export function setup(catalogue) {
  titles = Object.fromEntries(catalogue.games.map((g) => [g.name, g.title]));
  const section = el("section", { class: "panel public-lobby", id: "public-lobby", hidden: true,
    "aria-labelledby": "public-title" },
    el("h2", { id: "public-title", text: t("Open tables") }),
    el("p", { id: "open-intro", class: "muted", text: t("Tables anyone may join: take a free seat, or watch.") }),
    el("ul", { id: "open-list", class: "listings" }),
    el("p", { id: "open-empty", class: "muted", text: t("No open table right now: start one with \u201cOpen table\u201d on a game\u2019s card.") }),
    el("h3", { id: "playing-title", text: t("Being played") }),
    el("ul", { id: "playing-list", class: "listings" }),
    el("p", { id: "playing-empty", class: "muted", text: t("No open game is being played right now.") }),
    el("div", { id: "lobby-more", class: "controls", hidden: true },
      el("button", { id: "lobby-prev", type: "button", class: "quiet", text: t("Newer"),
        onclick: () => { page = Math.max(0, page - 1); refresh(); } }),
      el("button", { id: "lobby-next", type: "button", class: "quiet", text: t("Older"),
        onclick: () => { page += 1; refresh(); } })),
    el("p", { id: "open-error", class: "error", role: "alert" }));
  $("#cards").after(section);  // placed by refresh(), once it knows what is listed
  refresh();
  setInterval(refresh, REFRESH_MS);
  return titles;
}
