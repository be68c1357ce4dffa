// Sounds of the table, synthesised with WebAudio (no sound file is fetched): a move, a capture
// or stomp, a card turned over, a splash, your turn, and the end of the game. A toggle in the
// header turns them off; the choice is remembered in this browser (localStorage).
//
// Browsers start audio only after the player has clicked or pressed a key on the page; until
// then a sound is asked for and nothing is heard. ``played`` lists the sounds asked for while
// sound is on (the browser tests read it: a headless browser has no speakers).
import { t, tn } from "./i18n.js";

const KEY = "parlour.sound";
const MIN_GAP_MS = 90;  // sounds asked for closer together than this are one sound
const WORDS = {
  label: t("Sound"),
  on: t("Sound is on: click to mute"),
  off: t("Sound is off: click to hear the moves"),
};

export const played = [];
let context = null;
let allowed = false;     // the player has clicked or pressed a key: the browser lets audio start
let lastAt = 0;

function stored() {
  try { return window.localStorage.getItem(KEY); } catch { return null; }
}

export function enabled() {
  return stored() !== "off";
}

export function setEnabled(on) {
  try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* not remembered */ }
}

function audio() {
  if (!allowed) return null;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!context) {
    try { context = new Ctx(); } catch { return null; }
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

// -- voices ----------------------------------------------------------------------------------
function tone(ctx, at, { freq, to = freq, type = "sine", length = 0.12, gain = 0.2 }) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

function noise(ctx, at, { length = 0.08, gain = 0.2, filter = "bandpass", freq = 2000, to = freq, q = 1 }) {
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const shape = ctx.createBiquadFilter();
  shape.type = filter;
  shape.Q.value = q;
  shape.frequency.setValueAtTime(freq, at);
  if (to !== freq) shape.frequency.exponentialRampToValueAtTime(to, at + length);
  const amp = ctx.createGain();
  amp.gain.setValueAtTime(gain, at);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
  source.connect(shape).connect(amp).connect(ctx.destination);
  source.start(at);
}

const VOICES = {
  // a piece set down on wood
  move(ctx, t) {
    tone(ctx, t, { freq: 420, to: 260, type: "triangle", length: 0.09, gain: 0.22 });
    noise(ctx, t, { length: 0.03, gain: 0.12, freq: 3200 });
  },
  // a stone taken, a marble stomped through its hole
  capture(ctx, t) {
    tone(ctx, t, { freq: 180, to: 55, length: 0.18, gain: 0.35 });
    noise(ctx, t, { length: 0.07, gain: 0.18, filter: "lowpass", freq: 1200 });
    tone(ctx, t + 0.05, { freq: 900, to: 1400, type: "sine", length: 0.06, gain: 0.05 });
  },
  // a card turned over
  card(ctx, t) {
    noise(ctx, t, { length: 0.09, gain: 0.16, filter: "highpass", freq: 1800, to: 5000 });
    tone(ctx, t + 0.06, { freq: 700, to: 520, type: "triangle", length: 0.05, gain: 0.06 });
  },
  // an elephant in the water
  splash(ctx, t) {
    noise(ctx, t, { length: 0.45, gain: 0.3, filter: "lowpass", freq: 2400, to: 300 });
    tone(ctx, t, { freq: 240, to: 70, length: 0.3, gain: 0.2 });
  },
  // your turn: two rising notes
  turn(ctx, t) {
    tone(ctx, t, { freq: 659, type: "sine", length: 0.16, gain: 0.14 });
    tone(ctx, t + 0.12, { freq: 880, type: "sine", length: 0.22, gain: 0.14 });
  },
  // the end: a rising chord for a win, falling notes otherwise
  win(ctx, t) {
    [523, 659, 784, 1047].forEach((f, i) => tone(ctx, t + i * 0.1, { freq: f, type: "triangle", length: 0.3, gain: 0.14 }));
  },
  end(ctx, t) {
    [392, 330, 262].forEach((f, i) => tone(ctx, t + i * 0.14, { freq: f, type: "triangle", length: 0.32, gain: 0.13 }));
  },
};

export const KINDS = Object.keys(VOICES);

// Play a sound by name (one of KINDS), after ``delay`` seconds; nothing when sound is off.
export function cue(kind, delay = 0) {
  if (!enabled() || !VOICES[kind]) return;
  const now = performance.now();
  if (now - lastAt < MIN_GAP_MS && delay === 0) return;
  lastAt = now;
  played.push(kind);
  if (played.length > 50) played.shift();
  const ctx = audio();
  if (!ctx || ctx.state !== "running") return;
  try { VOICES[kind](ctx, ctx.currentTime + delay); } catch { /* a browser without the node types */ }
}

// -- the header toggle -------------------------------------------------------------------------
const ICON = '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">' +
  '<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>' +
  '<path class="waves" d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>' +
  '<path class="mute" d="M16 9l6 6M22 9l-6 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';

function show(button) {
  const on = enabled();
  button.setAttribute("aria-pressed", String(on));
  button.title = on ? WORDS.on : WORDS.off;
  button.classList.toggle("off", !on);
}

// The toggle: a button already in the page (``#sound-toggle``), given its icon and state.
export function setupToggle(button) {
  if (!button) return;
  button.innerHTML = `${ICON}<span class="visually-hidden">${WORDS.label}</span>`;
  show(button);
  button.addEventListener("click", () => {
    setEnabled(!enabled());
    show(button);
    if (enabled()) { audio(); cue("move"); }
  });
  // the first click or key on the page lets the browser start audio
  const unlock = () => { allowed = true; if (enabled()) audio(); };
  document.addEventListener("pointerdown", unlock, { once: true, capture: true });
  document.addEventListener("keydown", unlock, { once: true, capture: true });
  window.addEventListener("storage", (event) => { if (event.key === KEY) show(button); });
}
