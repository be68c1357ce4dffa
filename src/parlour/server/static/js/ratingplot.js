// A rating history drawn as an SVG line with its deviation band (the profile and the
// tournament page): no image server, drawn at the width it is shown at.
import { t, tn } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// The rating after each rated game, with the band rating ± 2 RD, on a 640 x 240 canvas.
export function plot(points, title, width = 640, caption = null) {
  // drawn at the width it is shown at (a phone gets a narrower canvas, so the text stays legible)
  const W = Math.max(300, Math.min(720, Math.round(width))), H = 240, L = 48, R = 12, T = 12, B = 28;
  const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "history-plot", role: "img",
    "aria-label": t("{title}: rating after each rated game, from {first} to {last}", { title,
      first: Math.round(points[0].rating), last: Math.round(points[points.length - 1].rating) }) });
  const lows = points.map((p) => p.rating - 2 * p.rd);
  const highs = points.map((p) => p.rating + 2 * p.rd);
  let lo = Math.min(...lows, ...points.map((p) => p.rating)) - 20;
  let hi = Math.max(...highs) + 20;
  lo = Math.floor(lo / 50) * 50; hi = Math.ceil(hi / 50) * 50;
  const n = points.length;
  const x = (i) => L + (n === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (n - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo || 1);
  const step = Math.max(50, Math.ceil((hi - lo) / 5 / 50) * 50);
  for (let v = lo; v <= hi; v += step) {
    box.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    box.append(svg("text", { x: L - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, String(v)));
  }
  const band = points.map((p, i) => `${x(i)},${y(p.rating + 2 * p.rd)}`)
    .concat(points.map((p, i) => `${x(i)},${y(p.rating - 2 * p.rd)}`).reverse());
  if (n === 1) {
    const p = points[0];
    box.append(svg("rect", { x: x(0) - 6, y: y(p.rating + 2 * p.rd), width: 12,
      height: y(p.rating - 2 * p.rd) - y(p.rating + 2 * p.rd), class: "band" }));
  } else {
    box.append(svg("polygon", { points: band.join(" "), class: "band" }));
  }
  box.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "line" }));
  points.forEach((p, i) => box.append(svg("circle", { cx: x(i), cy: y(p.rating), r: 3.5, class: "dot" },
    undefined)));
  box.append(svg("text", { x: L, y: H - 8, class: "axis" }, new Date(points[0].at * 1000).toLocaleDateString()));
  box.append(svg("text", { x: W - R, y: H - 8, class: "axis", "text-anchor": "end" },
    caption || tn("{n} rated game", "{n} rated games", n)));
  return box;
}
