// Motion on the table: short animations of the last move, which never stand in the player's way.
//
// - none at all when the player asks for reduced motion (prefers-reduced-motion: reduce): the
//   board is simply drawn in its new state;
// - short: every animation, its delay included, ends within LONGEST ms;
// - skippable: a click or key anywhere, or the next update of the board, finishes every running
//   animation at once (the board is then exactly the position the server sent).
// The board renderers call play(); the table page calls skip() before it draws again.

export const LONGEST = 1200;
const running = new Set();

export function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// Animate ``node`` with Web Animations keyframes; returns the Animation, or null when nothing
// moves (reduced motion, no node, a browser without Element.animate).
export function play(node, keyframes, { duration = 320, delay = 0, easing = "ease-out", fill = "backwards" } = {}) {
  if (!node || reducedMotion() || typeof node.animate !== "function") return null;
  const time = Math.max(0, Math.min(delay, LONGEST - 80));
  const length = Math.max(40, Math.min(duration, LONGEST - time));
  const animation = node.animate(keyframes, { duration: length, delay: time, easing, fill });
  running.add(animation);
  const done = () => running.delete(animation);
  animation.addEventListener("finish", done);
  animation.addEventListener("cancel", done);
  return animation;
}

// A node shown only while the animation runs (a card sliding away, a marble pushed through):
// it (or ``holder``, the group it sits in) is removed when the animation ends or is skipped.
export function transient(node, keyframes, options, holder = node) {
  const animation = play(node, keyframes, { fill: "both", ...options });
  if (!animation) { holder.remove(); return null; }
  const gone = () => holder.remove();
  animation.addEventListener("finish", gone);
  animation.addEventListener("cancel", gone);
  return animation;
}

export function busy() {
  return running.size > 0;
}

// Finish everything that moves: the board jumps to the position it shows.
export function skip() {
  for (const animation of [...running]) {
    try { animation.finish(); } catch { animation.cancel(); }
  }
  running.clear();
}

// A click, a tap or a key press anywhere ends the animations (and still does what it does).
for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, () => { if (running.size) skip(); }, { capture: true });
}
