"""A whole game of each of the four games against the computer, clicked (and keyed) through
from the lobby to the result screen and the replay, at a desktop's 1280 x 800 and a phone's
390 x 844: names on the table, the numbered move log, the one-line how-to, the result sentence,
no horizontal scrolling and tap targets of 40 px on the phone, and axe-core's accessibility
check (no serious or critical finding) on the table at the first turn and at the end."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Locator, Page

from parlour import list_games
from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots, named_context
from .pages import (
    WAIT_MS,
    axe_violations,
    horizontal_overflow,
    latest,
    small_tap_targets,
    wait_my_turn,
    watch_errors,
)

GAMES = list_games()
TAP_TARGETS = "#board [role=button], .board button, #end-panel button, #end-panel a.button"
RULING_ID = re.compile(r"\b[CSPBG]-?\d{1,2}\b")


def _settle(page: Page, version: int, pending: int) -> None:
    """Wait until a click took effect: a move stored and its position in, or a step
    previewed (never on the ack alone: the state it announces comes after it)."""
    page.wait_for_function(
        f"!window.parlour.busy && (window.parlour.latest.version > {version} || "
        f"window.parlour.latest.terminal || window.parlour.pending.length !== {pending} || "
        "document.querySelector('#message.error') !== null)",
        timeout=WAIT_MS,
    )


def _press(page: Page, locator: Locator) -> None:
    """Play a board element with the keyboard: focus it, press Enter."""
    locator.focus()
    page.keyboard.press("Enter")


def _play_turn(page: Page, game: str, state: dict) -> None:
    version = state["version"]
    if game == "clobber":  # by keyboard: the stone, then the stone it captures
        _press(page, page.locator("#board [role=button]").first)
        target = page.locator("#board g[data-square]:has([data-target])").first
        target.wait_for()
        assert "capture it with" in (target.get_attribute("aria-label") or "")
        _press(page, target)
        _settle(page, version, 0)
    elif game == "stomple":  # click a marble; a string goes on until the turn passes
        while True:
            pending = len(page.evaluate("window.parlour.pending"))
            page.locator("#board [role=button]").first.click()
            _settle(page, version, pending)
            now = latest(page)
            if now["version"] > version or now["terminal"]:
                return
            page.wait_for_selector("#board [role=button]", timeout=WAIT_MS)
    elif game == "stomp-the-plank":
        cards = len(state["view"]["pontoon"])
        stop = page.locator("[data-move='stop']")
        if stop.count() and cards >= 2:
            stop.click()
        else:
            page.get_by_role("button", name="Draw a card").click()
        _settle(page, version, 0)
    else:  # GobbleStones: lay tiles on outlined squares, then End play (or Pass)
        for _ in range(6):
            now = latest(page)
            if now["version"] > version or now["terminal"]:
                return
            if page.locator("[data-move='end']").count():
                page.click("[data-move='end']")
                _settle(page, version, -1)  # the play stored and its position in
                return
            squares = page.locator("#board g[data-square]:has(.from-legal)")
            if not squares.count():
                break
            pending = len(page.evaluate("window.parlour.pending"))
            squares.first.click()
            _settle(page, version, pending)
        if page.evaluate("window.parlour.pending.length"):
            # on a phone the play's next square may lie on another part of the board than the
            # one shown: start the turn again and pass instead
            page.click("[data-take-back]")  # the tray's own control (no #compose bar here)
            page.wait_for_function("window.parlour.pending.length === 0", timeout=WAIT_MS)
        page.click("[data-move='pass']")
        _settle(page, version, 0)


def _no_serious_violations(page: Page, axe_source: str, where: str) -> None:
    found = axe_violations(page, axe_source)
    assert found == [], f"{where}: {found}"


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("game", GAMES)
def test_a_full_game_against_the_computer(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str,
    game: str, size: str,
):
    context = named_context(browser, "Ada", size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + "/")
        card = page.locator(f"[data-game='{game}']")
        if game == "stomple":  # a one-round game, chosen in the player's words
            card.locator("summary", has_text="Options").click()
            card.get_by_label("Length").select_option(label="One round")
        if game == "gobblestones":  # an engine-only setting, under Advanced: a short game
            card.locator("summary", has_text="Options").click()
            card.locator("summary", has_text="Advanced").click()
            card.locator("[data-param='max_turns']").fill("6")
        card.get_by_text("Easy", exact=True).click()
        card.get_by_role("button", name="Play the computer").click()
        page.wait_for_url("**/play/**")
        page.wait_for_selector("#board svg")

        state = wait_my_turn(page)
        assert not state["terminal"]
        seats = page.inner_text("#seats")
        assert "Ada" in seats and "Computer (easy" in seats
        assert [s["name"] for s in state["seats"]][1:] == ["Computer (easy)"]
        assert page.is_visible("#howto") and "How to move" in page.inner_text("#howto")
        assert page.inner_text("#status").startswith("Your turn")
        if page.locator("#board .from-legal").count():  # hints: a dark ring and a light one,
            strokes = page.evaluate(  # so they show on every colour (green on green did not)
                """['.hint-outer', '.hint-inner'].map(s => getComputedStyle(
                    document.querySelector('#board ' + s)).stroke)""")
            if game == "clobber":  # one quiet dark ring: the squares are light enough
                assert strokes[0] == "rgba(17, 17, 17, 0.7)"
            else:
                assert strokes == ["rgb(17, 17, 17)", "rgb(255, 255, 255)"]
        if size == "phone":
            assert horizontal_overflow(page) == 0
            assert small_tap_targets(page, TAP_TARGETS) == []
        _no_serious_violations(page, axe_source, f"{game} table at {size} size")
        screenshots.save(page, f"{game}-{size}.png", readme=True)

        first = True
        for _ in range(400):
            state = wait_my_turn(page)
            if state["terminal"]:
                break
            _play_turn(page, game, state)
            if first:
                page.wait_for_function("window.parlour.latest.log.length > 0", timeout=WAIT_MS)
                assert page.locator("#log li").first.get_attribute("value") == "1"
                assert page.is_hidden("#howto")  # the tip is for the first turn only
                first = False
        else:
            pytest.fail("the game did not end in 400 turns")

        page.wait_for_selector("#end-panel:not([hidden])")
        result = page.inner_text("#result")
        ends = r"You win!|.+ wins\.|.+ share the win\.|You share the win with .+\.|Nobody wins\."
        assert re.fullmatch(ends, result), result
        assert any(word in result for word in ("Ada", "You", "Computer (easy)", "Nobody"))
        assert page.inner_text("#result-details").strip()
        assert page.is_hidden("#rematch-link")  # no rematch exists yet
        numbers = page.locator("#log li").evaluate_all("els => els.map(e => e.value)")
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
        assert "Ada" in page.inner_text("#log")
        if size == "phone":
            assert horizontal_overflow(page) == 0
            assert small_tap_targets(page, TAP_TARGETS) == []
        _no_serious_violations(page, axe_source, f"{game} result at {size} size")
        screenshots.save(page, f"{game}-{size}-result.png", readme=True)

        # the replay steps back through the game and forward again
        page.click("#replay-button")
        page.wait_for_selector(".replay-bar.on")
        steps = int(page.get_attribute("#replay-slider", "max"))
        assert steps > 0
        assert page.inner_text("#status") == f"Replay: step {steps} of {steps}"
        page.click("#replay-prev")
        assert page.inner_text("#status") == f"Replay: step {steps - 1} of {steps}"
        page.click("#replay-next")
        page.click("#replay-exit")
        page.wait_for_selector("#replay-bar:not(.on)", state="attached")
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_lobby_reads_as_a_players_page(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    context = named_context(browser, "Bo", size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + "/")
        page.wait_for_selector(".card")
        assert page.locator(".card").count() == len(GAMES)
        for game in GAMES:
            card = page.locator(f"[data-game='{game}']")
            assert card.locator("svg.pic").count() == 1
            for mode in ("Play the computer", "Invite a friend", "Hot-seat: one screen"):
                assert card.get_by_role("button", name=mode).is_visible()
            card.locator("summary", has_text="Options").click()
            folded = card.locator(".options").inner_text()
            advanced = card.locator(".advanced").inner_text()
            words = folded.replace(advanced, "")
            assert not RULING_ID.search(words), words
            assert not re.search(r"\b(\d)-\1 players|\b(\d) to \2 players", card.inner_text())
            for raw in ("max_turns", "position", "graph", "step_weight", "tip_at", "cannibal"):
                assert raw not in words
        assert "Board" in page.locator("[data-game='clobber'] .options").inner_text()
        assert page.locator("#my-name").input_value() == "Bo"
        if size == "phone":
            assert horizontal_overflow(page) == 0
            assert small_tap_targets(page, ".card button, .strength label") == []
        _no_serious_violations(page, axe_source, f"lobby at {size} size")
        screenshots.save(page, f"lobby-{size}.png", readme=True)

        # an invitation: the links are shown whole and copy with one click
        page.locator("[data-game='stomp-the-plank']").get_by_role(
            "button", name="Invite a friend").click()
        page.wait_for_selector("#created:not([hidden])")
        links = page.locator("#links .link-text").all_inner_texts()
        assert all(text.startswith(server.base + "/") for text in links)
        tokens = [text.rsplit("/", 1)[-1] for text in links]
        assert all(len(token) >= 12 for token in tokens)  # whole, underscores and all
        page.click("#go")
        page.wait_for_selector("#board svg")
        # "Your games" remembers the table: it waits for the invited friend (not "Your turn")
        page.goto(server.base + "/")
        page.wait_for_selector("#your-games:not([hidden])")
        assert "Stomp the Plank" in page.inner_text("#your-games")
        assert "Waiting for Player 2" in page.inner_text("#your-games")
        assert "Your turn" not in page.inner_text("#your-games")
        assert errors == []
    finally:
        context.close()


def test_the_bluffing_colour_is_chosen_explicitly(server: Server, browser: Browser):
    table = server.create("gobblestones", {"bluff": True},
                          seats=[{"kind": "me", "name": "Ada"}, {"kind": "ai", "agent": "easy"}])
    context = named_context(browser, "Ada")
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + table["url"])
        wait_my_turn(page)
        square = page.locator("#board g[data-square]:has(.from-legal)").first
        square.click()
        assert "Choose the colour" in page.inner_text("#message")
        assert page.evaluate("window.parlour.pending") == []
        legal = latest(page)["legal"]
        name = square.get_attribute("data-square")
        colour = next(m["s"][-1] for m in legal if m["s"].startswith(f"{name}:"))
        page.click(f"button[data-rack='{colour.upper()}']")
        assert page.get_attribute(f"button[data-rack='{colour.upper()}']", "aria-pressed") == "true"
        page.locator(f"#board g[data-square='{name}']").click()
        page.wait_for_function("window.parlour.pending.length === 1", timeout=WAIT_MS)
        assert latest(page)["view"]["play"] == []  # nothing stored: a preview
        pending = page.evaluate("window.parlour.pending")[0]
        assert pending // 225 == "RYGBP".index(colour.upper())  # exactly the colour picked
        assert errors == []
    finally:
        context.close()


COUNT_ANIMATIONS = """
window.__animations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__animations += 1;
  return animate.apply(this, args);
};
"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_last_move_is_marked_and_animated_unless_motion_is_reduced(
    server: Server, browser: Browser, motion: str
):
    table = server.create("clobber", seats=[{"kind": "me"}, {"kind": "ai", "agent": "easy"}])
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion=motion,
                                  bypass_csp=True)  # Playwright evaluates its waits
    context.add_init_script(COUNT_ANIMATIONS)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + table["url"])
        state = wait_my_turn(page)
        assert page.evaluate("window.__animations") == 0  # nothing moves on arrival
        _play_turn(page, "clobber", state)
        page.wait_for_function(f"window.parlour.latest.version >= {state['version'] + 2}",
                               timeout=WAIT_MS)
        reply = latest(page)["last"]["text"]
        assert page.locator(f"[data-square='{reply[2:]}'] [data-last]").count() == 1
        animations = page.evaluate("window.__animations")
        assert animations == 0 if motion == "reduce" else animations >= 1
        assert errors == []
    finally:
        context.close()


def test_hot_seat_players_name_their_own_seat(server: Server, browser: Browser):
    table = server.create("clobber", seats=[{"kind": "me", "name": "Ada"}, {"kind": "hotseat"}])
    context = named_context(browser, "Ada")
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + table["url"])
        state = wait_my_turn(page)
        assert page.inner_text("#name-label") == "Name of Ada"
        _play_turn(page, "clobber", state)
        page.wait_for_function("window.parlour.latest.to_act === 1", timeout=WAIT_MS)
        assert page.inner_text("#name-label") == "Name of Black"
        page.fill("#my-name", "Bo\u202e<b>")
        page.click("#name-form button")
        page.wait_for_function("window.parlour.latest.seats[1].name === 'Bo<b>'",
                               timeout=WAIT_MS)
        assert page.inner_text("#status") == "Bo<b> (Black): your turn"
        assert page.locator("#seats b").count() == 0  # a name is text, never markup
        assert errors == []
    finally:
        context.close()
