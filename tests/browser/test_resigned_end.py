"""After a resignation, in real Chromium at desktop and phone sizes (issue 65): the GobbleStones
result turns the computer's rack up (G-5) and the Rematch button opens the rematch."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.server.helpers import ServerProcess as Server
from tests.server.helpers import token_of

from .conftest import SIZES, Screenshots, named_context
from .pages import axe_violations, horizontal_overflow, watch_errors


@pytest.mark.parametrize("size", list(SIZES))
def test_g5_after_resigning_the_racks_are_up_and_rematch_opens_a_new_table(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    table = server.create("gobblestones",
                          seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}])
    token = token_of(table["url"])
    assert server.post(f"/api/play/{token}/resign").status_code == 200
    context = named_context(browser, "Ada", size)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server.base + table["url"])
        page.wait_for_selector("#end-panel:not([hidden])")
        computer = page.wait_for_selector('[data-revealed-rack="1"]')
        assert "Computer" in computer.inner_text()
        assert page.locator('[data-revealed-rack="0"]').count() == 1
        screenshots.save(page, f"resigned-racks-{size}.png")
        found = axe_violations(page, axe_source)
        assert not found, found
        assert horizontal_overflow(page) == 0
        page.click("#rematch-button")
        page.wait_for_url(lambda url: token not in url and "/play/" in url)
        page.wait_for_selector("#board")
        assert page.locator("#end-panel").is_hidden()
        assert errors == []
    finally:
        context.close()
