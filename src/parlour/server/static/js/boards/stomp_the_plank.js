// Stomp the Plank: the pontoon of treasure cards, each player's plank and elephant, and the
// two choices, draw or stop. Everything in this game is public; the draw pile shows as counts.
import { canvas, html, svg } from "./svg.js";

const TREASURE = {
  coins: ["#e0b43a", "Coins"], ruby: ["#c2334b", "Ruby"], map: ["#c9a46b", "Map"],
  compass: ["#3f7fbf", "Compass"], sword: ["#8c96a3", "Sword"], hook: ["#5b5b5b", "Hook"],
  spyglass: ["#7a5230", "Spyglass"],
};
const CARD_W = 92;
const CARD_H = 120;

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
  render(root, model, ui) {
    const { view, legal, interactive } = model;
    const spots = view.spots;
    const width = Math.max(spots * CARD_W + 40, 560);
    const plankRows = view.planks.length;
    const height = CARD_H + 50 + plankRows * 54;
    const pic = canvas(width, height, "Stomp the Plank table");
    // pontoon
    pic.append(svg("rect", { x: 10, y: 20, width: spots * CARD_W + 10, height: CARD_H,
      rx: 10, fill: "#7fa9c9" }));
    for (let i = 0; i < spots; i++) {
      const x = 20 + i * CARD_W;
      const prize = i < view.crates.length ? `${view.crates[i]} crates` : "wins!";
      pic.append(svg("text", { x: x + (CARD_W - 10) / 2, y: 14, "text-anchor": "middle",
        class: "coord", text: `${i + 1}: ${prize}` }));
      if (i < view.pontoon.length) {
        const placed = card(x, 30, view.pontoon[i]);
        if (i === view.pontoon.length - 1) placed.setAttribute("data-last", "1");
        pic.append(placed);
      } else {
        pic.append(svg("rect", { x, y: 30, width: CARD_W - 10, height: CARD_H - 30, rx: 8,
          fill: "none", stroke: "#e8f1f8", "stroke-dasharray": "6 4", "stroke-width": 2 }));
      }
    }
    // planks: elephant on step 0..4 walking toward the water; crates loaded at the far end
    view.planks.forEach((plank, i) => {
      const y = CARD_H + 50 + i * 54;
      const active = view.active === plank.player;
      pic.append(svg("text", { x: 10, y: y + 18, "font-weight": active ? 700 : 400,
        text: model.seatName(plank.player) }));
      const x0 = 120;
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
      pic.append(svg("text", { x: x0, y: y + 46, class: "coord",
        text: `step ${plank.step} of 4 · ${plank.crates} crates · ${plank.balance} more weight tips it` }));
    });
    const controls = html("div", { class: "controls", style: "justify-content:center;margin-top:.5rem" });
    for (const move of legal) {
      controls.append(html("button", { "data-move": move.s, text: move.s === "draw" ? "Draw a card" : move.s === "stop" ? "Stop" : move.s,
        onclick: () => ui.step(move.a), disabled: !interactive }));
    }
    const pile = Object.entries(view.unseen).map(([t, n]) => `${TREASURE[t] ? TREASURE[t][1] : t} ${n}`).join(" · ");
    root.replaceChildren(html("div", {}, pic, controls,
      html("p", { class: "muted", text: `Draw pile ${view.draw_pile}: ${pile}` }),
      html("p", { class: "muted", text: `Crate supply ${view.supply} of ${view.supply_total} · turn ${view.turn}` })));
  },
};
