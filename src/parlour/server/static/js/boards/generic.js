// Fallback for a game without a board drawing: its view as a readable list, and its legal
// moves as buttons (in the "Moves by name" panel). Shows exactly the view, nothing else.
import { html } from "./svg.js";

function show(value) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value)) return value.map(show).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export default {
  render(root, model, ui) {
    const rows = Object.entries(model.view).map(([k, v]) =>
      html("tr", {}, html("th", { text: k }), html("td", { text: show(v) })));
    const table = html("table", { class: "generic-view" }, ...rows);
    const moves = html("div", { class: "controls" });
    for (const move of model.legal) {
      moves.append(html("button", { class: "quiet", text: move.s, onclick: () => ui.step(move.a) }));
    }
    root.replaceChildren(html("div", {}, table, moves));
  },
};
