// Pictures of real positions in the rules (the rules page and the table's Rules dialog). The
// server puts the engine's view of each example position in a [data-board] element; this
// draws it with the game's own board code, as the table would, with nothing to click.
import { t } from "./i18n.js";

const NAMES = (i) => t("Player {n}", { n: i + 1 });

export function drawFigures(root, renderer) {
  for (const box of root.querySelectorAll("[data-board]")) {
    let data;
    try { data = JSON.parse(box.dataset.board); } catch { continue; }
    const keep = {};
    const draw = () => renderer.render(box, {
      view: data.view, legal: [], last: data.last, viewer: data.viewer, toAct: data.to_act,
      interactive: false, pending: [], previous: data.previous, seatName: NAMES, shortName: NAMES,
      animate: false, lastTurn: null, recentTurns: [], mine: [],
    }, { step: () => {}, replace: () => {}, say: () => {}, memo: {}, keep, redraw: draw });
    draw();
  }
}

export async function loadRenderer(game) {
  const module = await import(`./boards/${game.replace(/-/g, "_")}.js`)
    .catch(() => import("./boards/generic.js"));
  return module.default;
}
