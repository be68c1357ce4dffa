"""Invitations: until the invited friend opens their link, the host sees that the friend has
not joined, with the invitation link to send (and a Copy button) above the board, never a bare
"Your turn". The host may make the first move (it waits for the friend, as in a correspondence
game); at a table with a clock the page says the friend's time would start. Once the friend
arrives, the banner goes. At 1280 x 800 and 390 x 844."""

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
def test_the_host_sees_the_friend_has_not_joined_and_the_link_to_send(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    table = server.create("clobber", {}, seats=[{"kind": "me", "name": "Ada"}, {"kind": "invite"}])
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
        assert status.startswith("Your turn") and "has not joined yet" in status
        assert "Waiting for" in banner.inner_text() and "to join" in banner.inner_text()
        assert banner.locator(".link-text").inner_text() == invite
        assert banner.get_by_role("button", name="Copy the link").count() == 1
        assert "first move" in banner.inner_text() and "clock" not in banner.inner_text()
        box = banner.bounding_box()  # the link is on the first screen, above the board
        assert box is not None and box["y"] + box["height"] <= (800 if size == "desktop" else 844)
        assert horizontal_overflow(host) == 0
        assert axe_violations(host, axe_source) == []
        screenshots.save(host, f"invitation-waiting-{size}.png")

        # the host may move first: the move waits for the friend
        move = latest(host)["legal"][0]["s"]
        host.click(f"#board [data-square='{move[:2]}']")
        host.click(f"#board [data-square='{move[2:]}']")
        wait_version(host, 1)
        assert "to join the table" in host.inner_text("#status")
        assert host.is_visible("#arrivals")

        friend = friend_context.new_page()
        _open(friend, invite)
        host.wait_for_function("window.parlour.latest.seats[1].name === 'Bea'", timeout=WAIT_MS)
        banner.wait_for(state="hidden")
        assert "Bea" in host.inner_text("#status") and "join" not in host.inner_text("#status")
        assert friend.is_hidden("#arrivals")
        assert latest(friend)["legal"]  # the host's move was waiting for her
        screenshots.save(host, f"invitation-joined-{size}.png")
        assert errors == []
    finally:
        host_context.close()
        friend_context.close()


def test_at_a_table_with_a_clock_the_host_is_told_the_friends_time_would_run(
    server: Server, browser: Browser, screenshots: Screenshots
):
    created = server.post("/api/tables", {
        "game": "clobber", "seats": [{"kind": "me"}, {"kind": "invite"}],
        "clock": {"per_move": 3600},
    })
    assert created.status_code == 201
    table = created.json()
    context = named_context(browser, "Ada")
    page = context.new_page()
    try:
        _open(page, server.base + table["url"])
        banner = page.locator("#arrivals")
        banner.wait_for(state="visible")
        assert "clock" in banner.inner_text() and "time runs" in banner.inner_text()
        screenshots.save(page, "invitation-waiting-clock-desktop.png")
    finally:
        context.close()


def test_a_spectator_and_a_computer_table_show_no_invitation(server: Server, browser: Browser):
    invited = server.create("clobber", {}, seats=[{"kind": "me"}, {"kind": "invite"}])
    versus = server.create("clobber", {}, seats=[{"kind": "me"}, {"kind": "ai", "agent": "easy"}])
    context = named_context(browser, "Ada")
    page = context.new_page()
    try:
        _open(page, server.base + invited["watch"])
        assert page.is_hidden("#arrivals") and "join" not in page.inner_text("#status")
        _open(page, server.base + versus["url"])
        assert page.is_hidden("#arrivals")
        assert page.inner_text("#status").startswith("Your turn")
    finally:
        context.close()
