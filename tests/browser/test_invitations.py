"""Invitations: the game waits for the invited friend. Until they open their link the host
sees that the game waits for them ("Waiting for Black to join"), with the invitation link
to send (and a Copy button) above the board, no move to make and no clock running; when the
friend arrives the game starts, the banner goes and the host may move. At 1280 x 800 and
390 x 844."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots, named_context
from .pages import WAIT_MS, axe_violations, horizontal_overflow, latest, wait_version, watch_errors


def _open(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("window.parlour && window.parlour.latest", timeout=WAIT_MS)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_game_waits_for_the_friend_and_starts_when_they_arrive(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    created = server.post("/api/tables", {
        "game": "clobber", "seats": [{"kind": "me", "name": "Ada"}, {"kind": "invite"}],
        "clock": {"initial": 300, "increment": 5}})
    assert created.status_code == 201, created.text
    table = created.json()
    invite = server.base + table["invites"][0]["url"]
    host_context = named_context(browser, "Ada", size)
    friend_context = named_context(browser, "Bea", size)
    host = host_context.new_page()
    errors = watch_errors(host)
    try:
        _open(host, server.base + table["url"])
        banner = host.locator("#arrivals")
        banner.wait_for(state="visible")
        status = host.inner_text("#status")
        assert "Waiting for Black to join" in status and "game starts" in status
        assert "Your turn" not in status
        text = banner.inner_text()
        assert "Waiting for Black to join" in text
        assert "Nobody can move, and no clock runs" in text and "lasts until" in text
        assert banner.locator(".link-text").inner_text() == invite
        assert banner.get_by_role("button", name="Copy the link").count() == 1
        box = banner.bounding_box()  # the link is on the first screen, above the board
        assert box is not None and box["y"] + box["height"] <= (800 if size == "desktop" else 844)
        assert horizontal_overflow(host) == 0
        assert axe_violations(host, axe_source) == []
        screenshots.save(host, f"invitation-waiting-{size}.png")

        # nothing to click: no move is offered, and a click on a stone does nothing
        waiting = latest(host)
        assert waiting["legal"] == [] and waiting["clock"]["running"] is None
        assert host.locator("#board .clickable").count() == 0
        host.click("#board [data-square='a1']")
        # a move would be on its way at once (sent from the click's own handler): none is
        assert not host.evaluate("window.parlour.busy || window.parlour.pending.length")
        assert latest(host)["version"] == waiting["version"]

        friend = friend_context.new_page()
        _open(friend, invite)
        host.wait_for_function("window.parlour.latest.started === true", timeout=WAIT_MS)
        banner.wait_for(state="hidden")
        host.wait_for_function("window.parlour.latest.seats[1].name === 'Bea'", timeout=WAIT_MS)
        started = latest(host)
        assert started["legal"] and started["clock"]["running"] == 0
        assert host.inner_text("#status").startswith("Your turn")
        assert friend.is_hidden("#arrivals")
        screenshots.save(host, f"invitation-started-{size}.png")

        move = started["legal"][0]["s"]
        host.click(f"#board [data-square='{move[:2]}']")
        host.click(f"#board [data-square='{move[2:]}']")
        wait_version(friend, started["version"] + 1)
        assert latest(friend)["legal"]  # now it is Bea's turn
        assert errors == []
    finally:
        host_context.close()
        friend_context.close()


def test_a_spectator_and_a_computer_table_show_no_invitation(server: Server, browser: Browser):
    invited = server.create("clobber", {}, seats=[{"kind": "me"}, {"kind": "invite"}],
                            arrive=False)
    versus = server.create("clobber", {}, seats=[{"kind": "me"}, {"kind": "ai", "agent": "easy"}])
    context = named_context(browser, "Ada")
    page = context.new_page()
    try:
        _open(page, server.base + invited["watch"])
        # a spectator is told whom the game waits for, but shown no invitation link
        assert page.is_hidden("#arrivals")
        assert "Waiting for Black to join" in page.inner_text("#status")
        _open(page, server.base + versus["url"])
        assert page.is_hidden("#arrivals")
        assert page.inner_text("#status").startswith("Your turn")
    finally:
        context.close()
