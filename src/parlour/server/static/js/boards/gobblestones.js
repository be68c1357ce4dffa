// GobbleStones: a 15 x 15 grid of coloured, valued stone squares in nine 5 x 5 board squares.
// A play is composed by clicking squares (click again to take a tile back); the tiles are
// sent in board order (the documented action encoding) and the server previews the play,
// explaining any rule it breaks, until "End play" stores it. In the bluffing variant the
// player chooses the colour of the tile from the rack first, explicitly: a square never takes
// another colour than the one picked. Face-down tiles of others show as "?" until the game
// ends, when every rack and face-down tile is turned up (G-5).
// On a narrow screen the board shows one board square (5 x 5) at a time, big enough to tap,
// with a map of all nine to move between them.
import { animate, canvas, hint, html, playable, svg } from "./svg.js";

const SIZE = 15;
const WIDE_CELL = 34;
const NARROW_CELL = 60;
const MARGIN = 24;
const FILES = "abcdefghijklmno";
const ORDER = "RYGBP";
const COLOUR = { R: "#d9534f", Y: "#f0c419", G: "#4caf50", B: "#3b7dd8", P: "#8e5bb5" };
const TINT = { R: "#f3c9c7", Y: "#f8e9a8", G: "#c6e6c7", B: "#c5d8f3", P: "#ddcbe9", "?": "#ddd" };
const NAMES = { R: "red", Y: "yellow", G: "green", B: "blue", P: "purple" };
const SECTION_NAMES = ["top left", "top middle", "top right", "middle left", "centre",
  "middle right", "bottom left", "bottom middle", "bottom right"];

const squareName = (r, c) => FILES[c] + String(SIZE - r);
const squareIndex = (name) => (SIZE - Number(name.slice(1))) * SIZE + FILES.indexOf(name[0]);
const sectionOf = (r, c) => Math.floor(r / 5) * 3 + Math.floor(c / 5);

function tile(x, y, cell, colour, { pending = false, faceDown = false, own = false } = {}) {
  const fill = colour === "?" ? "#9a948a" : COLOUR[colour.toUpperCase()];
  const group = svg("g", { "data-tile": colour });
  group.append(svg("rect", { x: x + 3, y: y + 3, width: cell - 6, height: cell - 6, rx: 5, fill,
    stroke: pending ? "#111" : "#333", "stroke-width": pending ? 2.5 : 1,
    "stroke-dasharray": pending ? "4 3" : null, opacity: faceDown && !own ? 0.9 : 1 }));
  if (colour === "?" || faceDown) {
    group.append(svg("text", { x: x + cell / 2, y: y + cell / 2 + 5, "text-anchor": "middle",
      "font-size": 14, "font-weight": 700, fill: "#fff", text: colour === "?" ? "?" : "▾" }));
  }
  return group;
}

function narrowScreen() {
  return window.matchMedia("(max-width: 600px)").matches;
}

export default {
  scores(view) { return view.scores; },

  howTo(view) {
    const empty = view.tiles.every((row) => /^\.*$/.test(row));
    const where = empty ? "covering a dotted centre square (the first play must)" : "touching the tiles already laid";
    return view.bluff
      ? `Pick a tile colour in your rack, then tap squares in one straight line, ${where}; End play.`
      : `Tap empty squares of your tiles' colours in one straight line, ${where}; then End play.`;
  },

  resultDetails(view, result, name) {
    const order = result.scores.map((s, i) => [s, i]).sort((a, b) => b[0] - a[0]);
    const points = order.map(([s, i]) => `${name(i)} ${s}`).join(", ");
    return `Points, with 1 for each tile left on the rack: ${points}.`;
  },

  render(root, model, ui) {
    const { view, legal, interactive, previous } = model;
    const bluff = view.bluff;
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
    const chosen = bluff ? ui.keep.colour || null : null;
    const play = new Map(view.play.map(([name, colour]) => [name, colour]));

    // which part of the board to draw: all of it, or one board square on a narrow screen
    const narrow = narrowScreen();
    const cell = narrow ? NARROW_CELL : WIDE_CELL;
    let section = 4;
    if (narrow) {
      if (ui.keep.section === undefined) {
        const first = [...moves.keys()][0] || (model.last && model.last.text && model.last.text.slice(0, 3));
        const m = first && /^([a-o])(\d+)/.exec(first);
        ui.keep.section = m ? sectionOf(SIZE - Number(m[2]), FILES.indexOf(m[1])) : 4;
      }
      section = ui.keep.section;
    }
    const r0 = narrow ? Math.floor(section / 3) * 5 : 0;
    const c0 = narrow ? (section % 3) * 5 : 0;
    const span = narrow ? 5 : SIZE;
    const board = canvas(MARGIN + span * cell, span * cell + MARGIN,
      narrow ? `GobbleStones board, the ${SECTION_NAMES[section]} board square` : "GobbleStones board");
    const fresh = [];

    for (let r = r0; r < r0 + span; r++) {
      for (let c = c0; c < c0 + span; c++) {
        const name = squareName(r, c);
        const x = MARGIN + (c - c0) * cell;
        const y = (r - r0) * cell;
        const cellText = view.board[r].slice(2 * c, 2 * c + 2);
        const letter = cellText[0];
        const group = svg("g", { "data-square": name });
        group.append(svg("rect", { x, y, width: cell, height: cell, fill: TINT[letter] || "#ddd",
          stroke: "#fff", "stroke-width": 1 }));
        if (r % 5 === 2 && c % 5 === 2) {
          group.append(svg("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.42,
            fill: "none", stroke: "#7a6f60", "stroke-width": 1.2, "stroke-dasharray": "2 2" }));
        }
        group.append(svg("text", { x: x + cell / 2, y: y + cell / 2 + 4, "text-anchor": "middle",
          "font-size": narrow ? 16 : 12, fill: "#5a5146", text: cellText[1] === "?" ? "" : cellText[1] }));
        const mark = view.tiles[r][c];
        if (play.has(name)) {
          group.append(tile(x, y, cell, play.get(name), { pending: true, faceDown: bluff }));
        } else if (mark !== ".") {
          const own = mark !== "?" && mark === mark.toLowerCase();
          group.append(tile(x, y, cell, mark, { faceDown: mark === "?" || own, own }));
        }
        if (previous && previous.tiles && previous.tiles[r][c] === "." && mark !== "." && !play.has(name)) {
          const ring = svg("rect", { x: x + 1, y: y + 1, width: cell - 2, height: cell - 2,
            fill: "none", stroke: "#c0392b", "stroke-width": 3, "data-last": "1" });
          group.append(ring);
          fresh.push(group);
        }
        if (playing && moves.has(name)) {
          group.append(hint("rect", { x: x + 3, y: y + 3, width: cell - 6, height: cell - 6 }));
        }
        if (playing) {
          group.setAttribute("class", "clickable");
          const colourWord = NAMES[letter] || "unknown";
          const value = cellText[1] === "?" ? "" : ` worth ${cellText[1]}`;
          const activate = () => {
            if (pendingSquares.has(squareIndex(name))) {
              ui.replace(pendingPlaces.filter((a) => a % (SIZE * SIZE) !== squareIndex(name)));
              return;
            }
            if (bluff && !chosen) {
              ui.say("Choose the colour of the tile to lay: pick one in your rack first.");
              return;
            }
            if (mark !== "." || play.has(name)) {
              ui.step(bluff ? `${name}:${chosen.toLowerCase()}` : name);  // server explains
              return;
            }
            const colour = bluff ? ORDER.indexOf(chosen) : 0;
            const id = colour * SIZE * SIZE + squareIndex(name);
            const steps = [...pendingPlaces, id].sort((a, b) => (a % 225) - (b % 225));
            ui.replace(steps);
          };
          if (moves.has(name) || pendingSquares.has(squareIndex(name))) {
            const action = pendingSquares.has(squareIndex(name)) ? "take your tile back"
              : bluff ? `lay ${chosen ? `a ${NAMES[chosen]}` : "a"} tile face down` : "lay a tile";
            playable(group, `${name}, ${colourWord} square${value}: ${action}`, activate);
          } else {
            group.addEventListener("click", activate);
          }
        }
        board.append(group);
      }
    }
    for (let k = 0; k <= span / 5; k++) {  // the board squares' borders
      board.append(svg("line", { x1: MARGIN + k * 5 * cell, y1: 0, x2: MARGIN + k * 5 * cell,
        y2: span * cell, stroke: "#3c342a", "stroke-width": 2.5 }));
      board.append(svg("line", { x1: MARGIN, y1: k * 5 * cell, x2: MARGIN + span * cell,
        y2: k * 5 * cell, stroke: "#3c342a", "stroke-width": 2.5 }));
    }
    for (let i = 0; i < span; i++) {
      board.append(svg("text", { x: MARGIN + i * cell + cell / 2, y: span * cell + 16,
        "text-anchor": "middle", class: "coord", text: FILES[c0 + i] }));
      board.append(svg("text", { x: MARGIN / 2, y: i * cell + cell / 2 + 4, "text-anchor": "middle",
        class: "coord", text: String(SIZE - r0 - i) }));
    }

    const parts = [board];
    if (narrow) parts.push(this.map(view, section, moves, ui));
    const controls = html("div", { class: "controls centred" });
    const labels = { end: "End play", pass: "Pass", challenge: "Challenge", trust: "Trust" };
    for (const move of specials) {
      controls.append(html("button", { "data-move": move.s, class: "big", text: labels[move.s] || move.s,
        onclick: () => ui.step(move.a) }));
    }
    if (view.rack !== null && view.rack !== undefined) {
      const pick = bluff && playing;
      const rack = html("div", { class: "rack", role: pick ? "group" : null,
        "aria-label": pick ? "Your rack: choose the colour of the tiles to lay" : null },
      html("span", { class: "muted", text: "Your rack:" }));
      for (const [i, letter] of [...view.rack].entries()) {
        const chip = html(pick ? "button" : "span", {
          "data-rack": letter, title: NAMES[letter], class: chosen === letter ? "chip chosen" : "chip",
          "aria-label": pick ? `${NAMES[letter]} tile` : NAMES[letter],
          "aria-pressed": pick ? String(chosen === letter) : null,
          role: pick ? null : "img",
          onclick: pick ? () => { ui.keep.colour = chosen === letter ? null : letter; ui.redraw(); } : null,
        });
        chip.style.background = COLOUR[letter];
        chip.dataset.index = String(i);
        rack.append(chip);
      }
      if (pick) {
        rack.append(html("span", { class: chosen ? "muted" : "muted attention", "data-colour-note": "1",
          text: chosen ? `Laying ${NAMES[chosen]} tiles` : "Choose a colour to lay" }));
      }
      parts.push(rack);
    }
    parts.push(controls);
    if (view.phase === "challenge") {
      parts.push(html("p", { class: "muted board-note", text: `${model.seatName(view.decider)} decides: ` +
        `challenge ${model.seatName(view.turn)}'s play, or trust it.` }));
    }
    if (view.last_challenge && view.last_challenge.challenger !== null) {
      const lc = view.last_challenge;
      parts.push(html("p", { class: "muted board-note", text: `Last challenge: ${model.seatName(lc.challenger)} ` +
        `challenged ${model.seatName(lc.player)}'s play, which was ${lc.correct ? "honest" : "a bluff"}.` }));
    }
    root.replaceChildren(html("div", { class: "board-wrap" }, ...parts));
    if (model.animate) {
      for (const group of fresh) animate(group, [{ opacity: 0.2 }, { opacity: 1 }], 400);
    }
  },

  // the nine board squares in miniature, to move between them on a narrow screen
  map(view, section, moves, ui) {
    const unit = 9;
    const pic = canvas(SIZE * unit, SIZE * unit, "Board map: choose a board square to show");
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const mark = view.tiles[r][c];
        const letter = view.board[r][2 * c];
        pic.append(svg("rect", { x: c * unit, y: r * unit, width: unit, height: unit,
          fill: mark !== "." ? (COLOUR[mark.toUpperCase()] || "#9a948a") : TINT[letter] || "#ddd" }));
      }
    }
    for (let s = 0; s < 9; s++) {
      const x = (s % 3) * 5 * unit;
      const y = Math.floor(s / 3) * 5 * unit;
      const has = [...moves.keys()].some((n) => sectionOf(SIZE - Number(n.slice(1)), FILES.indexOf(n[0])) === s);
      const area = svg("rect", { x, y, width: 5 * unit, height: 5 * unit, fill: "transparent",
        stroke: s === section ? "#111" : "#fff", "stroke-width": s === section ? 3 : 1, "data-section": s });
      const label = `Show the ${SECTION_NAMES[s]} board square${has ? " (you can lay tiles there)" : ""}`;
      pic.append(playable(area, label, () => { ui.keep.section = s; ui.redraw(); }));
    }
    return html("div", { class: "board-map" }, pic);
  },

  info(view, viewer, seatName) {
    const sizes = view.rack_sizes.map((n, i) => `${seatName(i)} ${n}`).join(" · ");
    // at the end every rack is turned up for everyone (G-5)
    const turnedUp = (view.racks || []).map((rack, i) => html("p", { "data-revealed-rack": String(i),
      text: `${seatName(i)} holds: ${[...rack].map((l) => NAMES[l]).join(", ") || "nothing"}` }));
    return html("div", {},
      viewer === null || viewer === undefined || view.racks ? null
        : html("p", { text: `Your rack: ${[...view.rack].map((l) => NAMES[l]).join(", ") || "empty"}` }),
      ...turnedUp,
      html("p", { class: "muted", text: `Tiles in each rack: ${sizes}` }),
      html("p", { class: "muted", text: `Tiles in the bag: ${view.bag}` }));
  },
};
