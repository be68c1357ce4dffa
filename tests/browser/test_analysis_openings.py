"""The analysis board's opening book and estimate in a real browser, at both sizes: the
default 5x6 board's start is answered from the book at once; a position outside the book
shows the ``hard`` agent's estimate (marked as one, its move drawn dashed) while the exact
solve runs with its progress, then the exact answer, or how far the solve got."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

import parlour
from tests.server.helpers import FOR_TESTS
from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots, named_context
from .pages import axe_violations, horizontal_overflow, watch_errors

WAIT_MS = 60_000


@pytest.fixture(scope="module")
def patient(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose solves may run a minute (so that 2x13's, two CPU seconds, finishes
    however busy the machine is)."""
    proc = Server(tmp_path_factory.mktemp("openings") / "parlour.db",
                  limits=FOR_TESTS + ",analysis_seconds=60").start()
    yield proc
    proc.stop()


def start_of(size: str) -> str:
    return parlour.load_game("clobber", size=size).new_initial_state().position()


def open_board(page: Page, base: str, position: str | None = None) -> None:
    query = "" if position is None else "?position=" + position.replace("/", "%2F").replace(
        " ", "%20")
    page.goto(base + "/analyse/clobber" + query)
    page.wait_for_selector("#board [data-square='a1']")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_default_5x6_start_comes_from_the_opening_book(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    context = named_context(browser, None, size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        open_board(page, server.base)
        page.wait_for_function(f"window.parlour.position() === {start_of('5x6')!r}")
        page.click("#analyse")
        page.wait_for_selector("#result-panel:not([hidden])", timeout=WAIT_MS)
        assert page.inner_text("#winner") == "Black (x) wins"
        assert page.inner_text("#stats") == (
            "From parlour's opening book: solved ahead of time, so no search was needed.")
        assert page.inner_text("#moves-text") == (
            "White (o) to move has no winning move: every move loses against perfect play.")
        assert page.is_hidden("#estimate-panel")
        assert page.evaluate("window.parlour.estimate") is None  # no guess was needed
        assert axe_violations(page, axe_source) == []
        assert horizontal_overflow(page) == 0
        screenshots.save(page, f"analysis-book-{size}.png")
        # one move on, Black to move: the book knows the winning replies, drawn as arrows
        answer = page.evaluate("window.parlour.analysis")
        assert answer["book"] is True and answer["nodes"] == 0
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_outside_the_book_an_estimate_then_how_far_the_solve_got(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    """6x7's start: nobody has solved it, so the estimate stays, and the solve says how many
    positions it searched in its 5 s."""
    context = named_context(browser, None, size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        open_board(page, server.base, start_of("6x7"))
        page.wait_for_selector("#estimate-panel:not([hidden])", timeout=WAIT_MS)
        assert page.inner_text("#estimate-title") == "Estimate, not proved"
        text = page.inner_text("#estimate-text")
        assert text.startswith("White (o) to move: about ") and text.endswith("% to win (estimate)")
        guess = page.evaluate("window.parlour.estimate")
        assert page.locator(f"#board [data-arrow='{guess['move']}'].estimate").count() == 1
        assert page.locator("#board [data-arrow].win").count() == 0
        # the solve's progress: positions searched so far, while the estimate is shown
        page.wait_for_function(
            "document.querySelector('#progress-text').textContent.includes('positions searched')",
            timeout=WAIT_MS)
        assert page.is_visible("#progress") and page.is_visible("#estimate-panel")
        assert axe_violations(page, axe_source) == []
        assert horizontal_overflow(page) == 0
        screenshots.save(page, f"analysis-estimate-{size}.png")
        page.wait_for_selector("#progress", state="hidden", timeout=WAIT_MS)
        assert page.inner_text("#message").startswith("Not solved within 5 s (")
        assert page.is_visible("#estimate-panel") and page.is_hidden("#result-panel")
        screenshots.save(page, f"analysis-estimate-unsolved-{size}.png")
        assert errors == []
    finally:
        context.close()


def test_an_estimate_gives_way_to_the_exact_answer(
    patient: Server, browser: Browser, screenshots: Screenshots, tmp_path: Path
):
    """2x13's start, in no shipped data, takes a couple of CPU seconds: the estimate first,
    then every winning move, exact, with the estimate put away."""
    context = named_context(browser, None)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        open_board(page, patient.base, start_of("2x13"))
        page.wait_for_function("window.parlour.analysis && window.parlour.analysis.solved",
                               timeout=WAIT_MS)
        guess = page.evaluate("window.parlour.estimate")
        assert guess is not None and guess["player"] == "o"  # shown before the answer
        answer = page.evaluate("window.parlour.analysis")
        assert answer["book"] is False and answer["nodes"] > 0 and answer["winner"] == "o"
        assert page.is_hidden("#estimate-panel") and page.is_visible("#result-panel")
        assert page.locator("#board [data-arrow].estimate").count() == 0
        assert page.locator("#board [data-arrow].win").count() == len(answer["winning_moves"])
        screenshots.save(page, "analysis-estimate-solved-desktop.png")
        assert errors == []
    finally:
        context.close()
