"""Open tables in the lobby, a ticking clock and the chat, in Chromium at a desktop's and a
phone's size: one person opens a table to the lobby, another (a second browser profile) takes
the free seat from the lobby list; both see the clock tick; they chat (as text only)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots, named_context
from .pages import WAIT_MS, axe_violations, horizontal_overflow, latest, watch_errors


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_an_open_table_joined_from_the_lobby_with_a_clock_and_chat(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    host_context = named_context(browser, "Ada", size)
    guest_context = named_context(browser, "Grace", size)
    try:
        host = host_context.new_page()
        host_errors = watch_errors(host)
        host.goto(server.base + "/")
        card = host.locator("[data-game='clobber']")
        # the card's one clock choice, beside its buttons
        card.get_by_label("Clock", exact=True).select_option(label="3 min + 2 s")
        card.get_by_role("button", name="Open table: anyone may join").click()
        host.wait_for_url("**/play/*", timeout=WAIT_MS)
        host.wait_for_function(
            "() => document.querySelector('#status').textContent.includes('Waiting for players')",
            timeout=WAIT_MS,
        )
        table_id = latest(host)["table"]

        guest = guest_context.new_page()
        guest_errors = watch_errors(guest)
        guest.goto(server.base + "/")
        row = guest.locator("#open-list li", has=guest.locator(f"a[href='/watch/{table_id}']"))
        row.wait_for(timeout=WAIT_MS)
        assert "3 min + 2 s" in row.inner_text()
        screenshots.save(guest, f"lobby-open-tables-{size}.png")
        assert horizontal_overflow(guest) == 0
        assert axe_violations(guest, axe_source) == []
        row.get_by_role("button", name="Take a seat").first.click()
        guest.wait_for_url("**/play/*", timeout=WAIT_MS)
        guest.wait_for_function("() => window.parlour.latest && window.parlour.latest.started",
                                timeout=WAIT_MS)
        host.wait_for_function("() => window.parlour.latest.started", timeout=WAIT_MS)

        clock = host.locator("#clocks .clock.running .clock-time")
        clock.wait_for(timeout=WAIT_MS)
        first = clock.inner_text()
        assert first.startswith(("3:00", "2:5"))
        host.wait_for_function(  # it ticks in the page between messages (none comes meanwhile)
            "([first, version]) => document.querySelector('#clocks .clock.running .clock-time')"
            ".textContent !== first && window.parlour.latest.version === version",
            arg=[first, latest(host)["version"]], timeout=WAIT_MS)

        hostile = "<b>bold?</b> hello"
        host.locator("#chat-text").fill(hostile)
        host.locator("#chat-form button[type=submit]").click()
        said = guest.locator("#chat-log li").last
        said.wait_for(timeout=WAIT_MS)
        guest.wait_for_function(
            "() => document.querySelector('#chat-log').textContent.includes('hello')",
            timeout=WAIT_MS,
        )
        assert said.inner_text().endswith(hostile)  # shown as typed: text, never markup
        assert guest.locator("#chat-log b").count() == 0
        assert "Ada" in said.inner_text()
        screenshots.save(host, f"table-clock-chat-{size}.png")
        assert horizontal_overflow(host) == 0
        assert axe_violations(host, axe_source) == []
        assert host_errors == [] and guest_errors == []
    finally:
        host_context.close()
        guest_context.close()
