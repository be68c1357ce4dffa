"""Every game's board draws, offers its legal moves to click, and takes a move by click."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from parlour import list_games
from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots
from .pages import WAIT_MS, wait_my_turn, wait_version, watch_errors


@pytest.mark.parametrize("game", [g for g in list_games() if g not in ("clobber", "gobblestones")])
def test_board_takes_a_move_by_click_and_is_photographed(
    server: Server, browser: Browser, screenshots: Screenshots, game: str
):
    table = server.create(game, seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}])
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + table["url"])
        page.wait_for_selector("#board svg")
        seen = wait_my_turn(page)
        clickable = page.locator(".from-legal")
        if clickable.count():
            clickable.first.click(force=True)
        else:
            page.locator("[data-move]").first.click()
        # one click is a whole turn, or the first step of one (previewed, then continued)
        page.wait_for_function(
            f"() => window.parlour.latest.version > {seen['version']} "
            "|| window.parlour.pending.length",
            timeout=WAIT_MS,
        )
        pending = "window.parlour.pending.length"
        while page.evaluate(pending) and page.locator(".from-legal").count():
            page.locator(".from-legal").first.click(force=True)
            page.wait_for_function("() => !window.parlour.busy", timeout=WAIT_MS)
        wait_version(page, seen["version"] + 1)
        screenshots.save(page, f"{game}-board.png")
        assert errors == []
    finally:
        context.close()
