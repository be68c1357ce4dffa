// The pictures of GobbleStones, drawn by the project in SVG: the nine board squares as slabs
// with seams between them, their stone squares, and the tiles, which stand up from the board
// with a visible edge. defs() holds the gradients and weaves, once in each picture.
// The board reads as a patchwork (issue 65): each stone square is a full, clear colour with its
// value in a white disc (dark ink on white, whatever the colour), and each colour has its own
// weave over the square (stripes, dots, lines, checks, plain), so that no colour is told by its
// hue alone.
import { svg } from "../svg.js";

export const ORDER = "RYGBP";
// [tile top, tile edge, stone square, stone shade, number ink]
export const PALETTE = {
  R: ["#e0534c", "#8f2420", "#ee9089", "#c9645d", "#8a2c27"],
  Y: ["#f4c522", "#9a7a06", "#f4d561", "#c9a630", "#6e5507"],
  G: ["#45ad4f", "#1f6426", "#86c98b", "#55a05b", "#1f5a25"],
  B: ["#3c7ede", "#1c437f", "#88aeea", "#5a86cc", "#1f3f74"],
  P: ["#9158bd", "#4f2a6d", "#bb98d9", "#8f69b3", "#4f2b70"],
  "?": ["#8c8579", "#4f4a42", "#dedad2", "#c4beb2", "#555"],
};

// each colour's weave over its squares: [pattern content, drawn in white]
const WEAVE = {
  R: (s) => [svg("path", { d: `M0 ${s}L${s} 0`, stroke: "#fff", "stroke-width": 1.6 })],  // stripes
  Y: () => [],                                                                             // plain
  G: (s) => [svg("circle", { cx: s / 2, cy: s / 2, r: 1.1, fill: "#fff" })],               // dots
  B: (s) => [svg("path", { d: `M0 ${s / 2}H${s}`, stroke: "#fff", "stroke-width": 1.4 })], // lines
  P: (s) => [svg("rect", { width: s / 2, height: s / 2, fill: "#fff" }),                   // checks
    svg("rect", { x: s / 2, y: s / 2, width: s / 2, height: s / 2, fill: "#fff" })],
};

export function defs() {
  const d = svg("defs", {});
  for (const [letter, [top, edge]] of Object.entries(PALETTE)) {
    const id = letter === "?" ? "q" : letter;
    d.append(svg("linearGradient", { id: `gob-tile-${id}`, x1: 0, y1: 0, x2: 0.6, y2: 1 },
      svg("stop", { offset: "0%", "stop-color": "#fff", "stop-opacity": 0.55 }),
      svg("stop", { offset: "18%", "stop-color": top }),
      svg("stop", { offset: "100%", "stop-color": mix(top, edge, 0.35) })));
  }
  for (const [letter, weave] of Object.entries(WEAVE)) {
    const side = 6;
    d.append(svg("pattern", { id: `gob-weave-${letter}`, width: side, height: side, patternUnits: "userSpaceOnUse" },
      ...weave(side)));
  }
  d.append(svg("radialGradient", { id: "gob-stone", cx: "40%", cy: "35%", r: "75%" },
    svg("stop", { offset: "0%", "stop-color": "#fff", "stop-opacity": 0.5 }),
    svg("stop", { offset: "100%", "stop-color": "#fff", "stop-opacity": 0 })));
  d.append(svg("linearGradient", { id: "gob-table", x1: 0, y1: 0, x2: 1, y2: 1 },
    svg("stop", { offset: "0%", "stop-color": "#4b3a2a" }),
    svg("stop", { offset: "100%", "stop-color": "#2f241a" })));
  d.append(svg("pattern", { id: "gob-back", width: 8, height: 8, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)" },
  svg("rect", { width: 8, height: 8, fill: "#5d554a" }),
  svg("path", { d: "M0 0H8", stroke: "#7a7163", "stroke-width": 3 })));
  return d;
}

function mix(a, b, t) {
  const p = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const [x, y] = [p(a), p(b)];
  return `#${x.map((v, i) => Math.round(v + (y[i] - v) * t).toString(16).padStart(2, "0")).join("")}`;
}

// The table under the board, and a board square's slab (x, y, side).
export function table(x, y, w, h) {
  return svg("rect", { x, y, width: w, height: h, rx: 10, fill: "url(#gob-table)", "aria-hidden": "true" });
}

export function slab(x, y, side) {
  return svg("g", { "aria-hidden": "true" },
    svg("rect", { x: x + 1.5, y: y + 2.5, width: side, height: side, rx: 5, fill: "#000", opacity: 0.45 }),
    svg("rect", { x, y, width: side, height: side, rx: 5, fill: "#efe6d4" }),
    svg("rect", { x: x + 0.5, y: y + 0.5, width: side - 1, height: side - 1, rx: 5, fill: "none", stroke: "#fff",
      "stroke-opacity": 0.7, "stroke-width": 1 }));
}

// A stone square: its colour, its value (blank while still unknown) and, for a board square's
// centre, the ring that the first play must cover.
export function stone(x, y, cell, letter, value, { centre = false, big = false } = {}) {
  const [, , fill, shade, ink] = PALETTE[letter] || PALETTE["?"];
  const g = svg("g", { class: "stone", "data-colour": letter });
  const inset = big ? 2 : 1;
  const side = cell - 2 * inset;
  const corner = big ? 5 : 3;
  g.append(svg("rect", { x: x + inset, y: y + inset, width: side, height: side, rx: corner, fill,
    stroke: shade, "stroke-width": 1.2 }));
  if (WEAVE[letter]) {
    g.append(svg("rect", { x: x + inset, y: y + inset, width: side, height: side, rx: corner,
      fill: `url(#gob-weave-${letter})`, opacity: 0.3, class: "weave" }));
  }
  g.append(svg("rect", { x: x + inset, y: y + inset, width: side, height: side, rx: corner,
    fill: "url(#gob-stone)" }));
  const cx = x + cell / 2;
  const cy = y + cell / 2;
  if (value || centre) {  // the value on a white disc: dark ink on white, on every colour
    g.append(svg("circle", { cx, cy, r: cell * 0.27, fill: "#fff", stroke: shade, "stroke-width": 1,
      class: "value-disc" }));
  }
  if (centre) {
    g.append(svg("circle", { cx, cy, r: cell * 0.38, fill: "none", stroke: ink,
      "stroke-width": big ? 2.2 : 1.6, "stroke-dasharray": big ? "4 3" : "2.5 2", class: "centre-ring" }));
  }
  if (value) {
    g.append(svg("text", { x: cx, y: cy + (big ? 6 : 4.2), "text-anchor": "middle",
      class: big ? "stone-value big" : "stone-value", fill: ink, text: value }));
  }
  return g;
}

// A tile standing on a square: an edge under a bevelled top face. ``letter`` is its colour
// (upper case), or "?" for a face-down tile of someone else; ``faceDown`` marks the mover's own
// face-down tiles; ``lifted`` is a tile of the play being made (not laid yet).
export function tile(x, y, cell, letter, { faceDown = false, lifted = false } = {}) {
  const key = (letter || "?").toUpperCase();
  const [top, edge] = PALETTE[key] || PALETTE["?"];
  const g = svg("g", { "data-tile": letter, class: lifted ? "tile lifted" : "tile" });
  const m = Math.max(2, cell * 0.08);
  const depth = Math.max(2.5, cell * 0.09);
  const w = cell - 2 * m;
  const lift = lifted ? depth * 0.8 : 0;
  const r = Math.max(3, cell * 0.14);
  g.append(svg("rect", { x: x + m + 1, y: y + m + depth + 1, width: w, height: w - depth, rx: r, fill: "#000",
    opacity: lifted ? 0.35 : 0.28 }));
  g.append(svg("rect", { x: x + m, y: y + m + depth - lift, width: w, height: w - depth, rx: r, fill: edge }));
  const face = key === "?" ? "url(#gob-back)" : `url(#gob-tile-${key})`;
  g.append(svg("rect", { x: x + m, y: y + m - lift, width: w, height: w - depth, rx: r, fill: face,
    stroke: lifted ? "#111" : edge, "stroke-width": lifted ? 2 : 0.8, "stroke-dasharray": lifted ? "4 3" : null }));
  if (WEAVE[key]) {  // the colour's weave on the tile too, as on its squares and in the rack
    g.append(svg("rect", { x: x + m, y: y + m - lift, width: w, height: w - depth, rx: r,
      fill: `url(#gob-weave-${key})`, opacity: 0.22, class: "weave" }));
  }
  if (key !== "?") {
    g.append(svg("rect", { x: x + m + 2, y: y + m + 1.5 - lift, width: w - 4, height: Math.max(1.5, cell * 0.05), rx: 1,
      fill: "#fff", opacity: 0.45 }));
    g.append(svg("circle", { cx: x + cell / 2, cy: y + m - lift + (w - depth) / 2, r: w * 0.18, fill: "none",
      stroke: edge, "stroke-width": 1, opacity: 0.45 }));
  }
  if (key === "?" || faceDown) {
    g.append(svg("text", { x: x + cell / 2, y: y + m - lift + (w - depth) / 2 + cell * 0.15, "text-anchor": "middle",
      class: "tile-mark", "font-size": Math.round(cell * 0.4), text: key === "?" ? "?" : "▾" }));
  }
  return g;
}
