"""The Clobber analysis board in a real browser: a position set up by clicking, its winning
moves drawn as arrows, the principal line stepped through, a long solve cancelled, and the
board opened from a table and its replay ("Analyse this position")."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots, named_context
from .pages import (
    axe_violations,
    horizontal_overflow,
    latest,
    small_tap_targets,
    wait_my_turn,
    wait_version,
    watch_errors,
)

WAIT_MS = 60_000
DOCUMENTED = {"b2c2", "b2b1", "d2d1", "d2c2", "a1a2", "a1b1", "c1c2", "c1b1"}
"""docs/analysis.md: every winning move of ``xoxo/oxox o``."""


def set_size(page: Page, rows: int, columns: int) -> None:
    for field, value in (("#rows", rows), ("#columns", columns)):
        page.fill(field, str(value))
        page.press(field, "Tab")  # the change is taken when the field is left


def put(page: Page, tool: str, squares: list[str]) -> None:
    page.locator("#tool label", has_text=tool).click()
    for square in squares:
        page.click(f"#board [data-square='{square}']")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_set_up_by_clicking_and_see_every_winning_move(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    context = named_context(browser, None, size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + "/")  # the lobby's Clobber card leads to the board
        page.locator("[data-game='clobber']").get_by_role("link", name="Analysis board").click()
        page.wait_for_selector("#board [data-square='a1']")
        set_size(page, 2, 4)
        page.click("#clear")
        put(page, "Black (x)", ["a2", "c2", "b1", "d1"])
        put(page, "White (o)", ["b2", "d2", "a1", "c1"])
        page.locator("#side label", has_text="White (o)").click()
        assert page.evaluate("window.parlour.position()") == "xoxo/oxox o"
        assert page.input_value("#position-text") == "xoxo/oxox o"

        page.click("#analyse")
        page.wait_for_selector("#board [data-arrow='b2c2']", timeout=WAIT_MS)
        arrows = page.locator("#board [data-arrow]")
        assert {arrows.nth(i).get_attribute("data-arrow") for i in range(arrows.count())} == (
            DOCUMENTED
        )
        # each arrow is on the board, big enough to see, between its two squares
        board = page.locator("#board svg").bounding_box()
        for i in range(arrows.count()):
            box = arrows.nth(i).bounding_box()
            assert box and box["width"] * box["height"] > 100
            assert board["x"] <= box["x"] and box["x"] + box["width"] <= board["x"] + board["width"]
        assert page.inner_text("#winner") == "White (o) wins"
        assert page.inner_text("#status") == "White (o) to move wins, with 8 winning moves."
        assert "b2 takes c2" in page.inner_text("#moves-text")
        regions = page.locator("#regions li")
        assert regions.count() == 1 and "value *" in regions.first.inner_text()
        assert page.locator("#board [data-region='1']").count() == 1
        assert axe_violations(page, axe_source) == []
        assert horizontal_overflow(page) == 0
        if size == "phone":
            assert small_tap_targets(page, "#board [data-square], #analyse, #tool label") == []
        screenshots.save(page, f"analysis-{size}.png")

        # the principal line, step by step: the move played is drawn, the board is read-only
        page.click("#line-start")
        page.click("#line-next")
        assert page.inner_text("#line-label").startswith("Move 2 of ")
        assert page.locator("#board [data-arrow].played").count() == 1
        assert page.locator("#board [data-arrow].win").count() == 0
        assert page.locator("#line li.current").count() == 1
        assert axe_violations(page, axe_source) == []
        screenshots.save(page, f"analysis-line-{size}.png")
        page.click("#line-exit")
        assert page.locator("#board [data-arrow].win").count() == len(DOCUMENTED)
        # Analyse while a step of the line is shown: that position is set up and solved
        page.click("#line-start")
        after = page.evaluate("window.parlour.analysis.line[0].position")
        page.click("#analyse")
        page.wait_for_function(
            f"window.parlour.analysis && window.parlour.analysis.position === {after!r}",
            timeout=WAIT_MS)
        assert page.evaluate("window.parlour.position()") == after
        page.goto(server.base + "/analyse/clobber?position=xoxo%2Foxox%20o")
        page.wait_for_selector("#board [data-arrow='b2c2']", timeout=WAIT_MS)

        # an edit makes the answer stale: the arrows go
        put(page, "Empty", ["d1"])
        assert page.locator("#board [data-arrow]").count() == 0
        assert page.is_hidden("#result-panel")
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_region_values_and_the_sum_in_both_notations(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    """Two regions, up and star: each region's value as a player reads it and as CGSuite writes
    it, and the whole position's (up-star, fuzzy: Black to move wins by taking the star)."""
    context = named_context(browser, None, size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + "/analyse/clobber?position=xxo.xo%2F......%20x")
        page.wait_for_selector("#board [data-arrow='e2f2']", timeout=WAIT_MS)
        regions = page.locator("#regions li")
        assert regions.count() == 2
        texts = sorted(regions.nth(i).inner_text() for i in range(2))
        assert "value ↑ (^ in CGSuite)" in texts[0] or "value ↑ (^ in CGSuite)" in texts[1]
        assert any(t.endswith("value *.") for t in texts)  # the same in both notations
        assert page.inner_text("#total-value") == (
            "Value of the whole position: ↑* (^* in CGSuite).")
        assert axe_violations(page, axe_source) == []
        assert horizontal_overflow(page) == 0
        screenshots.save(page, f"analysis-values-{size}.png")
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_6x6_from_the_start_is_answered_from_the_shipped_proof(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    """6x6 takes tens of CPU hours to search; record first:2 answers it at once (b6b5 and its
    turned copies drawn as arrows), and the page says which record proved it."""
    context = named_context(browser, None, size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + "/analyse/clobber")
        page.wait_for_selector("#board [data-square='a1']")
        set_size(page, 6, 6)
        page.click("#start")
        page.wait_for_function("window.parlour.position().startsWith('xoxoxo/')")
        page.click("#analyse")
        page.wait_for_selector("#board [data-arrow='b6b5']", timeout=WAIT_MS)
        assert page.inner_text("#status") == "White (o) to move wins."
        assert page.inner_text("#stats") == (
            "Proved by record first:2 of the solver's hunt, without a search; other moves may "
            "win too.")
        assert axe_violations(page, axe_source) == []
        assert horizontal_overflow(page) == 0
        screenshots.save(page, f"analysis-proved-{size}.png")
        assert errors == []
    finally:
        context.close()


def test_a_long_solve_shows_progress_and_can_be_cancelled(server: Server, browser: Browser):
    context = named_context(browser, None)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + "/analyse/clobber")
        page.wait_for_selector("#board [data-square='a1']")
        set_size(page, 6, 7)  # 6x7's start is in no shipped data: a long solve
        page.click("#start")
        page.wait_for_function("window.parlour.position().startsWith('xoxoxox/')")
        page.click("#analyse")
        page.wait_for_function(
            "document.querySelector('#progress-text').textContent.includes('Solving')",
            timeout=WAIT_MS)
        assert page.is_visible("#progress")
        page.click("#cancel")
        assert page.is_hidden("#progress")
        assert page.inner_text("#message") == "Analysis cancelled."
        assert page.locator("#board [data-arrow].win").count() == 0  # the estimate's stays
        assert errors == [] or all("abort" in e.lower() for e in errors)
    finally:
        context.close()


def test_analyse_this_position_from_a_table_and_its_replay(
    server: Server, browser: Browser, screenshots: Screenshots
):
    table = server.create("clobber", {"rows": 3, "columns": 4},
                          seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}])
    context = named_context(browser, "Ada")
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + table["url"])
        seen = wait_my_turn(page)
        move = seen["legal"][0]["s"]
        page.click(f"[data-square='{move[:2]}']")
        page.click(f"[data-square='{move[2:]}']")
        seen = wait_version(page, 2)  # my move and the computer's reply
        link = page.locator("#analyse-link")
        assert link.is_visible()
        asked = parse_qs(urlsplit(link.get_attribute("href")).query)["position"][0]
        assert asked == seen["view"]["position"]

        # in the replay, the link follows the step shown
        page.click("#replay-any")
        page.click("#replay-prev")
        page.click("#replay-prev")
        start = "oxox/xoxo/oxox o"
        assert parse_qs(urlsplit(link.get_attribute("href")).query)["position"][0] == start
        with context.expect_page() as opened:
            link.click()
        board = opened.value
        board.wait_for_selector("#result-panel:not([hidden])", timeout=WAIT_MS)
        assert board.evaluate("window.parlour.position()") == start
        analysis = board.evaluate("window.parlour.analysis")
        assert analysis["position"] == start and analysis["winner"] in ("o", "x")
        screenshots.save(board, "analysis-from-replay.png")
        assert latest(page)["view"]["position"] != start  # the table itself is untouched
        assert errors == []
    finally:
        context.close()
