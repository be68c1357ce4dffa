// Stomp the Plank: the pirate ship with a plank for each player, the elephant pirates on them,
// the crates loaded at the far ends (a plank leans more as its load grows, and tips when it is
// too heavy), the pontoon of treasure cards floating beside the ship, and the two choices,
// draw or stop. Everything in this game is public; the draw pile shows as counts.
// Seats sit round the ship clockwise: the first on the upper left plank, the next on the upper
// right, then lower right and lower left.
import { animate, canvas, html, svg } from "./svg.js";
import { transient } from "../motion.js";
import * as art from "./art/pirates.js";
import { LANG, andList, t, tc, tn } from "../i18n.js";

// What a player reads on this board (one place, for translation).
const WORDS = {
  board: t("Stomp the Plank: the ship, the planks and the pontoon"),
  draw: t("Draw a card"),
  stop: t("Stop"),
  howTo: t("Draw a card; then draw again, or stop to load the others' planks with crates."),
  crates: (n) => tn("{n} crate", "{n} crates", n),
  fromTipping: (n) => t("{n} from tipping", { n }),
  overboard: t("overboard!"),
  wins: t("wins!"),
  pile: (n) => tn("{n} card", "{n} cards", n),
  discards: (n) => t("{n} discarded", { n }),
  caught: t("Caught!"),
  caughtNote: (name) => t("Caught by the captain: {name}'s elephant steps forward.", { name }),
  stoppedNote: (name, n, others) => (!n ? t("{name} stopped: no crates.", { name })
    : others > 1 ? tn("{name} stopped: {n} crate to each other plank.", "{name} stopped: {n} crates to each other plank.", n, { name })
      : tn("{name} stopped: {n} crate to the other plank.", "{name} stopped: {n} crates to the other plank.", n, { name })),
  elephant: (name, step, crates, balance) => {
    const where = step === 0 ? t("at the start") : tn("{n} step out", "{n} steps out", step);
    const load = tn("{n} crate", "{n} crates", crates);
    const left = balance > 0 ? tn("{n} more crate tips it", "{n} more crates tip it", balance) : t("tipped into the sea");
    return t("{name}'s plank: elephant {where}, {crates}, {balance}", { name, where, crates: load, balance: left });
  },
  spot: (i, prize, treasure) => {
    const shown = treasure || t("empty");
    return t("Spot {i}, {prize}: {treasure}", { i, prize, treasure: shown });
  },
  prize: (n) => (n === null ? t("filling it wins") : tn("stopping here gives {n} crate", "stopping here gives {n} crates", n)),
  leftToDraw: (n, list) => tn("Still to draw ({n} card): {list}.", "Still to draw ({n} cards): {list}.", n, { list }),
  rule: (tipAt, step) => t("A plank tips under {tipAt} crates; each step its elephant is pushed forward weighs as much as {step}.", { tipAt, step }),
  supply: (n, total) => t("Crates in the supply: {n} of {total}.", { n, total }),
  youPlay: (colour) => t("you are the {colour} elephant", { colour }),
  lastSpot: (name) => t("{name} filled the last spot of the pontoon.", { name }),
  turnLimit: t("The turn limit was reached: nobody's plank tipped."),
  tipped: (whose, stop) => (stop ? t("{whose} tipped under the crates.", { whose })
    : t("{whose} tipped when the elephant stepped on.", { whose })),
  planks: (names) => (names.length > 1 ? t("{names}'s planks", { names: andList(names) }) : t("{name}'s plank", { name: names[0] })),
  scarves: { red: t("red"), blue: t("blue"), green: t("green"), orange: t("orange") },
  // the elephant's colour, agreeing with the elephant in French ("l'éléphant vert")
  elephantColour: { red: tc("elephant", "red"), blue: tc("elephant", "blue"),
    green: tc("elephant", "green"), orange: tc("elephant", "orange") },
};

const MAX_LEAN = 7;      // degrees a plank leans just before it tips
const TIPPED_LEAN = 34;  // degrees of a plank that tipped

function colourOf(seat) {
  return art.SEAT_COLOURS[seat % art.SEAT_COLOURS.length];
}

// Where each seat's plank leaves the ship: side -1 (left) or +1 (right), deck 0 (upper) or 1.
function placeOf(seat) {
  const order = [[-1, 0], [1, 0], [1, 1], [-1, 1]];
  return order[seat % 4];
}

function lean(plank, tipAt) {
  if (plank.balance <= 0) return TIPPED_LEAN;
  return MAX_LEAN * Math.max(0, Math.min(1, (tipAt - plank.balance) / tipAt));
}

function geometry(view, narrow) {
  const W = narrow ? 360 : 820;
  const cx = W / 2;
  const hw = narrow ? 38 : 78;
  const lower = view.planks.length > 2;
  const deck = narrow ? 86 : 92;
  const laneGap = narrow ? 118 : 140;
  const y1 = deck + 22;
  const y2 = y1 + laneGap;
  const signTop = narrow ? 26 : 30;
  const signH = narrow ? 46 : 40;
  const water = (lower ? y2 : y1) + signTop + signH + (narrow ? 18 : 26);
  const cw = narrow ? 70 : 76;
  const ch = narrow ? 94 : 100;
  const gap = narrow ? 8 : 10;
  const cols = narrow ? Math.min(3, view.spots) : view.spots;
  const rows = Math.ceil(view.spots / cols);
  const head = 22;
  const raftW = cols * (cw + gap) + 12;
  const raftH = rows * (head + ch + gap) + 6;
  const raftX = narrow ? W - raftW - 10 : (W - raftW) / 2;
  const raftY = water + (narrow ? 26 : 30);
  const pileX = narrow ? 12 : raftX - cw - 26;
  const iconsY = raftY + raftH + (narrow ? 16 : 18);
  const height = iconsY + (narrow ? 46 : 44);
  return {
    W, cx, hw, deck, y1, y2, signTop, signH, water, cw, ch, gap, cols, rows, head, raftW, raftH,
    raftX, raftY, pileX, iconsY, height, narrow,
    rootGap: narrow ? 4 : 6,
    length: W / 2 - hw - (narrow ? 10 : 16),
    thick: narrow ? 8 : 11,
    scale: narrow ? 0.7 : 1,
    crate: narrow ? 9 : 13,
    crateCols: narrow ? 3 : 4,
    signW: narrow ? 134 : 196,
  };
}

// The spot i's top-left corner on the pontoon.
function spotAt(g, i) {
  return [g.raftX + 12 + (i % g.cols) * (g.cw + g.gap), g.raftY + g.head + Math.floor(i / g.cols) * (g.head + g.ch + g.gap)];
}

// Where on a plank (its own coordinates: x outward from the ship) the elephant stands on step k.
function stepX(g, k) {
  const start = g.narrow ? 20 : 34;
  const end = g.length - g.crateCols * g.crate - (g.narrow ? 22 : 30);
  return start + (k / 4) * (end - start);
}

function toScene(g, plank, x, angle) {
  const a = (angle * Math.PI) / 180;
  return [plank.rootX + plank.side * x * Math.cos(a), plank.y + x * Math.sin(a)];
}

// A name on its sign, whole: a long one ("Ordinateur (facile)") in smaller letters, never cut
// (issue 65); ``chars`` is what fits at the sign's own size.
function fitted(name, chars) {
  const scale = name.length > chars ? Math.max(0.6, chars / name.length) : 1;
  return svg("tspan", { "font-size": scale < 1 ? `${Math.floor(scale * 100)}%` : null, text: name });
}

export default {
  seatColour(i) { return WORDS.scarves[colourOf(i).word] || colourOf(i).word; },
  youPlay(seat) {
    const word = colourOf(seat).word;
    return WORDS.youPlay(WORDS.elephantColour[word] || word);
  },

  scores(view) {
    // what a plank carries is what counts here: crates, and how close it is to tipping
    const byPlayer = {};
    for (const plank of view.planks) byPlayer[plank.player] = WORDS.crates(plank.crates);
    return view.planks.map((_, i) => byPlayer[i]);
  },

  howTo() { return WORDS.howTo; },

  resultDetails(view, result, name) {
    const losers = (view.losers || []).map(name);
    if (view.end === "last-spot") return WORDS.lastSpot(name(view.active));
    if (view.end === "turn-limit") return WORDS.turnLimit;
    if (!losers.length) return "";
    return WORDS.tipped(WORDS.planks(losers), view.end === "tip-stop");
  },

  sound(view, before) {
    if (!before) return null;
    if (view.planks.some((p) => p.balance <= 0) && !before.planks.some((p) => p.balance <= 0)) return "splash";
    if (view.pontoon.length > before.pontoon.length) return "card";
    if (view.planks.some((p, i) => p.step > before.planks[i].step)) return "capture";
    if (view.planks.some((p, i) => p.crates > before.planks[i].crates)) return "move";
    return null;
  },

  render(root, model, ui) {
    const { view, legal, interactive } = model;
    const before = model.animate && model.previous && model.previous.planks
      && model.previous.planks.length === view.planks.length ? model.previous : null;
    const narrow = window.matchMedia("(max-width: 600px)").matches;
    const g = geometry(view, narrow);
    const pic = canvas(g.W, g.height, WORDS.board);
    pic.classList.add("plank-scene");
    pic.append(art.defs());
    pic.append(svg("rect", { x: 0, y: 0, width: g.W, height: g.water, fill: "url(#stp-sky)" }));
    pic.append(art.ship(g.cx, g.hw, g.deck, g.water + 40, narrow ? 10 : 12));

    const planks = view.planks.map((p) => {
      const [side, deckIndex] = placeOf(p.player);
      const y = deckIndex ? g.y2 : g.y1;
      return { ...p, side, y, rootX: g.cx + side * (g.hw + g.rootGap) };
    });
    // the sea goes over the hull's bottom; the planks over the sea
    g.sea = art.sea(g.W, g.water, g.height);
    pic.append(g.sea);
    const animations = [];
    for (const plank of planks) {
      const old = before ? before.planks[plank.player] : null;
      this.drawPlank(pic, g, view, plank, old, model, animations);
    }
    if (before) ui.keep.outcome = this.outcome(view, before);
    if (view.pontoon.length) ui.keep.outcome = null;
    this.drawPontoon(pic, g, view, before, model, animations);
    if (ui.keep.outcome && !view.terminal) this.drawOutcome(pic, g, ui.keep.outcome, model);
    this.drawLeftToDraw(pic, g, view);

    const controls = html("div", { class: "controls centred" });
    for (const move of legal) {
      controls.append(html("button", { "data-move": move.s, class: "big", text: WORDS[move.s] || move.s,
        onclick: () => ui.step(move.a), disabled: !interactive }));
    }
    root.replaceChildren(html("div", { class: "board-wrap" }, pic, controls,
      html("p", { class: "muted board-note", text: `${WORDS.rule(view.tip_at, view.step_weight)} ` +
        WORDS.supply(view.supply, view.supply_total) })));
    for (const run of animations) run();
  },

  drawPlank(pic, g, view, plank, old, model, animations) {
    const colour = colourOf(plank.player);
    const angle = lean(plank, view.tip_at);
    const tipped = plank.balance <= 0;
    const name = model.shortName(plank.player);
    pic.append(art.slot(plank.rootX - plank.side * g.rootGap, plank.y, plank.side));
    const outer = svg("g", { transform: `translate(${plank.rootX} ${plank.y}) scale(${plank.side} 1)`,
      "data-plank": plank.player, role: "img", "aria-label": WORDS.elephant(name, plank.step, plank.crates, plank.balance) });
    const tilt = svg("g", { transform: `rotate(${angle})`, class: "tilt" });
    const marks = [0, 1, 2, 3, 4].map((k) => stepX(g, k));
    tilt.append(art.plank(g.length, g.thick, marks));
    // crates at the far end, in rows from the bottom
    const crateGroup = svg("g", { class: "crates" });
    const x0 = g.length - g.crateCols * g.crate - 4;
    const shown = Math.min(plank.crates, 24);
    const fresh = [];
    for (let k = 0; k < shown; k++) {
      const col = k % g.crateCols;
      const row = Math.floor(k / g.crateCols);
      const box = art.crate(x0 + col * g.crate, -row * g.crate, g.crate - 1);
      crateGroup.append(box);
      if (old && k >= old.crates) fresh.push(box);
    }
    tilt.append(crateGroup);
    const stand = svg("g", { transform: `translate(${stepX(g, plank.step)} 0)` });
    const walker = svg("g", { "data-elephant": plank.player });
    walker.append(art.elephant(colour, { scale: g.scale }));
    stand.append(walker);
    if (!tipped) tilt.append(stand);
    outer.append(tilt);
    if (tipped) pic.insertBefore(outer, g.sea);  // what went under is hidden by the water
    else pic.append(outer);

    // the name sign under the plank, by the ship: never where an elephant can stand
    const acting = view.active === plank.player && !view.terminal;
    const sx = plank.side > 0 ? plank.rootX + 4 : plank.rootX - 4 - g.signW;
    const sy = plank.y + g.signTop;
    const sign = svg("g", { "data-plank-name": plank.player, class: acting ? "plank-sign acting" : "plank-sign" });
    sign.append(svg("rect", { x: sx, y: sy, width: g.signW, height: g.signH, rx: 6, fill: "#fbf4e0",
      stroke: acting ? "#1f5f4f" : "#5b4a30", "stroke-width": acting ? 2.5 : 1 }));
    sign.append(svg("rect", { x: plank.side > 0 ? sx : sx + g.signW - 7, y: sy, width: 7, height: g.signH, rx: 3,
      fill: colour.fill }));
    const tx = plank.side > 0 ? sx + 13 : sx + 8;
    const chars = g.narrow ? 16 : 19;
    sign.append(svg("text", { x: tx, y: sy + (g.narrow ? 14 : 17), class: "plank-name" }, fitted(name, chars)));
    const facts = [WORDS.crates(plank.crates), tipped ? WORDS.overboard : WORDS.fromTipping(plank.balance)];
    if (g.narrow) {
      facts.forEach((text, k) => sign.append(svg("text", { x: tx, y: sy + 27 + 12 * k, class: "plank-facts", text })));
    } else {
      sign.append(svg("text", { x: tx, y: sy + 33, class: "plank-facts", text: facts.join(" · ") }));
    }
    pic.append(sign);

    let fallen = null;
    if (tipped) {
      // the elephant went into the sea where its plank goes under: only its feet show
      const under = Math.min(g.length, (g.water - plank.y) / Math.tan((angle * Math.PI) / 180));
      const wx = Math.max(34, Math.min(g.W - 34, plank.rootX + plank.side * under));
      const legs = 13 * g.scale;
      fallen = svg("g", { transform: `translate(${wx} ${g.water - legs})` });
      const body = svg("g", { "data-elephant": plank.player, transform: `rotate(${plank.side * 172})` });
      body.append(art.elephant(colour, { scale: g.scale, flip: plank.side < 0 }));
      fallen.append(body);
      pic.insertBefore(fallen, g.sea);
      const foam = art.splash();
      foam.setAttribute("transform", `translate(${wx} ${g.water + 4}) scale(${g.narrow ? 0.7 : 1})`);
      pic.append(foam);
      if (old && old.balance > 0) {
        const [fx, fy] = toScene(g, plank, stepX(g, old.step), lean(old, view.tip_at));
        animations.push(() => {
          animate(tilt, [{ transform: `rotate(${lean(old, view.tip_at)}deg)` }, { transform: `rotate(${angle}deg)` }], 350,
            { easing: "ease-in" });
          animate(fallen, [{ transform: `translate(${fx}px, ${fy}px)`, opacity: 1 },
            { transform: `translate(${fx + plank.side * 20}px, ${fy}px)`, offset: 0.35 },
            { transform: `translate(${wx}px, ${g.water - legs}px)` }], 750, { easing: "ease-in" });
          animate(foam, [{ opacity: 0 }, { opacity: 0, offset: 0.8 }, { opacity: 1 }], 850);
        });
      }
      return;
    }
    if (!old) return;
    const oldAngle = lean(old, view.tip_at);
    animations.push(() => {
      if (Math.abs(oldAngle - angle) > 0.01) {
        animate(tilt, [{ transform: `rotate(${oldAngle}deg)` }, { transform: `rotate(${angle}deg)` }], 420,
          { delay: fresh.length ? 220 : 100, easing: "cubic-bezier(.3,1.6,.5,1)" });
      }
      fresh.forEach((box, k) => animate(box, [{ transform: "translateY(-70px)", opacity: 0 },
        { transform: "translateY(0)", opacity: 1 }], 240, { delay: 40 + 30 * k, easing: "ease-in" }));
      if (old.step !== plank.step) {
        const dx = stepX(g, old.step) - stepX(g, plank.step);
        animate(walker, [{ transform: `translateX(${dx}px)` }, { transform: "translateX(0)" }], 420,
          { delay: 180, easing: "ease-in-out" });
      }
    });
  },

  drawPontoon(pic, g, view, before, model, animations) {
    const raft = svg("g", { class: "pontoon" });
    raft.append(svg("rect", { x: g.raftX + 3, y: g.raftY + 6, width: g.raftW, height: g.raftH, rx: 8, fill: "#0d3349",
      opacity: 0.35 }));
    raft.append(svg("rect", { x: g.raftX, y: g.raftY, width: g.raftW, height: g.raftH, rx: 8, fill: "url(#stp-raft)",
      stroke: "#5e3b1a", "stroke-width": 1.5 }));
    for (let y = g.raftY + 12; y < g.raftY + g.raftH - 4; y += 14) {
      raft.append(svg("path", { d: `M ${g.raftX + 4} ${y} H ${g.raftX + g.raftW - 4}`, stroke: "#7d5227",
        "stroke-width": 0.8, opacity: 0.55 }));
    }
    for (const x of [g.raftX + 6, g.raftX + g.raftW - 6]) {
      raft.append(svg("circle", { cx: x, cy: g.raftY + 6, r: 3, fill: "#4a2d12" }));
    }
    pic.append(raft);
    let newest = null;
    for (let i = 0; i < view.spots; i++) {
      const [x, y] = spotAt(g, i);
      const crates = i < view.crates.length ? view.crates[i] : null;
      // the prize above the spot: crates to give, or the win
      const badge = svg("g", { class: "spot-prize", "aria-hidden": "true" });
      if (crates === null) {
        badge.append(svg("path", { d: `M ${x + g.cw / 2 - 22} ${y - 6} l 3 -8 h 38 l 3 8 Z`, fill: "#f2c94c", opacity: 0 }));
        badge.append(svg("text", { x: x + g.cw / 2, y: y - 7, "text-anchor": "middle", class: "spot-label win",
          text: `★ ${WORDS.wins}` }));
      } else {
        const s = g.narrow ? 11 : 12;
        badge.append(art.crate(x + g.cw / 2 - s - 3, y - 5, s));
        badge.append(svg("text", { x: x + g.cw / 2 + 2, y: y - 7, class: "spot-label", text: `× ${crates}` }));
      }
      pic.append(badge);
      const label = WORDS.spot(i + 1, WORDS.prize(crates), i < view.pontoon.length ? art.TREASURES[view.pontoon[i]]?.name : null);
      const spot = svg("g", { transform: `translate(${x} ${y})`, "data-spot": i + 1, role: "img", "aria-label": label });
      spot.append(svg("rect", { x: 0, y: 0, width: g.cw, height: g.ch, rx: 7, fill: "#000", "fill-opacity": 0.12,
        stroke: "#f5e6c4", "stroke-dasharray": "5 4", "stroke-width": 1.5 }));
      if (i < view.pontoon.length) {
        const face = art.card(view.pontoon[i], g.cw, g.ch);
        spot.append(face);
        if (view.end === "tip-step" && view.pontoon.indexOf(view.pontoon[i]) !== view.pontoon.lastIndexOf(view.pontoon[i])) {
          // the game ended on a match: the two cards alike are ringed
          spot.append(svg("rect", { x: -3, y: -3, width: g.cw + 6, height: g.ch + 6, rx: 9, fill: "none",
            stroke: "#d62828", "stroke-width": 4, "data-match": "1" }));
        }
        if (i === view.pontoon.length - 1) { face.setAttribute("data-last", "1"); newest = { face, i }; }
      }
      pic.append(spot);
    }
    // the draw pile and the discards, beside the pontoon
    const [px, py] = g.narrow ? [g.pileX, g.raftY + 8] : [g.pileX, g.raftY + g.head];
    const pile = svg("g", { class: "draw-pile", "aria-hidden": "true" });
    const depth = Math.min(4, Math.ceil(view.draw_pile / 12));
    for (let k = depth - 1; k >= 0; k--) {
      const back = art.cardBack(g.cw, g.ch);
      back.setAttribute("transform", `translate(${px - k * 2} ${py - k * 2})`);
      pile.append(back);
    }
    pile.append(svg("text", { x: px + g.cw / 2, y: py + g.ch + 16, "text-anchor": "middle", class: "pile-label",
      text: WORDS.pile(view.draw_pile) }));
    pic.append(pile);
    const discarded = Object.values(view.discards || {}).reduce((a, b) => a + b, 0);
    const [dx, dy] = g.narrow ? [g.pileX, g.raftY + g.ch + 44] : [g.raftX + g.raftW + 26, g.raftY + g.head];
    const discard = svg("g", { class: "discard-pile", "aria-hidden": "true" });
    discard.append(svg("rect", { x: dx, y: dy, width: g.cw, height: g.ch, rx: 7, fill: "none", stroke: "#f5e6c4",
      "stroke-dasharray": "5 4", "stroke-width": 1.5, opacity: 0.6 }));
    if (discarded) {
      const top = art.cardBack(g.cw, g.ch);
      top.setAttribute("transform", `translate(${dx} ${dy}) rotate(4 ${g.cw / 2} ${g.ch / 2})`);
      top.setAttribute("opacity", "0.85");
      discard.append(top);
    }
    discard.append(svg("text", { x: dx + g.cw / 2, y: dy + g.ch + 16, "text-anchor": "middle", class: "pile-label",
      text: WORDS.discards(discarded) }));
    pic.append(discard);

    if (!before) return;
    const [sx, sy] = [px, py];
    if (newest && view.pontoon.length === before.pontoon.length + 1) {
      // the card comes off the draw pile face down and turns over onto its spot
      const [tx, ty] = spotAt(g, newest.i);
      const flying = art.cardBack(g.cw, g.ch);
      const mover = svg("g", { transform: `translate(${tx} ${ty})` }, flying);
      pic.append(mover);
      animations.push(() => {
        transient(flying, [
          { transform: `translate(${sx - tx}px, ${sy - ty}px) scaleX(1)`, transformOrigin: `${g.cw / 2}px ${g.ch / 2}px` },
          { transform: "translate(0, 0) scaleX(1)", transformOrigin: `${g.cw / 2}px ${g.ch / 2}px`, offset: 0.7 },
          { transform: "translate(0, 0) scaleX(0)", transformOrigin: `${g.cw / 2}px ${g.ch / 2}px` }],
        { duration: 190, easing: "ease-out" }, mover);
        animate(newest.face, [{ transform: "scaleX(0)", transformOrigin: `${g.cw / 2}px ${g.ch / 2}px` },
          { transform: "scaleX(1)", transformOrigin: `${g.cw / 2}px ${g.ch / 2}px` }], 120, { delay: 190 });
      });
      return;
    }
    if (view.pontoon.length === 0 && before.pontoon.length > 0) {
      // the turn ended: its cards go to the discards (after showing the one that matched)
      const caught = view.planks.some((p, i) => p.step > before.planks[i].step);
      const match = caught && model.last && model.last.text ? /^[a-z]+/.exec(model.last.text) : null;
      const cards = [...before.pontoon, ...(match && art.TREASURES[match[0]] ? [match[0]] : [])];
      const layer = svg("g", { "aria-hidden": "true" });
      pic.append(layer);
      cards.forEach((treasure, i) => {
        const [x, y] = spotAt(g, i);
        const face = art.card(treasure, g.cw, g.ch);
        const holder = svg("g", { transform: `translate(${x} ${y})` }, face);
        layer.append(holder);
        const away = [dx - x, dy - y];
        const dup = caught && treasure === cards[cards.length - 1];
        animations.push(() => transient(face, [
          { transform: "translate(0, 0)", opacity: 1 },
          { transform: "translate(0, 0)", opacity: 1, offset: caught ? 0.55 : 0.2 },
          { transform: `translate(${away[0]}px, ${away[1]}px)`, opacity: 0.2 }],
        { duration: caught ? 700 : 420, delay: i * 30 }, holder));
        if (dup) {
          const ring = svg("rect", { x: x - 3, y: y - 3, width: g.cw + 6, height: g.ch + 6, rx: 9, fill: "none",
            stroke: "#d62828", "stroke-width": 4 });
          layer.append(ring);
          animations.push(() => transient(ring, [{ opacity: 1 }, { opacity: 1, offset: 0.6 }, { opacity: 0 }], { duration: 650 }));
        }
      });
      if (caught) {
        const [bx, by] = [g.raftX + g.raftW / 2, g.raftY + g.raftH / 2];
        const banner = svg("g", {}, svg("rect", { x: bx - 60, y: by - 20, width: 120, height: 40, rx: 8,
          fill: "#d62828", stroke: "#fff", "stroke-width": 2 }),
        svg("text", { x: bx, y: by + 7, "text-anchor": "middle", class: "caught-label", text: WORDS.caught }));
        layer.append(banner);
        animations.push(() => transient(banner, [{ opacity: 0, transform: "scale(.6)", transformOrigin: `${bx}px ${by}px` },
          { opacity: 1, transform: "scale(1)", transformOrigin: `${bx}px ${by}px`, offset: 0.25 },
          { opacity: 1, offset: 0.75 }, { opacity: 0 }], { duration: 700 }));
      }
    }
  },

  // how the last turn ended, while the pontoon is empty: caught, or stopped with crates given
  outcome(view, before) {
    if (view.pontoon.length || !before.pontoon.length) return null;
    const player = before.active;
    if (view.planks.some((p, i) => p.step > before.planks[i].step)) return { kind: "caught", player };
    const given = Math.max(0, ...view.planks.map((p, i) => p.crates - before.planks[i].crates));
    return { kind: "stop", player, given };
  },

  drawOutcome(pic, g, outcome, model) {
    const name = model.shortName(outcome.player);
    const text = outcome.kind === "caught" ? WORDS.caughtNote(name)
      : WORDS.stoppedNote(name, outcome.given, model.view.planks.length - 1);
    // on a phone, two lines: the sentence is cut after its colon
    const lines = g.narrow && text.includes(": ") ? [text.slice(0, text.indexOf(": ") + 1), text.slice(text.indexOf(": ") + 2)]
      : [text];
    const [x, y] = [g.raftX + g.raftW / 2, g.raftY + g.head + g.ch / 2];
    const longest = Math.max(...lines.map((l) => l.length));
    const w = Math.min(g.raftW - 16, longest * (g.narrow ? 6.4 : 7.4) + 24);
    const h = 16 * lines.length + 18;
    const note = svg("g", { class: "turn-outcome", "data-outcome": outcome.kind },
      svg("rect", { x: x - w / 2, y: y - h / 2, width: w, height: h, rx: 8, fill: outcome.kind === "caught" ? "#8f1d1d" : "#1f4f44",
        opacity: 0.94 }));
    const label = svg("text", { x, y: y - h / 2 + 9 + 12, "text-anchor": "middle", class: "outcome-text" });
    lines.forEach((line, k) => label.append(svg("tspan", { x, dy: k ? 16 : 0, text: line })));
    note.append(label);
    pic.append(note);
  },

  // what is left in the draw pile, by treasure: the odds a player weighs before drawing again
  drawLeftToDraw(pic, g, view) {
    const kinds = Object.keys(art.TREASURES);
    const s = g.narrow ? 24 : 26;
    const step = g.narrow ? 49 : 58;
    const x0 = (g.W - step * kinds.length) / 2 + 4;
    const list = kinds.map((t) => `${view.unseen[t]} ${art.TREASURES[t].name.toLocaleLowerCase(LANG)}`).join(", ");
    const row = svg("g", { class: "left-to-draw", role: "img", "aria-label": WORDS.leftToDraw(view.draw_pile, list) });
    kinds.forEach((t, i) => {
      const x = x0 + i * step;
      const icon = art.treasureIcon(t, s);
      icon.setAttribute("transform", `translate(${x} ${g.iconsY})`);
      if (!view.unseen[t]) icon.setAttribute("opacity", "0.35");
      row.append(icon);
      row.append(svg("text", { x: x + s + 3, y: g.iconsY + s / 2 + 5, class: "icon-count", text: `${view.unseen[t]}` }));
    });
    pic.append(row);
  },
};
