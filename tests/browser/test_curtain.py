"""The hot-seat curtain (issue 62): while "Pass the screen to ..." is up, nothing of the next
seat's view is on the page at all, not merely covered: no rack, no face-down tile, no board,
no list of moves, neither in the page's elements nor in a picture of the screen (nothing
shows through the curtain). Lifting it draws that seat's board and rack. GobbleStones with
bluffing, two seats at one screen, at 1280 x 800 and 390 x 844."""

from __future__ import annotations

import base64
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots, named_context
from .pages import WAIT_MS, latest, watch_errors

HOTSEAT = [{"kind": "hotseat"}, {"kind": "hotseat"}]
HIDDEN = ("[data-rack]", "[data-tile]", "#board *", "#private *", "#legal-list *",
          "[data-move]", "[data-revealed-rack]")

# The screenshot, decoded in the page: how many of its pixels, outside the curtain's sentence
# and button (with a margin for their anti-aliased edges), differ from the curtain's colour.
SHOWS_THROUGH = """async (png) => {
  const image = new Image();
  image.src = 'data:image/png;base64,' + png;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width; canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, image.width, image.height).data;
  const scale = image.width / window.innerWidth, margin = 8;
  const boxes = ['#curtain-text', '#curtain-go'].map(s => document.querySelector(s)
    .getBoundingClientRect()).map(r => [(r.left - margin) * scale, (r.top - margin) * scale,
    (r.right + margin) * scale, (r.bottom + margin) * scale]);
  const colour = getComputedStyle(document.querySelector('#curtain')).backgroundColor
    .match(/[\\d.]+/g).map(Number);
  let differ = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (boxes.some(([l, t, r, b]) => x >= l && x <= r && y >= t && y <= b)) continue;
      const i = (y * image.width + x) * 4;
      if (Math.abs(data[i] - colour[0]) + Math.abs(data[i + 1] - colour[1]) +
          Math.abs(data[i + 2] - colour[2]) > 3) differ++;
    }
  }
  return {differ, width: image.width, height: image.height, colour};
}"""


def _curtain_for(page: Page, seat: int) -> dict[str, Any]:
    """Wait until the curtain is up for ``seat`` (the page has that seat's view in hand)."""
    page.wait_for_function(
        f"() => window.parlour.latest && window.parlour.latest.viewer === {seat} && "
        "document.querySelector('#curtain').classList.contains('on')", timeout=WAIT_MS)
    return latest(page)


def _nothing_hidden_drawn(page: Page, screenshots: Screenshots, name: str) -> None:
    assert page.is_visible("#curtain")
    assert page.inner_text("#curtain-text").startswith("Pass the screen to ")
    drawn = {selector: page.locator(selector).count() for selector in HIDDEN}
    assert drawn == dict.fromkeys(HIDDEN, 0)
    assert "rack" not in page.inner_text("main").lower()
    picture = screenshots.save(page, name, full=False)
    found = page.evaluate(SHOWS_THROUGH, base64.b64encode(picture.read_bytes()).decode())
    assert found["differ"] == 0, found


def _lift(page: Page, seat: int) -> dict[str, Any]:
    page.click("#curtain-go")
    page.wait_for_selector("#curtain", state="hidden")
    state = latest(page)
    assert state["viewer"] == seat
    if state["view"]["rack"]:
        page.wait_for_selector("[data-rack]")
        shown = page.locator("[data-rack]").evaluate_all("els => els.map(e => e.dataset.rack)")
        assert "".join(shown) == state["view"]["rack"]  # this seat's own rack, once lifted
    return state


def _square(page: Page, square: str) -> None:
    """Click a square, first going to its part of the board on a phone."""
    if page.locator(f"#board g[data-square='{square}']").count() == 0:
        row, col = 15 - int(square[1:]), "abcdefghijklmno".index(square[0])
        page.locator(f"[data-section='{(row // 5) * 3 + col // 5}']").click()
    page.locator(f"#board g[data-square='{square}']").click()


def _play(page: Page) -> None:
    """One play by clicking: a tile's colour and square, more squares until it may end, End."""
    state = latest(page)
    first = next(m for m in state["legal"] if re.fullmatch(r"[a-o]\d+:[rygbp]", m["s"]))
    page.click(f"[data-rack='{first['s'][-1].upper()}'] >> nth=0")
    _square(page, first["s"].split(":")[0])
    page.wait_for_function("window.parlour.pending.length === 1", timeout=WAIT_MS)
    for _ in range(5):  # add highlighted squares until the play may end (B3, B4)
        if page.locator("[data-move='end']").count():
            break
        steps = page.evaluate("window.parlour.pending.length")
        if not page.locator("button[data-rack][aria-pressed='true']").count():
            page.locator("button[data-rack]").first.click()  # that colour ran out
        page.locator(".from-legal").first.click(force=True)
        page.wait_for_function(f"() => window.parlour.pending.length > {steps}",
                               timeout=WAIT_MS)
    page.click("[data-move='end']")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_nothing_of_the_next_seat_is_drawn_under_the_curtain(
    server: Server, browser: Browser, screenshots: Screenshots, size: str
):
    table = server.create("gobblestones", {"bluff": True}, seats=HOTSEAT)
    context = named_context(browser, None, size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + table["url"])
        state = _curtain_for(page, 0)  # the first player is asked for first
        assert state["view"]["rack"]  # the page holds the rack it does not draw
        _nothing_hidden_drawn(page, screenshots, f"curtain-first-{size}.png")
        _lift(page, 0)
        _play(page)
        state = _curtain_for(page, 1)  # the second player decides: the screen passes
        _nothing_hidden_drawn(page, screenshots, f"curtain-second-{size}.png")
        _lift(page, 1)
        page.click("[data-move='trust']")
        page.wait_for_function(
            f"() => window.parlour.latest.version > {state['version']} && "
            "window.parlour.latest.legal.some(m => /:[rygbp]$/.test(m.s))", timeout=WAIT_MS)
        _play(page)
        state = _curtain_for(page, 0)  # the first player decides, their tiles face down
        assert state["view"]["owners"], "the first player's own face-down tiles are in its view"
        _nothing_hidden_drawn(page, screenshots, f"curtain-face-down-{size}.png")
        _lift(page, 0)
        assert page.locator("[data-tile]").count() > 0
        assert page.locator("[data-move='trust']").count() == 1
        screenshots.save(page, f"curtain-lifted-{size}.png", full=False)
        assert errors == []
    finally:
        context.close()
