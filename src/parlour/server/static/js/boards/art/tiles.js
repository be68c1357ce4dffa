// The pictures of GobbleStones, drawn by the project in SVG: the nine board squares as slabs
// with seams between them, their stone squares (coloured, valued), and the tiles, which stand
// up from the board with a visible edge. defs() holds the gradients, once in each picture.
import { svg } from "../svg.js";

export const ORDER = "RYGBP";
// [tile top, tile edge, stone square, stone shade, number ink]
export const PALETTE = {
  R: ["#e0534c", "#8f2420", "#f4cdca", "#e3a6a1", "#8a2c27"],
  Y: ["#f4c522", "#9a7a06", "#f8ebb0", "#e8d27a", "#7a5f08"],
  G: ["#45ad4f", "#1f6426", "#cde9cd", "#a6d3a7", "#23622a"],
  B: ["#3c7ede", "#1c437f", "#cbdcf5", "#a2bfe8", "#22457e"],
  P: ["#9158bd", "#4f2a6d", "#e1d1ee", "#c6acdc", "#57307a"],
  "?": ["#8c8579", "#4f4a42", "#dedad2", "#c4beb2", "#555"],
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
  const g = svg("g", { class: "stone" });
  const inset = big ? 2.5 : 1.5;
  g.append(svg("rect", { x: x + inset, y: y + inset, width: cell - 2 * inset, height: cell - 2 * inset,
    rx: big ? 6 : 4, fill, stroke: shade, "stroke-width": 1 }));
  g.append(svg("rect", { x: x + inset, y: y + inset, width: cell - 2 * inset, height: cell - 2 * inset,
    rx: big ? 6 : 4, fill: "url(#gob-stone)" }));
  if (centre) {
    g.append(svg("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.38, fill: "none", stroke: ink,
      "stroke-width": big ? 1.8 : 1.3, "stroke-dasharray": big ? "3 3" : "2 2", opacity: 0.8, class: "centre-ring" }));
  }
  if (value) {
    g.append(svg("text", { x: x + cell / 2, y: y + cell / 2 + (big ? 6 : 4.2), "text-anchor": "middle",
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
