"""The tournament page and the lobby's tournaments in real Chromium, at desktop and phone sizes
(issue 31): joining and starting from the page, "Your games" during a round, and at the end of a
rated round robin the standings with their tiebreak and each player's rating plot."""

from __future__ import annotations

import time

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import PASSWORD, TIMEOUT, account
from tests.server.helpers import ServerProcess as Server
from tests.server.test_tournaments import RandomPlayer

from .conftest import SIZES, Screenshots, named_context
from .pages import WAIT_MS, axe_violations, horizontal_overflow, watch_errors


def _signed_in_page(browser: Browser, server: Server, name: str, size: str) -> Page:
    context = named_context(browser, None, size)
    page = context.new_page()
    page.goto(server.base + "/account")
    page.fill("#signin-name", name)
    page.fill("#signin-password", PASSWORD)
    page.click("#signin-form button[type=submit]")
    page.wait_for_url(server.base + "/")
    return page


def _cookies_of(page: Page, server: Server) -> httpx.Client:
    browser = httpx.Client(base_url=server.base, timeout=TIMEOUT)
    for c in page.context.cookies():
        browser.cookies.set(c["name"], c["value"])
    return browser


def _checked(page: Page, axe_source: str, errors: list[str]) -> None:
    assert horizontal_overflow(page) == 0
    found = axe_violations(page, axe_source)
    assert not found, found
    assert not errors, errors


@pytest.mark.parametrize("size", list(SIZES))
def test_a_rated_round_robin_on_its_page(server: Server, browser: Browser,
                                         screenshots: Screenshots, axe_source: str, size: str):
    names = [f"tp{size[0]}{i}" for i in range(4)]
    others = [account(server, n) for n in names[1:]]
    account(server, names[0]).close()
    page = _signed_in_page(browser, server, names[0], size)
    errors = watch_errors(page)
    me = _cookies_of(page, server)
    created = me.post("/api/tournaments", json={
        "game": "clobber", "params": {"size": "3x4"}, "format": "round-robin", "rated": True,
        "clock": {"per_move": 600}, "name": f"Tuesday club ({size})"}).json()
    for o in others:
        assert o.post(f"/api/tournaments/{created['id']}/join").status_code == 200

    # holding one from the lobby's form: a Swiss of Stomple at three a table, tomorrow
    page.goto(server.base + "/")
    page.click("#t-new summary")
    page.fill("#t-new-name", f"Weekend Swiss ({size})")
    page.select_option("#t-new-game", "stomple")
    page.get_by_label("Players at a table").select_option("3")  # the game card's own option
    page.fill("#t-new-rounds", "4")
    page.select_option("#t-new-clock", "")
    page.click("#t-new-rated")  # casual: no clock
    tomorrow = time.strftime("%Y-%m-%dT%H:%M", time.localtime(time.time() + 86400))
    page.fill("#t-new-start", tomorrow)
    screenshots.save(page, f"lobby-hold-tournament-{size}.png")
    page.click("#t-new-form button[type=submit]")
    page.wait_for_url(server.base + "/tournaments/*")
    page.wait_for_selector("#t-about >> text=Swiss of Stomple, 3 to a table, 4 rounds")
    assert "0 of 64 players have joined" in page.locator("#t-status").inner_text()
    upcoming = page.url.rsplit("/", 1)[1]
    assert others[0].post(f"/api/tournaments/{upcoming}/join").status_code == 200
    _checked(page, axe_source, errors)

    page.goto(server.base + "/")
    page.wait_for_selector(f"#tournaments-list >> text=Weekend Swiss ({size})")
    page.wait_for_selector(f"#tournaments-list >> text=Tuesday club ({size})")
    screenshots.save(page, f"lobby-tournaments-{size}.png")
    page.click(f"#tournaments-list a >> text=Tuesday club ({size})")
    page.wait_for_selector("#t-status >> text=3 of 24 players have joined")
    page.click("#t-actions button >> text=Join")
    page.wait_for_selector("#t-status >> text=4 of 24 players have joined")
    assert page.locator("#t-standings tbody tr").count() == 4
    screenshots.save(page, f"tournament-open-{size}.png")
    _checked(page, axe_source, errors)

    page.click("#t-actions button >> text=Start now")
    page.wait_for_selector("#t-yours-list >> text=Play your game")
    page.wait_for_selector("#t-status >> text=Round 1 of 3 is being played")
    screenshots.save(page, f"tournament-running-{size}.png")
    _checked(page, axe_source, errors)

    players = [RandomPlayer(server.base, b, created["id"], seed)
               for seed, b in enumerate([me, *others])]
    for p in players:
        p.start()
    for p in players:
        p.join(timeout=300)
        assert p.error is None, repr(p.error)
    page.wait_for_selector("#t-status >> text=Finished after 3 rounds", timeout=WAIT_MS)
    page.wait_for_selector("#t-rating-plot svg.history-plot")
    assert page.locator("#t-rounds .round").count() == 3
    assert page.locator("#t-rounds li").count() == 6
    assert page.locator("#t-tiebreak abbr").get_attribute("title") == "Sonneborn-Berger"
    assert page.locator("#t-rating-players button").count() == 4
    screenshots.save(page, f"tournament-finished-{size}.png")
    _checked(page, axe_source, errors)
    page.context.close()
