"""Clobber puzzles in Chromium at a desktop's 1280 x 800 and a phone's 390 x 844: a puzzle
solved by clicking the line's moves on the board (the solver's replies played between them),
one failed by a wrong move (the winning one named, the line shown on the board), the guest's
rating kept in the browser across a reload, and a signed-in player's on their account; axe
finds nothing serious and nothing scrolls sideways."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page

import parlour
from parlour.analysis.puzzles import Puzzle, shipped
from tests.server.helpers import PASSWORD
from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots, named_context
from .pages import WAIT_MS, axe_violations, horizontal_overflow, watch_errors

SIZES = ("desktop", "phone")
RULING_ID = re.compile(r"\[[A-Z]-?\d+\]|\b[CSPBG]-?\d{1,2}\b")


def _puzzle() -> Puzzle:
    """A shipped puzzle with three moves to find."""
    return next(p for p in shipped() if len(p.line) == 5)


def _wrong(puzzle: Puzzle) -> str:
    state = parlour.load_game("clobber", position=puzzle.position).new_initial_state()
    right = state.string_to_action(puzzle.line[0])
    return state.action_to_string(next(a for a in state.legal_actions() if a != right))


def _open(page: Page, server: Server, puzzle: Puzzle) -> None:
    page.goto(f"{server.base}/puzzles/clobber/{puzzle.id}")
    page.wait_for_function("window.parlour && window.parlour.puzzle", timeout=WAIT_MS)


def _move(page: Page, move: str) -> None:
    """Click a move's two squares on the board and wait for the server's answer."""
    source, target = re.findall(r"[a-z]\d+", move)
    before = page.evaluate("window.parlour.answers")
    page.locator(f"#board [data-square='{source}']").click()
    page.locator(f"#board [data-square='{target}']").click()
    page.wait_for_function(f"window.parlour.answers > {before}", timeout=WAIT_MS)


def _readable(text: str) -> None:
    assert not RULING_ID.search(text) and "null" not in text and "undefined" not in text


@pytest.mark.parametrize("size", SIZES)
def test_a_puzzle_solved(server: Server, browser: Browser, screenshots: Screenshots,
                         axe_source: str, size: str):
    puzzle = _puzzle()
    context = named_context(browser, "Ada", size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        _open(page, server, puzzle)
        colour = "White" if puzzle.to_move == "o" else "Black"
        assert page.inner_text("#task") == f"{colour} to play and win"
        assert "3 moves to find" in page.inner_text("#about")
        assert "Your puzzle rating: 1500?" in page.inner_text("#rating")
        assert axe_violations(page, axe_source) == []
        assert horizontal_overflow(page) == 0
        screenshots.save(page, f"puzzle-start-{size}.png")
        _move(page, puzzle.line[0])
        feedback = page.inner_text("#feedback")
        assert f"The solver answered {puzzle.line[1]}" in feedback
        screenshots.save(page, f"puzzle-going-{size}.png")
        _move(page, puzzle.line[2])
        _move(page, puzzle.line[4])
        assert page.evaluate("window.parlour.reply.status") == "solved"
        text = page.inner_text("#puzzle")
        assert "Solved!" in text and f"Your moves: {', '.join(puzzle.line[::2])}" in text
        assert f"the solver's replies: {', '.join(puzzle.line[1::2])}" in text
        assert re.search(r"Your puzzle rating: \d+\? \+\d+", text), text
        _readable(text)
        assert page.is_visible("#next") and page.is_hidden("#skip")
        if size == "phone":  # the verdict and the way on fit the first screen
            box = page.locator("#next").bounding_box()
            assert box is not None and box["y"] + box["height"] <= 844
        assert axe_violations(page, axe_source) == []
        assert horizontal_overflow(page) == 0
        screenshots.save(page, f"puzzle-solved-{size}.png", readme=size == "desktop")
        rating = page.inner_text("#rating")
        page.click("#next")  # a new puzzle; the rating is kept in this browser
        page.wait_for_function(f"window.parlour.puzzle.id !== {puzzle.id!r}", timeout=WAIT_MS)
        page.reload()
        page.wait_for_function("window.parlour && window.parlour.puzzle", timeout=WAIT_MS)
        assert page.inner_text("#rating").split("\n")[0] == rating.split(" +")[0]
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_puzzle_failed(server: Server, browser: Browser, screenshots: Screenshots,
                         axe_source: str, size: str):
    puzzle = _puzzle()
    context = named_context(browser, "Ada", size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        _open(page, server, puzzle)
        _move(page, _wrong(puzzle))
        assert page.evaluate("window.parlour.reply.status") == "failed"
        text = page.inner_text("#puzzle")
        assert f"Not the winning move. The one that wins was {puzzle.line[0]}." in text
        assert re.search(r"Your puzzle rating: \d+\? -\d+", text), text
        _readable(text)
        assert page.is_visible("#show") and page.is_visible("#again")
        assert axe_violations(page, axe_source) == []
        assert horizontal_overflow(page) == 0
        screenshots.save(page, f"puzzle-failed-{size}.png", readme=size == "phone")
        before = page.evaluate("window.parlour.answers")
        page.click("#show")  # the winning line played out on the board
        page.wait_for_function(f"window.parlour.answers > {before}", timeout=WAIT_MS)
        assert page.evaluate("window.parlour.reply.status") == "solved"
        assert f"Your moves: {', '.join(puzzle.line[::2])}" in page.inner_text("#feedback")
        screenshots.save(page, f"puzzle-shown-{size}.png")
        page.click("#again")  # tried again: not rated again
        _move(page, puzzle.line[0])
        _move(page, puzzle.line[2])
        _move(page, puzzle.line[4])
        assert "not rated again" in page.inner_text("#rating")
        assert errors == []
    finally:
        context.close()


def test_a_signed_in_players_rating_is_on_the_account(server: Server, browser: Browser,
                                                       screenshots: Screenshots):
    puzzle = _puzzle()
    context = named_context(browser, None)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        response = page.request.post(f"{server.base}/api/accounts",
                                     data={"username": "solver_fan", "password": PASSWORD})
        assert response.status == 201
        _open(page, server, puzzle)
        assert page.inner_text("#account-link") == "solver_fan"
        assert "Kept in this browser" not in page.inner_text("#rating")
        for move in puzzle.line[::2]:
            _move(page, move)
        assert re.search(r"Your puzzle rating: \d+\? \+\d+", page.inner_text("#rating"))
        mine = page.request.get(f"{server.base}/api/puzzles/clobber/{puzzle.id}").json()["you"]
        assert mine["attempts"] == 1 and mine["solved"] == 1 and mine["rating"] > 1500
        screenshots.save(page, "puzzle-account-desktop.png")
        assert errors == []
    finally:
        context.close()


@pytest.fixture(scope="module")
def mined(server: Server) -> dict:
    """A 4x5 game played to its end on the server by an account and an invited friend, made
    a puzzle by ``parlour puzzles clobber --from-db URL --add`` (the browsers' server does not
    mine by itself: the tests turn the background mining off)."""
    from typer.testing import CliRunner

    from parlour.analysis.puzzles import puzzle_id
    from parlour.cli import app
    from tests.server.helpers import account
    from tests.server.test_puzzle_mining import LINE, OPENING, POSITION, _play

    table = _play(server, account(server, "mined-host"), OPENING + LINE, to_the_end=True,
                  friend=True)
    out = server.db_path.with_name("mined.jsonl")
    result = CliRunner().invoke(app, ["puzzles", "clobber", "--generate", "3", "--from-db",
                                      str(server.db_path), "--add", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "added to the database" in result.output
    return {"id": puzzle_id(POSITION), "table": table["table"], "line": LINE}


@pytest.mark.parametrize("size", SIZES)
def test_a_puzzle_from_a_game_on_this_server(server: Server, browser: Browser,
                                             screenshots: Screenshots, axe_source: str,
                                             mined: dict, size: str):
    context = named_context(browser, "Ada", size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(f"{server.base}/puzzles/clobber/{mined['id']}")
        page.wait_for_function("window.parlour && window.parlour.puzzle", timeout=WAIT_MS)
        assert page.inner_text("#task") == "Black to play and win"
        assert page.inner_text("#source") == "From a game played on this server."
        assert page.locator("#source a").count() == 0  # the game's moves wait for the end
        for move in mined["line"][::2]:
            _move(page, move)
        assert page.evaluate("window.parlour.reply.status") == "solved"
        link = page.locator("#source a")
        assert link.inner_text() == "See the game"
        assert link.get_attribute("href") == f"/watch/{mined['table']}"
        assert axe_violations(page, axe_source) == []
        assert horizontal_overflow(page) == 0
        screenshots.save(page, f"puzzle-from-this-server-{size}.png")
        link.click()
        page.wait_for_url(f"**/watch/{mined['table']}")
        page.wait_for_selector("#board svg")
        assert errors == []
    finally:
        context.close()
