"""Two computers of one strength at one table are told apart, in real Chromium at desktop and
phone sizes (issue 65 item 7): the seats read "Computer 1 (easy)" and "Computer 2 (easy)"."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.server.helpers import ServerProcess as Server

from .conftest import SIZES, Screenshots, named_context
from .pages import horizontal_overflow, watch_errors


@pytest.mark.parametrize("size", list(SIZES))
def test_two_computers_of_one_strength_are_numbered(
    server: Server, browser: Browser, screenshots: Screenshots, size: str
):
    table = server.create("stomple", {"players": 3}, seats=[
        {"kind": "me"}, {"kind": "ai", "agent": "easy"}, {"kind": "ai", "agent": "easy"}])
    context = named_context(browser, "Ada", size)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server.base + table["url"])
        page.wait_for_function(
            "document.querySelector('#seats').innerText.includes('Computer 2 (easy')")
        seats = page.inner_text("#seats")
        assert "Computer 1 (easy" in seats and "Computer 2 (easy" in seats
        assert "Ada" in seats
        screenshots.save(page, f"seat-names-{size}.png", full=False)
        assert horizontal_overflow(page) == 0
        assert errors == []
    finally:
        context.close()
