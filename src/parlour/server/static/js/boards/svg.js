// Small helpers for drawing boards as SVG.
import { play } from "../motion.js";
const NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

export function canvas(width, height, label, kind = "board-pic") {
  const node = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, width, height, role: "group", "aria-label": label, class: kind,
  });
  node.style.setProperty("--ratio", String(width / height));  // the page sizes it to fit
  return node;
}

export function html(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// A legal-move hint seen on every colour: a dark ring with a light ring inside it (a single
// green ring vanished on green marbles). ``shape`` is "circle" (cx, cy, r) or "rect".
export function hint(shape, geometry, extra = {}) {
  const outer = shape === "circle"
    ? svg("circle", { ...geometry, class: "hint-outer" })
    : svg("rect", { ...geometry, rx: 8, class: "hint-outer" });
  const inner = shape === "circle"
    ? svg("circle", { ...geometry, class: "hint-inner" })
    : svg("rect", { ...geometry, rx: 8, class: "hint-inner" });
  return svg("g", { class: "from-legal", ...extra }, outer, inner);
}

// Make a board element playable by keyboard and named for screen readers: Tab reaches it,
// Enter or Space plays it, and its label says what it is and what it can do.
export function playable(node, label, activate) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", activate);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); activate(); }
  });
  return node;
}

// A short animation of the last move (none when the player asks for reduced motion; a click
// or the next update ends it: see motion.js).
export function animate(node, keyframes, duration = 320, options = {}) {
  return play(node, keyframes, { duration, ...options });
}
