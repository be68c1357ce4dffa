// Clobber: a checkerboard of White (o) and Black (x) stones, or stones on a graph (C7).
// Click (or Tab to and press Enter on) one of your stones, then the enemy stone to capture.
// Legal moves come from the server (as notation like "a1b1" or "a-b"); any other pair of
// squares is sent as typed notation so that the server explains which rule it breaks.
import { animate, canvas, hint, playable, svg } from "./svg.js";
import { t, tn } from "../i18n.js";

const CELL = 64;
const MARGIN = 26;
const FILES = "abcdefghijklmnopqrstuvwxyz";
const STONE = { o: t("White stone"), x: t("Black stone") };

function parseMove(text) {
  let m = /^([a-z])(\d+)([a-z])(\d+)$/.exec(text);
  if (m) return [m[1] + m[2], m[3] + m[4]];
  m = /^([A-Za-z0-9_]+)-([A-Za-z0-9_]+)$/.exec(text);
  return m ? [m[1], m[2]] : null;
}

function layout(view, flipped) {
  // Square/node name -> {x, y, mark}; plus the board's size and edges (graphs only).
  // ``flipped``: the board turned round, Black's side nearest (a grid only).
  const [board] = view.position.split(" ");
  const cells = {};
  if (view.rows) {
    const ranks = board.split("/");
    ranks.forEach((rank, r) => [...rank].forEach((mark, c) => {
      const name = FILES[c] + String(view.rows - r);
      const [x, y] = flipped ? [view.columns - 1 - c, view.rows - 1 - r] : [c, r];
      cells[name] = { x: MARGIN + x * CELL, y: y * CELL, mark, dark: (view.rows - 1 - r + c) % 2 === 0 };
    }));
    return { cells, width: MARGIN + view.columns * CELL, height: view.rows * CELL + MARGIN, edges: [] };
  }
  const n = view.nodes.length;
  const radius = Math.max(120, n * 22);
  const centre = radius + 40;
  view.nodes.forEach((name, i) => {
    const angle = (2 * Math.PI * i) / n - Math.PI / 2;
    cells[name] = { x: centre + radius * Math.cos(angle) - CELL / 2,
      y: centre + radius * Math.sin(angle) - CELL / 2, mark: board[i], dark: false };
  });
  return { cells, width: 2 * centre, height: 2 * centre, edges: view.edges };
}

export default {
  seatColour(i) { return [t("White"), t("Black")][i]; },
  colourIsName: true,  // an unnamed seat is simply "White" or "Black"
  sound(view, before, last) { return last && last.player >= 0 ? "capture" : null; },  // every move takes a stone

  // The analysis board solves Clobber on a grid (not the cannibal variant): the position shown
  // opens there
  analysisLink(view, params) {
    if (!view.rows || !view.position || params.cannibal) return null;
    return `/analyse/clobber?position=${encodeURIComponent(view.position)}`;
  },

  howTo() {
    return t("Choose one of your outlined stones, then the enemy stone next to it to capture it.");
  },

  resultDetails(view, result, name) {
    // Clobber has no points: the last player able to move wins.
    const winner = result.returns.findIndex((r) => r > 0);
    if (winner < 0) return "";
    return t("{winner} made the last capture; {loser} had no move left.", { winner: name(winner), loser: name(1 - winner) });
  },

  render(root, model, ui) {
    const { view, legal, last, interactive } = model;
    // a player who holds Black alone sees the board from Black's side, as over a real board
    const flipped = Boolean(view.rows) && (model.mine || []).length === 1 && model.mine[0] === 1;
    const { cells, width, height, edges } = layout(view, flipped);
    const moves = legal.map((m) => ({ ...m, squares: parseMove(m.s) })).filter((m) => m.squares);
    const lastSquares = last && last.text ? parseMove(last.text) || [] : [];
    const selected = ui.memo.selected;
    const mover = view.to_move === "o" ? t("White") : t("Black");
    const pic = canvas(width, height, view.terminal ? t("Clobber board, game over")
      : t("Clobber board, {mover} to move", { mover }));
    const grid = Boolean(view.rows);
    let moved = null;

    for (const [a, b] of edges) {
      const p = cells[a];
      const q = cells[b];
      pic.append(svg("line", { x1: p.x + CELL / 2, y1: p.y + CELL / 2, x2: q.x + CELL / 2,
        y2: q.y + CELL / 2, stroke: "#a89676", "stroke-width": 3 }));
    }
    for (const [name, cell] of Object.entries(cells)) {
      const sources = moves.filter((m) => m.squares[0] === name);
      const target = selected ? moves.find((m) => m.squares[0] === selected && m.squares[1] === name) : null;
      const group = svg("g", { "data-square": name, class: interactive ? "clickable" : "" });
      if (grid) {
        group.append(svg("rect", { x: cell.x, y: cell.y, width: CELL, height: CELL,
          class: cell.dark ? "sq-dark" : "sq-light" }));
      } else {
        group.append(svg("circle", { cx: cell.x + CELL / 2, cy: cell.y + CELL / 2, r: CELL / 2 - 2,
          class: "sq-light", stroke: "#a89676" }));
        group.append(svg("text", { x: cell.x + CELL / 2, y: cell.y - 4, "text-anchor": "middle",
          class: "coord", text: name }));
      }
      if (lastSquares.includes(name)) {
        group.append(svg("rect", { x: cell.x + 2, y: cell.y + 2, width: CELL - 4, height: CELL - 4,
          class: "sq-last", "data-last": "1" }));
      }
      if (cell.mark === "o" || cell.mark === "x") {
        const stone = svg("circle", { cx: cell.x + CELL / 2, cy: cell.y + CELL / 2, r: CELL * 0.34,
          fill: cell.mark === "o" ? "#fbfaf5" : "#26221d", stroke: cell.mark === "o" ? "#6b6254" : "#000",
          "stroke-width": 2, "data-stone": cell.mark });
        group.append(stone);
        if (lastSquares.length === 2 && name === lastSquares[1]) moved = stone;
      }
      if (sources.length && !selected) {
        group.append(hint("rect", { x: cell.x + 4, y: cell.y + 4, width: CELL - 8, height: CELL - 8 },
          { class: "from-legal quiet-hint" }));
      }
      if (selected === name) {
        group.append(svg("rect", { x: cell.x + 3, y: cell.y + 3, width: CELL - 6, height: CELL - 6,
          rx: 8, class: "selected" }));
      }
      if (target) {
        group.append(hint("circle", { cx: cell.x + CELL / 2, cy: cell.y + CELL / 2, r: CELL * 0.42 },
          { "data-target": "1" }));
      }
      const what = STONE[cell.mark] || t("empty");
      const options = sources.map((m) => m.squares[1]);
      if (interactive && (sources.length || target || selected === name || (selected && cell.mark !== "."))) {
        let label = `${name}, ${what}`;
        if (target) label += t(": capture it with {selected}", { selected });
        else if (selected === name) label += t(", chosen: choose again to put it back");
        else if (options.length && !selected) {
          const or = t(" or ");
          label += t(", can capture {options}", { options: options.join(or) });
        }
        playable(group, label, () => {
          if (!selected) {
            ui.memo.selected = name;
            ui.say(sources.length ? "" : t("No move starts at {name}: choose one of the outlined stones.", { name }));
          } else if (selected === name) {
            ui.memo.selected = null;
          } else if (target) {
            ui.memo.selected = null;
            ui.step(target.a);
            return;
          } else {
            // Not a listed move: let the server say which rule forbids it.
            ui.memo.selected = null;
            ui.step(grid ? selected + name : `${selected}-${name}`);
            return;
          }
          ui.redraw(name);
        });
      } else if (interactive) {
        group.addEventListener("click", () => {
          if (selected) { ui.memo.selected = null; ui.step(grid ? selected + name : `${selected}-${name}`); return; }
          ui.say(t("No move starts at {name}: choose one of the outlined stones.", { name }));
        });
      }
      pic.append(group);
    }
    if (grid) {
      for (let c = 0; c < view.columns; c++) {
        const x = flipped ? view.columns - 1 - c : c;
        pic.append(svg("text", { x: MARGIN + x * CELL + CELL / 2, y: view.rows * CELL + 18,
          "text-anchor": "middle", class: "coord", text: FILES[c] }));
      }
      for (let r = 0; r < view.rows; r++) {
        const y = flipped ? view.rows - 1 - r : r;
        pic.append(svg("text", { x: MARGIN / 2, y: y * CELL + CELL / 2 + 4,
          "text-anchor": "middle", class: "coord", text: String(view.rows - r) }));
      }
    }
    if (flipped) pic.setAttribute("data-flipped", "1");
    root.replaceChildren(pic);
    if (model.animate && moved && lastSquares.length === 2) {
      // the stone slides from where it came from onto the stone it captured
      const from = cells[lastSquares[0]];
      const to = cells[lastSquares[1]];
      animate(moved, [{ transform: `translate(${from.x - to.x}px, ${from.y - to.y}px)` },
        { transform: "translate(0, 0)" }]);
    }
  },
};
