// Stomple: a 7 x 7 tray of marbles; each player's stomper (a digit in the view) hops over it.
// Click (or Tab to and press Enter on) a highlighted marble to stomp it. A string (S7) is
// several stomps of one turn: each is previewed by the server and the whole turn is stored
// once it passes to the next player.
// Which stomper is yours, and which marbles you may hop to (those of your stomper's colour,
// anywhere on the tray), is said under the board and marked on it; the last turn's path (a
// string such as c4 > d4 > e5) is drawn hole by hole, and the stomper moves along it.
import { animate, canvas, hint, html, playable, svg } from "./svg.js";
import { transient } from "../motion.js";
import * as art from "./art/marbles.js";
import { andList, t, tc, tn } from "../i18n.js";

const CELL = 62;
const MARGIN = 24;
const PAD = 8;
const FILES = "abcdefg";
const R = CELL * 0.34;

// What a player reads on this board (one place, for translation).
// A colour agrees with its noun in some languages (French: "bille verte", "billes vertes",
// "écraseur vert"), so each noun reads its own words (the catalog's contexts); the bare word
// is the colour itself, naming a seat.
const WORDS = {
  colours: { white: t("white"), yellow: t("yellow"), red: t("red"), blue: t("blue"), green: t("green"),
    black: t("black"), "cat's eye": t("cat's eye") },
  marble: { white: tc("marble", "white"), yellow: tc("marble", "yellow"), red: tc("marble", "red"),
    blue: tc("marble", "blue"), green: tc("marble", "green"), black: tc("marble", "black"),
    "cat's eye": tc("marble", "cat's eye") },
  marbles: { white: tc("marbles", "white"), yellow: tc("marbles", "yellow"), red: tc("marbles", "red"),
    blue: tc("marbles", "blue"), green: tc("marbles", "green"), black: tc("marbles", "black") },
  stomper: { white: tc("stomper", "white"), yellow: tc("stomper", "yellow"), red: tc("stomper", "red"),
    blue: tc("stomper", "blue"), green: tc("stomper", "green"), black: tc("stomper", "black") },
  board: t("Stomple board"),
  youPlay: (colour) => t("you are the {colour} stomper", { colour: word(colour, "stomper") }),
  howToString: (colour) => t("Keep stomping {colour} marbles next to your stomper, or stop when none is left.", { colour: word(colour, "marbles") }),
  howTo: t("Stomp one of the outlined marbles: your stomper hops onto it."),
  empty: t("empty hole"),
  marbleOf: (colour) => t("{colour} marble", { colour: word(colour, "marble") }),
  stomperOf: (name) => t("{name}'s stomper", { name }),
  stompIt: t("stomp it"),
  hopTo: t("hop to it and stomp it"),
  youTag: t("you"),
  yours: (colour) => t("You are the {colour} stomper.", { colour: word(colour, "stomper") }),
  first: t("Your first stomp: any marble of the outer row."),
  string: (colour) => t("Keep stomping the {colour} string: the marbles next to your stomper are outlined.", { colour: word(colour, "marble") }),
  choose: (colour) => t("Stomp a marble next to it, or hop to any {colour} marble:", { colour: word(colour, "marble") }),
  marked: t("marks them."),
  noHop: (colour) => t("Stomp a marble next to it (no {colour} marble is left to hop to).", { colour: word(colour, "marble") }),
  out: (colour) => t("Your {colour} stomper is out of this round.", { colour: word(colour, "stomper") }),
  key: t("Stompers:"),
  isOut: t("(out)"),
  composing: (colour) => (colour ? t("Your string goes on: keep stomping {colour} marbles next to your stomper.", { colour: word(colour, "marbles") })
    : t("Your turn goes on.")),
  round: (n, single, target) => (single ? t("Round {n} (one-round game)", { n })
    : t("Round {n} · first to {target} points", { n, target })),
  roundPoints: (n) => t("The round's last stomper scores {n}", { n }),
  path: (name, holes) => {
    const then = t(" then ");
    return t("{name}'s last turn: {holes}", { name, holes: holes.join(then) });
  },
  knocked: (names, many) => (many ? t("{names} were knocked out of the last round. ", { names })
    : t("{names} was knocked out of the last round. ", { names })),
  gamePoints: (points, rounds) => t("Game points: {points} ({rounds}).", { points, rounds }),
  rounds: (single, n, target) => (single ? t("one round") : tn("{n} round, target {target}", "{n} rounds, target {target}", n, { target })),
  noStomper: t("No stomper yet this round"),
  yourStomper: (colour) => t("Your stomper: {colour}", { colour: word(colour, "stomper") }),
  youAreOut: t("You are out of this round."),
};

// A colour as the reader says it (the view names colours in English, as keys), agreeing with
// ``noun`` ("marble", "marbles", "stomper"; none: the colour itself).
function word(colour, noun) { return (noun ? WORDS[noun] : WORDS.colours)[colour] || colour; }

function holeName(r, c) { return FILES[c] + String(7 - r); }
function rc(name) { return [7 - Number(name[1]), FILES.indexOf(name[0])]; }
function centre(name) {
  const [r, c] = rc(name);
  return [MARGIN + PAD + c * CELL + CELL / 2, PAD + r * CELL + CELL / 2];
}

function findStomper(board, seat) {
  for (let r = 0; r < 7; r++) {
    const c = board[r].indexOf(String(seat));
    if (c >= 0) return holeName(r, c);
  }
  return null;
}

function markAt(board, name) {
  const [r, c] = rc(name);
  return board[r][c];
}

function adjacent(a, b) {
  const [r1, c1] = rc(a);
  const [r2, c2] = rc(b);
  return Math.max(Math.abs(r1 - r2), Math.abs(c1 - c2)) === 1;
}

// The seat playing from this screen (its colour is "yours"), if one.
function meOf(model) {
  if (model.mine && model.mine.length === 1) return model.mine[0];
  if (model.mine && model.mine.length > 1 && model.interactive) return model.toAct;
  return null;
}

// The last turn's path: who, where the stomper started (when this page saw it) and the holes.
function lastPath(model) {
  // live: the move list's last turn (a whole string); in a replay: the step's own move
  const turn = model.lastTurn || (model.last && model.last.player >= 0 ? model.last : null);
  if (!turn || turn.player === null || turn.player < 0 || !turn.text) return null;
  const holes = turn.text.match(/[a-g][1-7]/g);
  if (!holes || !holes.length) return null;
  const end = holes[holes.length - 1];
  if (findStomper(model.view.board, turn.player) !== end) return null;  // moved on since
  let start = null;
  const before = model.previous && model.previous.board ? findStomper(model.previous.board, turn.player) : null;
  if (before && before !== holes[0] && !holes.includes(before)) start = before;
  return { player: turn.player, start, holes };
}

export default {
  seatColour(i, view) {
    return view && view.colours && view.colours[i] ? word(view.colours[i]) : null;
  },
  // "you are the green stomper": the colour agrees with the stomper, not with the bare word
  youPlay(seat, view) {
    return view && view.colours && view.colours[seat] ? WORDS.youPlay(view.colours[seat]) : null;
  },

  scores(view) { return view.scores; },

  howTo(view) {
    return view.string ? WORDS.howToString(view.string) : WORDS.howTo;
  },

  composeText(view) { return WORDS.composing(view.string); },

  sound(view, before, last) {
    return last && last.player >= 0 ? "capture" : null;
  },

  resultDetails(view, result, name) {
    const order = result.scores.map((s, i) => [s, i]).sort((a, b) => b[0] - a[0]);
    const points = order.map(([s, i]) => `${name(i)} ${s}`).join(", ");
    const rounds = WORDS.rounds(view.single_round, view.round, view.target);
    const out = (view.status || []).map((st, i) => (st === "out" ? i : -1)).filter((i) => i >= 0);
    const knocked = out.length ? WORDS.knocked(andList(out.map(name)), out.length > 1) : "";
    return `${knocked}${WORDS.gamePoints(points, rounds)}`;
  },

  render(root, model, ui) {
    const { view, legal, interactive } = model;
    const width = MARGIN + 7 * CELL + 2 * PAD;
    const board = canvas(width, 7 * CELL + 2 * PAD + MARGIN, WORDS.board);
    board.append(art.defs());
    board.append(art.tray(MARGIN + PAD - 6, PAD - 6, 7 * CELL + 12, 7 * CELL + 12));
    const moves = new Map(legal.map((m) => [m.s, m]));
    const me = meOf(model);
    const myColour = me === null ? null : view.colours[me];
    const myHole = me === null ? null : findStomper(view.board, me);
    const path = lastPath(model);
    const pathHoles = new Set(path ? path.holes : []);
    let landed = null;
    view.board.forEach((row, r) => [...row].forEach((mark, c) => {
      const name = holeName(r, c);
      const [x, y] = centre(name);
      const group = svg("g", { "data-square": name, class: interactive && moves.has(name) ? "clickable" : "" });
      const spot = svg("g", { transform: `translate(${x} ${y})` });
      spot.append(art.hole(CELL * 0.4));
      group.append(spot);
      let what = WORDS.empty;
      if (art.MARBLES[mark]) {
        what = WORDS.marbleOf(art.MARBLES[mark][3]);
        spot.append(art.marble(mark, R));
      } else if (/\d/.test(mark)) {
        const seat = Number(mark);
        what = WORDS.stomperOf(model.seatName(seat));
        const piece = svg("g", { "data-stomper": seat });
        piece.append(art.stomper(view.colours[seat], CELL * 0.43));
        spot.append(piece);
        if (seat === me) {
          spot.append(svg("rect", { x: -15, y: CELL * 0.3, width: 30, height: 14, rx: 7, fill: "#1f5f4f",
            stroke: "#fff", "stroke-width": 1.2, "aria-hidden": "true" }));
          spot.append(svg("text", { x: 0, y: CELL * 0.3 + 10.5, "text-anchor": "middle", class: "you-tag",
            text: WORDS.youTag, "aria-hidden": "true" }));
        }
        if (path && seat === path.player) landed = piece;
      }
      const hop = interactive && moves.has(name) && myHole && !adjacent(myHole, name) && !view.string;
      if (interactive && moves.has(name)) {
        group.append(hint("circle", { cx: x, cy: y, r: CELL * 0.45 }));
        if (hop && myColour) {
          const badge = art.hopBadge(myColour, 9);
          badge.setAttribute("transform", `translate(${x + CELL * 0.3} ${y - CELL * 0.3})`);
          badge.setAttribute("data-hop", "1");
          group.append(badge);
        }
        playable(group, `${name}, ${what}: ${hop ? WORDS.hopTo : WORDS.stompIt}`, () => ui.step(moves.get(name).a));
      } else if (interactive && mark !== ".") {
        group.addEventListener("click", () => ui.step(name));  // the server explains the rule
      }
      if (pathHoles.has(name)) group.setAttribute("data-path-hole", "1");
      board.append(group);
    }));
    for (let c = 0; c < 7; c++) {
      board.append(svg("text", { x: MARGIN + PAD + c * CELL + CELL / 2, y: 7 * CELL + 2 * PAD + 15,
        "text-anchor": "middle", class: "coord", text: FILES[c] }));
      board.append(svg("text", { x: MARGIN / 2, y: PAD + c * CELL + CELL / 2 + 4,
        "text-anchor": "middle", class: "coord", text: String(7 - c) }));
    }
    if (path) board.append(this.drawPath(path, view, model));

    const notes = [WORDS.round(view.round, view.single_round, view.target), WORDS.roundPoints(view.round_points)];
    root.replaceChildren(html("div", { class: "board-wrap" }, board, this.legend(view, model, me, myColour),
      html("p", { class: "muted board-note", text: notes.join(" · ") })));
    if (model.animate && path && landed && path.start) this.animatePath(path, landed, board, model.previous);
  },

  // the holes of the last turn, numbered in order, joined by the way the stomper went
  drawPath(path, view, model) {
    const colour = art.MARBLES[art.LETTER_OF[view.colours[path.player]] || "w"];
    const points = [...(path.start ? [path.start] : []), ...path.holes].map(centre);
    const layer = svg("g", { class: "stomp-path", "data-path": path.holes.join(" "), role: "img",
      "aria-label": WORDS.path(model.seatName(path.player), path.holes) });
    const names = [...(path.start ? [path.start] : []), ...path.holes];
    for (let k = 1; k < points.length; k++) {
      let [x1, y1] = points[k - 1];
      let [x2, y2] = points[k];
      const len = Math.hypot(x2 - x1, y2 - y1);
      const ux = (x2 - x1) / len;
      const uy = (y2 - y1) / len;
      const cut = k === points.length - 1 ? CELL * 0.46 : CELL * 0.2;
      x1 += ux * CELL * 0.2; y1 += uy * CELL * 0.2;
      x2 -= ux * cut; y2 -= uy * cut;
      const hop = !adjacent(names[k - 1], names[k]);
      for (const [stroke, w] of [["#111", 7], [colour[1], 4]]) {
        layer.append(svg("line", { x1, y1, x2, y2, stroke, "stroke-width": w, "stroke-linecap": "round",
          "stroke-dasharray": hop ? "2 9" : null, opacity: 0.9 }));
      }
      const a = Math.atan2(uy, ux) * (180 / Math.PI);
      layer.append(svg("path", { d: "M 0 0 L -11 -7 L -11 7 Z", fill: colour[1], stroke: "#111", "stroke-width": 1.5,
        transform: `translate(${x2 + ux * 3} ${y2 + uy * 3}) rotate(${a})` }));
    }
    const [ex, ey] = centre(path.holes[path.holes.length - 1]);
    layer.append(svg("circle", { cx: ex, cy: ey, r: CELL * 0.47, fill: "none", stroke: "#f2c94c",
      "stroke-width": 4, "data-last": "1" }));
    path.holes.slice(0, -1).forEach((name, k) => {
      const [x, y] = centre(name);
      layer.append(svg("circle", { cx: x, cy: y, r: 10, fill: colour[1], stroke: "#111", "stroke-width": 1.5 }));
      layer.append(svg("text", { x, y: y + 4.5, "text-anchor": "middle", class: "path-number",
        fill: ["white", "yellow"].includes(view.colours[path.player]) ? "#111" : "#fff", text: String(k + 1) }));
    });
    return layer;
  },

  // the stomper goes along its path; each marble it stomps drops through its hole
  animatePath(path, piece, board, before) {
    const stops = [path.start, ...path.holes];
    const [ex, ey] = centre(stops[stops.length - 1]);
    const per = Math.min(300, 1000 / (stops.length - 1));
    const total = per * (stops.length - 1);
    const frames = stops.map((name, k) => {
      const [x, y] = centre(name);
      return { transform: `translate(${x - ex}px, ${y - ey}px)`, offset: k / (stops.length - 1) };
    });
    animate(piece, frames, total, { easing: "linear" });
    path.holes.forEach((name, k) => {
      const letter = markAt(before.board, name);
      if (!art.MARBLES[letter]) return;
      const [x, y] = centre(name);
      const ghost = art.marble(letter, R);
      const holder = svg("g", { transform: `translate(${x} ${y})`, "aria-hidden": "true" }, ghost);
      board.insertBefore(holder, board.querySelector(".stomp-path"));
      transient(ghost, [{ transform: "scale(1)", opacity: 1 }, { transform: "scale(1)", opacity: 1, offset: 0.5 },
        { transform: "scale(.25)", opacity: 0 }], { duration: per * (k + 1) + 160, easing: "ease-in" }, holder);
    });
  },

  // which stomper is yours, what you may stomp, and everyone's stomper
  legend(view, model, me, colour) {
    const box = html("div", { class: "stomple-legend", "data-legend": "1" });
    if (view.phase === "play" || view.phase === "over") {
      if (colour) {
        const status = view.status[me];
        const line = html("p", { class: "legend-you" }, art.stomperIcon(colour), html("strong", { text: WORDS.yours(colour) }));
        const what = this.whatToDo(view, model, status, colour);  // nothing once the game is over
        if (what) line.append(" ", ...what);
        box.append(line);
      }
      const key = html("p", { class: "legend-key muted" }, html("span", { text: WORDS.key }));
      view.colours.forEach((c, seat) => {
        if (!c) return;
        key.append(html("span", { class: view.status[seat] === "out" ? "key-item out" : "key-item" },
          art.stomperIcon(c, 20), model.shortName(seat), view.status[seat] === "out" ? ` ${WORDS.isOut}` : null));
      });
      box.append(key);
    }
    return box;
  },

  whatToDo(view, model, status, colour) {
    if (view.phase === "over") return null;
    if (status === "out") return [WORDS.out(colour)];
    if (model.interactive && view.string) return [WORDS.string(view.string)];
    if (status === "first") return [WORDS.first];
    if (!view.board.join("").includes(art.LETTER_OF[colour])) return [WORDS.noHop(colour)];
    return [`${WORDS.choose(colour)} `, art.hopIcon(colour), ` ${WORDS.marked}`];
  },

  info(view, viewer) {
    if (viewer === null || viewer === undefined) return null;
    const colour = view.your_colour;
    const status = view.status ? view.status[viewer] : null;
    return html("div", {},
      html("p", {}, colour ? art.stomperIcon(colour, 24) : null, colour ? WORDS.yourStomper(colour) : WORDS.noStomper),
      status === "out" ? html("p", { class: "muted", text: WORDS.youAreOut }) : null);
  },
};
