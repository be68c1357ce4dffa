"""Fair play: "Analyse this position" (which names the winning move) is never offered while two
people play each other, neither to them nor to a spectator, in the live game or its replay so
far; it is offered once the game is over, in its replay, and at tables with no human opponent
(against the computer, hot-seat). At 1280 x 800 and 390 x 844."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots, named_context
from .pages import WAIT_MS, latest, wait_version, watch_errors

SMALL = {"rows": 3, "columns": 4}


def _open(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("window.parlour && window.parlour.latest", timeout=WAIT_MS)


def _move(page: Page) -> None:
    move = latest(page)["legal"][0]["s"]
    page.click(f"#board [data-square='{move[:2]}']")
    page.click(f"#board [data-square='{move[2:]}']")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_analysis_while_two_people_play_then_analysis_after(
    server: Server, browser: Browser, screenshots: Screenshots, size: str
):
    table = server.create("clobber", SMALL, seats=[{"kind": "me"}, {"kind": "invite"}])
    contexts = [named_context(browser, name, size) for name in ("Ada", "Bea", None)]
    ada, bea, watcher = (c.new_page() for c in contexts)
    errors = [watch_errors(p) for p in (ada, bea, watcher)]
    try:
        _open(ada, server.base + table["url"])
        _open(bea, server.base + table["invites"][0]["url"])
        _open(watcher, server.base + table["watch"])
        _move(ada)
        for page in (ada, bea, watcher):
            wait_version(page, 1)
            assert page.is_hidden("#analyse-link")
        _move(bea)
        for page in (ada, bea, watcher):
            wait_version(page, 2)
            assert page.is_hidden("#analyse-link")
            assert page.locator("#analyse-link").get_attribute("href") is None
        ada.click("#replay-any")  # the replay of a game still being played: no analysis either
        ada.click("#replay-prev")
        assert ada.is_hidden("#analyse-link")
        screenshots.save(ada, f"fair-play-live-{size}.png")
        ada.click("#replay-exit")

        bea.get_by_role("button", name="Resign").click()
        bea.click("#resign-confirm")  # the page's own dialog
        for page in (ada, bea, watcher):
            page.wait_for_function("window.parlour.latest.terminal", timeout=WAIT_MS)
            link = page.locator("#analyse-link")
            link.wait_for(state="visible")
            assert "position=" in (link.get_attribute("href") or "")
        ada.click("#replay-button")
        ada.click("#replay-prev")
        assert ada.is_visible("#analyse-link")
        screenshots.save(ada, f"fair-play-over-{size}.png")
        assert errors == [[], [], []]
    finally:
        for context in contexts:
            context.close()


def test_analysis_is_offered_with_no_human_opponent(server: Server, browser: Browser):
    versus = server.create("clobber", SMALL,
                           seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}])
    hotseat = server.create("clobber", SMALL, seats=[{"kind": "me"}, {"kind": "hotseat"}])
    context = named_context(browser, "Ada")
    page = context.new_page()
    try:
        for url in (versus["url"], versus["watch"], hotseat["url"]):
            _open(page, server.base + url)
            assert latest(page)["terminal"] is False
            page.locator("#analyse-link").wait_for(state="visible")
        _open(page, server.base + hotseat["watch"])  # a spectator of two people at one screen
        assert page.is_hidden("#analyse-link")
    finally:
        context.close()
