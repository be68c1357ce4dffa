"""A Clobber player who holds Black sees the board from Black's side, in real Chromium at
desktop and phone sizes (issue 65 item 9): a1 sits at the top right, and White's board, the
spectators' and a hot-seat board stay as they are."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import ServerProcess as Server

from .conftest import SIZES, Screenshots, named_context
from .pages import watch_errors


def _where(page: Page, *squares: str) -> list[tuple[float, float]]:
    """Where the squares are drawn, read at once (the board may be drawn again between
    two reads when the computer moves)."""
    found = page.evaluate(
        """(names) => names.map((n) => {
             const r = document.querySelector(`#board [data-square="${n}"] rect`);
             const b = r.getBoundingClientRect();
             return [b.x, b.y];
           })""", list(squares))
    return [(x, y) for x, y in found]


@pytest.mark.parametrize("size", list(SIZES))
def test_black_sees_the_board_turned_round(
    server: Server, browser: Browser, screenshots: Screenshots, size: str
):
    black = server.create("clobber", seats=[{"kind": "ai", "agent": "random"}, {"kind": "me"}])
    white = server.create("clobber", seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}])
    context = named_context(browser, "Ada", size)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server.base + black["url"])
        page.wait_for_selector("#board svg[data-flipped]")
        (a1x, a1y), (f5x, f5y) = _where(page, "a1", "f5")
        assert a1x > f5x and a1y < f5y, "a1 at the top right, f5 at the bottom left"
        screenshots.save(page, f"clobber-black-{size}.png", full=False)
        for url in (white["url"], white["watch"]):
            page.goto(server.base + url)
            page.wait_for_selector('#board [data-square="a1"]')
            assert page.locator("#board svg[data-flipped]").count() == 0
            (a1x, a1y), (f5x, f5y) = _where(page, "a1", "f5")
            assert a1x < f5x and a1y > f5y, "a1 at the bottom left"
        assert errors == []
    finally:
        context.close()
