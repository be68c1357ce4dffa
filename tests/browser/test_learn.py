""""Learn to play" and the rules for people, in Chromium at a desktop's 1280 x 800 and a
phone's 390 x 844: every tutorial clicked through to its end on the board as a person would
(the step's own solution, square by square), a refused move and a move that misses the point,
the finish that starts a game against the computer (easy), the rules pages with their header,
a way back, the viewport meta and pictures drawn by the table's board code, with no ruling id
or engine word; axe-core finds nothing serious on any of them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from parlour import list_games
from parlour.games import tutorial as lessons
from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots, named_context
from .pages import WAIT_MS, axe_violations, horizontal_overflow, latest, watch_errors

SIZES = ("desktop", "phone")
README_SHOTS = {("stomple", "basics", 3, "desktop"): "learn-desktop.png",
                ("gobblestones", "bluffing", 2, "phone"): "learn-phone.png"}
"""The steps whose screenshots docs/web.md shows (refreshed with PARLOUR_UPDATE_SCREENSHOTS)."""
TUTORIALS = [(game, t.id) for game in list_games() for t in lessons.tutorials(game)]
FILES = "abcdefghijklmno"
RULING_ID = re.compile(r"\[[A-Z]-?\d+\]|\b[CSPBG]-?\d{1,2}\b")  # squares are lower case
ENGINE_WORDS = re.compile(
    r"\bseat 0\b|\bplayer 0\b|=true|\bbluff=|\brulings?\b|\btip_at\b|\bstep_weight\b|"
    r"\bmax_turns\b|\bstate\.|load_game|\bparams?\b|\bwhich tests\b",
    re.I,
)


def _developer_words(text: str) -> list[str]:
    return RULING_ID.findall(text) + ENGINE_WORDS.findall(text)


def _answers(page: Page) -> int:
    return page.evaluate("window.parlour.answers")


def _click_and_wait(page: Page, selector: str) -> None:
    """Click something on the board that the server answers, and wait for the answer."""
    before = _answers(page)
    page.locator(selector).first.click()
    page.wait_for_function(f"window.parlour.answers > {before}", timeout=WAIT_MS)


def _gobblestones_square(page: Page, square: str) -> None:
    """On a phone the board shows one board square at a time: bring up the one holding it."""
    if page.locator(f"#board [data-square='{square}']").count() == 0:
        row, col = 15 - int(square[1:]), FILES.index(square[0])
        page.locator(f"#board [data-section='{row // 5 * 3 + col // 5}']").click()
    page.wait_for_selector(f"#board [data-square='{square}']")


def _squares(text: str) -> list[str]:
    """``h9-h11`` or ``c8-g8`` as the squares of the line, in board order."""
    ends = re.findall(r"[a-o]\d+", text)
    if len(ends) == 1:
        return ends
    (f1, r1), (f2, r2) = ((e[0], int(e[1:])) for e in ends)
    if f1 == f2:
        return [f"{f1}{r}" for r in range(max(r1, r2), min(r1, r2) - 1, -1)]
    return [f"{FILES[c]}{r1}" for c in range(FILES.index(f1), FILES.index(f2) + 1)]


def _play(page: Page, game: str, move: str) -> None:
    """Make one move of a step's solution by clicking the board."""
    if game == "clobber":
        source, target = re.findall(r"[a-z]\d+", move)
        page.locator(f"#board [data-square='{source}']").click()
        _click_and_wait(page, f"#board [data-square='{target}']")
    elif game == "stomple":
        _click_and_wait(page, f"#board [data-square='{move}']")
    elif game == "stomp-the-plank" or move in ("pass", "end", "challenge", "trust"):
        _click_and_wait(page, f"#board [data-move='{move}']")
    else:  # GobbleStones: (the colour in the rack,) each square of the line, End play
        line, _, colour = move.partition(":")
        if colour:
            page.locator(f"#board button[data-rack='{colour.upper()}']").first.click()
        for square in _squares(line):
            _gobblestones_square(page, square)
            _click_and_wait(page, f"#board [data-square='{square}']")
        _click_and_wait(page, "#board [data-move='end']")


def _open(page: Page, server: Server, game: str, tutorial: str) -> dict[str, Any]:
    page.emulate_media(reduced_motion="reduce")  # screenshots of the board at rest
    first = lessons.find(game)
    suffix = "" if first is not None and first.id == tutorial else f"/{tutorial}"
    page.goto(f"{server.base}/learn/{game}{suffix}")
    page.wait_for_function("window.parlour && window.parlour.reply", timeout=WAIT_MS)
    return page.evaluate("window.parlour.reply")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("game", "tutorial_id"), TUTORIALS)
def test_each_tutorial_clicked_through_to_a_game_against_easy(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str,
    game: str, tutorial_id: str, size: str,
):
    tutorial = lessons.find(game, tutorial_id)
    assert tutorial is not None
    context = named_context(browser, "Ada", size)
    page = context.new_page()
    errors = watch_errors(page)
    name = f"learn-{game}-{tutorial_id}"
    try:
        reply = _open(page, server, game, tutorial_id)
        assert page.inner_text("#progress") == f"{tutorial.title} · step 1 of {len(tutorial.steps)}"
        assert axe_violations(page, axe_source) == []
        assert horizontal_overflow(page) == 0
        screenshots.save(page, f"{name}-1-{size}.png")
        for number, step in enumerate(tutorial.steps, 1):
            assert page.inner_text("#instruction") == step.instruction
            assert reply["status"] == "going" and page.is_visible("#board svg")
            for move in step.solution:
                _play(page, game, move)
            reply = page.evaluate("window.parlour.reply")
            assert reply["status"] == "done", (step.id, reply.get("message"))
            feedback = page.locator("#feedback.right")
            assert step.explain in feedback.inner_text() and "null" not in feedback.inner_text()
            assert page.is_visible("#next")
            if size == "phone":  # the verdict and the way on are on the first screen
                box = page.locator("#next").bounding_box()
                assert box is not None and box["y"] + box["height"] <= 844
            screenshots.save(page, f"{name}-{number}-done-{size}.png")
            shot = README_SHOTS.get((game, tutorial_id, number, size))
            if shot:
                screenshots.save(page, shot, readme=True)
            page.click("#next")
            if number < len(tutorial.steps):
                page.wait_for_function(
                    f"window.parlour.step.id === {step.id!r} ? false : "
                    "window.parlour.reply && window.parlour.reply.status === 'going'",
                    timeout=WAIT_MS)
                reply = page.evaluate("window.parlour.reply")
        page.wait_for_selector("#finish:not([hidden])")
        assert page.is_hidden("#lesson")
        assert tutorial.finish in page.inner_text("#finish")
        assert axe_violations(page, axe_source) == []
        screenshots.save(page, f"{name}-finish-{size}.png")
        page.click("#play-easy")
        page.wait_for_url(re.compile(r".*/play/.*"), timeout=WAIT_MS)
        page.wait_for_function("window.parlour && window.parlour.latest", timeout=WAIT_MS)
        table = latest(page)
        assert table["game"] == game and table["hand"]["seats"] == [0]
        assert [(s["kind"], s["agent"]) for s in table["seats"][1:]] == [("ai", "easy")]
        assert table["params"] == dict(tutorial.params)
        assert errors == []
    finally:
        context.close()


def test_a_refused_move_says_why_and_a_move_that_misses_says_what_to_try(
    server: Server, browser: Browser, screenshots: Screenshots
):
    context = named_context(browser, "Ada")
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(f"{server.base}/learn/clobber#straight")
        page.wait_for_function("window.parlour && window.parlour.reply", timeout=WAIT_MS)
        page.locator("#board [data-square='b2']").click()
        _click_and_wait(page, "#board [data-square='a3']")  # a diagonal
        refusal = page.inner_text("#feedback.refused")
        assert "not next to each other" in refusal and refusal.endswith("(Clobber: moving)")
        assert page.evaluate("window.parlour.reply.status") == "going"
        screenshots.save(page, "learn-refused-desktop.png")

        page.goto(f"{server.base}/learn/clobber#last-move")
        page.wait_for_function("window.parlour && window.parlour.step.id === 'last-move' && "
                               "window.parlour.reply", timeout=WAIT_MS)
        page.locator("#board [data-square='b1']").click()
        _click_and_wait(page, "#board [data-square='c1']")  # legal, but Black can reply
        missed = page.inner_text("#feedback.missed")
        assert "Not quite" in missed and "Try the other black stone" in missed
        assert page.is_hidden("#next") and page.inner_text("#again") == "Try again"
        screenshots.save(page, "learn-missed-desktop.png")
        page.click("#again")
        page.wait_for_function("window.parlour.reply && window.parlour.reply.status === 'going'",
                               timeout=WAIT_MS)
        page.click("#show")  # a stuck player is shown the way
        page.wait_for_function("window.parlour.reply && window.parlour.reply.status === 'done'",
                               timeout=WAIT_MS)
        assert "Here is one way" in page.inner_text("#feedback")
        assert page.evaluate("window.parlour.reply.terminal") is True
        assert errors == []
    finally:
        context.close()


def test_the_lobby_cards_link_to_the_tutorials(server: Server, browser: Browser):
    context = named_context(browser, "Ada")
    page = context.new_page()
    try:
        page.goto(server.base + "/")
        page.wait_for_selector(".card")
        for game in list_games():
            link = page.locator(f".card[data-game='{game}'] a", has_text="Learn to play")
            assert link.get_attribute("href") == f"/learn/{game}"
        page.locator(".card[data-game='stomple'] a", has_text="Learn to play").click()
        page.wait_for_function("window.parlour && window.parlour.reply", timeout=WAIT_MS)
        assert page.inner_text("#title") == "Stomple"
        assert page.inner_text("#progress").startswith("Learn Stomple")
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", list_games())
def test_the_rules_page_for_people(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str,
    game: str, size: str,
):
    context = named_context(browser, "Ada", size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(f"{server.base}/rules/{game}")
        page.wait_for_selector(".rules-board svg")
        viewport = page.locator("meta[name=viewport]").get_attribute("content") or ""
        assert "width=device-width" in viewport
        assert page.locator("header.bar .brand a[href='/']").count() == 1
        assert page.locator(".back a").get_attribute("href") == f"/?game={game}"
        assert page.locator(f"a[href='/learn/{game}']").count() >= 1
        figures = page.locator(".rules-figure")
        assert figures.count() >= 2
        assert figures.locator(".rules-board:has(svg)").count() == figures.count()
        text = page.inner_text("main")
        assert _developer_words(text) == []
        assert horizontal_overflow(page) == 0
        if size == "phone":  # readable text, not a shrunken desktop page
            assert page.evaluate("getComputedStyle(document.querySelector('main p')).fontSize"
                                 ) == "16px"
        assert axe_violations(page, axe_source) == []
        screenshots.save(page, f"rules-{game}-{size}.png",
                         readme=(game, size) == ("stomp-the-plank", "desktop"))
        page.click(".back a")
        page.wait_for_selector(f".card[data-game='{game}']")
        assert errors == []
    finally:
        context.close()


def test_the_tables_rules_dialog_has_the_players_text_and_pictures(
    server: Server, browser: Browser, screenshots: Screenshots
):
    table = server.create("stomple", {}, seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}])
    context = named_context(browser, "Ada")
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + table["url"])
        page.wait_for_function("window.parlour && window.parlour.latest", timeout=WAIT_MS)
        page.click("#rules-button")
        page.wait_for_selector("#rules-dialog .rules-board svg")
        text = page.inner_text("#rules-dialog")
        assert "Strings" in text and _developer_words(text) == []
        assert page.locator("#rules-dialog a[href='/learn/stomple']").count() == 1
        screenshots.save(page, "rules-dialog-desktop.png")
        assert errors == []
    finally:
        context.close()
