// The rules page: the text comes from the server; its example positions are drawn here.
import { drawFigures, loadRenderer } from "./figures.js";
import "./i18n.js";  // the header's language choice

const game = document.body.dataset.game;
let renderer = null;

async function main() {
  renderer = await loadRenderer(game);
  drawFigures(document, renderer);
}

window.addEventListener("resize", () => { if (renderer) drawFigures(document, renderer); });
main();
