// The pictures of Stomple, drawn by the project in SVG: the wooden tray and its holes, shaded
// glass marbles in six solid colours, the cat's eyes (clear glass with a coloured vane inside,
// unlike any solid marble), and the stompers (a plunger seen from above: a ribbed foot in its
// colour and a knob to hold). Each function draws around (0, 0) for a hole of radius ``r``;
// defs() holds the gradients, once in each picture.
import { svg } from "../svg.js";

// The six solid colours and the cat's eye: [highlight, colour, shade, name].
export const MARBLES = {
  w: ["#ffffff", "#eeebe2", "#9d978a", "white"],
  y: ["#fff5b8", "#f0bf2a", "#9c7410", "yellow"],
  r: ["#ffb0a8", "#d6322b", "#771410", "red"],
  b: ["#bcd2ff", "#3466d6", "#142c68", "blue"],
  g: ["#b5eec6", "#2e9853", "#124d27", "green"],
  k: ["#8c8883", "#2b2724", "#040404", "black"],
  c: ["#ffffff", "#d4ebf2", "#7ea5b4", "cat's eye"],
};
export const LETTER_OF = Object.fromEntries(Object.entries(MARBLES).map(([k, v]) => [v[3], k]));

function stop(offset, colour, opacity = 1) {
  return svg("stop", { offset, "stop-color": colour, "stop-opacity": opacity });
}

export function defs() {
  const d = svg("defs", {});
  for (const [letter, [light, base, dark]] of Object.entries(MARBLES)) {
    d.append(svg("radialGradient", { id: `stm-m-${letter}`, cx: "42%", cy: "38%", r: "68%", fx: "32%", fy: "26%" },
      stop("0%", light), stop("48%", base), stop("100%", dark)));
  }
  d.append(svg("radialGradient", { id: "stm-glass", cx: "45%", cy: "40%", r: "65%", fx: "35%", fy: "28%" },
    stop("0%", "#ffffff", 0.95), stop("55%", "#cfe8f1", 0.75), stop("100%", "#6f98a8", 0.9)));
  d.append(svg("radialGradient", { id: "stm-hole", cx: "50%", cy: "42%", r: "60%" },
    stop("0%", "#1e130a"), stop("70%", "#3a2514"), stop("100%", "#7a5632")));
  d.append(svg("linearGradient", { id: "stm-tray", x1: 0, y1: 0, x2: 1, y2: 1 },
    stop("0%", "#d8ae74"), stop("50%", "#c4945a"), stop("100%", "#a3733d")));
  d.append(svg("linearGradient", { id: "stm-rim", x1: 0, y1: 0, x2: 0, y2: 1 },
    stop("0%", "#a87943"), stop("100%", "#6d4822")));
  d.append(svg("pattern", { id: "stm-grain", width: 120, height: 18, patternUnits: "userSpaceOnUse" },
    svg("path", { d: "M0 9 Q 30 4 60 9 T 120 9", stroke: "#9b6c37", "stroke-width": 1, fill: "none", opacity: 0.35 }),
    svg("path", { d: "M0 15 Q 40 12 80 16 T 120 14", stroke: "#b8864c", "stroke-width": 0.8, fill: "none", opacity: 0.4 })));
  for (const [letter, [light, base, dark]] of Object.entries(MARBLES)) {
    if (letter === "c") continue;
    d.append(svg("radialGradient", { id: `stm-s-${letter}`, cx: "40%", cy: "35%", r: "70%" },
      stop("0%", light), stop("60%", base), stop("100%", dark)));
  }
  return d;
}

// The tray: a wooden board with a raised rim, x, y, w, h.
export function tray(x, y, w, h) {
  return svg("g", { "aria-hidden": "true" },
    svg("rect", { x: x + 3, y: y + 5, width: w, height: h, rx: 18, fill: "#000", opacity: 0.22 }),
    svg("rect", { x, y, width: w, height: h, rx: 18, fill: "url(#stm-rim)" }),
    svg("rect", { x: x + 6, y: y + 6, width: w - 12, height: h - 12, rx: 13, fill: "url(#stm-tray)" }),
    svg("rect", { x: x + 6, y: y + 6, width: w - 12, height: h - 12, rx: 13, fill: "url(#stm-grain)" }),
    svg("rect", { x: x + 6.5, y: y + 6.5, width: w - 13, height: h - 13, rx: 13, fill: "none", stroke: "#f0cf9a",
      "stroke-width": 1, opacity: 0.6 }));
}

export function hole(r) {
  return svg("g", { "aria-hidden": "true" },
    svg("circle", { r: r + 2, fill: "#e6c089", opacity: 0.5, cy: 1.5 }),
    svg("circle", { r, fill: "url(#stm-hole)" }));
}

// A solid marble or a cat's eye (letter "c").
export function marble(letter, r) {
  const g = svg("g", { "data-marble": letter, class: "marble" });
  g.append(svg("ellipse", { cx: 1.5, cy: r * 0.55, rx: r * 0.95, ry: r * 0.55, fill: "#000", opacity: 0.3 }));
  if (letter === "c") {
    g.append(svg("circle", { r, fill: "url(#stm-glass)", stroke: "#5d8797", "stroke-width": 1 }));
    // the cat's eye: a twisted vane of colour seen through clear glass
    const vane = svg("g", { transform: "rotate(-30)" });
    vane.append(svg("path", { d: `M ${-r * 0.78} 0 Q 0 ${-r * 0.42} ${r * 0.78} 0 Q 0 ${r * 0.42} ${-r * 0.78} 0 Z`,
      fill: "#e8731c", opacity: 0.92 }));
    vane.append(svg("path", { d: `M 0 ${-r * 0.7} Q ${r * 0.22} 0 0 ${r * 0.7} Q ${-r * 0.22} 0 0 ${-r * 0.7} Z`,
      fill: "#1f6f8b", opacity: 0.85 }));
    vane.append(svg("ellipse", { rx: r * 0.12, ry: r * 0.36, fill: "#111", opacity: 0.75 }));
    g.append(vane);
    g.append(svg("circle", { r: r * 0.96, fill: "url(#stm-glass)", opacity: 0.35 }));
  } else {
    g.append(svg("circle", { r, fill: `url(#stm-m-${letter})`, stroke: MARBLES[letter][2], "stroke-width": 0.8 }));
  }
  g.append(svg("ellipse", { cx: -r * 0.32, cy: -r * 0.38, rx: r * 0.3, ry: r * 0.2, fill: "#fff",
    opacity: letter === "k" ? 0.55 : 0.7, transform: `rotate(-30 ${-r * 0.32} ${-r * 0.38})` }));
  g.append(svg("circle", { cx: r * 0.38, cy: r * 0.42, r: r * 0.08, fill: "#fff", opacity: 0.4 }));
  return g;
}

// A stomper of a marble colour (by name: "red") seen from above: a ribbed foot, a collar
// and a knob to hold it by.
export function stomper(colour, r) {
  const letter = LETTER_OF[colour] || "w";
  const [light, base, dark] = MARBLES[letter];
  const g = svg("g", { class: "stomper-piece" });
  g.append(svg("ellipse", { cx: 2.5, cy: 4, rx: r * 1.02, ry: r * 0.98, fill: "#000", opacity: 0.35 }));
  g.append(svg("circle", { r, fill: dark }));
  for (let k = 0; k < 16; k++) {  // the ribs of the foot
    const a = (k * Math.PI) / 8;
    g.append(svg("line", { x1: Math.cos(a) * r * 0.78, y1: Math.sin(a) * r * 0.78, x2: Math.cos(a) * r * 0.98,
      y2: Math.sin(a) * r * 0.98, stroke: base, "stroke-width": 2.2, "stroke-linecap": "round" }));
  }
  g.append(svg("circle", { r: r * 0.76, fill: `url(#stm-s-${letter})`, stroke: dark, "stroke-width": 1.2 }));
  g.append(svg("circle", { r: r * 0.5, fill: "none", stroke: dark, "stroke-width": 1.5, opacity: 0.6 }));
  g.append(svg("circle", { cx: 1, cy: 2, r: r * 0.36, fill: "#000", opacity: 0.3 }));
  g.append(svg("circle", { r: r * 0.34, fill: `url(#stm-s-${letter})`, stroke: dark, "stroke-width": 1 }));
  g.append(svg("ellipse", { cx: -r * 0.12, cy: -r * 0.14, rx: r * 0.14, ry: r * 0.09, fill: light === "#ffffff" ? "#fff" : light,
    opacity: 0.9 }));
  g.append(svg("path", { d: `M ${-r * 0.6} ${-r * 0.35} A ${r * 0.68} ${r * 0.68} 0 0 1 ${r * 0.2} ${-r * 0.66}`,
    stroke: "#fff", "stroke-width": 2, fill: "none", opacity: 0.45, "stroke-linecap": "round" }));
  return g;
}

// The mark on a marble a stomper may hop to (it matches the stomper's colour): a small badge
// with a curved arrow, in that colour.
export function hopBadge(colour, size) {
  const letter = LETTER_OF[colour] || "w";
  const [, base, dark] = MARBLES[letter];
  const ink = letter === "w" || letter === "y" ? "#222" : "#fff";
  return svg("g", { class: "hop-badge", "aria-hidden": "true" },
    svg("circle", { r: size, fill: base, stroke: "#111", "stroke-width": 1.5 }),
    svg("circle", { r: size - 1.5, fill: "none", stroke: dark, "stroke-width": 0.8 }),
    svg("path", { d: `M ${-size * 0.55} ${size * 0.35} Q ${-size * 0.4} ${-size * 0.55} ${size * 0.35} ${-size * 0.3}`,
      stroke: ink, "stroke-width": 1.8, fill: "none", "stroke-linecap": "round" }),
    svg("path", { d: `M ${size * 0.05} ${-size * 0.62} L ${size * 0.5} ${-size * 0.28} L ${size * 0.05} ${size * 0.05}`,
      stroke: ink, "stroke-width": 1.8, fill: "none", "stroke-linecap": "round", "stroke-linejoin": "round" }));
}

// A stomper drawn on its own (for the sentence saying which one is yours); it uses the
// gradients of the board's picture, which is on the page with it.
export function stomperIcon(colour, size = 28) {
  const pic = svg("svg", { viewBox: "-16 -16 34 34", width: size, height: size, "aria-hidden": "true",
    focusable: "false", class: "stomper-icon" });
  pic.append(stomper(colour, 14));
  return pic;
}

export function hopIcon(colour, size = 22) {
  const pic = svg("svg", { viewBox: "-11 -11 22 22", width: size, height: size, "aria-hidden": "true",
    focusable: "false", class: "hop-icon" });
  pic.append(hopBadge(colour, 9.5));
  return pic;
}
