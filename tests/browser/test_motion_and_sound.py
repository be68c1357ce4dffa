"""Motion and sound at the table (issue 30): each kind of move is animated, briefly; a click or
the next update ends an animation; nothing moves when the player asks for reduced motion; the
table is heard (a move, a capture or stomp, your turn, the end) unless the header's toggle
turns sound off, which the browser remembers."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import ServerProcess as Server

from .conftest import SIZES, named_context
from .pages import WAIT_MS, axe_violations, latest, small_tap_targets, wait_my_turn, watch_errors

ME = {"kind": "me", "name": "Ada"}
COMPUTER = {"kind": "ai", "agent": "easy"}
LONGEST_MS = 1200  # motion.js: every animation, its delay included, ends within this

# Every call of Element.animate is counted, with how long it lasts, delay included.
COUNT = """
window.__motion = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const o = typeof options === 'number' ? {duration: options} : (options || {});
  window.__motion.push((o.delay || 0) + (o.duration || 0));
  return animate.apply(this, arguments);
};
"""
# For the tests of what ends an animation: every animation lasts ten minutes, so that it is
# certainly still running when the test's click or message arrives, however busy the machine.
SLOW = """
const animateNow = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const o = typeof options === 'number' ? {duration: options} : {...(options || {})};
  return animateNow.call(this, frames, {...o, duration: 600000});
};
"""
RUNNING_ON_BOARD = """() => document.getAnimations().filter(a => a.playState === 'running' &&
    a.effect && a.effect.target && a.effect.target.closest &&
    a.effect.target.closest('#board')).length"""

# Positions where the next turns animate a move of each kind.
STRING = "1w...../g....../....y../.0yy.../......./......./k.....r 0 rb ss - 0,0 1"
PONTOON = ("turn=3 active=0 phase=choose pontoon=coins,ruby discards=0,0,0,0,0,0,0 supply=58 "
           "planks=1/0,1/0")


def _page(browser: Browser, motion: str, size: str = "desktop", slow: bool = False) -> Page:
    context = browser.new_context(viewport=SIZES[size], reduced_motion=motion, bypass_csp=True,
                                  is_mobile=size == "phone", has_touch=size == "phone")
    context.add_init_script(COUNT)
    if slow:
        context.add_init_script(SLOW)
    context.add_init_script("localStorage.setItem('parlour.name', 'Ada');"
                            "localStorage.setItem('parlour.name.chosen', '1');")
    return context.new_page()


def _ready(page: Page) -> dict:
    state = wait_my_turn(page)
    page.wait_for_selector("#board svg.board-pic")
    return state


def _after(page: Page, version: int) -> dict:
    """Wait until the table is past ``version`` and it is this player's turn again."""
    page.wait_for_function(
        f"() => window.parlour.latest.version > {version} && (window.parlour.latest.terminal ||"
        " window.parlour.latest.legal.length > 0)", timeout=WAIT_MS)
    return latest(page)


def _stomple_turn(page: Page) -> None:  # the string c4 > d4 > e5, stomp by stomp
    state = _ready(page)
    for stomped, hole in enumerate(("c4", "d4", "e5"), start=1):
        page.locator(f"#board g[data-square='{hole}']").click()
        if hole != "e5":  # a preview: the string goes on
            page.wait_for_function(f"window.parlour.pending.length === {stomped}",
                                   timeout=WAIT_MS)
    _after(page, state["version"])


def _plank_turn(page: Page) -> None:  # draw a card: it turns over onto the pontoon
    state = _ready(page)
    page.click("[data-move='draw']")
    page.wait_for_function(f"window.parlour.latest.version >= {state['version'] + 2}",
                           timeout=WAIT_MS)


def _gobblestones_turn(page: Page) -> None:  # one tile on a centre square, then End play
    state = _ready(page)
    centres = [m["s"] for m in state["legal"] if m["s"] in
               {f + r for f in "chm" for r in ("13", "8", "3")}]
    assert centres, "the first play must be able to cover a centre square"
    square = centres[0]
    if page.locator(f"#board g[data-square='{square}']").count() == 0:  # a phone: go there
        row, col = 15 - int(square[1:]), "abcdefghijklmno".index(square[0])
        page.locator(f"[data-section='{(row // 5) * 3 + col // 5}']").click()
    page.locator(f"#board g[data-square='{square}']").click()
    page.click("[data-move='end']")
    _after(page, state["version"])


def _clobber_turn(page: Page) -> None:  # a capture by keyboard
    state = _ready(page)
    page.locator("#board [role=button]").first.focus()
    page.keyboard.press("Enter")
    target = page.locator("#board g[data-square]:has([data-target])").first
    target.focus()
    page.keyboard.press("Enter")
    _after(page, state["version"])


TURNS = {
    "stomple": ({"position": STRING, "rounds": 1}, _stomple_turn),
    "stomp-the-plank": ({"position": PONTOON}, _plank_turn),
    "gobblestones": ({}, _gobblestones_turn),
    "clobber": ({}, _clobber_turn),
}


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
@pytest.mark.parametrize("game", list(TURNS))
def test_moves_are_animated_briefly_and_never_under_reduced_motion(
    server: Server, browser: Browser, game: str, motion: str, size: str,
):
    params, turn = TURNS[game]
    table = server.create(game, params, seats=[ME, COMPUTER])
    page = _page(browser, motion, size)
    errors = watch_errors(page)
    try:
        page.goto(server.base + table["url"])
        _ready(page)
        assert page.evaluate("window.__motion") == []  # nothing moves on arrival
        turn(page)  # the board is drawn, its animations begun, as each message comes in
        lengths = page.evaluate("window.__motion")
        if motion == "reduce":
            assert lengths == []
        else:
            assert lengths, f"{game}: the move was not animated"
            assert max(lengths) <= LONGEST_MS
        assert errors == []
    finally:
        page.context.close()


FIRST_ON_BOARD = """() => { window.__first = document.getAnimations().find(a =>
    a.playState === 'running' && a.effect && a.effect.target && a.effect.target.closest &&
    a.effect.target.closest('#board'));
    return Boolean(window.__first); }"""


@pytest.mark.parametrize("ending", ["click", "update"])
def test_a_click_or_the_next_update_ends_an_animation(
    server: Server, browser: Browser, ending: str,
):
    # the pontoon is empty: the card drawn cannot match, so the turn stays Ada's
    position = ("turn=3 active=0 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=58 "
                "planks=1/0,1/0")
    table = server.create("stomp-the-plank", {"position": position}, seats=[ME, COMPUTER])
    page = _page(browser, "no-preference", slow=True)
    try:
        page.goto(server.base + table["url"])
        state = _ready(page)
        with server.client(table["url"]) as same_seat:  # Ada's seat, from another window
            page.click("[data-move='draw']")
            page.wait_for_function(FIRST_ON_BOARD, timeout=WAIT_MS)  # the card turns over
            assert page.evaluate("window.__first.playState") == "running"
            if ending == "click":
                page.mouse.click(5, 300)  # anywhere: here, the page's margin
                assert page.evaluate(RUNNING_ON_BOARD) == 0
                assert latest(page)["version"] == state["version"] + 2  # nothing else came
            else:  # the next message: Ada stops from her other window
                now = same_seat.wait_state(lambda m: m["version"] == state["version"] + 2)
                stop = next(m["a"] for m in now["legal"] if m["s"] == "stop")
                assert page.evaluate("window.__first.playState") == "running"
                assert same_seat.act([stop], at=now["version"])["type"] == "ack"
                page.wait_for_function(f"window.parlour.latest.version > {now['version']}",
                                       timeout=WAIT_MS)
            assert page.evaluate("window.__first.playState") == "finished"
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_sounds_and_the_remembered_toggle(
    server: Server, browser: Browser, axe_source: str, size: str,
):
    table = server.create("clobber", seats=[ME, COMPUTER])
    context = named_context(browser, "Ada", size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + table["url"])
        _ready(page)
        toggle = page.locator("#sound-toggle")
        assert toggle.is_visible()
        assert toggle.get_attribute("aria-pressed") == "true"  # on until the player says no
        if size == "phone":
            assert small_tap_targets(page, "#sound-toggle") == []
        assert page.evaluate("window.parlour.sounds") == []  # nothing on arrival
        _clobber_turn(page)
        heard = page.evaluate("window.parlour.sounds")
        assert "capture" in heard and heard[-1] == "turn"  # the stones taken; then your turn
        toggle.click()
        assert toggle.get_attribute("aria-pressed") == "false"
        assert page.evaluate("localStorage.getItem('parlour.sound')") == "off"
        count = len(page.evaluate("window.parlour.sounds"))
        _clobber_turn(page)
        assert len(page.evaluate("window.parlour.sounds")) == count  # silence
        page.reload()
        _ready(page)
        assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"  # remembered
        found = [v for v in axe_violations(page, axe_source) if "sound-toggle" in str(v["targets"])]
        assert found == []
        page.locator("#sound-toggle").click()
        assert page.evaluate("localStorage.getItem('parlour.sound')") == "on"
        assert errors == []
    finally:
        context.close()


def test_the_end_is_heard(server: Server, browser: Browser):
    # Ada's stomper has one marble left to stomp, the computer's none after it: the round and
    # the one-round game end with her move
    position = "......./......./......./......./......./......./0k....1 0 rb ss - 0,0 1"
    table = server.create("stomple", {"position": position, "rounds": 1}, seats=[ME, COMPUTER])
    context = named_context(browser, "Ada")
    page = context.new_page()
    try:
        page.goto(server.base + table["url"])
        _ready(page)
        page.locator("#board g[data-square='b1']").click()
        page.wait_for_selector("#end-panel:not([hidden])")
        heard = page.evaluate("window.parlour.sounds")
        assert heard[-1] in ("win", "end") and "capture" in heard
    finally:
        context.close()
