"""The table does not scroll under the player (issue 65, item 8), in Chromium at a desktop's
1280 x 800 and a phone's 390 x 844: in a clocked game, whose clocks take a line above the board,
the whole board and its header stay on the screen while the player plays (a click on a square off
the screen would scroll the page, and the header with it); in a four-player Stomp the Plank the
status line, the planks and the buttons the player acts on stay on the screen turn after turn,
and the status line stays on the screen while the player scrolls down to the rest of the page.

Every click is Playwright's, which scrolls the page when what it clicks is not on the screen:
so a page that did not fit would show here as a header moved off the top."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import ServerProcess as Server

from .conftest import SIZES, Screenshots, named_context
from .pages import WAIT_MS, boxes, latest, on_screen, wait_my_turn, watch_errors

CLOCK = {"initial": 600, "increment": 5}


def _table(server: Server, game: str, params: dict[str, Any], players: int,
           clock: dict[str, Any] | None) -> dict[str, Any]:
    seats = [{"kind": "me", "name": "Ada"}] + [{"kind": "ai", "agent": "easy"}] * (players - 1)
    body: dict[str, Any] = {"game": game, "params": params, "seats": seats}
    if clock is not None:
        body["clock"] = clock
    response = server.post("/api/tables", body)
    assert response.status_code == 201, response.text
    return response.json()


def _header_whole(page: Page) -> None:
    """The header starts at the top of the screen, all of it shown, and the page is not
    scrolled."""
    header = boxes(page, "header.bar")[0]
    assert header["top"] >= 0, header
    assert header["bottom"] - header["top"] >= 40, header  # its own height, nothing cut
    assert page.evaluate("window.scrollY") == 0


def _settled(page: Page, version: int) -> dict[str, Any]:
    page.wait_for_function(
        f"() => !window.parlour.busy && (window.parlour.latest.version > {version} || "
        "window.parlour.latest.terminal)", timeout=WAIT_MS)
    return wait_my_turn(page)


def _room_measured(page: Page) -> None:
    """The page has measured the room for the board (boardfit.js) after its last drawing."""
    page.wait_for_function(
        "() => document.querySelector('.play-area').style.getPropertyValue('--room') !== ''",
        timeout=WAIT_MS)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => "
                  "requestAnimationFrame(done)))")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_clocked_game_keeps_its_header_and_board_on_the_screen(
    server: Server, browser: Browser, screenshots: Screenshots, size: str
):
    table = _table(server, "clobber", {}, 2, CLOCK)
    context = named_context(browser, "Ada", size)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server.base + table["url"])
        state = wait_my_turn(page)
        page.wait_for_selector("#clock-panel:not([hidden]) .clock")
        _room_measured(page)
        screenshots.save(page, f"table-clocked-in-view-{size}.png", full=False)
        _header_whole(page)
        assert on_screen(page, "#clock-panel"), boxes(page, "#clock-panel")
        assert on_screen(page, "#board g[data-square]"), "a square of the board is off the screen"
        for _ in range(4):  # the last row first: the squares nearest the bottom of the screen
            if state["terminal"]:
                break
            version = state["version"]
            page.locator("#board [role=button]").last.click()
            page.locator("#board g[data-square]:has([data-target])").last.click()
            state = _settled(page, version)
            _room_measured(page)
            _header_whole(page)
            assert on_screen(page, "#status")
            assert on_screen(page, "#board g[data-square]")
        assert latest(page)["clock"] is not None
        screenshots.save(page, f"table-clocked-after-moves-{size}.png", full=False)
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("clock", [None, CLOCK], ids=["no-clock", "clock"])
@pytest.mark.parametrize("size", list(SIZES))
def test_four_at_stomp_the_plank_keep_the_status_planks_and_buttons_in_view(
    server: Server, browser: Browser, screenshots: Screenshots, size: str,
    clock: dict[str, Any] | None,
):
    table = _table(server, "stomp-the-plank", {"players": 4}, 4, clock)
    kind = "clock" if clock else "none"
    context = named_context(browser, "Ada", size)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server.base + table["url"])
        state = wait_my_turn(page)
        page.wait_for_selector("#board [data-move]")
        turns = 0
        while not state["terminal"] and turns < 8:
            _room_measured(page)
            if turns == 0:  # the first turn has the how-to line above the board too
                assert page.locator("#howto").is_visible()
                screenshots.save(page, f"plank-four-first-turn-{size}-{kind}.png", full=False)
            _header_whole(page)
            assert on_screen(page, "#status"), boxes(page, "#status")
            assert on_screen(page, "#board [data-plank]"), boxes(page, "#board [data-plank]")
            assert on_screen(page, "#board [data-move]"), boxes(page, "#board [data-move]")
            if clock is not None:
                assert on_screen(page, "#clock-panel .clock"), boxes(page, "#clock-panel .clock")
            version = state["version"]
            stop = page.locator("[data-move='stop']")
            if stop.count() and len(state["view"]["pontoon"]) >= 2:
                stop.click()
            else:
                page.locator("[data-move='draw']").click()
            state = _settled(page, version)
            turns += 1
        assert turns >= 2, "the game ended before the player had two turns"
        screenshots.save(page, f"plank-four-later-{size}-{kind}.png", full=False)
        # scrolled down to the players and the moves, the status line stays on a phone's screen
        if size == "phone":
            page.evaluate("window.scrollTo(0, 400)")
            page.wait_for_function("window.scrollY >= 300")
            assert on_screen(page, "#status"), boxes(page, "#status")
            screenshots.save(page, f"plank-four-scrolled-{size}.png", full=False)
        assert errors == []
    finally:
        context.close()
