// A game's options as a form offers them: the lobby's game cards and the "Hold a tournament"
// form build them here, so both offer the same choices in the same words. Every word and choice
// comes with the catalogue (GET /api/games): each game's presentation says its options in a
// player's words (`options`), and its other parameters are the engine's own, shown under
// "Advanced" with the game's label and help (`params`). This page holds no game's words.
import { el } from "./common.js";
import { t, tn } from "./i18n.js";

// The options a game shows in a player's words (a choice of players only where it has one).
export function playerOptions(game) {
  return game.options.filter((option) => game.params.some((p) => p.name === option.param)
    && !(option.kind === "players" && game.min_players === game.max_players));
}

// The engine's other parameters; `setUps` false leaves out those that set up a position (a
// tournament and a rated table start every game from the game's own start).
export function advancedParams(game, { setUps = true } = {}) {
  const shown = new Set(game.options.map((o) => o.param));
  return game.params.filter((p) => !shown.has(p.name) && (setUps || !p.set_up));
}

// One option of `playerOptions`: its label beside (or above) its field. `labels` may give a
// form's own words for a kind of option ({players: "Players at a table"}).
export function optionInput(game, option, id, labels = {}) {
  const label = labels[option.kind] || option.label;
  let input;
  if (option.kind === "bool") {
    input = el("input", { id, type: "checkbox", "data-param": option.param, "data-kind": "bool" });
    return el("div", { class: "option check" }, input, el("label", { for: id, text: label }));
  }
  if (option.kind === "players") {
    input = el("select", { id, "data-param": option.param, "data-kind": "int" });
    for (let n = game.min_players; n <= game.max_players; n++) {
      input.append(el("option", { value: String(n), text: tn("{n} player", "{n} players", n) }));
    }
    input.value = String(game.default_players);
  } else if (option.kind === "choice") {
    input = el("select", { id, "data-param": option.param, "data-kind": "choice" });
    for (const [value, text] of option.choices) input.append(el("option", { value, text }));
  } else {
    input = el("input", { id, type: "number", "data-param": option.param, "data-kind": "int",
      placeholder: option.placeholder || "", min: "1" });
  }
  return el("div", { class: "option" }, el("label", { for: id, text: label }), input);
}

// One of `advancedParams`: the game's label, its field, the game's help under it.
export function advancedInput(p, id) {
  let input;
  if (p.kind === "bool") {
    input = el("input", { id, type: "checkbox", "data-param": p.name, "data-kind": "bool" });
    input.checked = Boolean(p.default);
  } else {
    input = el("input", { id, "data-param": p.name, "data-kind": p.kind,
      type: p.kind === "int" || p.kind === "float" ? "number" : "text",
      placeholder: p.default === null ? t("none") : String(p.default) });
  }
  return el("div", { class: "option" }, el("label", { for: id, text: p.label || p.name }), input,
    el("small", { text: p.help }));
}

// The parameters the fields under `root` ask for: only those that differ from the game's
// default (the server checks them all again).
export function readParams(root, game) {
  const params = {};
  for (const input of root.querySelectorAll("[data-param]")) {
    const name = input.dataset.param;
    const spec = game.params.find((p) => p.name === name);
    if (!spec) continue;
    if (input.dataset.kind === "bool") {
      if (input.checked !== Boolean(spec.default)) params[name] = input.checked;
      continue;
    }
    const value = input.value.trim();
    if (value === "" || value === String(spec.default)) continue;
    params[name] = spec.kind === "int" ? Number.parseInt(value, 10)
      : spec.kind === "float" ? Number.parseFloat(value) : value;
  }
  return params;
}

// -- the clock --------------------------------------------------------------------------------
// One "Clock" choice: no clock, or one of the server's time controls (GET /api/queue, the ones
// "Play someone now" pairs on), labelled, so that every way of starting from a card uses it.
export function clockChoice(id, clocks) {
  const select = el("select", { id, class: "clock-choice" },
    el("option", { value: "", text: t("No clock") }),
    ...clocks.map((c) => el("option", { value: c.key, text: c.label })));
  return el("div", { class: "option clock-option" }, el("label", { for: id, text: t("Clock") }), select);
}

// The time control chosen under `root`: {key, clock}, or null for no clock.
export function chosenClock(root, clocks) {
  const select = root.querySelector(".clock-choice");
  const found = select && clocks.find((c) => c.key === select.value);
  return found ? { key: found.key, clock: found.clock } : null;
}
