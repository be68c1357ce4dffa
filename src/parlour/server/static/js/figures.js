// Positions drawn outside a live table, with the game's own board code as the table would:
// the pictures of the rules (the rules page and the table's Rules dialog: the server puts the
// engine's view of each example position in a [data-board] element, nothing to click), and
// the tutorial's and the puzzles' boards.
import { t } from "./i18n.js";

const NAMES = (i) => t("Player {n}", { n: i + 1 });

export function drawFigures(root, renderer) {
  for (const box of root.querySelectorAll("[data-board]")) {
    let data;
    try { data = JSON.parse(box.dataset.board); } catch { continue; }
    const keep = {};
    const draw = () => drawPosition(renderer, box, data, { hooks: { keep, redraw: draw } });
    draw();
  }
}

// One position drawn outside a live table (a rules picture, a tutorial's step, a puzzle):
// the table's own board code, with no turns behind it. ``position`` is the server's
// {view, legal, last, viewer, to_act, previous, mine}; ``hooks`` the renderer's callbacks
// (what a click does, its memory between draws), none by default: nothing to click.
export function drawPosition(renderer, box, position,
  { interactive = false, pending = [], seatName = NAMES, animate = false, hooks = {} } = {}) {
  renderer.render(box, {
    view: position.view, legal: interactive ? position.legal : [], last: position.last,
    viewer: position.viewer, toAct: position.to_act, interactive, pending,
    previous: position.previous ?? null, seatName, shortName: seatName, animate,
    lastTurn: null, recentTurns: [], mine: position.mine ?? [],
  }, { step: () => {}, replace: () => {}, say: () => {}, memo: {}, keep: {}, redraw: () => {},
    ...hooks });
}

export async function loadRenderer(game) {
  const module = await import(`./boards/${game.replace(/-/g, "_")}.js`)
    .catch(() => import("./boards/generic.js"));
  return module.default;
}
