// The pictures of Stomp the Plank, drawn by the project in SVG: the pirate ship, its planks,
// the elephant pirates, the crates and the seven treasure cards (and their back).
// Every function returns an SVG element drawn around (0, 0) unless it says otherwise; the
// gradients they use are in defs(), which each picture of the game holds once.
import { svg } from "../svg.js";
import { t } from "../../i18n.js";

// The treasures, in the game's order, with the colours of their card.
export const TREASURES = {
  coins: { name: t("Coins"), frame: "#c9961a", tint: "#fff4cf" },
  ruby: { name: t("Ruby"), frame: "#b3203f", tint: "#fde3e8" },
  map: { name: t("Map"), frame: "#9b6b35", tint: "#f6ead2" },
  compass: { name: t("Compass"), frame: "#2f7f83", tint: "#dff1ef" },
  sword: { name: t("Sword"), frame: "#5d6b7a", tint: "#e6ebf0" },
  hook: { name: t("Hook"), frame: "#3d3a37", tint: "#ebe7e1" },
  spyglass: { name: t("Spyglass"), frame: "#8a5a2b", tint: "#f3e4d2" },
};

// The elephants' scarves, one colour a seat (the players list names them: "Ada (red)").
export const SEAT_COLOURS = [
  { word: "red", fill: "#c8372d", dark: "#86211a" },
  { word: "blue", fill: "#2f6fc0", dark: "#1c4479" },
  { word: "green", fill: "#2f8f4e", dark: "#1b5a30" },
  { word: "orange", fill: "#e08a1e", dark: "#98570c" },
];

function stops(...pairs) {
  return pairs.map(([offset, colour]) => svg("stop", { offset, "stop-color": colour }));
}

function linear(id, x2, y2, ...pairs) {
  return svg("linearGradient", { id, x1: 0, y1: 0, x2, y2 }, ...stops(...pairs));
}

export function defs() {
  return svg("defs", {},
    linear("stp-sky", 0, 1, ["0%", "#bfe1f2"], ["100%", "#f3ead2"]),
    linear("stp-sea", 0, 1, ["0%", "#3d8fb3"], ["100%", "#1d5876"]),
    linear("stp-hull", 0, 1, ["0%", "#8a5630"], ["55%", "#6a3f22"], ["100%", "#3f2414"]),
    linear("stp-wood", 0, 1, ["0%", "#d9a561"], ["50%", "#b57d3f"], ["100%", "#8a5a2b"]),
    linear("stp-raft", 0, 1, ["0%", "#c99457"], ["100%", "#93602f"]),
    linear("stp-sail", 1, 0, ["0%", "#f7f0dd"], ["100%", "#ddd0b0"]),
    linear("stp-crate", 0, 1, ["0%", "#e0ac62"], ["100%", "#b07534"]),
    svg("radialGradient", { id: "stp-hide", cx: "40%", cy: "35%", r: "70%" },
      ...stops(["0%", "#b9c0c8"], ["70%", "#8d959e"], ["100%", "#6b727b"])),
    linear("stp-gold", 0, 1, ["0%", "#fff1a8"], ["45%", "#f0c23b"], ["100%", "#b8860b"]),
    linear("stp-ruby", 0, 1, ["0%", "#ff7a98"], ["50%", "#d61f4b"], ["100%", "#7d0a26"]),
    linear("stp-steel", 0, 1, ["0%", "#f4f7fa"], ["50%", "#b8c2cc"], ["100%", "#7b8794"]),
    linear("stp-brass", 0, 1, ["0%", "#f6dc8a"], ["50%", "#c89b3c"], ["100%", "#87631d"]),
    linear("stp-parchment", 1, 1, ["0%", "#fbf0d0"], ["100%", "#e2c98f"]),
    svg("pattern", { id: "stp-lattice", width: 10, height: 10, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(45)" },
    svg("path", { d: "M0 0H10M0 0V10", stroke: "#2c4f7a", "stroke-width": 2 })));
}

// -- the ship ----------------------------------------------------------------------------------
// A pirate ship seen from the side, centred on x = cx, its deck at y = deck, its keel at keel.
export function ship(cx, halfWidth, deck, keel, mastTop) {
  const g = svg("g", { class: "ship", "aria-hidden": "true" });
  const w = halfWidth;
  // masts, sails and the flag
  g.append(svg("rect", { x: cx - 3, y: mastTop, width: 6, height: deck - mastTop, fill: "#5b361c" }));
  const sailTop = mastTop + 16;
  const sailBottom = deck - 14;
  const sailW = Math.min(w * 0.85, 70);
  g.append(svg("path", {
    d: `M ${cx - sailW} ${sailTop} Q ${cx} ${sailTop + 10} ${cx + sailW} ${sailTop} ` +
      `Q ${cx + sailW * 0.8} ${(sailTop + sailBottom) / 2} ${cx + sailW} ${sailBottom} ` +
      `Q ${cx} ${sailBottom + 10} ${cx - sailW} ${sailBottom} ` +
      `Q ${cx - sailW * 0.8} ${(sailTop + sailBottom) / 2} ${cx - sailW} ${sailTop} Z`,
    fill: "url(#stp-sail)", stroke: "#a9987a", "stroke-width": 1.5 }));
  g.append(svg("rect", { x: cx - sailW - 4, y: sailTop - 4, width: 2 * sailW + 8, height: 5, rx: 2, fill: "#5b361c" }));
  // the jolly roger: a black flag with a white elephant's head
  const fy = mastTop - 2;
  g.append(svg("path", { d: `M ${cx + 3} ${fy} h 30 q -6 9 0 18 h -30 Z`, fill: "#1f1b18" }));
  g.append(svg("circle", { cx: cx + 17, cy: fy + 8, r: 4.5, fill: "#f3eee2" }));
  g.append(svg("path", { d: `M ${cx + 20} ${fy + 10} q 4 3 1 7`, stroke: "#f3eee2", "stroke-width": 2.2,
    fill: "none", "stroke-linecap": "round" }));
  g.append(svg("ellipse", { cx: cx + 13, cy: fy + 8, rx: 3, ry: 4, fill: "#f3eee2" }));
  // the hull: a deep bowl with a raised stern and bow
  const d = `M ${cx - w - 14} ${deck - 18} L ${cx - w + 6} ${deck - 6} L ${cx + w - 6} ${deck - 6} ` +
    `L ${cx + w + 14} ${deck - 18} Q ${cx + w + 4} ${keel - 10} ${cx + w * 0.55} ${keel} ` +
    `L ${cx - w * 0.55} ${keel} Q ${cx - w - 4} ${keel - 10} ${cx - w - 14} ${deck - 18} Z`;
  g.append(svg("path", { d, fill: "url(#stp-hull)", stroke: "#2e1a0e", "stroke-width": 2 }));
  // the wales (dark bands) and the rail
  for (let k = 1; k <= 3; k++) {
    const y = deck + (keel - deck) * (k / 4);
    const inset = 10 + k * k * 2.2;
    g.append(svg("path", { d: `M ${cx - w - 8 + inset} ${y} Q ${cx} ${y + 6} ${cx + w + 8 - inset} ${y}`,
      stroke: "#3a2112", "stroke-width": 2, fill: "none", opacity: 0.7 }));
  }
  g.append(svg("path", { d: `M ${cx - w - 14} ${deck - 18} L ${cx - w + 6} ${deck - 6} L ${cx + w - 6} ${deck - 6} L ${cx + w + 14} ${deck - 18}`,
    stroke: "#d9a948", "stroke-width": 3, fill: "none", "stroke-linejoin": "round" }));
  // the stern: a row of lit windows under the rail, a carved board, and the rudder
  const panes = w > 60 ? 4 : 2;
  const paneW = (w * 1.3) / panes - 4;
  for (let k = 0; k < panes; k++) {
    const x = cx - w * 0.65 + k * (paneW + 4) + 2;
    g.append(svg("rect", { x, y: deck + 2, width: paneW, height: Math.min(16, paneW * 0.9), rx: 3, fill: "#ffd98a",
      stroke: "#3a2112", "stroke-width": 2 }));
    g.append(svg("path", { d: `M ${x + paneW / 2} ${deck + 2} v ${Math.min(16, paneW * 0.9)}`, stroke: "#3a2112",
      "stroke-width": 1.2 }));
  }
  g.append(svg("path", { d: `M ${cx - w * 0.7} ${deck + 24} Q ${cx} ${deck + 32} ${cx + w * 0.7} ${deck + 24}`,
    stroke: "#d9a948", "stroke-width": 2.5, fill: "none" }));
  g.append(svg("path", { d: `M ${cx - 5} ${deck + 34} L ${cx + 5} ${deck + 34} L ${cx + 7} ${keel} L ${cx - 7} ${keel} Z`,
    fill: "#3f2414", stroke: "#2a170b", "stroke-width": 1 }));
  return g;
}

// A gun-port-like slot where a plank leaves the hull (x: the hull's side, y: the plank's top).
export function slot(x, y, side) {
  return svg("rect", { x: side > 0 ? x - 10 : x, y: y - 4, width: 10, height: 18, rx: 2, fill: "#24140a",
    "aria-hidden": "true" });
}

// The sea: a band of water from y to bottom, with a line of waves on top.
export function sea(width, y, bottom) {
  const g = svg("g", { "aria-hidden": "true" });
  g.append(svg("rect", { x: 0, y, width, height: bottom - y, fill: "url(#stp-sea)" }));
  let d = `M 0 ${y}`;
  for (let x = 0; x < width; x += 24) d += ` q 6 -5 12 0 q 6 5 12 0`;
  g.append(svg("path", { d: `${d} V ${y + 8} H 0 Z`, fill: "#5aa6c6", opacity: 0.9 }));
  for (let x = 30, k = 0; x < width; x += 70, k++) {
    const yy = y + 22 + (k % 3) * 14;
    if (yy > bottom - 6) continue;
    g.append(svg("path", { d: `M ${x} ${yy} q 5 -4 10 0 q 5 4 10 0`, stroke: "#9fd0e3",
      "stroke-width": 1.5, fill: "none", opacity: 0.7 }));
  }
  return g;
}

// -- a plank and what stands on it --------------------------------------------------------------
// A plank of ``length`` from (0, 0) toward +x, ``thick`` deep, with its step marks at ``marks``.
export function plank(length, thick, marks) {
  const g = svg("g", {});
  g.append(svg("rect", { x: 0, y: 0, width: length, height: thick, rx: 2, fill: "url(#stp-wood)",
    stroke: "#5e3b1a", "stroke-width": 1.2 }));
  g.append(svg("path", { d: `M 4 ${thick * 0.45} H ${length - 6}`, stroke: "#8a5a2b", "stroke-width": 0.8,
    opacity: 0.6 }));
  for (const x of marks) {
    g.append(svg("circle", { cx: x, cy: thick / 2, r: 1.4, fill: "#4a2d12" }));
  }
  return g;
}

// A wooden crate of side s, its bottom-left corner at (x, y - s).
export function crate(x, y, s) {
  const top = y - s;
  return svg("g", { class: "crate" },
    svg("rect", { x, y: top, width: s, height: s, rx: 1, fill: "url(#stp-crate)", stroke: "#6b4520",
      "stroke-width": 1 }),
    svg("path", { d: `M ${x + 1.5} ${top + 1.5} L ${x + s - 1.5} ${y - 1.5} M ${x} ${top + s / 2} H ${x + s}`,
      stroke: "#7d5227", "stroke-width": Math.max(0.8, s / 12), fill: "none" }),
    svg("rect", { x: x + 0.5, y: top + 0.5, width: s - 1, height: s * 0.16, fill: "#f1c98a", opacity: 0.55 }));
}

// An elephant pirate facing +x with its feet at (0, 0): grey hide, a scarf in its seat's colour
// tied round its head and a sash to match, an eye patch. ``flip`` faces it the other way.
export function elephant(colour, { flip = false, scale = 1 } = {}) {
  const { fill, dark } = colour;
  const g = svg("g", { transform: `scale(${flip ? -scale : scale} ${scale})`, class: "elephant-body" });
  g.append(svg("ellipse", { cx: 0, cy: 0, rx: 21, ry: 3, fill: "#000", opacity: 0.22 }));
  g.append(svg("path", { d: "M -19 -25 q -8 2 -9 11", stroke: "#6d757e", "stroke-width": 2.5, fill: "none",
    "stroke-linecap": "round" }));
  g.append(svg("circle", { cx: -28, cy: -13, r: 2.6, fill: "#4b5259" }));
  for (const x of [-17, 5]) {
    g.append(svg("rect", { x, y: -15, width: 9, height: 15, rx: 3, fill: "#737b84" }));
  }
  g.append(svg("ellipse", { cx: -1, cy: -23, rx: 21, ry: 14.5, fill: "url(#stp-hide)", stroke: "#5c636b",
    "stroke-width": 1 }));
  // the sash
  g.append(svg("path", { d: "M -6 -37.2 L 3 -36.6 L -7 -8.8 L -16 -10.4 Z", fill, stroke: dark, "stroke-width": 0.8 }));
  for (const x of [-12, 9]) {
    g.append(svg("rect", { x, y: -14, width: 9, height: 14, rx: 3, fill: "url(#stp-hide)", stroke: "#5c636b",
      "stroke-width": 0.8 }));
    g.append(svg("path", { d: `M ${x + 1.5} -1.2 h 6`, stroke: "#efe6d2", "stroke-width": 1.6,
      "stroke-linecap": "round" }));
  }
  // the ear, the head, the trunk and a tusk
  g.append(svg("ellipse", { cx: 9, cy: -33, rx: 9, ry: 12, fill: "#7d858e", stroke: "#5c636b", "stroke-width": 1 }));
  g.append(svg("ellipse", { cx: 9.5, cy: -32, rx: 5.5, ry: 8.5, fill: "#d79aa2" }));
  g.append(svg("circle", { cx: 18, cy: -34, r: 11, fill: "url(#stp-hide)", stroke: "#5c636b", "stroke-width": 1 }));
  g.append(svg("ellipse", { cx: 9.5, cy: -33, rx: 6.5, ry: 10, fill: "#858d96", stroke: "#5c636b", "stroke-width": 0.8 }));
  g.append(svg("path", { d: "M 26 -30 C 34 -26 34 -15 30 -9 C 28 -6 31 -3 34 -5", stroke: "#8b939c",
    "stroke-width": 6, fill: "none", "stroke-linecap": "round" }));
  g.append(svg("path", { d: "M 26 -30 C 34 -26 34 -15 30 -9", stroke: "#5c636b", "stroke-width": 0.8,
    fill: "none", transform: "translate(2.6 0.6)", opacity: 0.6 }));
  g.append(svg("path", { d: "M 24 -24.5 q 5 2.5 8 -1", stroke: "#f7f0dc", "stroke-width": 2.6, fill: "none",
    "stroke-linecap": "round" }));
  // the eye patch and its strap
  g.append(svg("path", { d: "M 10 -41 L 27 -31", stroke: "#1b1714", "stroke-width": 1.4 }));
  g.append(svg("ellipse", { cx: 21, cy: -35, rx: 3.6, ry: 3.1, fill: "#1b1714" }));
  // the scarf: over the top of the head, knotted behind with two tails
  g.append(svg("path", { d: "M 6.5 -36 A 11.6 11.6 0 0 1 29.4 -37 Q 18 -41.5 6.5 -36 Z", fill, stroke: dark,
    "stroke-width": 0.8 }));
  g.append(svg("path", { d: "M 8 -39 l -10 -4 l 2.5 6 Z M 8 -38 l -9 3.5 l 4.5 2.5 Z", fill, stroke: dark,
    "stroke-width": 0.8 }));
  g.append(svg("circle", { cx: 14, cy: -42.2, r: 1.1, fill: "#fff", opacity: 0.85 }));
  g.append(svg("circle", { cx: 21, cy: -43, r: 1.1, fill: "#fff", opacity: 0.85 }));
  return g;
}

// White water where an elephant went in, centred on (0, 0) at the surface.
export function splash() {
  const g = svg("g", { "aria-hidden": "true" });
  g.append(svg("ellipse", { cx: 0, cy: 2, rx: 30, ry: 6, fill: "#d8f0f8", opacity: 0.9 }));
  for (const [x, h] of [[-18, 14], [-8, 22], [4, 26], [15, 18], [24, 10]]) {
    g.append(svg("path", { d: `M ${x - 4} 2 Q ${x} ${-h} ${x + 4} 2 Z`, fill: "#e9f7fb", opacity: 0.9 }));
  }
  for (const [x, y] of [[-24, -16], [-2, -30], [20, -24], [30, -8]]) {
    g.append(svg("circle", { cx: x, cy: y, r: 2.2, fill: "#e9f7fb" }));
  }
  return g;
}

// -- the treasure cards -------------------------------------------------------------------------
// Each picture is drawn in a 60 x 60 box centred on (0, 0).
const PICTURES = {
  coins(g) {
    for (const [x, y] of [[-14, 16], [-14, 10], [-14, 4], [10, 18], [10, 12]]) {
      g.append(svg("ellipse", { cx: x, cy: y + 3, rx: 13, ry: 4.5, fill: "#a87a0c" }));
      g.append(svg("ellipse", { cx: x, cy: y, rx: 13, ry: 4.5, fill: "url(#stp-gold)", stroke: "#9a6f08",
        "stroke-width": 0.8 }));
    }
    g.append(svg("circle", { cx: 2, cy: -8, r: 15, fill: "url(#stp-gold)", stroke: "#9a6f08", "stroke-width": 1.4 }));
    g.append(svg("circle", { cx: 2, cy: -8, r: 11, fill: "none", stroke: "#b8860b", "stroke-width": 1 }));
    g.append(svg("path", { d: "M 2 -16 l 2.4 5 5.4 .6 -4 3.7 1.1 5.3 -4.9 -2.7 -4.9 2.7 1.1 -5.3 -4 -3.7 5.4 -.6 Z",
      fill: "#b8860b" }));
    g.append(svg("path", { d: "M -8 -17 a 13 13 0 0 1 8 -5", stroke: "#fff8cf", "stroke-width": 2, fill: "none",
      "stroke-linecap": "round" }));
  },
  ruby(g) {
    g.append(svg("path", { d: "M -20 -8 L -11 -20 L 11 -20 L 20 -8 L 0 22 Z", fill: "url(#stp-ruby)",
      stroke: "#6b0820", "stroke-width": 1.4, "stroke-linejoin": "round" }));
    g.append(svg("path", { d: "M -20 -8 H 20 M -11 -20 L -6 -8 L 0 -20 L 6 -8 L 11 -20 M -6 -8 L 0 22 L 6 -8",
      stroke: "#7d0a26", "stroke-width": 0.9, fill: "none", opacity: 0.8 }));
    g.append(svg("path", { d: "M -11 -20 L -6 -8 L -20 -8 Z", fill: "#ff9fb3", opacity: 0.6 }));
    g.append(svg("path", { d: "M 14 -24 l 1.5 4 4 1.5 -4 1.5 -1.5 4 -1.5 -4 -4 -1.5 4 -1.5 Z", fill: "#fff" }));
  },
  map(g) {
    g.append(svg("path", { d: "M -22 -18 Q -10 -22 0 -18 Q 10 -14 22 -18 L 22 18 Q 10 22 0 18 Q -10 14 -22 18 Z",
      fill: "url(#stp-parchment)", stroke: "#8a6a3a", "stroke-width": 1.2 }));
    g.append(svg("path", { d: "M -7 -19 V 17 M 8 -16 V 20", stroke: "#c7a86e", "stroke-width": 0.8 }));
    g.append(svg("path", { d: "M -17 -10 q 5 -4 9 0 q 2 4 -3 6 q -6 1 -6 -6 Z", fill: "#9fbf7a", opacity: 0.9 }));
    g.append(svg("path", { d: "M -14 10 Q -6 0 2 6 T 12 -4", stroke: "#b3261e", "stroke-width": 1.6,
      "stroke-dasharray": "3 2.5", fill: "none" }));
    g.append(svg("path", { d: "M 10 -9 l 6 6 M 16 -9 l -6 6", stroke: "#b3261e", "stroke-width": 2.4,
      "stroke-linecap": "round" }));
  },
  compass(g) {
    g.append(svg("circle", { r: 21, fill: "url(#stp-brass)", stroke: "#6d4f14", "stroke-width": 1.2 }));
    g.append(svg("circle", { r: 16.5, fill: "#fbf7ec", stroke: "#6d4f14", "stroke-width": 0.8 }));
    for (let k = 0; k < 16; k++) {
      const a = (k * Math.PI) / 8;
      const r1 = k % 4 === 0 ? 12.5 : 14.5;
      g.append(svg("line", { x1: Math.sin(a) * r1, y1: -Math.cos(a) * r1, x2: Math.sin(a) * 16,
        y2: -Math.cos(a) * 16, stroke: "#6d4f14", "stroke-width": k % 4 === 0 ? 1.2 : 0.6 }));
    }
    g.append(svg("path", { d: "M 0 -13 L 4 0 L -4 0 Z", fill: "#c0392b", transform: "rotate(25)" }));
    g.append(svg("path", { d: "M 0 13 L 4 0 L -4 0 Z", fill: "#2b2f33", transform: "rotate(25)" }));
    g.append(svg("circle", { r: 2, fill: "#6d4f14" }));
    g.append(svg("rect", { x: -3, y: -26, width: 6, height: 5, rx: 1.5, fill: "url(#stp-brass)", stroke: "#6d4f14",
      "stroke-width": 0.8 }));
  },
  sword(g) {
    const blade = svg("g", { transform: "rotate(-40)" });
    blade.append(svg("path", { d: "M -3 -6 L -3 -30 Q 0 -34 6 -31 Q 4 -18 3 -6 Z", fill: "url(#stp-steel)",
      stroke: "#56606b", "stroke-width": 1 }));
    blade.append(svg("path", { d: "M 0 -8 L 0 -28", stroke: "#fff", "stroke-width": 0.8, opacity: 0.8 }));
    blade.append(svg("rect", { x: -10, y: -7, width: 20, height: 4, rx: 2, fill: "url(#stp-brass)", stroke: "#6d4f14",
      "stroke-width": 0.8 }));
    blade.append(svg("path", { d: "M 9 -5 Q 13 6 4 14", stroke: "#c89b3c", "stroke-width": 2, fill: "none" }));
    blade.append(svg("rect", { x: -2.5, y: -3, width: 5, height: 15, rx: 2, fill: "#6b3f1f" }));
    blade.append(svg("path", { d: "M -2.5 1 h 5 M -2.5 5 h 5 M -2.5 9 h 5", stroke: "#3f2411", "stroke-width": 0.8 }));
    blade.append(svg("circle", { cx: 0, cy: 14, r: 3, fill: "url(#stp-brass)", stroke: "#6d4f14", "stroke-width": 0.8 }));
    g.append(blade);
  },
  hook(g) {
    g.append(svg("path", { d: "M 2 -4 L 2 -12 Q 2 -24 -8 -24 Q -17 -24 -17 -15 Q -17 -9 -11 -8", stroke: "#5f6a75",
      "stroke-width": 6.5, fill: "none", "stroke-linecap": "round" }));
    g.append(svg("path", { d: "M 2 -4 L 2 -12 Q 2 -24 -8 -24 Q -17 -24 -17 -15 Q -17 -9 -11 -8",
      stroke: "url(#stp-steel)", "stroke-width": 4, fill: "none", "stroke-linecap": "round" }));
    g.append(svg("path", { d: "M -11 -8 l -4 -3", stroke: "#5f6a75", "stroke-width": 2, "stroke-linecap": "round" }));
    g.append(svg("path", { d: "M -10 -4 H 14 L 18 22 H -14 Z", fill: "#7a4a25", stroke: "#4a2c14", "stroke-width": 1.2,
      "stroke-linejoin": "round" }));
    g.append(svg("rect", { x: -11, y: -6, width: 26, height: 5, rx: 2, fill: "url(#stp-steel)", stroke: "#56606b",
      "stroke-width": 0.8 }));
    for (const [x, y] of [[-6, 8], [6, 8], [-8, 16], [10, 16]]) {
      g.append(svg("circle", { cx: x, cy: y, r: 1.5, fill: "url(#stp-brass)" }));
    }
  },
  spyglass(g) {
    const t = svg("g", { transform: "rotate(-30)" });
    t.append(svg("rect", { x: -26, y: -5, width: 20, height: 10, rx: 2, fill: "#6b3f1f", stroke: "#3f2411", "stroke-width": 1 }));
    t.append(svg("rect", { x: -8, y: -6.5, width: 18, height: 13, rx: 2, fill: "url(#stp-brass)", stroke: "#6d4f14", "stroke-width": 1 }));
    t.append(svg("rect", { x: 8, y: -8, width: 16, height: 16, rx: 2, fill: "url(#stp-brass)", stroke: "#6d4f14", "stroke-width": 1 }));
    t.append(svg("rect", { x: 22, y: -9, width: 4, height: 18, rx: 1.5, fill: "#87631d" }));
    t.append(svg("ellipse", { cx: 26, cy: 0, rx: 1.6, ry: 7, fill: "#bfe6f3" }));
    t.append(svg("path", { d: "M -6 -6.5 v 13 M 10 -8 v 16", stroke: "#87631d", "stroke-width": 1.2 }));
    t.append(svg("path", { d: "M -4 -3.5 H 6 M 11 -5 H 20", stroke: "#fff6d0", "stroke-width": 1.2, opacity: 0.8 }));
    g.append(t);
  },
};

// A treasure card, w x h, its top-left corner at (0, 0).
export function card(treasure, w, h, { label = true } = {}) {
  const info = TREASURES[treasure] || { name: treasure, frame: "#777", tint: "#eee" };
  const g = svg("g", { "data-card": treasure, class: "treasure-card" });
  g.append(svg("rect", { x: 1.5, y: 2.5, width: w, height: h, rx: 7, fill: "#000", opacity: 0.25 }));
  g.append(svg("rect", { x: 0, y: 0, width: w, height: h, rx: 7, fill: "#fbf4e0", stroke: "#5b4a30", "stroke-width": 1 }));
  g.append(svg("rect", { x: 4, y: 4, width: w - 8, height: h - 8, rx: 5, fill: info.tint, stroke: info.frame,
    "stroke-width": 2 }));
  const scale = label ? Math.min((w - 12) / 60, (h - 28) / 60) : Math.min(w - 8, h - 8) / 60;
  const pic = svg("g", { transform: `translate(${w / 2} ${label ? (h - 14) / 2 + 2 : h / 2}) scale(${scale})` });
  (PICTURES[treasure] || (() => {}))(pic);
  g.append(pic);
  if (label) {
    g.append(svg("rect", { x: 8, y: h - 20, width: w - 16, height: 14, rx: 3, fill: info.frame }));
    g.append(svg("text", { x: w / 2, y: h - 9.5, "text-anchor": "middle", class: "card-name", text: info.name }));
  }
  return g;
}

// The back of a card, w x h, its top-left corner at (0, 0).
export function cardBack(w, h) {
  const g = svg("g", { class: "card-back" });
  g.append(svg("rect", { x: 1.5, y: 2.5, width: w, height: h, rx: 7, fill: "#000", opacity: 0.25 }));
  g.append(svg("rect", { x: 0, y: 0, width: w, height: h, rx: 7, fill: "#1f3d63", stroke: "#0f2036", "stroke-width": 1 }));
  g.append(svg("rect", { x: 5, y: 5, width: w - 10, height: h - 10, rx: 4, fill: "url(#stp-lattice)",
    stroke: "#d9b45a", "stroke-width": 1.5 }));
  const r = Math.min(w, h) * 0.2;
  g.append(svg("circle", { cx: w / 2, cy: h / 2, r, fill: "#1f3d63", stroke: "#d9b45a", "stroke-width": 1.5 }));
  g.append(svg("path", { d: `M ${w / 2} ${h / 2 - r * 0.75} L ${w / 2 + r * 0.22} ${h / 2} L ${w / 2} ${h / 2 + r * 0.75} ` +
    `L ${w / 2 - r * 0.22} ${h / 2} Z M ${w / 2 - r * 0.75} ${h / 2} L ${w / 2} ${h / 2 - r * 0.22} L ${w / 2 + r * 0.75} ${h / 2} ` +
    `L ${w / 2} ${h / 2 + r * 0.22} Z`, fill: "#d9b45a" }));
  return g;
}

// A small treasure picture (for the counts of what is left to draw), in a box of side s at (0, 0).
export function treasureIcon(treasure, s) {
  const g = svg("g", { "aria-hidden": "true" });
  const info = TREASURES[treasure];
  g.append(svg("rect", { x: 0, y: 0, width: s, height: s, rx: s * 0.18, fill: info ? info.tint : "#eee",
    stroke: info ? info.frame : "#777", "stroke-width": 1.2 }));
  const pic = svg("g", { transform: `translate(${s / 2} ${s / 2}) scale(${(s - 4) / 60})` });
  (PICTURES[treasure] || (() => {}))(pic);
  g.append(pic);
  return g;
}
