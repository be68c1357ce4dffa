"""Resigning asks in the page's own dialog, not the browser's confirm box, in real Chromium at
desktop and phone sizes (issue 65 item 8): "Keep playing" changes nothing, "Resign" resigns."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.server.helpers import ServerProcess as Server

from .conftest import SIZES, Screenshots, named_context
from .pages import axe_violations, watch_errors


@pytest.mark.parametrize("size", list(SIZES))
def test_resigning_asks_in_the_pages_own_dialog(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    table = server.create("clobber", seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}])
    context = named_context(browser, "Ada", size)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        native: list[str] = []
        page.on("dialog", lambda dialog: (native.append(dialog.message), dialog.dismiss()))
        page.goto(server.base + table["url"])
        resign = page.get_by_role("button", name="Resign")
        resign.click()
        dialog = page.locator("#resign-dialog")
        dialog.wait_for(state="visible")
        assert dialog.inner_text().startswith("Resign and lose this game?")
        screenshots.save(page, f"resign-dialog-{size}.png", full=False)
        found = axe_violations(page, axe_source)
        assert not found, found
        page.get_by_role("button", name="Keep playing").click()
        dialog.wait_for(state="hidden")
        assert page.evaluate("window.parlour.latest.terminal") is False
        resign.click()
        page.click("#resign-confirm")
        page.wait_for_function("window.parlour.latest.terminal")
        assert page.inner_text("#result-details") == "Ada resigned."
        assert native == [] and errors == []
    finally:
        context.close()
