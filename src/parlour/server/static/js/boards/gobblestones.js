// GobbleStones: a 15 x 15 grid of coloured, valued stone squares in nine 5 x 5 board squares.
// A play is composed by clicking squares (click again to take a tile back); the tiles are
// sent in board order (the documented action encoding) and the server previews the play,
// explaining any rule it breaks, until "End play" stores it. In the bluffing variant the
// player chooses the colour of the tile from the rack first, explicitly: a square never takes
// another colour than the one picked. Face-down tiles of others show as "?" until the game
// ends, when every rack and face-down tile is turned up (G-5).
// On a desktop the rack and the buttons stand beside the board, so that the whole turn is on
// one screen. On a narrow screen the board shows one board square (5 x 5) at a time, big enough
// to tap, with a map of all nine to move between them; the last play is marked on both, and
// the board goes to it when another player has just played.
import { animate, canvas, hint, html, playable, svg } from "./svg.js";
import * as art from "./art/tiles.js";
import { t, tc, tn } from "../i18n.js";

const SIZE = 15;
const WIDE_CELL = 34;
const NARROW_CELL = 60;
const MARGIN = 22;
const SEAM = 5;
const FILES = "abcdefghijklmno";
const ORDER = art.ORDER;
const COLOUR = Object.fromEntries([...ORDER].map((l) => [l, art.PALETTE[l][0]]));

// What a player reads on this board (one place, for translation).
const WORDS = {
  colours: { R: t("red"), Y: t("yellow"), G: t("green"), B: t("blue"), P: t("purple") },
  // a colour agrees with its noun in some languages (French: "tuile verte", "tuiles vertes")
  tile: { R: tc("tile", "red"), Y: tc("tile", "yellow"), G: tc("tile", "green"), B: tc("tile", "blue"),
    P: tc("tile", "purple") },
  tiles: { R: tc("tiles", "red"), Y: tc("tiles", "yellow"), G: tc("tiles", "green"),
    B: tc("tiles", "blue"), P: tc("tiles", "purple") },
  squareColour: { R: tc("square", "red"), Y: tc("square", "yellow"), G: tc("square", "green"),
    B: tc("square", "blue"), P: tc("square", "purple") },
  sections: [t("top left"), t("top middle"), t("top right"), t("middle left"), t("centre"),
    t("middle right"), t("bottom left"), t("bottom middle"), t("bottom right")],
  board: t("GobbleStones board"),
  boardPart: (part) => t("GobbleStones board, the {part} board square", { part }),
  map: t("Board map: choose a board square to show"),
  showSection: (part, can, last) => t("Show the {part} board square", { part })
    + (can ? t(" (you can lay tiles there)") : "") + (last ? t(" (the last play is there)") : ""),
  howToFirst: t("covering a dotted centre square (the first play must)"),
  howToLater: t("touching the tiles already laid"),
  howToBluff: (where) => t("Pick a tile colour in your rack, then tap squares in one straight line, {where}; End play.", { where }),
  howTo: (where) => t("Tap empty squares of your tiles' colours in one straight line, {where}; then End play.", { where }),
  points: (text) => t("Points, with 1 for each tile left on the rack: {text}.", { text }),
  pickColour: t("Choose the colour of the tile to lay: pick one in your rack first."),
  takeBack: t("take your tile back"),
  layFaceDown: (colour) => (colour ? t("lay a {colour} tile face down", { colour }) : t("lay a tile face down")),
  lay: t("lay a tile"),
  square: (name, colour, value) => (value ? t("{name}, {colour} square worth {value}", { name, colour, value })
    : t("{name}, {colour} square", { name, colour })),
  buttons: { end: t("End play"), pass: t("Pass"), challenge: t("Challenge"), trust: t("Trust") },
  yourRack: t("Your rack:"),
  rackGroup: t("Your rack: choose the colour of the tiles to lay"),
  tileOf: (colour) => t("{colour} tile", { colour }),
  laying: (colour) => t("Laying {colour} tiles", { colour }),
  chooseColour: t("Choose a colour to lay"),
  playSoFar: (n, points) => tn("Your play so far: {n} tile", "Your play so far: {n} tiles", n)
    + tn(", {n} point.", ", {n} points.", points),
  noEndFirst: t("No End play yet: the game's first play must cover one of the dotted centre squares. Add a tile on one, or tap a tile to take it back."),
  noEndTouch: t("No End play yet: your line must touch a tile already on the board. Add a tile next to one, or tap a tile to take it back."),
  decides: (who, whose) => t("{who} decides: challenge {whose}'s play, or trust it.", { who, whose }),
  youDecide: (whose) => t("You decide: challenge {whose}'s play, or trust it.", { whose }),
  lastChallenge: (who, whose, honest) => (honest
    ? t("Last challenge: {who} challenged {whose}'s play, which was honest.", { who, whose })
    : t("Last challenge: {who} challenged {whose}'s play, which was a bluff.", { who, whose })),
  youChallenged: (whose, honest) => (honest
    ? t("Last challenge: you challenged {whose}'s play, which was honest.", { whose })
    : t("Last challenge: you challenged {whose}'s play, which was a bluff.", { whose })),
  yoursChallenged: (who, honest) => (honest
    ? t("Last challenge: {who} challenged your play, which was honest.", { who })
    : t("Last challenge: {who} challenged your play, which was a bluff.", { who })),
  takeAllBack: t("Take the tiles back"),
  seeLast: (name, part) => t("See {name}'s play ({part})", { name, part }),
  seeMine: (part) => t("See your play ({part})", { part }),
  lastPlay: (name, squares) => t("Last play, by {name}: {squares}", { name, squares }),
  myLastPlay: (squares) => t("Your last play: {squares}", { squares }),
  holds: (name, tiles) => {
    const held = tiles || t("nothing");
    return t("{name} holds: {tiles}", { name, tiles: held });
  },
  yourRackText: (tiles) => {
    const held = tiles || t("empty");
    return t("Your rack: {tiles}", { tiles: held });
  },
  rackSizes: (text) => t("Tiles in each rack: {text}", { text }),
  bag: (n) => t("Tiles in the bag: {n}", { n }),
};
const NAMES = WORDS.colours;

const squareName = (r, c) => FILES[c] + String(SIZE - r);
const squareIndex = (name) => (SIZE - Number(name.slice(1))) * SIZE + FILES.indexOf(name[0]);
const rowCol = (name) => [SIZE - Number(name.slice(1)), FILES.indexOf(name[0])];
const sectionOf = (r, c) => Math.floor(r / 5) * 3 + Math.floor(c / 5);
const sectionOfName = (name) => sectionOf(...rowCol(name));

function narrowScreen() {
  return window.matchMedia("(max-width: 600px)").matches;
}

// the squares of a line written as its two ends ("a13-d13") or one square ("h8")
function span(text) {
  const m = /^([a-o])(\d+)(?:-([a-o])(\d+))?/.exec(text || "");
  if (!m) return null;
  const [a, b] = [m[1] + m[2], m[3] ? m[3] + m[4] : m[1] + m[2]];
  const [r1, c1] = rowCol(a);
  const [r2, c2] = rowCol(b);
  const out = [];
  if (r1 === r2) for (let c = Math.min(c1, c2); c <= Math.max(c1, c2); c++) out.push(squareName(r1, c));
  else if (c1 === c2) for (let r = Math.min(r1, r2); r <= Math.max(r1, r2); r++) out.push(squareName(r, c1));
  else out.push(a, b);
  return out;
}

function covered(view, name) {
  const [r, c] = rowCol(name);
  return view.tiles[r][c] !== ".";
}

// The last play on the board: who made it and its squares (from the move list, or what this
// page saw change when the list cannot say: a face-down play).
function lastPlay(model) {
  const { view, previous } = model;
  const turns = model.recentTurns || [];
  const fresh = () => {
    const found = [];
    view.tiles.forEach((row, r) => [...row].forEach((mark, c) => {
      if (mark !== "." && previous.tiles[r][c] === ".") found.push(squareName(r, c));
    }));
    return found;
  };
  if (!turns.length && previous && previous.tiles && model.last) {  // a replay's step
    const found = fresh();
    return found.length ? { player: model.last.player, turn: null, squares: found } : null;
  }
  for (let k = turns.length - 1; k >= 0; k--) {
    const t = turns[k];
    if (t.player === null || t.player < 0) continue;
    const squares = span(t.text);
    if (squares) {
      const still = squares.filter((s) => covered(view, s));
      if (still.length) return { player: t.player, turn: t.turn, squares: still };
    } else if (/^\d+\s/.test(t.text || "") && k === turns.length - 1 && previous && previous.tiles) {  // "3 tiles, face down"
      const found = fresh();
      if (found.length) return { player: t.player, turn: t.turn, squares: found };
    }
  }
  return null;
}

export default {
  ownCompose: true,  // the tray beside the board says how the play stands, and takes it back
  scores(view) { return view.scores; },

  howTo(view) {
    const empty = view.tiles.every((row) => /^\.*$/.test(row));
    const where = empty ? WORDS.howToFirst : WORDS.howToLater;
    return view.bluff ? WORDS.howToBluff(where) : WORDS.howTo(where);
  },

  composeText(view) {
    return WORDS.playSoFar(view.play.length, this.playPoints(view));
  },

  sound(view, before, last) {
    return last && last.player >= 0 ? "move" : null;
  },

  playPoints(view) {
    return view.play.reduce((sum, [name]) => {
      const [r, c] = rowCol(name);
      const value = Number(view.board[r][2 * c + 1]);
      return sum + (Number.isFinite(value) ? value : 0);
    }, 0);
  },

  resultDetails(view, result, name) {
    const order = result.scores.map((s, i) => [s, i]).sort((a, b) => b[0] - a[0]);
    return WORDS.points(order.map(([s, i]) => `${name(i)} ${s}`).join(", "));
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
    const last = lastPlay(model);
    const lastSquares = new Set(last ? last.squares : []);

    // which part of the board to draw: all of it, or one board square on a narrow screen
    const narrow = narrowScreen();
    const cell = narrow ? NARROW_CELL : WIDE_CELL;
    const seam = narrow ? 0 : SEAM;
    let section = 4;
    if (narrow) {
      // a new last play (another player's, or the tutorial's "Show me") is shown where it is,
      // unless part of it is on the board square already shown (the mover's own play)
      const seen = last ? `${last.turn}|${last.squares.join(",")}` : null;
      if (ui.keep.section === undefined) {
        const first = last ? last.squares[0] : [...moves.keys()][0];
        ui.keep.section = first ? sectionOfName(first) : 4;
      } else if (last && ui.keep.seenLast !== seen && !(playing && pendingPlaces.length)
        && !last.squares.some((name) => sectionOfName(name) === ui.keep.section)) {
        ui.keep.section = sectionOfName(last.squares[0]);
      }
      ui.keep.seenLast = seen;
      section = ui.keep.section;
    }
    const r0 = narrow ? Math.floor(section / 3) * 5 : 0;
    const c0 = narrow ? (section % 3) * 5 : 0;
    const spanCells = narrow ? 5 : SIZE;
    const pos = (k) => k * cell + Math.floor(k / 5) * seam;
    const extent = pos(spanCells - 1) + cell;
    const board = canvas(MARGIN + extent + 6, extent + MARGIN + 4,
      narrow ? WORDS.boardPart(WORDS.sections[section]) : WORDS.board);
    board.append(art.defs());
    board.append(art.table(MARGIN - 4, -2, extent + 8, extent + 6));
    for (let s = 0; s < spanCells / 5; s++) {
      for (let t = 0; t < spanCells / 5; t++) board.append(art.slab(MARGIN + pos(t * 5), 1 + pos(s * 5), 5 * cell));
    }
    const fresh = [];

    for (let r = r0; r < r0 + spanCells; r++) {
      for (let c = c0; c < c0 + spanCells; c++) {
        const name = squareName(r, c);
        const x = MARGIN + pos(c - c0);
        const y = 1 + pos(r - r0);
        const cellText = view.board[r].slice(2 * c, 2 * c + 2);
        const letter = cellText[0];
        const value = cellText[1] === "?" ? "" : cellText[1];
        const group = svg("g", { "data-square": name });
        group.append(art.stone(x, y, cell, letter, value, { centre: r % 5 === 2 && c % 5 === 2, big: narrow }));
        const mark = view.tiles[r][c];
        if (play.has(name)) {
          group.append(art.tile(x, y, cell, play.get(name), { lifted: true, faceDown: bluff }));
        } else if (mark !== ".") {
          const own = mark !== "?" && mark === mark.toLowerCase();
          const laid = art.tile(x, y, cell, mark, { faceDown: own });
          group.append(laid);
          const isNew = previous && previous.tiles && previous.tiles[r][c] === ".";
          if (isNew) fresh.push(laid);
        }
        if (lastSquares.has(name)) {
          group.append(svg("rect", { x: x + 1, y: y + 1, width: cell - 2, height: cell - 2, rx: 5,
            fill: "none", stroke: "#e63b2e", "stroke-width": narrow ? 3.5 : 2.5, "data-last": "1",
            class: "last-ring" }));
        }
        if (playing && moves.has(name)) {
          group.append(hint("rect", { x: x + 3, y: y + 3, width: cell - 6, height: cell - 6 }));
        }
        if (playing) {
          group.setAttribute("class", "clickable");
          const activate = () => {
            if (pendingSquares.has(squareIndex(name))) {
              ui.replace(pendingPlaces.filter((a) => a % (SIZE * SIZE) !== squareIndex(name)));
              return;
            }
            if (bluff && !chosen) {
              ui.say(WORDS.pickColour);
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
            const action = pendingSquares.has(squareIndex(name)) ? WORDS.takeBack
              : bluff ? WORDS.layFaceDown(chosen ? WORDS.tile[chosen] : null) : WORDS.lay;
            playable(group, `${WORDS.square(name, WORDS.squareColour[letter] || "unknown", value)}: ${action}`, activate);
          } else {
            group.addEventListener("click", activate);
          }
        }
        board.append(group);
      }
    }
    for (let i = 0; i < spanCells; i++) {
      board.append(svg("text", { x: MARGIN + pos(i) + cell / 2, y: extent + 17,
        "text-anchor": "middle", class: "coord", text: FILES[c0 + i] }));
      board.append(svg("text", { x: MARGIN / 2 - 2, y: 1 + pos(i) + cell / 2 + 4, "text-anchor": "middle",
        class: "coord", text: String(SIZE - r0 - i) }));
    }

    // on a narrow screen the rack and End play come right under the board, the map after them
    const after = narrow ? [this.mapRow(view, section, moves, last, model, ui)] : [];
    const tray = [];
    if (view.rack !== null && view.rack !== undefined) tray.push(this.rack(view, bluff && playing, chosen, ui));
    const controls = html("div", { class: "controls gob-buttons" });
    for (const move of specials) {
      controls.append(html("button", { "data-move": move.s, class: "big", text: WORDS.buttons[move.s] || move.s,
        onclick: () => ui.step(move.a) }));
    }
    if (playing && pendingPlaces.length) {
      controls.append(html("button", { type: "button", class: "quiet", "data-take-back": "1", text: WORDS.takeAllBack,
        onclick: () => ui.replace([]) }));
    }
    tray.push(controls);
    if (playing && view.play.length) {
      tray.push(html("p", { class: "play-so-far", "data-play-summary": "1",
        text: WORDS.playSoFar(view.play.length, this.playPoints(view)) }));
      if (!specials.some((m) => m.s === "end")) {
        const first = view.tiles.every((row) => /^\.*$/.test(row));
        tray.push(html("p", { class: "why-no-end", "data-why-no-end": "1", text: first ? WORDS.noEndFirst : WORDS.noEndTouch }));
      }
    }
    // the one reader of a seat (not a hot-seat table of several) is spoken to: "you"
    const you = (seat) => (model.mine || []).length === 1 && model.mine[0] === seat;
    if (view.phase === "challenge") {
      tray.push(html("p", { class: "muted board-note", text: you(view.decider)
        ? WORDS.youDecide(model.seatName(view.turn))
        : WORDS.decides(model.seatName(view.decider), model.seatName(view.turn)) }));
    }
    if (view.last_challenge && view.last_challenge.challenger !== null) {
      const lc = view.last_challenge;
      const text = you(lc.challenger) ? WORDS.youChallenged(model.seatName(lc.player), lc.correct)
        : you(lc.player) ? WORDS.yoursChallenged(model.seatName(lc.challenger), lc.correct)
          : WORDS.lastChallenge(model.seatName(lc.challenger), model.seatName(lc.player), lc.correct);
      tray.push(html("p", { class: "muted board-note", text }));
    }
    if (last) {
      const squares = last.squares.length > 2 ? `${last.squares[0]}-${last.squares[last.squares.length - 1]}`
        : last.squares.join(", ");
      const mine = you(last.player);
      tray.push(html("p", { class: "muted board-note last-play",
        text: mine ? WORDS.myLastPlay(squares) : WORDS.lastPlay(model.shortName(last.player), squares) }));
    }
    root.replaceChildren(html("div", { class: "board-wrap gob-wrap" },
      html("div", { class: "gob-board" }, board), html("div", { class: "gob-tray" }, ...tray), ...after));
    if (model.animate && fresh.length && fresh.length <= 5) {
      // the tiles are laid one after the other, each dropping onto its square
      fresh.forEach((tile, k) => animate(tile, [{ transform: "translateY(-14px) scale(1.15)", opacity: 0 },
        { transform: "translateY(0) scale(1)", opacity: 1 }], 260,
      { delay: k * 110, easing: "cubic-bezier(.3,1.4,.6,1)" }));
    }
  },

  rack(view, pick, chosen, ui) {
    const rack = html("div", { class: "rack", role: pick ? "group" : null, "aria-label": pick ? WORDS.rackGroup : null },
      html("span", { class: "muted rack-label", text: WORDS.yourRack }));
    for (const [i, letter] of [...view.rack].entries()) {
      const chip = html(pick ? "button" : "span", {
        "data-rack": letter, title: NAMES[letter], class: chosen === letter ? "chip chosen" : "chip",
        "aria-label": pick ? WORDS.tileOf(WORDS.tile[letter]) : NAMES[letter],
        "aria-pressed": pick ? String(chosen === letter) : null,
        role: pick ? null : "img",
        onclick: pick ? () => { ui.keep.colour = chosen === letter ? null : letter; ui.redraw(); } : null,
      });
      chip.style.backgroundColor = COLOUR[letter];
      chip.dataset.index = String(i);
      rack.append(chip);
    }
    if (pick) {
      rack.append(html("span", { class: chosen ? "muted" : "muted attention", "data-colour-note": "1",
        text: chosen ? WORDS.laying(WORDS.tiles[chosen]) : WORDS.chooseColour }));
    }
    return rack;
  },

  // the map of the nine board squares, and a way to the last play when it is elsewhere
  mapRow(view, section, moves, last, model, ui) {
    const row = html("div", { class: "map-row" }, this.map(view, section, moves, last, ui));
    if (last) {
      const where = sectionOfName(last.squares[0]);
      if (where !== section) {
        const mine = (model.mine || []).length === 1 && model.mine[0] === last.player;
        row.append(html("button", { type: "button", class: "quiet small", "data-goto-last": String(where),
          text: mine ? WORDS.seeMine(WORDS.sections[where]) : WORDS.seeLast(model.shortName(last.player), WORDS.sections[where]),
          onclick: () => { ui.keep.section = where; ui.redraw(); } }));
      }
    }
    return row;
  },

  // the nine board squares in miniature, to move between them on a narrow screen
  map(view, section, moves, last, ui) {
    const unit = 9;
    const gap = 3;
    const at = (k) => k * unit + Math.floor(k / 5) * gap;
    const side = at(SIZE - 1) + unit;
    const pic = canvas(side, side, WORDS.map, "board-map-pic");
    pic.append(svg("rect", { x: 0, y: 0, width: side, height: side, rx: 4, fill: "#3a2d21" }));
    const lastSquares = new Set(last ? last.squares : []);
    const lastSections = new Set(last ? last.squares.map(sectionOfName) : []);
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const mark = view.tiles[r][c];
        const letter = view.board[r][2 * c];
        const key = mark !== "." ? mark.toUpperCase() : null;
        pic.append(svg("rect", { x: at(c) + 0.5, y: at(r) + 0.5, width: unit - 1, height: unit - 1, rx: 1,
          fill: key ? (art.PALETTE[key] || art.PALETTE["?"])[0] : (art.PALETTE[letter] || art.PALETTE["?"])[2] }));
        if (lastSquares.has(squareName(r, c))) {
          pic.append(svg("rect", { x: at(c) - 0.5, y: at(r) - 0.5, width: unit + 1, height: unit + 1, rx: 1.5,
            fill: "none", stroke: "#ff3b2e", "stroke-width": 2, "data-last": "1" }));
        }
      }
    }
    for (let s = 0; s < 9; s++) {
      const x = at((s % 3) * 5) - 1;
      const y = at(Math.floor(s / 3) * 5) - 1;
      const w = 5 * unit + 2;
      const has = [...moves.keys()].some((n) => sectionOfName(n) === s);
      const area = svg("rect", { x, y, width: w, height: w, fill: "transparent", rx: 2,
        stroke: s === section ? "#ffd23f" : "none", "stroke-width": s === section ? 3 : 0, "data-section": s });
      const label = WORDS.showSection(WORDS.sections[s], has, lastSections.has(s));
      pic.append(playable(area, label, () => { ui.keep.section = s; ui.redraw(); }));
      if (s === section) {
        pic.append(svg("rect", { x: x - 1.5, y: y - 1.5, width: w + 3, height: w + 3, rx: 3, fill: "none",
          stroke: "#111", "stroke-width": 1, "pointer-events": "none" }));
      }
    }
    return html("div", { class: "board-map" }, pic);
  },

  info(view, viewer, seatName) {
    const sizes = view.rack_sizes.map((n, i) => `${seatName(i)} ${n}`).join(" · ");
    // at the end every rack is turned up for everyone (G-5)
    const turnedUp = (view.racks || []).map((rack, i) => html("p", { "data-revealed-rack": String(i),
      text: WORDS.holds(seatName(i), [...rack].map((l) => NAMES[l]).join(", ")) }));
    return html("div", {},
      viewer === null || viewer === undefined || view.racks ? null
        : html("p", { text: WORDS.yourRackText([...view.rack].map((l) => NAMES[l]).join(", ")) }),
      ...turnedUp,
      html("p", { class: "muted", text: WORDS.rackSizes(sizes) }),
      html("p", { class: "muted", text: WORDS.bag(view.bag) }));
  },
};
