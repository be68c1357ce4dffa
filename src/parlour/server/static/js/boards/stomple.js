// Stomple: a 7 x 7 tray of marbles; each player's stomper (a digit in the view) hops over it.
// Click (or Tab to and press Enter on) a highlighted marble to stomp it. A string (S7) is
// several stomps of one turn: each is previewed by the server and the whole turn is stored
// once it passes to the next player.
import { animate, canvas, hint, html, playable, svg } from "./svg.js";

const CELL = 62;
const MARGIN = 24;
const FILES = "abcdefg";
const MARBLES = {
  w: ["#f7f5ee", "#8b8577", "white"], y: ["#f2c94c", "#a8821b", "yellow"],
  r: ["#d64541", "#7f1f1c", "red"], b: ["#3b6fd8", "#1d3a7a", "blue"],
  g: ["#3a9d5d", "#1d5a33", "green"], k: ["#2a2622", "#000", "black"],
  c: ["url(#cats-eye)", "#2c5d6b", "cat's eye"],
};
const BY_NAME = Object.fromEntries(Object.values(MARBLES).map(([fill, , name]) => [name, fill]));

function holeName(r, c) { return FILES[c] + String(7 - r); }

function stomper(x, y, seat, colour, label) {
  const fill = BY_NAME[colour] || "#999";
  return svg("g", { "data-stomper": seat },
    svg("circle", { cx: x, cy: y, r: CELL * 0.4, fill: "#fff", stroke: "#222", "stroke-width": 3 }),
    svg("circle", { cx: x, cy: y, r: CELL * 0.28, fill, stroke: "#222", "stroke-width": 1 }),
    svg("text", { x, y: y + 5, "text-anchor": "middle", "font-weight": 700, "font-size": 15,
      fill: colour === "black" || colour === "blue" ? "#fff" : "#111", text: label }));
}

export default {
  seatColour(i, view) {
    return view && view.colours ? view.colours[i] || null : null;
  },

  scores(view) { return view.scores; },

  howTo(view) {
    return view.string
      ? `Keep stomping ${view.string} marbles next to your stomper, or stop when none is left.`
      : "Stomp one of the outlined marbles: your stomper hops onto it.";
  },

  resultDetails(view, result, name) {
    const order = result.scores.map((s, i) => [s, i]).sort((a, b) => b[0] - a[0]);
    const points = order.map(([s, i]) => `${name(i)} ${s}`).join(", ");
    const rounds = view.single_round ? "one round" : `${view.round} round${view.round > 1 ? "s" : ""}, target ${view.target}`;
    const out = (view.status || []).map((st, i) => (st === "out" ? i : -1)).filter((i) => i >= 0);
    const knocked = out.length
      ? `${out.map(name).join(" and ")} ${out.length > 1 ? "were" : "was"} knocked out of the last round. ` : "";
    return `${knocked}Game points: ${points} (${rounds}).`;
  },

  render(root, model, ui) {
    const { view, legal, interactive } = model;
    const size = MARGIN + 7 * CELL;
    const board = canvas(size, size + MARGIN, "Stomple board");
    board.append(svg("defs", {}, svg("radialGradient", { id: "cats-eye" },
      svg("stop", { offset: "0%", "stop-color": "#e8f7ff" }),
      svg("stop", { offset: "55%", "stop-color": "#7cc3d6" }),
      svg("stop", { offset: "100%", "stop-color": "#2c5d6b" }))));
    board.append(svg("rect", { x: MARGIN, y: 0, width: 7 * CELL, height: 7 * CELL, rx: 14,
      fill: "#b98b52" }));
    const moves = new Map(legal.map((m) => [m.s, m]));
    const lastHole = model.last && model.last.text && /^[a-g][1-7]$/.test(model.last.text)
      ? model.last.text : null;
    let landed = null;
    view.board.forEach((row, r) => [...row].forEach((mark, c) => {
      const name = holeName(r, c);
      const x = MARGIN + c * CELL + CELL / 2;
      const y = r * CELL + CELL / 2;
      const group = svg("g", { "data-square": name, class: interactive && moves.has(name) ? "clickable" : "" });
      group.append(svg("circle", { cx: x, cy: y, r: CELL * 0.42, fill: "#8a6233" }));
      if (name === lastHole) {
        group.append(svg("circle", { cx: x, cy: y, r: CELL * 0.47, fill: "none", stroke: "#f2c94c",
          "stroke-width": 5, "data-last": "1" }));
      }
      let what = "empty hole";
      if (MARBLES[mark]) {
        const [fill, stroke, colour] = MARBLES[mark];
        what = `${colour} marble`;
        group.append(svg("circle", { cx: x, cy: y, r: CELL * 0.34, fill, stroke, "stroke-width": 2,
          "data-marble": mark }));
      } else if (/\d/.test(mark)) {
        const seat = Number(mark);
        what = `${model.seatName(seat)}'s stomper`;
        const piece = stomper(x, y, seat, view.colours[seat], String(seat + 1));
        group.append(piece);
        if (name === lastHole) landed = piece;
      }
      if (interactive && moves.has(name)) {
        group.append(hint("circle", { cx: x, cy: y, r: CELL * 0.45 }));
        playable(group, `${name}, ${what}: stomp it`, () => ui.step(moves.get(name).a));
      } else if (interactive && mark !== ".") {
        group.addEventListener("click", () => ui.step(name));  // the server explains the rule
      }
      board.append(group);
    }));
    for (let c = 0; c < 7; c++) {
      board.append(svg("text", { x: MARGIN + c * CELL + CELL / 2, y: 7 * CELL + 17,
        "text-anchor": "middle", class: "coord", text: FILES[c] }));
      board.append(svg("text", { x: MARGIN / 2, y: c * CELL + CELL / 2 + 4,
        "text-anchor": "middle", class: "coord", text: String(7 - c) }));
    }
    const notes = [];
    notes.push(`Round ${view.round}${view.single_round ? " (one-round game)" : ` · first to ${view.target} points`}`);
    if (view.string) notes.push(`String: keep stomping ${view.string} marbles next to your stomper`);
    notes.push(`The round's last stomper scores ${view.round_points}`);
    root.replaceChildren(html("div", { class: "board-wrap" }, board,
      html("p", { class: "muted board-note", text: notes.join(" · ") })));
    if (model.animate && landed) {
      // the stomper drops into the hole of the marble it stomped
      animate(landed, [{ transform: "translateY(-18px)", opacity: 0.3 }, { transform: "none", opacity: 1 }]);
    }
  },

  info(view, viewer) {
    if (viewer === null || viewer === undefined) return null;
    const colour = view.your_colour;
    const status = view.status ? view.status[viewer] : null;
    return html("div", {},
      html("p", { text: colour ? `Your stomper: ${colour}` : "No stomper yet this round" }),
      status === "out" ? html("p", { class: "muted", text: "You are out of this round." }) : null);
  },
};
