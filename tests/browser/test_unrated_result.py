"""A rated game that rated nobody, in real Chromium at desktop and phone sizes (issue 62): a
rated challenge resigned before anyone moved ends as it ended, and the result screen says why
no rating changed instead of an empty list of changes."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.server.helpers import ServerProcess as Server
from tests.server.helpers import account, token_of

from .conftest import SIZES, Screenshots, named_context
from .pages import axe_violations, horizontal_overflow, watch_errors


@pytest.mark.parametrize("size", list(SIZES))
def test_a_rated_game_resigned_at_move_0_says_it_was_not_rated(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    ada, bob = account(server, f"unr-ada-{size}"), account(server, f"unr-bob-{size}")
    sent = ada.post("/api/challenges", json={
        "opponent": f"unr-bob-{size}", "game": "clobber", "params": {"size": "3x4"},
        "rated": True, "clock": {"per_move": 600}}).json()
    accepted = bob.post(f"/api/challenges/{sent['id']}/accept").json()
    resigned = server.post(f"/api/play/{token_of(accepted['url'])}/resign")
    assert resigned.status_code == 200, resigned.text
    context = named_context(browser, None, size)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(server.base + ada.get(f"/api/challenges/{sent['id']}").json()["url"])
        line = page.wait_for_selector("#rating-change p")
        assert line.inner_text() == "Not rated: the game ended before every player had moved"
        assert page.locator("#rating-change a").count() == 0  # no change listed
        screenshots.save(page, f"unrated-result-{size}.png")
        found = axe_violations(page, axe_source)
        assert not found, found
        assert horizontal_overflow(page) == 0
        assert errors == []
    finally:
        context.close()
