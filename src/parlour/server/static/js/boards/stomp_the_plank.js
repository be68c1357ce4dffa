// Stomp the Plank: the pontoon of treasure cards, each player's plank and elephant, and the
// two choices, draw or stop. Everything in this game is public; the draw pile shows as counts.
import { animate, canvas, html, svg } from "./svg.js";

const TREASURE = {
  coins: ["#e0b43a", "Coins"], ruby: ["#c2334b", "Ruby"], map: ["#c9a46b", "Map"],
  compass: ["#3f7fbf", "Compass"], sword: ["#8c96a3", "Sword"], hook: ["#5b5b5b", "Hook"],
  spyglass: ["#7a5230", "Spyglass"],
};
const CARD_W = 92;
const CARD_H = 120;
const LABELS = { draw: "Draw a card", stop: "Stop" };

function card(x, y, treasure) {
  const [fill, label] = TREASURE[treasure] || ["#ccc", treasure];
  return svg("g", { "data-card": treasure },
    svg("rect", { x, y, width: CARD_W - 10, height: CARD_H - 30, rx: 8, fill: "#fffaf0",
      stroke: "#6b5a40", "stroke-width": 2 }),
    svg("circle", { cx: x + (CARD_W - 10) / 2, cy: y + 34, r: 20, fill }),
    svg("text", { x: x + (CARD_W - 10) / 2, y: y + 76, "text-anchor": "middle",
      "font-size": 13, text: label }));
}

export default {
  scores(view) {
    // what a plank carries is what counts here: crates, and how close it is to tipping
    const byPlayer = {};
    for (const plank of view.planks) byPlayer[plank.player] = `${plank.crates} crate${plank.crates === 1 ? "" : "s"}`;
    return view.planks.map((_, i) => byPlayer[i]);
  },

  howTo() {
    return "Draw a card; then draw again, or stop to load the others' planks with crates.";
  },

  resultDetails(view, result, name) {
    const losers = (view.losers || []).map(name);
    if (view.end === "last-spot") return `${name(view.active)} filled the last spot of the pontoon.`;
    if (view.end === "turn-limit") return "The turn limit was reached: nobody's plank tipped.";
    if (!losers.length) return "";
    const whose = losers.length > 1 ? `${losers.join(" and ")}'s planks` : `${losers[0]}'s plank`;
    const why = view.end === "tip-stop" ? "tipped under the crates" : "tipped when the elephant stepped on";
    return `${whose} ${why}.`;
  },

  render(root, model, ui) {
    const { view, legal, interactive } = model;
    const spots = view.spots;
    // a phone shows the pontoon in rows of three, so that cards and words stay readable
    const narrow = window.matchMedia("(max-width: 600px)").matches;
    const cols = narrow ? Math.min(3, spots) : spots;
    const rows = Math.ceil(spots / cols);
    const width = narrow ? cols * CARD_W + 30 : Math.max(spots * CARD_W + 40, 560);
    const top = rows * CARD_H + 30;
    const lane = narrow ? 76 : 54;
    const height = top + 30 + view.planks.length * lane;
    const pic = canvas(width, height, "Stomp the Plank table: the pontoon and the planks");
    pic.append(svg("rect", { x: 10, y: 20, width: cols * CARD_W + 10, height: rows * CARD_H + 4,
      rx: 10, fill: "#7fa9c9" }));
    let newest = null;
    for (let i = 0; i < spots; i++) {
      const x = 20 + (i % cols) * CARD_W;
      const y = 30 + Math.floor(i / cols) * CARD_H;
      const prize = i < view.crates.length ? `${view.crates[i]} crate${view.crates[i] === 1 ? "" : "s"}` : "wins!";
      pic.append(svg("text", { x: x + (CARD_W - 10) / 2, y: y + CARD_H - 12, "text-anchor": "middle",
        class: "spot-label", text: `${i + 1}: ${prize}` }));
      if (i < view.pontoon.length) {
        const placed = card(x, y, view.pontoon[i]);
        if (i === view.pontoon.length - 1) { placed.setAttribute("data-last", "1"); newest = placed; }
        pic.append(placed);
      } else {
        pic.append(svg("rect", { x, y, width: CARD_W - 10, height: CARD_H - 30, rx: 8,
          fill: "none", stroke: "#e8f1f8", "stroke-dasharray": "6 4", "stroke-width": 2 }));
      }
    }
    // planks: elephant on step 0..4 walking toward the water; crates loaded at the far end
    view.planks.forEach((plank, i) => {
      const y = top + 20 + i * lane + (narrow ? 20 : 0);
      const active = view.active === plank.player;
      const name = model.seatName(plank.player);
      pic.append(svg("text", { x: 10, y: narrow ? y - 6 : y + 18, "font-weight": active ? 700 : 400,
        class: "plank-name", text: name.slice(0, narrow ? 28 : 18) }));
      if (narrow) {
        pic.append(svg("text", { x: 10, y: y + 48, class: "plank-facts",
          text: `${plank.crates} crate${plank.crates === 1 ? "" : "s"} · elephant on step ${plank.step} of 4` }));
      }
      const x0 = narrow ? 10 : 170;
      const plankWidth = width - x0 - 20;
      pic.append(svg("rect", { x: x0, y: y + 20, width: plankWidth, height: 10, rx: 3,
        fill: "#9a6b3a", "data-plank": plank.player }));
      const stepX = x0 + 20 + (plank.step / 4) * (plankWidth - 120);
      pic.append(svg("circle", { cx: stepX, cy: y + 8, r: 13, fill: "#8a8f98",
        stroke: "#444", "stroke-width": 2 }));
      pic.append(svg("text", { x: stepX, y: y + 12, "text-anchor": "middle", "font-size": 11,
        fill: "#fff", text: `${plank.step}` }));
      for (let k = 0; k < Math.min(plank.crates, 20); k++) {
        pic.append(svg("rect", { x: x0 + plankWidth - 16 - (k % 5) * 14, y: y + 6 - Math.floor(k / 5) * 12,
          width: 12, height: 12, fill: "#c58b4a", stroke: "#6b4a22" }));
      }
      if (!narrow) {
        pic.append(svg("text", { x: 10, y: y + 40, class: "coord",
          text: `step ${plank.step} of 4 · ${plank.crates} crates` }));
      }
    });
    const controls = html("div", { class: "controls centred" });
    for (const move of legal) {
      controls.append(html("button", { "data-move": move.s, class: "big", text: LABELS[move.s] || move.s,
        onclick: () => ui.step(move.a), disabled: !interactive }));
    }
    const pile = Object.entries(view.unseen).map(([t, n]) => `${TREASURE[t] ? TREASURE[t][1] : t} ${n}`).join(" · ");
    const balance = view.planks.map((p) => (p.balance > 0
      ? `${model.seatName(p.player)} tips with ${p.balance} more` : `${model.seatName(p.player)} has tipped`)).join(" · ");
    root.replaceChildren(html("div", { class: "board-wrap" }, pic, controls,
      html("p", { class: "muted board-note", text: `Weight to spare: ${balance}` }),
      html("p", { class: "muted board-note", text: `Cards left to draw (${view.draw_pile}): ${pile}` }),
      html("p", { class: "muted board-note", text: `Crates in the supply: ${view.supply} of ${view.supply_total}` })));
    if (model.animate && newest) {
      // the card turns over onto the pontoon
      animate(newest, [{ transform: "scaleX(0)", transformOrigin: "center", transformBox: "fill-box" },
        { transform: "scaleX(1)", transformOrigin: "center", transformBox: "fill-box" }]);
    }
  },
};
