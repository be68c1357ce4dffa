// The small picture on each game's card in the lobby, drawn with the same art as the tables.
import { svg } from "../svg.js";
import * as marbles from "./marbles.js";
import * as pirates from "./pirates.js";
import * as tiles from "./tiles.js";

function clobber(pic) {
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 6; c++) {
      pic.append(svg("rect", { x: c * 24, y: r * 24, width: 24, height: 24, fill: (r + c) % 2 ? "#c7a873" : "#eadbb8" }));
      pic.append(svg("circle", { cx: c * 24 + 12, cy: r * 24 + 12, r: 8, fill: (r + c) % 2 ? "#26221d" : "#fbfaf5",
        stroke: "#555" }));
    }
  }
}

function stomple(pic) {
  pic.append(marbles.defs(), marbles.tray(0, 0, 144, 96));
  const layout = ["yrbgcw", "kgyrbg", "wb.0yk", "rckwgy"];
  layout.forEach((row, r) => [...row].forEach((mark, c) => {
    const g = svg("g", { transform: `translate(${c * 22 + 17} ${r * 21 + 16})` });
    g.append(marbles.hole(9));
    if (mark === "0") g.append(marbles.stomper("red", 10.5));
    else if (mark !== ".") g.append(marbles.marble(mark, 8));
    pic.append(g);
  }));
}

function stompThePlank(pic) {
  pic.append(pirates.defs());
  pic.append(svg("rect", { x: 0, y: 0, width: 144, height: 96, rx: 8, fill: "url(#stp-sky)" }));
  pic.append(pirates.sea(144, 62, 96));
  pic.append(svg("path", { d: "M -4 30 L 22 30 Q 24 70 12 84 L -4 84 Z", fill: "url(#stp-hull)" }));
  const plank = svg("g", { transform: "translate(20 44) rotate(5)" });
  plank.append(pirates.plank(118, 6, []));
  for (let k = 0; k < 5; k++) plank.append(pirates.crate(94 + (k % 3) * 8, -Math.floor(k / 3) * 8, 7.5));
  const walker = svg("g", { transform: "translate(42 0)" });
  walker.append(pirates.elephant(pirates.SEAT_COLOURS[0], { scale: 0.6 }));
  plank.append(walker);
  pic.append(plank);
  ["ruby", "coins", "compass"].forEach((t, i) => {
    const card = pirates.card(t, 22, 29, { label: false });
    card.setAttribute("transform", `translate(${62 + i * 25} ${64 + (i % 2)}) rotate(${(i - 1) * 4})`);
    pic.append(card);
  });
}

function gobblestones(pic) {
  pic.append(tiles.defs());
  pic.append(tiles.table(0, 0, 144, 96));
  const letters = "RYGBP";
  for (let s = 0; s < 2; s++) {
    const x0 = 4 + s * 70;
    pic.append(tiles.slab(x0, 4, 66));
    for (let r = 0; r < 5; r++) {
      for (let c = 0; c < 5; c++) {
        const k = (r * 7 + c * 3 + s * 2) % 5;
        pic.append(tiles.stone(x0 + 0.5 + c * 13, 4.5 + r * 13, 13, letters[k], "", {}));
      }
    }
  }
  for (let c = 2; c < 7; c++) {
    const x = 4 + (c < 5 ? 0.5 + c * 13 : 70.5 + (c - 5) * 13);
    const k = (3 * 7 + (c % 5) * 3 + (c < 5 ? 0 : 2)) % 5;
    pic.append(tiles.tile(x, 4.5 + 3 * 13, 13, letters[k]));
  }
  pic.append(svg("rect", { x: 4, y: 74, width: 136, height: 18, rx: 4, fill: "#6b4a2b" }));
  [..."RGGBY"].forEach((l, i) => pic.append(tiles.tile(36 + i * 15, 75, 15, l)));
}

const DRAW = { clobber, stomple, "stomp-the-plank": stompThePlank, gobblestones };

export function cover(game) {
  const pic = svg("svg", { viewBox: "0 0 144 96", class: "pic", "aria-hidden": "true", focusable: "false" });
  (DRAW[game] || (() => {}))(pic);
  return pic;
}
