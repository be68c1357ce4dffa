// GobbleStones: a 15 x 15 grid of coloured, valued stone squares in nine 5 x 5 board squares.
// A play is composed by clicking squares (click again to take a tile back); the tiles are
// sent in board order (the documented action encoding) and the server previews the play,
// explaining any rule it breaks, until "End play" stores it. In the bluffing variant choose
// the colour of the tile from your rack first; face-down tiles of others show as "?" until the
// game ends, when every rack and face-down tile is turned up.
import { canvas, html, svg } from "./svg.js";

const SIZE = 15;
const CELL = 34;
const MARGIN = 24;
const FILES = "abcdefghijklmno";
const ORDER = "RYGBP";
const COLOUR = { R: "#d9534f", Y: "#f0c419", G: "#4caf50", B: "#3b7dd8", P: "#8e5bb5" };
const TINT = { R: "#f3c9c7", Y: "#f8e9a8", G: "#c6e6c7", B: "#c5d8f3", P: "#ddcbe9", "?": "#ddd" };
const NAMES = { R: "red", Y: "yellow", G: "green", B: "blue", P: "purple" };

const squareName = (r, c) => FILES[c] + String(SIZE - r);
const squareIndex = (name) => (SIZE - Number(name.slice(1))) * SIZE + FILES.indexOf(name[0]);

function tile(x, y, colour, { pending = false, faceDown = false, own = false } = {}) {
  const fill = colour === "?" ? "#9a948a" : COLOUR[colour.toUpperCase()];
  const group = svg("g", { "data-tile": colour });
  group.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 5, fill,
    stroke: pending ? "#111" : "#333", "stroke-width": pending ? 2.5 : 1,
    "stroke-dasharray": pending ? "4 3" : null, opacity: faceDown && !own ? 0.9 : 1 }));
  if (colour === "?" || faceDown) {
    group.append(svg("text", { x: x + CELL / 2, y: y + CELL / 2 + 5, "text-anchor": "middle",
      "font-size": 14, "font-weight": 700, fill: "#fff", text: colour === "?" ? "?" : "▾" }));
  }
  return group;
}

export default {
  scores(view) { return view.scores; },

  render(root, model, ui) {
    const { view, legal, interactive, previous } = model;
    const bluff = view.bluff;
    const width = MARGIN + SIZE * CELL;
    const board = canvas(width, SIZE * CELL + MARGIN, "GobbleStones board");
    const moves = new Map();
    const specials = [];
    for (const move of legal) {
      const m = /^([a-o]\d+)(?::([rygbp]))?$/.exec(move.s);
      if (m) {
        if (!moves.has(m[1])) moves.set(m[1], []);
        moves.get(m[1]).push(move);
      } else specials.push(move);
    }
    const placeActions = SIZE * SIZE * (bluff ? 5 : 1);
    const pendingPlaces = model.pending.filter((a) => typeof a === "number" && a < placeActions);
    const pendingSquares = new Map(pendingPlaces.map((a) => [a % (SIZE * SIZE), a]));
    const playing = view.phase === "play" && interactive;
    const rackLetters = view.rack || "";
    if (ui.keep.colour && !rackLetters.includes(ui.keep.colour)) ui.keep.colour = null;
    const chosen = ui.keep.colour || null;
    // the tile a click places in the bluffing variant: the chosen colour, else the square's own
    // colour when the rack has it, else the rack's first (just a default: any may be claimed)
    const tileFor = (letter) => chosen || (rackLetters.includes(letter) ? letter : rackLetters[0] || letter);
    const play = new Map(view.play.map(([name, colour]) => [name, colour]));

    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const name = squareName(r, c);
        const x = MARGIN + c * CELL;
        const y = r * CELL;
        const cellText = view.board[r].slice(2 * c, 2 * c + 2);
        const letter = cellText[0];
        const group = svg("g", { "data-square": name });
        group.append(svg("rect", { x, y, width: CELL, height: CELL, fill: TINT[letter] || "#ddd",
          stroke: "#fff", "stroke-width": 1 }));
        if (r % 5 === 2 && c % 5 === 2) {
          group.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.42,
            fill: "none", stroke: "#7a6f60", "stroke-width": 1.2, "stroke-dasharray": "2 2" }));
        }
        group.append(svg("text", { x: x + CELL / 2, y: y + CELL / 2 + 4, "text-anchor": "middle",
          "font-size": 12, fill: "#5a5146", text: cellText[1] === "?" ? "" : cellText[1] }));
        const mark = view.tiles[r][c];
        if (play.has(name)) {
          group.append(tile(x, y, play.get(name), { pending: true, faceDown: bluff }));
        } else if (mark !== ".") {
          const own = mark !== "?" && mark === mark.toLowerCase();
          group.append(tile(x, y, mark, { faceDown: mark === "?" || own, own }));
        }
        if (previous && previous.tiles && previous.tiles[r][c] === "." && mark !== "." && !play.has(name)) {
          group.append(svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2,
            fill: "none", stroke: "#f2c94c", "stroke-width": 3, "data-last": "1" }));
        }
        if (playing && moves.has(name)) {
          group.append(svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 5,
            class: "from-legal" }));
        }
        if (playing) {
          group.setAttribute("class", "clickable");
          group.addEventListener("click", () => {
            if (pendingSquares.has(squareIndex(name))) {
              ui.replace(pendingPlaces.filter((a) => a % (SIZE * SIZE) !== squareIndex(name)));
              return;
            }
            if (mark !== "." || play.has(name)) {
              ui.step(bluff ? `${name}:${tileFor(letter).toLowerCase()}` : name);  // server explains
              return;
            }
            const colour = bluff ? ORDER.indexOf(tileFor(letter)) : 0;
            const id = colour * SIZE * SIZE + squareIndex(name);
            const steps = [...pendingPlaces, id].sort((a, b) => (a % 225) - (b % 225));
            ui.replace(steps);
          });
        }
        board.append(group);
      }
    }
    for (let k = 0; k <= 3; k++) {  // the board squares' borders
      board.append(svg("line", { x1: MARGIN + k * 5 * CELL, y1: 0, x2: MARGIN + k * 5 * CELL,
        y2: SIZE * CELL, stroke: "#3c342a", "stroke-width": 2.5 }));
      board.append(svg("line", { x1: MARGIN, y1: k * 5 * CELL, x2: MARGIN + SIZE * CELL,
        y2: k * 5 * CELL, stroke: "#3c342a", "stroke-width": 2.5 }));
    }
    for (let i = 0; i < SIZE; i++) {
      board.append(svg("text", { x: MARGIN + i * CELL + CELL / 2, y: SIZE * CELL + 16,
        "text-anchor": "middle", class: "coord", text: FILES[i] }));
      board.append(svg("text", { x: MARGIN / 2, y: i * CELL + CELL / 2 + 4, "text-anchor": "middle",
        class: "coord", text: String(SIZE - i) }));
    }

    const controls = html("div", { class: "controls", style: "justify-content:center;margin-top:.5rem" });
    const labels = { end: "End play", pass: "Pass", challenge: "Challenge", trust: "Trust" };
    for (const move of specials) {
      controls.append(html("button", { "data-move": move.s, text: labels[move.s] || move.s,
        onclick: () => ui.step(move.a) }));
    }
    const parts = [board];
    if (view.rack !== null && view.rack !== undefined) {
      const rack = html("div", { class: "private", style: "justify-content:center;margin-top:.5rem" },
        html("span", { class: "muted", text: "Your rack:" }));
      for (const [i, letter] of [...view.rack].entries()) {
        const pick = bluff && playing;
        const chip = html(pick ? "button" : "span", {
          "data-rack": letter, title: NAMES[letter],
          style: `display:inline-block;width:1.8rem;height:1.8rem;border-radius:.3rem;background:${COLOUR[letter]};` +
            `border:${chosen === letter ? "3px solid #111" : "1px solid #333"};padding:0`,
          onclick: pick ? () => { ui.keep.colour = chosen === letter ? null : letter; ui.redraw(); } : null,
        });
        chip.dataset.index = String(i);
        rack.append(chip);
      }
      if (bluff && playing) {
        rack.append(html("span", { class: "muted",
          text: chosen ? ` placing ${NAMES[chosen]} tiles` : " (pick a colour, or a square takes its own)" }));
      }
      parts.push(rack);
    }
    parts.push(controls);
    if (view.phase === "challenge") {
      parts.push(html("p", { class: "muted", text: `Play of ${model.seatName(view.turn)} waits: ` +
        `${model.seatName(view.decider)} decides to challenge or trust.` }));
    }
    if (view.last_challenge && view.last_challenge.challenger !== null) {
      const lc = view.last_challenge;
      parts.push(html("p", { class: "muted", text: `Last challenge: ${model.seatName(lc.challenger)} ` +
        `challenged ${model.seatName(lc.player)}: the play was ${lc.correct ? "correct" : "wrong"}.` }));
    }
    root.replaceChildren(html("div", {}, ...parts));
  },

  info(view, viewer) {
    const sizes = view.rack_sizes.map((n, i) => `P${i + 1}: ${n}`).join(" · ");
    // at the end every rack is turned up for everyone (G-5)
    const turnedUp = (view.racks || []).map((rack, i) => html("p", { "data-revealed-rack": String(i),
      text: `P${i + 1} holds: ${[...rack].map((l) => NAMES[l]).join(", ") || "nothing"}` }));
    return html("div", {},
      viewer === null || viewer === undefined || view.racks ? null
        : html("p", { text: `Your rack: ${[...view.rack].map((l) => NAMES[l]).join(", ") || "empty"}` }),
      ...turnedUp,
      html("p", { class: "muted", text: `Tiles in racks: ${sizes}` }),
      html("p", { class: "muted", text: `Tiles in the bag: ${view.bag}` }));
  },
};
