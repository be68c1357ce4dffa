"""The table's layout (issue 30, point 9): on a desktop the board's panel is as wide as the
board, with no empty band beside or under it; on a phone the chat, far down the page, is one
tap away and says when messages came; the lobby's "Open tables" panel, when it lists nothing,
waits under the game cards instead of taking the top of the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from parlour import list_games
from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots, named_context
from .pages import (
    WAIT_MS,
    axe_violations,
    boxes,
    on_screen,
    small_tap_targets,
    wait_my_turn,
    watch_errors,
)

ME = {"kind": "me", "name": "Ada"}
COMPUTER = {"kind": "ai", "agent": "easy"}
SLACK_PX = 30  # the panel's padding and border, both sides, and a little more


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("game", list_games())
def test_the_board_panel_fits_the_board(server: Server, browser: Browser, game: str, size: str):
    table = server.create(game, seats=[ME, COMPUTER])
    context = named_context(browser, "Ada", size)
    page = context.new_page()
    try:
        page.goto(server.base + table["url"])
        wait_my_turn(page)
        page.wait_for_selector("#board svg.board-pic")
        panel = boxes(page, "#board")[0]
        content = boxes(page, "#board svg.board-pic, #board .gob-tray, #board .controls button")
        left = min(b["left"] for b in content)
        right = max(b["right"] for b in content)
        assert panel["right"] - panel["left"] - (right - left) <= SLACK_PX, (panel, left, right)
        board = boxes(page, "#board svg.board-pic")[0]
        width = page.viewport_size["width"]
        if size == "phone":  # the whole width of the screen, less the page's margins
            assert board["right"] - board["left"] >= width - 40
        else:  # the board is as big as the screen's height allows, and wholly on it
            assert board["bottom"] <= page.viewport_size["height"]
            assert board["bottom"] - board["top"] >= 380
        # nothing but the panel's padding under the last thing in it
        last = max(b["bottom"] for b in boxes(page, "#board *"))
        assert panel["bottom"] - last <= SLACK_PX
    finally:
        context.close()


def test_on_a_phone_the_chat_is_one_tap_away_and_counts_new_messages(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str,
):
    table = server.create("clobber")  # Ada, and an invited friend
    host = named_context(browser, "Ada", "desktop")
    guest = named_context(browser, "Bo", "phone")
    ada, bo = host.new_page(), guest.new_page()
    errors = watch_errors(ada) + watch_errors(bo)
    try:
        ada.goto(server.base + table["url"])
        bo.goto(server.base + table["invites"][0]["url"])
        for page in (ada, bo):
            page.wait_for_selector("#board svg.board-pic")
        # the header's chat button, from the top of the page; nothing in the corner yet
        header = bo.locator("#chat-link")
        assert on_screen(bo, "#chat-link") and not on_screen(bo, "#chat-text")
        assert header.get_attribute("aria-label") == "Go to the chat"
        assert bo.locator("#chat-jump").is_hidden()
        assert small_tap_targets(bo, "#chat-link") == []
        for page in (ada,):  # a desktop shows the chat beside the board: no chat buttons
            assert page.locator("#chat-link").is_hidden() and page.locator("#chat-jump").is_hidden()
        for text in ("Good luck!", "Your move"):
            ada.fill("#chat-text", text)
            ada.click("#chat-form button[type=submit]")
        bo.wait_for_function(
            "document.querySelector('#chat-jump .chat-count').textContent === '2'", timeout=WAIT_MS)
        # the count is in the corner of the screen, and on the header's button
        corner = bo.locator("#chat-jump")
        corner.wait_for()
        assert on_screen(bo, "#chat-jump")
        assert corner.get_attribute("aria-label") == "Chat: 2 new messages"
        assert header.get_attribute("aria-label") == "Chat: 2 new messages"
        assert bo.locator("#chat-link .chat-count").inner_text() == "2"
        found = [v for v in axe_violations(bo, axe_source) if "chat-" in str(v["targets"])]
        assert found == []
        screenshots.save(bo, "phone-chat-button.png", full=False)
        corner.click()
        bo.wait_for_function("document.activeElement && document.activeElement.id === 'chat-text'",
                             timeout=WAIT_MS)
        bo.wait_for_selector("#chat-jump", state="hidden")
        assert on_screen(bo, "#chat-text")
        assert bo.locator("#chat-link .chat-count").is_hidden()  # read
        assert bo.locator("#chat-log li").all_inner_texts()[-1].endswith("Your move")
        # and back at the top, the header's button goes there too
        bo.evaluate("window.scrollTo(0, 0)")
        bo.locator("#chat-text").blur()
        header.click()
        bo.wait_for_function("document.activeElement && document.activeElement.id === 'chat-text'",
                             timeout=WAIT_MS)
        assert errors == []
    finally:
        host.close()
        guest.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_an_empty_open_tables_panel_waits_under_the_games(
    server: Server, browser: Browser, size: str,
):
    context = named_context(browser, "Bo", size)
    page = context.new_page()
    # the panel is made once the lobby knows the games (after the page's load, at times)
    order = """() => { const p = document.querySelector('#public-lobby');
        if (!p || p.hidden) return 'hidden';
        return p.compareDocumentPosition(document.querySelector('#cards'))
            & Node.DOCUMENT_POSITION_FOLLOWING ? 'before' : 'after'; }"""
    try:
        listed = server.get("/api/tables").json()
        page.goto(server.base + "/")
        page.wait_for_function(f"({order})() !== 'hidden'", timeout=WAIT_MS)
        if not listed["open"] and not listed["playing"]:
            assert page.evaluate(order) == "after"
            first_card = boxes(page, ".card")[0]
            assert first_card["top"] < 260  # the games come first
        # a table anyone may join: the panel comes first, to take a seat at it
        seats = [{"kind": "me", "name": "Ada"}, {"kind": "open"}]
        response = server.post("/api/tables",
                               {"game": "clobber", "params": {}, "open": True, "seats": seats})
        assert response.status_code == 201, response.text
        page.wait_for_function(f"({order})() === 'before'", timeout=WAIT_MS)
        # (with games being played from earlier tests the panel came first already: the new
        # table shows at the lobby's next look, every 4 s)
        page.locator("#open-list li", has=page.locator(
            f"a[href='/watch/{response.json()['table']}']")).wait_for(timeout=WAIT_MS)
    finally:
        context.close()
