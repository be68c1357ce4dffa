// The Clobber analysis board: set up a position by clicking, ask the server who wins.
//
// The page holds no rule: the start position comes from the server, and every answer (the
// winner, the winning moves drawn as arrows, the regions and their values, the principal
// line with the position after each move) is the server's. The page only draws and edits
// the marks of the squares. Everything is put on the page as text, never as HTML.
import { $, el } from "./common.js";
import { canvas, playable, svg } from "./boards/svg.js";
import { number, t, tn } from "./i18n.js";

const CELL = 64;
const MARGIN = 26;
const FILES = "abcdefghijklmnopqrstuvwxyz";
const PLAYER = { o: t("White (o)"), x: t("Black (x)") };
const STONE = { o: t("White stone"), x: t("Black stone"), ".": t("empty") };
const REGION_COLOURS = ["#1d5fd6", "#b3206b", "#12805c", "#8a4b00", "#6b2fb3", "#006d7a"];
const MAX_ROWS = 99;
const MAX_COLUMNS = 26;

let ranks = [];            // the marks on the board, ranks from the top: ["xoxo", "oxox"]
let side = "o";
let analysis = null;       // the server's last answer for the position on the board
let guess = null;          // the search's estimate while the exact solve runs (or failed)
let stepping = null;       // index into the principal line while stepping through it
let controller = null;     // the request in flight (cancellable)
let ticker = null;
let limits = { time_limit: 5, max_stones: 80 };

// -- the position --------------------------------------------------------------------------
function positionText() {
  return `${ranks.join("/")} ${side}`;
}

function readPosition(text) {
  // the marks of a position text, for drawing; whether it is a position the server decides
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 2 || !/^[ox]$/.test(parts[1])) return null;
  const rows = parts[0].split("/");
  if (!rows.every((r) => r.length === rows[0].length && /^[ox.]+$/.test(r))) return null;
  if (rows.length > MAX_ROWS || rows[0].length > MAX_COLUMNS) return null;
  return { ranks: rows, side: parts[1] };
}

function setPosition(text, { keepAnalysis = false } = {}) {
  const read = readPosition(text);
  if (!read) return false;
  ranks = read.ranks;
  side = read.side;
  if (!keepAnalysis) forget();
  syncControls();
  draw();
  return true;
}

function syncControls() {
  $("#rows").value = String(ranks.length);
  $("#columns").value = String(ranks[0].length);
  $(`#side input[value="${side}"]`).checked = true;
  if (document.activeElement !== $("#position-text")) $("#position-text").value = positionText();
}

function forget() {
  // an edit makes the last answer stale
  if (controller) cancel(false);
  analysis = null;
  guess = null;
  stepping = null;
  say("");
  drawPanels();
}

function tool() {
  return $("#tool input:checked").value;
}

function put(name) {
  const column = FILES.indexOf(name[0]);
  const row = ranks.length - Number(name.slice(1));
  const rank = [...ranks[row]];
  const wanted = tool();
  rank[column] = rank[column] === wanted ? "." : wanted;  // the same mark again takes it off
  ranks[row] = rank.join("");
  forget();
  syncControls();
  draw(name);
}

function resize(rows, columns) {
  rows = Math.max(1, Math.min(MAX_ROWS, Math.floor(rows) || 1));
  columns = Math.max(1, Math.min(MAX_COLUMNS, Math.floor(columns) || 1));
  if (rows * columns < 2) columns = 2;
  const next = [];
  for (let r = 0; r < rows; r++) {
    const old = ranks[r] || "";
    next.push(Array.from({ length: columns }, (_, c) => old[c] || ".").join(""));
  }
  ranks = next;
  forget();
  syncControls();
  draw();
}

// -- talking to the server -----------------------------------------------------------------
async function request(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  if (controller) init.signal = controller.signal;
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.message || data.detail || t("The request failed ({status}).", { status: response.status }));
  return data;
}

function setLimits(data) {
  limits = data;
  $("#limits-note").textContent = t("The server solves positions of up to {stones} stones, and gives up after {seconds} s rather than guess.",
    { stones: data.max_stones, seconds: data.time_limit });
}

async function startPosition(rows, columns) {
  try {
    const data = await request(`/api/analyse/clobber/start?rows=${rows}&columns=${columns}`);
    setLimits(data);
    setPosition(data.position);
  } catch (err) { say(err.message, true); }
}

async function analyse() {
  if (controller) return;
  // stepping through the line, Analyse takes the position shown as the one to set up
  if (stepping && analysis && analysis.line[stepping - 1]) setPosition(analysis.line[stepping - 1].position);
  stepping = null;
  const text = positionText();
  controller = new AbortController();
  analysis = null;
  guess = null;
  drawPanels();
  $("#progress").hidden = false;
  $("#analyse").disabled = true;
  $("#progress-text").textContent = t("Looking in the opening book…");
  say("");
  try {
    // first the opening book (an answer at once) or, outside it, the search's estimate
    const first = await request("/api/analyse/clobber/estimate", { position: text });
    if (text !== positionText()) return;
    window.history.replaceState(null, "", `?position=${encodeURIComponent(text)}`);
    if (first.solved) {
      analysis = first;
    } else {
      guess = first.estimate || null;
      drawPanels();
      draw();
      analysis = await solving(text);
      if (text !== positionText()) return;
      if (!analysis.solved) say(analysis.message, true);
    }
  } catch (err) {
    if (err.name !== "AbortError") say(err.message, true);
  } finally {
    done();
  }
  drawPanels();
  draw();
}

async function solving(text) {
  // the exact solve, its progress (positions searched so far) shown while it runs
  const started = performance.now();
  let searched = null;
  const tick = () => {
    const seconds = (performance.now() - started) / 1000;
    $("#progress-text").textContent = searched === null
      ? t("Solving exactly… {seconds} s (at most {limit} s)", { seconds: seconds.toFixed(0), limit: limits.time_limit })
      : t("Solving exactly… {seconds} s, {nodes} positions searched (at most {limit} s)",
        { seconds: seconds.toFixed(0), nodes: number(searched), limit: limits.time_limit });
  };
  tick();
  ticker = setInterval(() => {
    tick();
    fetch("/api/analyse/clobber/progress").then((r) => r.json()).then((p) => {
      if (p && typeof p.nodes === "number") searched = p.nodes;
    }).catch(() => {});
  }, 500);
  return request("/api/analyse/clobber", { position: text });
}

function done() {
  clearInterval(ticker);
  controller = null;
  $("#progress").hidden = true;
  $("#analyse").disabled = false;
}

function cancel(tell = true) {
  if (!controller) return;
  controller.abort();  // the server sees the request go and stops its worker
  done();
  if (tell) say(t("Analysis cancelled."));
}

function say(text, isError = false) {
  const box = $("#message");
  box.textContent = text || "";
  box.className = isError ? "message error" : "message";
}

// -- drawing -------------------------------------------------------------------------------
function squareAt(name) {
  const column = FILES.indexOf(name[0]);
  const row = ranks.length - Number(name.slice(1));
  return { x: MARGIN + column * CELL, y: row * CELL, row, column };
}

function centre(name) {
  const { x, y } = squareAt(name);
  return [x + CELL / 2, y + CELL / 2];
}

function arrow(move, kind) {
  // from the moving stone towards the stone it captures
  const [x1, y1] = centre(move.match(/^[a-z]\d+/)[0]);
  const [x2, y2] = centre(move.match(/[a-z]\d+$/)[0]);
  const dx = x2 - x1;
  const dy = y2 - y1;
  const length = Math.hypot(dx, dy);
  const ux = dx / length;
  const uy = dy / length;
  // a filled shape (shaft and head) with a light outline: seen on dark, light and stone alike
  const [sx, sy] = [x1 + ux * 8, y1 + uy * 8];
  const [ex, ey] = [x2 - ux * 10, y2 - uy * 10];
  const [nx, ny] = [-uy, ux];
  const shaft = 4;
  const head = 12;
  const [bx, by] = [ex - ux * 18, ey - uy * 18];
  const points = [
    [sx + nx * shaft, sy + ny * shaft], [bx + nx * shaft, by + ny * shaft],
    [bx + nx * head, by + ny * head], [ex, ey], [bx - nx * head, by - ny * head],
    [bx - nx * shaft, by - ny * shaft], [sx - nx * shaft, sy - ny * shaft],
  ].map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  return svg("polygon", { points, class: `arrow ${kind}`, "data-arrow": move });
}

function regionOutlines(pic, regions) {
  regions.forEach((region, i) => {
    const colour = REGION_COLOURS[i % REGION_COLOURS.length];
    const inside = new Set(region.squares);
    const group = svg("g", { class: "region", "data-region": String(i + 1), stroke: colour });
    for (const name of region.squares) {
      const { x, y, row, column } = squareAt(name);
      const neighbour = (dr, dc) => {
        const r = row + dr;
        const c = column + dc;
        return r >= 0 && r < ranks.length && c >= 0 && c < ranks[0].length
          && inside.has(FILES[c] + String(ranks.length - r));
      };
      const inset = 3;
      const sides = [
        [!neighbour(-1, 0), x, y + inset, x + CELL, y + inset],
        [!neighbour(1, 0), x, y + CELL - inset, x + CELL, y + CELL - inset],
        [!neighbour(0, -1), x + inset, y, x + inset, y + CELL],
        [!neighbour(0, 1), x + CELL - inset, y, x + CELL - inset, y + CELL],
      ];
      for (const [edge, ax, ay, bx, by] of sides) {
        if (edge) group.append(svg("line", { x1: ax, y1: ay, x2: bx, y2: by, class: "region-edge" }));
      }
    }
    const first = squareAt(region.squares[0]);
    group.append(svg("circle", { cx: first.x + 12, cy: first.y + 12, r: 10, fill: colour, stroke: "#fff",
      "stroke-width": 1.5 }));
    group.append(svg("text", { x: first.x + 12, y: first.y + 16.5, "text-anchor": "middle",
      class: "region-number", text: String(i + 1) }));
    pic.append(group);
  });
}

function shownPosition() {
  // the position on the board: the one set up, or a step of the principal line
  if (stepping === null || !analysis || stepping === 0) return { ranks, side, last: null };
  const step = analysis.line[stepping - 1];
  const read = readPosition(step.position);
  return { ranks: read.ranks, side: read.side, last: step.move };
}

function draw(focus = null) {
  const shown = shownPosition();
  const rows = shown.ranks.length;
  const columns = shown.ranks[0].length;
  const width = MARGIN + columns * CELL;
  const height = rows * CELL + MARGIN;
  const editing = stepping === null;
  const label = editing
    ? t("Clobber board being set up, {player} to move", { player: PLAYER[side] })
    : t("Principal line, move {n} of {total}", { n: stepping, total: analysis.line.length });
  const pic = canvas(width, height, label);
  shown.ranks.forEach((rank, r) => [...rank].forEach((mark, c) => {
    const name = FILES[c] + String(rows - r);
    const x = MARGIN + c * CELL;
    const y = r * CELL;
    const group = svg("g", { "data-square": name, "data-mark": mark, class: editing ? "clickable" : "" });
    group.append(svg("rect", { x, y, width: CELL, height: CELL,
      class: (rows - 1 - r + c) % 2 === 0 ? "sq-dark" : "sq-light" }));
    if (mark === "o" || mark === "x") {
      group.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.34,
        fill: mark === "o" ? "#fbfaf5" : "#26221d", stroke: mark === "o" ? "#6b6254" : "#000",
        "stroke-width": 2, "data-stone": mark }));
    }
    if (editing) {
      const put_ = tool();
      const what = put_ === "." || put_ === mark ? t("empty it") : t("put a {stone}", { stone: STONE[put_] });
      playable(group, `${name}, ${STONE[mark]}: ${what}`, () => put(name));
    }
    pic.append(group);
  }));
  for (let c = 0; c < columns; c++) {
    pic.append(svg("text", { x: MARGIN + c * CELL + CELL / 2, y: rows * CELL + 18,
      "text-anchor": "middle", class: "coord", text: FILES[c] }));
  }
  for (let r = 0; r < rows; r++) {
    pic.append(svg("text", { x: MARGIN / 2, y: r * CELL + CELL / 2 + 4,
      "text-anchor": "middle", class: "coord", text: String(rows - r) }));
  }
  const solved = analysis && analysis.solved && analysis.position === positionText();
  if (solved && editing) {
    regionOutlines(pic, analysis.regions);
    for (const move of analysis.winning_moves) pic.append(arrow(move, "win"));
  }
  if (guess && !solved && editing) pic.append(arrow(guess.move, "estimate"));
  if (shown.last) pic.append(arrow(shown.last, "played"));
  $("#board").replaceChildren(pic);
  if (focus) {
    const again = $(`#board [data-square="${focus}"]`);
    if (again) again.focus({ preventScroll: true });
  }
  drawStatus();
  drawStepper();
}

function drawStatus() {
  const status = $("#status");
  if (stepping !== null && analysis) {
    const shown = shownPosition();
    status.textContent = stepping === 0 ? t("The position analysed")
      : t("After {move}: {player} to move", { move: analysis.line[stepping - 1].move, player: PLAYER[shown.side] });
    return;
  }
  if (analysis && analysis.solved) status.textContent = analysis.summary;
  else if (guess) {
    status.textContent = t("{player} to move: about {percent}% to win, by the search's estimate (not proved).",
      { player: PLAYER[guess.player], percent: Math.round(guess.win_chance * 100) });
  } else status.textContent = t("{player} to move. Set up a position, then press Analyse.", { player: PLAYER[side] });
}

function moveWords(move, player) {
  const from = move.match(/^[a-z]\d+/)[0];
  const to = move.match(/[a-z]\d+$/)[0];
  const words = t("{from} takes {to}", { from, to });
  return player ? t("{player}: {move}", { player: PLAYER[player], move: words }) : words;
}

// A value as a player reads it (↑), and as CGSuite writes it (^) when that differs, for
// analysts who take it on to CGSuite or MCGS.
function withCgsuite(value, cgsuite) {
  return cgsuite && cgsuite !== value ? `${value} (${cgsuite} in CGSuite)` : value;
}

function drawEstimate() {
  // the search's guess, shown while the exact solve runs and kept when it runs out of time
  const shown = Boolean(guess) && !(analysis && analysis.solved);
  $("#estimate-panel").hidden = !shown;
  if (!shown) return;
  const percent = Math.round(guess.win_chance * 100);
  $("#estimate-text").textContent = t("{player} to move: about {percent}% to win (estimate)",
    { player: PLAYER[guess.player], percent });
  $("#estimate-move").textContent = t("The search prefers {move} (the dashed arrow).", { move: moveWords(guess.move) });
}

function drawPanels() {
  drawEstimate();
  const solved = analysis && analysis.solved;
  $("#result-panel").hidden = !solved;
  $("#regions-panel").hidden = !solved || analysis.regions.length === 0;
  $("#line-panel").hidden = !solved || analysis.line.length === 0;
  if (!solved) { drawStepper(); return; }
  const mover = analysis.to_move;
  const winner = analysis.winner;
  $("#winner").textContent = t("{player} wins", { player: PLAYER[winner] });
  const count = analysis.winning_moves.length;
  $("#moves-text").textContent = winner === mover
    ? tn("{player} to move. Winning move (the arrows): {moves}.", "{player} to move. Winning moves (the arrows): {moves}.", count,
      { player: PLAYER[mover], moves: analysis.winning_moves.map((m) => moveWords(m)).join(", ") })
    : analysis.regions.length === 0
      ? t("{player} has no move left.", { player: PLAYER[mover] })
      : t("{player} to move has no winning move: every move loses against perfect play.", { player: PLAYER[mover] });
  const records = (analysis.proved_by || []).join(", ");
  $("#stats").textContent = analysis.book
    ? (analysis.complete
      ? t("From parlour's opening book: solved ahead of time, so no search was needed.")
      : t("From parlour's opening book: solved ahead of time, so no search was needed; other moves may win too."))
    : !records
    ? tn("{count} position searched in {seconds} s.", "{count} positions searched in {seconds} s.", analysis.nodes,
      { count: number(analysis.nodes), seconds: number(analysis.seconds, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) })
    : analysis.complete
      ? t("Proved by record {records} of the solver's hunt, without a search.", { records })
      : t("Proved by record {records} of the solver's hunt, without a search; other moves may win too.", { records });

  const list = $("#regions");
  list.replaceChildren();
  analysis.regions.forEach((region, i) => {
    const colour = REGION_COLOURS[i % REGION_COLOURS.length];
    const value = t("value {value}", { value: region.value !== null
      ? withCgsuite(region.value, region.cgsuite) : region.value_note });
    list.append(el("li", { "data-region": String(i + 1) },
      el("span", { class: "swatch", style: `background:${colour}`, "aria-hidden": "true" }),
      el("span", { class: "region-text" },
        el("strong", { text: tn("Region {i}, {n} stone: ", "Region {i}, {n} stones: ", region.stones, { i: i + 1 }) }),
        el("span", { text: t("{outcome}; {value}.", { outcome: region.outcome_text, value }) }))));
  });
  $("#total-value").textContent = analysis.value !== null && analysis.regions.length > 1
    ? t("Value of the whole position: {value}.",
      { value: withCgsuite(analysis.value, analysis.value_cgsuite) }) : "";

  const line = $("#line");
  line.replaceChildren();
  for (const step of analysis.line) {
    line.append(el("li", { "data-step": String(line.children.length + 1) },
      el("span", { class: "who", text: PLAYER[step.player] }),
      el("span", { class: "what", text: step.move })));
  }
  $("#line-note").textContent = analysis.line_complete
    ? t("The winner's move that leaves the fewest replies, the loser's reply that leaves the fewest winning answers, to the end.")
    : t("The winner's move that leaves the fewest replies, the loser's most stubborn reply: as far as the time allowed.");
}

function drawStepper() {
  const on = stepping !== null && analysis && analysis.solved;
  $("#line-bar").classList.toggle("on", Boolean(on));
  if (!on) {
    for (const item of $("#line").children) { item.classList.remove("current"); item.removeAttribute("aria-current"); }
    return;
  }
  const slider = $("#line-slider");
  slider.max = String(analysis.line.length);
  slider.value = String(stepping);
  const step = stepping > 0 ? analysis.line[stepping - 1] : null;
  $("#line-label").textContent = step
    ? t("Move {n} of {total}: {move}", { n: stepping, total: analysis.line.length, move: moveWords(step.move, step.player) })
    : tn("The start of the line ({n} move)", "The start of the line ({n} moves)", analysis.line.length);
  for (const item of $("#line").children) {
    const current = Number(item.dataset.step) === stepping;
    item.classList.toggle("current", current);
    if (current) item.setAttribute("aria-current", "step"); else item.removeAttribute("aria-current");
  }
}

function stepTo(index) {
  if (!analysis || !analysis.solved) return;
  stepping = Math.max(0, Math.min(analysis.line.length, index));
  draw();
}

// -- wiring --------------------------------------------------------------------------------
$("#analyse").addEventListener("click", analyse);
$("#cancel").addEventListener("click", () => cancel());
$("#tool").addEventListener("change", () => draw());
$("#side").addEventListener("change", () => {
  side = $("#side input:checked").value;
  forget();
  syncControls();
  draw();
});
$("#rows").addEventListener("change", () => resize(Number($("#rows").value), ranks[0].length));
$("#columns").addEventListener("change", () => resize(ranks.length, Number($("#columns").value)));
$("#start").addEventListener("click", () => startPosition(ranks.length, ranks[0].length));
$("#clear").addEventListener("click", () => {
  ranks = ranks.map((rank) => ".".repeat(rank.length));
  forget();
  syncControls();
  draw();
});
$("#load").addEventListener("click", () => {
  const text = $("#position-text").value.trim();
  if (!setPosition(text)) {
    // not a position this page can draw: the server says what is wrong with it
    request("/api/analyse/clobber", { position: text })
      .then(() => say(t("This position cannot be drawn here."), true))
      .catch((err) => say(err.message, true));
  }
});
$("#position-text").addEventListener("keydown", (e) => { if (e.key === "Enter") $("#load").click(); });
$("#line-start").addEventListener("click", () => { stepTo(1); $("#line-next").focus(); });
$("#line-prev").addEventListener("click", () => stepTo(stepping - 1));
$("#line-next").addEventListener("click", () => stepTo(stepping + 1));
$("#line-slider").addEventListener("input", (e) => stepTo(Number(e.target.value)));
$("#line-exit").addEventListener("click", () => { stepping = null; draw(); });
document.addEventListener("keydown", (e) => {
  if (stepping === null || e.target.closest("input")) return;
  if (e.key === "ArrowLeft") stepTo(stepping - 1);
  if (e.key === "ArrowRight") stepTo(stepping + 1);
});

window.parlour = { get analysis() { return analysis; }, get estimate() { return guess; }, position: positionText };

const asked = new URLSearchParams(window.location.search).get("position");
if (asked && readPosition(asked)) {
  request("/api/analyse/clobber/start?rows=1&columns=2").then(setLimits).catch(() => {});
  setPosition(asked);
  analyse();
} else {
  if (asked) say(t("The position in this link cannot be read: set one up here."), true);
  startPosition(5, 6);
}
