"""Issue 65, items 4 and 6, in real Chromium at a desktop's 1280 x 800 and a phone's 390 x 844:
GobbleStones' tutorial brings the shown play into view and names the learner in the second
person; End play comes right under the board on a phone's first turn; the board is a patchwork
of full colours, each value on a white disc and each colour with its own weave; a guest's name
("Guest 353", stored in English) reads in the reader's language; a long computer name is whole
on Stomp the Plank's name sign. axe-core checks each screen (the values' contrast too)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import ServerProcess as Server

from .conftest import SIZES, Screenshots
from .pages import WAIT_MS, at_table, axe_violations, on_screen, wait_my_turn, watch_errors
from .test_board_art import _opening, _section

ME = {"kind": "me", "name": "Ada"}
EASY = {"kind": "ai", "agent": "easy"}


def _clean(page: Page, axe_source: str) -> None:
    assert axe_violations(page, axe_source) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def _guest_context(browser: Browser, size: str, name: str, french: bool = False):
    """A profile whose guest name the page made (not chosen), French when asked (the header's
    cookie, which the page and its websocket both send)."""
    context = browser.new_context(viewport=SIZES[size], bypass_csp=True, is_mobile=size == "phone",
                                  has_touch=size == "phone", locale="fr-FR" if french else "en-GB")
    context.add_init_script(
        f"try {{ localStorage.setItem('parlour.name', '{name}'); }} catch (e) {{}}")
    if french:
        context.add_cookies([{"name": "parlour_lang", "value": "fr", "url": "http://127.0.0.1"}])
    return context


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_tutorials_show_me_brings_the_play_into_view_in_the_second_person(
        server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str):
    context = _guest_context(browser, size, "Guest 136")
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + "/learn/gobblestones")
        page.wait_for_function("window.parlour && window.parlour.answers > 0", timeout=WAIT_MS)
        answers = page.evaluate("window.parlour.answers")
        page.click("#show")
        page.wait_for_function(f"window.parlour.answers > {answers}", timeout=WAIT_MS)
        page.wait_for_selector("#board svg.board-pic [data-last]")
        # the play itself is on screen: the board square drawn is the one it was made on
        assert on_screen(page, "#board svg.board-pic [data-last]")
        tray = page.inner_text(".gob-tray")
        assert "Your last play: " in tray
        body = page.inner_text("body")
        assert "Guest 136" not in body and "'s play" not in body
        assert page.locator("[data-goto-last]").count() == 0  # nothing elsewhere to go to
        screenshots.save(page, f"learn-gobblestones-shown-{size}.png", full=False)
        _clean(page, axe_source)
        # the bluffing game's challenge, shown: the learner is "you" there too
        page.goto(server.base + "/learn/gobblestones/bluffing")
        page.wait_for_function("window.parlour && window.parlour.answers > 0", timeout=WAIT_MS)
        page.locator("#dots li:nth-child(2) button").click()
        page.wait_for_function("window.parlour.step.title === 'Challenge' && !window.parlour.busy",
                               timeout=WAIT_MS)
        answers = page.evaluate("window.parlour.answers")
        page.click("#show")
        page.wait_for_function(f"window.parlour.answers > {answers}", timeout=WAIT_MS)
        page.wait_for_selector("#next:not([hidden])")
        tray = page.inner_text(".gob-tray")
        assert "Last challenge: you challenged Opponent's play" in tray, tray
        assert "Guest 136" not in page.inner_text("body")
        screenshots.save(page, f"learn-gobblestones-challenge-{size}.png", full=False)
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_end_play_is_on_screen_on_the_first_turn_and_the_board_is_a_patchwork(
        server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str):
    position, centre, _ = _opening()
    with at_table(server, browser, "gobblestones", {"position": position}, [ME, EASY],
                  size) as (page, _, errors):
        page.evaluate("window.scrollTo(0, 0)")
        # the rack and Pass come before the map, right under the board, with no scrolling
        assert on_screen(page, "[data-rack]") and on_screen(page, "[data-move='pass']")
        order = page.evaluate("""() => [...document.querySelector('.gob-wrap').children]
            .map((e) => e.className)""")
        assert order[:2] == ["gob-board", "gob-tray"]
        if size == "phone":
            assert order[2] == "map-row"
            page.locator(f"[data-section='{_section(centre)}']").click()
        page.locator(f"#board g[data-square='{centre}']").click()
        page.wait_for_selector("[data-move='end']")
        page.evaluate("window.scrollTo(0, 0)")
        assert on_screen(page, "[data-move='end']")
        # every square a full colour with its value on a white disc, and its colour's weave
        squares = page.evaluate("""() => [
            ...document.querySelectorAll('#board svg.board-pic g.stone')]
            .map((g) => ({ colour: g.dataset.colour, disc: !!g.querySelector('.value-disc'),
              value: (g.querySelector('.stone-value') || {}).textContent || '',
              weave: (g.querySelector('.weave') || { getAttribute: () => '' })
                .getAttribute('fill') }))""")
        assert len(squares) == (225 if size == "desktop" else 25)
        for square in squares:
            assert square["disc"] and square["value"].isdigit(), square
            if square["colour"] != "Y":  # yellow is the plain one
                assert square["weave"] == f"url(#gob-weave-{square['colour']})", square
        weaves = page.evaluate("""() => [
            ...document.querySelectorAll('#board svg.board-pic pattern')]
            .filter((p) => p.id.startsWith('gob-weave-')).map((p) => p.innerHTML)""")
        assert len(set(weaves)) == 5  # five colours, five different weaves
        screenshots.save(page, f"gobblestones-patchwork-{size}.png", full=False)
        _clean(page, axe_source)  # the values' contrast on their discs among the checks
        assert errors == []


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_guests_name_reads_in_the_readers_language(server: Server, browser: Browser,
                                                     screenshots: Screenshots, axe_source: str,
                                                     size: str):
    """Bo (English) and a French guest whose page once stored "Invité 353" at one table: the
    French page keeps the name in English ("Guest 353") and shows it in French; Bo reads it in
    English, and the French reader reads Bo's own guest name in French."""
    table = server.create("stomp-the-plank")  # the host, and an invited friend
    french = _guest_context(browser, size, "Invité 353", french=True)
    english = _guest_context(browser, size, "Guest 120")
    try:
        fr_page = french.new_page()
        errors = watch_errors(fr_page)
        fr_page.goto(server.base + table["url"])
        fr_page.wait_for_function("window.parlour && window.parlour.latest", timeout=WAIT_MS)
        assert fr_page.evaluate("localStorage.getItem('parlour.name')") == "Guest 353"
        en_page = english.new_page()
        en_page.goto(server.base + table["invites"][0]["url"])
        named = ("window.parlour && window.parlour.latest"
                 " && window.parlour.latest.seats.every((s) => s.name)")
        en_page.wait_for_function(named, timeout=WAIT_MS)
        fr_page.wait_for_function(named, timeout=WAIT_MS)
        stored = [s["name"] for s in fr_page.evaluate("window.parlour.latest.seats")]
        assert sorted(stored) == ["Guest 120", "Guest 353"]  # the table keeps them in English
        fr_players = fr_page.inner_text("#seats")
        assert "Invité 353" in fr_players and "Invité 120" in fr_players
        assert "Guest" not in fr_page.inner_text("body")
        assert fr_page.input_value("#my-name") == "Invité 353"
        en_players = en_page.inner_text("#seats")
        assert "Guest 353" in en_players and "Invité" not in en_page.inner_text("body")
        screenshots.save(fr_page, f"fr-guest-names-{size}.png", full=False)
        _clean(fr_page, axe_source)
        assert errors == []
    finally:
        french.close()
        english.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_long_computer_name_is_whole_on_the_planks_sign(server: Server, browser: Browser,
                                                          screenshots: Screenshots,
                                                          axe_source: str, size: str):
    """"Ordinateur 2 (facile)" (two computers of one strength, in French) is not cut on Stomp
    the Plank's name sign: every name is whole and inside its sign."""
    table = server.create("stomp-the-plank", {"players": 3}, seats=[ME, EASY, EASY])
    context = _guest_context(browser, size, "Ada", french=True)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + table["url"])
        wait_my_turn(page)
        page.wait_for_selector("[data-plank-name]")
        signs = page.evaluate("""() => [
          ...document.querySelectorAll('[data-plank-name]')].map((g) => {
            const plate = g.querySelector('rect').getBoundingClientRect();
            const name = g.querySelector('.plank-name');
            const box = name.getBoundingClientRect();
            return { text: name.textContent, inside: box.left >= plate.left - 0.5
              && box.right <= plate.right + 0.5 };
        })""")
        texts = sorted(s["text"] for s in signs)
        assert texts == ["Ada", "Ordinateur 1 (facile)", "Ordinateur 2 (facile)"], texts
        assert all(s["inside"] for s in signs), signs
        assert "…" not in page.inner_text("body")
        screenshots.save(page, f"fr-plank-signs-{size}.png", full=False)
        _clean(page, axe_source)
        assert errors == []
    finally:
        context.close()
