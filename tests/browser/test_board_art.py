"""The drawn boards of Stomp the Plank, Stomple and GobbleStones, as a player meets them at a
desktop's 1280 x 800 and a phone's 390 x 844 (issue 30): names never under an elephant, planks
leaning with their load, the game's title whole; which stomper is yours, where you may hop, the
path of a string; GobbleStones' whole turn on one screen, why End play is not offered yet, and
on a phone the last play shown and marked. axe-core checks each of these screens."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Browser, Page

from parlour import load_game
from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots, named_context
from .pages import (
    WAIT_MS,
    at_table,
    axe_violations,
    boxes,
    horizontal_overflow,
    latest,
    on_screen,
    overlap,
    wait_my_turn,
    watch_errors,
)

SIZES = ["desktop", "phone"]
ME = {"kind": "me", "name": "Ada"}


def _computers(n: int) -> list[dict[str, str]]:
    return [{"kind": "ai", "agent": "easy"}] * n


def _ready(page: Page) -> dict:
    """Wait for the player's turn and its board drawn."""
    state = wait_my_turn(page)
    page.wait_for_selector("#board svg.board-pic")
    return state


def _clean(page: Page, axe_source: str, where: str) -> None:
    found = axe_violations(page, axe_source)
    assert found == [], f"{where}: {found}"


def _title_whole(page: Page) -> None:
    """The game's name in the header is shown whole: not cut, not under the buttons."""
    title = page.evaluate(
        """() => { const t = document.querySelector('#title').getBoundingClientRect();
                   const b = Math.min(...[...document.querySelectorAll('header.bar button')]
                       .map(e => e.getBoundingClientRect()).filter(r => r.width > 0)
                       .map(r => r.left));
                   const e = document.querySelector('#title');
                   return {right: t.right, toggle: b, cut: e.scrollWidth > e.clientWidth + 1,
                           text: e.textContent}; }"""
    )
    assert not title["cut"]
    assert title["right"] <= title["toggle"], title
    assert title["right"] <= page.viewport_size["width"]


# -- Stomp the Plank ----------------------------------------------------------------------------
LOADED = ("turn=5 active=0 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=25 "
          "planks=14/0,11/1,2/4,8/2")  # every plank one crate from tipping, elephants all along


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [2, 4])
def test_stomp_the_plank_elephants_never_cover_a_name(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str,
    size: str, players: int,
):
    params = {"position": LOADED} if players == 4 else {}
    with at_table(server, browser, "stomp-the-plank", params, [ME, *_computers(players - 1)],
                  size) as (page, state, errors):
        assert page.locator("[data-elephant]").count() == players
        assert page.locator("[data-plank-name]").count() == players
        names = boxes(page, "[data-plank-name]")
        for seat in range(players):
            elephant = boxes(page, f"[data-elephant='{seat}']")[0]
            crates = boxes(page, f"[data-plank='{seat}'] .crate")
            for sign in names:
                assert not overlap(elephant, sign), (seat, elephant, sign)
                assert not any(overlap(c, sign) for c in crates), seat
        # each sign says the seat's name and, in a player's words, how far the plank is from tipping
        signs = page.locator("[data-plank-name]").all_text_contents()
        assert signs[0].startswith("Ada")
        for plank, sign in zip(state["view"]["planks"], signs, strict=True):
            assert f"{plank['balance']} from tipping" in sign
        text = page.inner_text("body")
        assert "Weight to spare" not in text and "balance" not in text.lower()
        # the status names the player's elephant by the colour of its scarf
        assert page.inner_text("#status") == "Your turn · you are the red elephant"
        angles = _leans(page)
        assert all(a > 6 for a in angles) if players == 4 else angles == [0, 0]  # 14 crates: hard
        # the seven treasures are drawn, each as its own picture, in the counts of the draw pile
        assert page.locator(".left-to-draw g").count() >= 7
        _title_whole(page)
        if size == "phone":
            assert horizontal_overflow(page) == 0
        _clean(page, axe_source, f"Stomp the Plank, {players} players, {size}")
        screenshots.save(page, f"stomp-the-plank-{players}-players-{size}.png", readme=players == 4)
        assert errors == []


def _leans(page: Page) -> list[float]:
    """How many degrees each plank leans, seat by seat."""
    found = page.locator("[data-plank]").evaluate_all(
        """els => els.map(e => [Number(e.dataset.plank), parseFloat(
            /rotate\\(([-\\d.]+)/.exec(e.querySelector('.tilt').getAttribute('transform'))[1])])""")
    return [angle for _, angle in sorted(found)]


def test_a_plank_leans_more_as_it_loads(server: Server, browser: Browser):
    position = ("turn=4 active=0 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=43 "
                "planks=0/0,5/1,12/0")
    with at_table(server, browser, "stomp-the-plank", {"position": position}, [ME, *_computers(2)],
                  "desktop") as (page, _, _):
        empty, eight, twelve = _leans(page)  # loads 0, 5 + 3 for the step, 12
        assert empty == 0 < eight < twelve < 7
        assert page.locator("[data-plank='2'] .crate").count() == 12


TIPPED = {  # the computer's plank tipped: under Ada's crates, or when its elephant stepped on
    "crates": "turn=9 active=0 phase=over end=tip-stop pontoon=coins,ruby "
              "discards=0,0,0,0,0,0,0 supply=40 planks=3/0,17/0",
    "step": "turn=9 active=1 phase=over end=tip-step pontoon=coins,ruby,coins "
            "discards=0,0,0,0,0,0,0 supply=52 planks=1/0,7/3",
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("how", list(TIPPED))
def test_a_tipped_plank_sends_its_elephant_into_the_sea(
    server: Server, browser: Browser, size: str, how: str,
):
    position = TIPPED[how]
    with at_table(server, browser, "stomp-the-plank", {"position": position}, [ME, *_computers(1)],
                  size) as (page, _, _):
        assert _leans(page)[1] > 30  # tipped
        assert "overboard!" in (page.text_content("[data-plank-name='1']") or "")
        elephant = boxes(page, "[data-elephant='1']")[0]
        for sign in boxes(page, "[data-plank-name]"):
            assert not overlap(elephant, sign)
        scene = boxes(page, "#board svg.board-pic")[0]
        assert elephant["left"] >= scene["left"] and elephant["right"] <= scene["right"]
        # a game lost on a match rings the two cards alike
        matched = page.locator("[data-spot]:has([data-match]) [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)")
        assert matched == (["coins", "coins"] if how == "step" else [])


def test_stomp_the_plank_cards_are_drawn_on_the_pontoon(
    server: Server, browser: Browser, screenshots: Screenshots,
):
    position = ("turn=3 active=0 phase=choose pontoon=coins,ruby,map,compass,sword "
                "discards=0,0,0,0,0,0,0 supply=56 planks=1/1,3/0")
    with at_table(server, browser, "stomp-the-plank", {"position": position}, [ME, *_computers(1)],
                  "desktop") as (page, _, _):
        cards = page.locator("[data-spot] [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)")
        assert cards == ["coins", "ruby", "map", "compass", "sword"]
        # each card is a picture of its own: no two treasures are drawn alike
        shapes = page.locator("[data-spot] [data-card]").evaluate_all(
            "els => els.map(e => e.innerHTML)")
        assert len(set(shapes)) == 5
        labels = page.locator("[data-spot]").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))")
        assert labels[0] == "Spot 1, stopping here gives 0 crates: Coins"
        assert labels[5] == "Spot 6, filling it wins: empty"
        screenshots.save(page, "stomp-the-plank-pontoon.png", readme=True, full=False)


@pytest.mark.parametrize("ending", ["stop", "caught"])
def test_stomp_the_plank_says_how_the_last_turn_ended(
    server: Server, browser: Browser, screenshots: Screenshots, ending: str,
):
    # Ada has turned over five treasures; the draw pile holds only those five (every hook and
    # spyglass is discarded), so a sixth card must match one of them
    position = ("turn=3 active=0 phase=choose pontoon=coins,ruby,map,compass,sword "
                "discards=0,0,0,0,0,7,7 supply=56 planks=1/1,3/0")
    table = server.create("stomp-the-plank", {"position": position})  # Ada, and an invited friend
    host, guest = named_context(browser, "Ada"), named_context(browser, "Bo", "phone")
    ada, bo = host.new_page(), guest.new_page()
    try:
        ada.goto(server.base + table["url"])
        bo.goto(server.base + table["invites"][0]["url"])
        state = _ready(ada)
        bo.wait_for_function(
            f"window.parlour.latest && window.parlour.latest.version >= {state['version']}")
        bo.wait_for_selector("#board svg.board-pic")
        ada.click(f"[data-move='{'stop' if ending == 'stop' else 'draw'}']")
        note = bo.locator(f"[data-outcome='{ending}']")
        note.wait_for()
        expected = ("Ada stopped: 5 crates to the other plank." if ending == "stop"
                    else "Caught by the captain: Ada's elephant steps forward.")
        assert " ".join(note.locator("tspan").all_text_contents()) == expected
        assert bo.locator("[data-move='draw']").is_visible()  # and it is Bo's turn, with the note
        if ending == "caught":
            bo.wait_for_function("document.getAnimations().length === 0", timeout=WAIT_MS)
            screenshots.save(bo, "stomp-the-plank-caught-phone.png", full=False)
    finally:
        host.close()
        guest.close()


# -- Stomple ------------------------------------------------------------------------------------
# Ada (red) on b4; a yellow string c4-d4-e5 next to her and one red marble far away, on g1.
HOP = "1w...../g....../....y../.0yy.../......./......./k.....r 0 rb ss - 0,0 1"
# The computer (blue) on b4 must stomp the yellow string c4 > d4 > e5; Ada (red) waits on b1.
STRING = ".w...../g....../....y../.1yy.../......./......./k0....w 1 rb ss - 0,0 1"


@pytest.mark.parametrize("size", SIZES)
def test_stomple_says_which_stomper_is_yours_and_marks_the_hops(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str,
):
    with at_table(server, browser, "stomple", {"position": HOP, "rounds": 1}, [ME, *_computers(1)],
                  size) as (page, _, errors):
        assert page.inner_text("#status") == "Your turn · you are the red stomper"
        legend = page.inner_text("[data-legend] .legend-you")
        assert legend.startswith("You are the red stomper.")
        assert "hop to any red marble" in legend
        assert page.locator("[data-legend] .legend-you svg.stomper-icon").count() == 1
        if size == "desktop":  # said where it is seen: with the status, on the first screen
            assert on_screen(page, "[data-legend] .legend-you") and on_screen(page, "#status")
        # your stomper is labelled on the board; the marble you may hop to carries the mark
        assert page.locator("[data-square='b4'] [data-stomper='0']").count() == 1
        assert page.text_content("[data-square='b4'] .you-tag") == "you"
        hops = page.locator("[data-hop]").evaluate_all(
            "els => els.map(e => e.closest('[data-square]').dataset.square)")
        assert hops == ["g1"]
        assert page.locator("[data-square='g1'] [data-marble='r']").count() == 1
        assert "hop to it" in (page.get_attribute("[data-square='g1']", "aria-label") or "")
        assert page.locator("[data-square='c4'] .from-legal").count() == 1  # next to it: no mark
        assert page.locator("[data-square='c4'] [data-hop]").count() == 0
        # the key names every stomper by its player
        key = page.inner_text("[data-legend] .legend-key")
        assert "Ada" in key and "Computer (easy)" in key
        if size == "phone":
            assert horizontal_overflow(page) == 0
        _clean(page, axe_source, f"Stomple legend at {size} size")
        screenshots.save(page, f"stomple-your-stomper-{size}.png", readme=size == "desktop")
        assert errors == []


@pytest.mark.parametrize("size", SIZES)
def test_stomple_draws_the_path_of_a_string(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str,
):
    params = {"position": STRING, "rounds": 1}
    with at_table(server, browser, "stomple", params, [ME, *_computers(1)],
                  size) as (page, state, errors):
        assert state["log"][-1]["text"] == "c4 > d4 > e5"
        path = page.locator("[data-path]")
        assert path.get_attribute("data-path") == "c4 d4 e5"
        assert path.get_attribute("aria-label") == (
            "Computer (easy, blue)'s last turn: c4 then d4 then e5")
        # the holes stomped on the way are numbered in order; the stomper stands at the end
        assert path.locator("text").all_text_contents() == ["1", "2"]
        assert page.locator("[data-square='e5'] [data-stomper='1']").count() == 1
        marked = page.locator("[data-path-hole]").evaluate_all(
            "els => els.map(e => e.dataset.square)")
        assert sorted(marked) == ["c4", "d4", "e5"]
        # Ada (red) has no red marble left to hop to: the sentence under the board says so
        assert "no red marble is left to hop to" in page.inner_text("[data-legend] .legend-you")
        assert page.locator("[data-hop]").count() == 0
        # the replay shows each stomp of it: its last step, d4 to e5
        page.click("#replay-any")
        page.wait_for_selector(".replay-bar.on")
        assert page.get_attribute("[data-path]", "data-path") == "e5"
        assert page.locator("[data-square='e5'] [data-stomper='1']").count() == 1
        assert page.locator("#board [data-last]").count() == 1
        _clean(page, axe_source, f"Stomple path at {size} size")
        screenshots.save(page, f"stomple-path-{size}.png")
        assert errors == []


# -- GobbleStones --------------------------------------------------------------------------------
CENTRES = {f + r for f in "chm" for r in ("13", "8", "3")}


def _opening() -> tuple[str, str, str]:
    """A dealt GobbleStones position with Ada (seat 0) to make the game's first play: its text,
    a centre square she may cover on its own, and a square she may start on that is no centre
    (so End play cannot follow yet)."""
    for seed in range(200):
        game = load_game("gobblestones")
        state = game.new_initial_state()
        rng = random.Random(seed)
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        centre = other = None
        for action in state.legal_actions():
            name = state.action_to_string(action)
            after = state.clone()
            after.apply_action(action)
            ends = "end" in [after.action_to_string(a) for a in after.legal_actions()]
            if name in CENTRES and ends:
                centre = centre or name
            elif re.fullmatch(r"[a-o]\d+", name) and name not in CENTRES and not ends:
                other = other or name
        if centre and other:
            return state.position(), centre, other
    raise AssertionError("no suitable deal in 200 seeds")


@pytest.mark.parametrize("size", SIZES)
def test_gobblestones_whole_turn_on_one_screen_and_why_no_end_play(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str,
):
    position, centre, other = _opening()
    with at_table(server, browser, "gobblestones", {"position": position}, [ME, *_computers(1)],
                  size) as (page, _, errors):
        assert page.inner_text("#status") == "Your turn"
        if size == "desktop":  # "Your turn", the rack and Pass together, with no scrolling
            assert page.evaluate("window.scrollY") == 0
            for selector in ("#status", "[data-rack]", "[data-move='pass']",
                             "#board svg.board-pic"):
                assert on_screen(page, selector), selector
        # a first tile that covers no centre square: no End play, and the reason in player words
        if size == "phone":  # the board shows one board square: go to the one with that square
            page.locator(f"[data-section='{_section(other)}']").click()
        page.locator(f"#board g[data-square='{other}']").click()
        page.wait_for_function("window.parlour.pending.length === 1", timeout=WAIT_MS)
        page.wait_for_selector("[data-why-no-end]")
        assert page.locator("[data-move='end']").count() == 0
        why = page.inner_text("[data-why-no-end]")
        assert why.startswith("No End play yet: the game's first play must cover one of the "
                              "dotted centre squares")
        summary = page.inner_text("[data-play-summary]")
        assert re.fullmatch(r"Your play so far: 1 tile, \d points?\.", summary), summary
        body = page.inner_text("body")
        assert "Turn so far" not in body and not re.search(r"\b\d+ steps?\b", body)
        if size == "desktop":
            assert on_screen(page, "[data-why-no-end]") and on_screen(page, "#status")
        _clean(page, axe_source, f"GobbleStones first tile at {size} size")
        screenshots.save(page, f"gobblestones-why-no-end-{size}.png", readme=True,
                         full=size == "phone")
        # take it back, lay one on a centre square: End play is offered, beside the rack
        page.locator("[data-take-back]").click()
        page.wait_for_function("window.parlour.pending.length === 0", timeout=WAIT_MS)
        if size == "phone":
            page.locator(f"[data-section='{_section(centre)}']").click()
        page.locator(f"#board g[data-square='{centre}']").click()
        page.wait_for_selector("[data-move='end']")
        assert page.locator("[data-why-no-end]").count() == 0
        if size == "desktop":
            page.evaluate("window.scrollTo(0, 0)")
            for selector in ("#status", "[data-rack]", "[data-move='end']"):
                assert on_screen(page, selector), selector
        assert errors == []


def _section(square: str) -> int:
    row = 15 - int(square[1:])
    col = "abcdefghijklmno".index(square[0])
    return (row // 5) * 3 + col // 5


def test_gobblestones_on_a_phone_shows_and_marks_the_last_play(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str,
):
    host = named_context(browser, "Ada", "desktop")
    guest = named_context(browser, "Bo", "phone")
    ada, bo = host.new_page(), guest.new_page()
    errors = watch_errors(ada) + watch_errors(bo)
    try:
        # a table with an invited friend starts from a random deal (a set-up position would show
        # the friend's rack): deal until Ada may open on a centre other than the middle one's
        for _ in range(20):
            table = server.create("gobblestones")  # Ada, and an invited friend
            ada.goto(server.base + table["url"])
            state = wait_my_turn(ada)
            outer = sorted({m["s"] for m in state["legal"]} & (CENTRES - {"h8"}))
            if outer:
                centre = outer[0]
                break
        else:
            pytest.fail("no deal in 20 let Ada open away from the middle board square")
        bo.goto(server.base + table["invites"][0]["url"])
        ada.wait_for_selector("#board svg.board-pic")
        bo.wait_for_function(
            f"window.parlour.latest && window.parlour.latest.version >= {state['version']}")
        assert bo.locator("#board svg.board-pic [data-last]").count() == 0  # nothing played yet
        shown = bo.get_attribute("#board svg.board-pic", "aria-label")
        assert shown == "GobbleStones board, the centre board square"
        # Ada plays on another board square's centre, then ends her play
        ada.locator(f"#board g[data-square='{centre}']").click()
        ada.click("[data-move='end']")
        bo.wait_for_function(
            "window.parlour.latest.log.length > 0 && window.parlour.latest.to_act === 1",
            timeout=WAIT_MS)
        bo.wait_for_selector(f"#board [data-square='{centre}'] [data-last]")
        # Bo's phone went to that board square: the play is on the screen, marked, and on the map
        assert on_screen(bo, f"#board [data-square='{centre}'] [data-last]")
        assert bo.locator(".board-map [data-last]").count() == 1
        assert f"Last play, by Ada: {centre}" in bo.inner_text(".gob-tray")
        _clean(bo, axe_source, "GobbleStones last play on a phone")
        screenshots.save(bo, "gobblestones-phone-last-play.png", readme=True, full=False)
        # looking elsewhere, a button takes Bo back to it
        elsewhere = (_section(centre) + 1) % 9
        bo.locator(f"[data-section='{elsewhere}']").click()
        assert bo.locator("#board svg.board-pic [data-last]").count() == 0
        back = bo.locator("[data-goto-last]")
        assert back.inner_text().startswith("See Ada's play")
        back.click()
        bo.wait_for_selector(f"#board [data-square='{centre}'] [data-last]")
        assert horizontal_overflow(bo) == 0
        assert errors == []
    finally:
        host.close()
        guest.close()


@pytest.mark.parametrize("game", ["stomple", "stomp-the-plank", "gobblestones"])
def test_the_title_is_whole_on_a_phone(server: Server, browser: Browser, game: str):
    table = server.create(game, seats=[ME, *_computers(1)])
    context = named_context(browser, "Ada", "phone")
    page = context.new_page()
    try:
        page.goto(server.base + table["url"])
        page.wait_for_selector("#board svg")
        assert page.inner_text("#title") == latest(page)["title"]
        _title_whole(page)
    finally:
        context.close()
