// The lobby: choose a game and its options, fill the seats, create the table.
import { $, api, copyRow, el } from "./common.js";

const SEAT_LABELS = { me: "Me", invite: "Invite (private link)", hotseat: "Hot-seat (this screen)" };
const PREFERRED_AIS = ["easy", "medium", "hard", "random"];
let catalogue = null;
let checkSeq = 0;

function currentGame() {
  return catalogue.games.find((g) => g.name === $("#game").value);
}

function paramInput(p) {
  const id = `param-${p.name}`;
  let input;
  if (p.kind === "bool") {
    input = el("input", { id, type: "checkbox", "data-param": p.name, "data-kind": "bool" });
    input.checked = Boolean(p.default);
  } else if (p.choices) {
    input = el("select", { id, "data-param": p.name, "data-kind": p.kind });
    for (const c of p.choices) input.append(el("option", { value: c, text: String(c) }));
    input.value = p.default;
  } else {
    input = el("input", {
      id, "data-param": p.name, "data-kind": p.kind,
      type: p.kind === "int" || p.kind === "float" ? "number" : "text",
      placeholder: p.default === null ? "(none)" : String(p.default),
    });
  }
  input.addEventListener("change", refresh);
  return el("label", { class: "field" }, p.name, input, el("small", { text: p.doc }));
}

function readParams() {
  const params = {};
  for (const input of document.querySelectorAll("[data-param]")) {
    const name = input.dataset.param;
    const kind = input.dataset.kind;
    const spec = currentGame().params.find((p) => p.name === name);
    if (kind === "bool") {
      if (input.checked !== Boolean(spec.default)) params[name] = input.checked;
    } else if (input.value !== "" && input.value !== String(spec.default)) {
      params[name] = kind === "int" ? Number.parseInt(input.value, 10)
        : kind === "float" ? Number.parseFloat(input.value) : input.value;
    }
  }
  return params;
}

function seatSelect(index) {
  const select = el("select", { "data-seat": index });
  for (const [kind, label] of Object.entries(SEAT_LABELS)) {
    select.append(el("option", { value: kind, text: label }));
  }
  const offered = currentGame().agents;  // only the computer players that play this game
  const ais = [...PREFERRED_AIS.filter((a) => offered.includes(a)),
    ...offered.filter((a) => !PREFERRED_AIS.includes(a))];
  for (const agent of ais) select.append(el("option", { value: `ai:${agent}`, text: `Computer: ${agent}` }));
  select.value = index === 0 ? "me" : "invite";
  return el("label", { class: "field" }, `Seat ${index + 1}`, select);
}

function drawSeats(n) {
  const box = $("#seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const row = seatSelect(i);
    if (old[i]) row.querySelector("select").value = old[i];
    box.append(row);
  }
}

async function refresh() {
  const game = currentGame();
  const mine = ++checkSeq;
  const result = await api(`/api/games/${game.name}/check`, { params: readParams() });
  if (mine !== checkSeq) return;
  $("#check").textContent = result.ok ? `${result.game}: ${result.num_players} players` : result.error;
  $("#check").className = result.ok ? "muted" : "error";
  $("#create").disabled = !result.ok;
  if (result.ok) drawSeats(result.num_players);
}

function chooseGame() {
  const game = currentGame();
  $("#game-info").textContent = `${game.min_players}–${game.max_players} players · ` +
    (game.information === "perfect" ? "nothing hidden" : "hidden information");
  $("#rules-link").href = `/rules/${game.name}`;
  $("#options").replaceChildren(...game.params.map(paramInput));
  $("#seats").replaceChildren();
  refresh();
}

async function create() {
  $("#create-error").textContent = "";
  const seats = [...document.querySelectorAll("[data-seat]")].map((s) =>
    s.value.startsWith("ai:") ? { kind: "ai", agent: s.value.slice(3) } : { kind: s.value });
  try {
    const table = await api("/api/tables", { game: currentGame().name, params: readParams(), seats });
    if (table.invites.length === 0) {
      window.location.href = table.url;
      return;
    }
    const links = $("#links");
    links.replaceChildren();
    if (table.seats.length) links.append(copyRow(`Your seat${table.seats.length > 1 ? "s" : ""}`, table.url));
    for (const invite of table.invites) {
      links.append(copyRow(`Seat ${invite.seats.map((s) => s + 1).join(", ")}`, invite.url));
    }
    links.append(copyRow("Spectators", table.watch));
    $("#go").href = table.url;
    $("#created").hidden = false;
    $("#created").scrollIntoView({ behavior: "smooth" });
  } catch (err) {
    $("#create-error").textContent = err.message;
  }
}

async function main() {
  catalogue = await api("/api/games");
  const select = $("#game");
  for (const g of catalogue.games) select.append(el("option", { value: g.name, text: g.title }));
  const wanted = new URLSearchParams(window.location.search).get("game");
  if (wanted && catalogue.games.some((g) => g.name === wanted)) select.value = wanted;
  select.addEventListener("change", chooseGame);
  $("#create").addEventListener("click", create);
  chooseGame();
}

main();
