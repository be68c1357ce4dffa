"""The lobby's choices in Chromium at a desktop's 1280 x 800 and a phone's 390 x 844 (issue 65,
items 5 and 10): each game card has one clock choice, labelled on the screen, which every way of
starting from the card uses (the computer, a friend, hot-seat, an open table, "Play someone
now"); "Your name" is labelled on the screen at both sizes; and "Hold a tournament" offers the
game's options as its card does (from the catalogue), so that a tournament on a small board is
made from the page, and a value the game refuses is said in the form and makes nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from parlour import list_games
from tests.server.helpers import ServerProcess as Server
from tests.server.helpers import account

from .conftest import SIZES, Screenshots, named_context
from .pages import WAIT_MS, axe_violations, boxes, horizontal_overflow, latest, watch_errors
from .test_tournaments import _cookies_of, _signed_in_page

GAMES = list_games()


def _shown(page: Page, selector: str) -> bool:
    """Whether the element is drawn with a size a person can read (not visually hidden)."""
    found = boxes(page, selector)
    return bool(found) and found[0]["right"] - found[0]["left"] > 20 \
        and found[0]["bottom"] - found[0]["top"] > 8


def _clock_of_new_table(page: Page) -> dict | None:
    page.wait_for_url("**/play/*", timeout=WAIT_MS)
    page.wait_for_function("() => window.parlour && window.parlour.latest", timeout=WAIT_MS)
    return latest(page)["clock"]


@pytest.mark.parametrize("size", list(SIZES))
def test_one_labelled_clock_on_each_card_that_every_way_of_starting_uses(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    context = named_context(browser, "Bo", size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + "/")
        page.wait_for_selector(".card .clock-choice")
        # "Your name" is read on the screen at both sizes, beside or above its field
        assert page.locator("#my-name-label .name-word").inner_text() == "Your name"
        assert _shown(page, "#my-name-label .name-word"), boxes(page, "#my-name-label .name-word")
        assert page.get_by_label("Your name").input_value() == "Bo"
        for game in GAMES:
            card = page.locator(f"[data-game='{game}']")
            card.locator("summary", has_text="Options").click()
            assert card.locator("select").filter(has=page.locator("option", has_text="No clock")
                                                 ).count() == 1, f"{game}: one clock choice"
            assert card.locator(".options .clock-choice").count() == 0
            label = card.locator(".clock-option label")
            assert label.inner_text() == "Clock" and label.is_visible()
            choice = card.get_by_label("Clock", exact=True)
            assert choice.is_visible()
            assert choice.locator("option").all_inner_texts() == [
                "No clock", "3 min + 2 s", "10 min + 5 s", "1 day a move"]
        assert horizontal_overflow(page) == 0
        found = axe_violations(page, axe_source)
        assert found == [], found
        screenshots.save(page, f"lobby-one-clock-{size}.png", full=False)

        def start(game: str, clock: str, button: str) -> dict | None:
            page.goto(server.base + "/")
            card = page.locator(f"[data-game='{game}']")
            card.get_by_label("Clock", exact=True).select_option(label=clock)
            card.get_by_role("button", name=button).click()
            if button == "Invite a friend":
                page.wait_for_selector("#created:not([hidden])")
                page.click("#go")
            return _clock_of_new_table(page)

        assert start("clobber", "3 min + 2 s", "Play the computer")["initial"] == 180
        assert start("stomple", "1 day a move", "Hot-seat: one screen")["per_move"] == 86400
        assert start("stomp-the-plank", "10 min + 5 s", "Invite a friend")["initial"] == 600
        assert start("gobblestones", "3 min + 2 s", "Open table: anyone may join")[
            "increment"] == 2
        assert start("clobber", "No clock", "Play the computer") is None

        # "Play someone now" waits on the same choice; with no clock it says what to choose
        page.goto(server.base + "/")
        card = page.locator("[data-game='clobber']")
        card.get_by_role("button", name="Play someone now").click()
        card.locator(".queue-status", has_text="needs a clock").wait_for()
        assert page.evaluate("document.activeElement.classList.contains('clock-choice')")
        card.get_by_label("Clock", exact=True).select_option(label="10 min + 5 s")
        card.get_by_role("button", name="Play someone now").click()
        card.locator(".queue-status", has_text="Looking for someone").wait_for()
        screenshots.save(page, f"lobby-queue-on-the-card-clock-{size}.png", full=False)
        card.get_by_role("button", name="Stop looking").click()
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_hold_a_tournament_offers_the_games_options_as_its_card_does(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    name = f"tform{size[0]}"
    account(server, name).close()
    page = _signed_in_page(browser, server, name, size)
    errors = watch_errors(page)
    try:
        me = _cookies_of(page, server)
        page.click("#t-new summary")
        form = page.locator("#t-new-form")
        # each game's options, in its card's words; a set-up position is never offered
        page.select_option("#t-new-game", "stomp-the-plank")
        assert form.get_by_label("Players at a table").is_visible()
        page.click("#t-new-advanced summary")
        assert form.get_by_label("Weight that tips a plank").is_visible()
        assert form.get_by_label("Start from a position").count() == 0
        page.select_option("#t-new-game", "clobber")
        assert form.get_by_label("Players at a table").count() == 0
        assert form.get_by_label("Board", exact=True).locator("option").all_inner_texts()[:2] == [
            "5 x 6", "6 x 7"]
        assert form.get_by_label("Who starts").is_visible()
        assert form.get_by_label("Start from a position").count() == 0

        # a value the game refuses: said in the form, and nothing is made
        before = len(me.get("/api/tournaments").json()["upcoming"])
        page.fill("#t-new-name", f"Small board ({size})")
        page.select_option("#t-new-format", "round-robin")
        page.select_option("#t-new-clock", "3+2")
        page.fill("#t-new-adv-rows", "0")
        page.fill("#t-new-adv-columns", "4")
        page.click("#t-new-form button[type=submit]")
        page.locator("#t-new-error", has_text="A board is").wait_for()
        assert "/tournaments/" not in page.url
        assert len(me.get("/api/tournaments").json()["upcoming"]) == before

        # a short tournament on a small board, made from the page
        page.fill("#t-new-adv-rows", "3")
        assert horizontal_overflow(page) == 0
        found = axe_violations(page, axe_source)
        assert found == [], found
        page.locator("#t-new-form").scroll_into_view_if_needed()
        screenshots.save(page, f"lobby-hold-tournament-options-{size}.png", full=False)
        page.click("#t-new-form button[type=submit]")
        page.wait_for_url(server.base + "/tournaments/*")
        page.wait_for_selector("#t-about >> text=Board rows: 3")
        about = page.locator("#t-about").inner_text()
        assert "Board columns: 4" in about and "3 min + 2 s" in about, about
        made = me.get(f"/api/tournaments/{page.url.rsplit('/', 1)[1]}").json()
        assert made["params"] == {"rows": 3, "columns": 4}
        assert made["clock"] == {"initial": 180, "increment": 2}
        screenshots.save(page, f"tournament-small-board-{size}.png", full=False)
        # the one refused request (the board of 0 rows) is the browser's only complaint
        assert [e for e in errors if "status of 400" not in e] == [], errors
    finally:
        page.context.close()
