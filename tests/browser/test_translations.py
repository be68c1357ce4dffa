"""French pages with no English left (issue 30, translations): the lobby (its Advanced section
and a challenge's notice too), a table of each game, a rules page, a tutorial, the account page
(its tokens), a profile's challenge form and a tournament's page, at desktop and phone sizes,
read in French by a browser whose language is French; every text a player sees is checked
against the English catalog (an English message on the page is a message the page did not
translate). The header's language choice switches and is remembered."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Browser, Page

from parlour import list_games
from parlour.i18n import catalogs
from tests.server.helpers import PASSWORD, account
from tests.server.helpers import ServerProcess as Server

from .conftest import SIZES, Screenshots
from .pages import WAIT_MS, axe_violations, horizontal_overflow, wait_my_turn, watch_errors

ME = {"kind": "me", "name": "Ada"}
COMPUTER = {"kind": "ai", "agent": "easy"}
PLACEHOLDER = re.compile(r"\\\{\w*(?:![rsa])?(?::[^{}]*)?\\\}")

VISIBLE_TEXTS = """() => {
  const seen = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\\s+/g, " ").trim();
    const box = node.parentElement;
    if (!text || !box || !box.checkVisibility({ visibilityProperty: true })) continue;
    if (box.closest("svg text") === null && box.closest("svg")) continue;
    seen.push(text);
  }
  for (const el of document.querySelectorAll("[aria-label], [placeholder], [title]")) {
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    for (const name of ["aria-label", "placeholder", "title"]) {
      const value = el.getAttribute(name);
      if (value && el.tagName !== "TITLE") seen.push(value.replace(/\\s+/g, " ").trim());
    }
  }
  for (const el of document.body.querySelectorAll("*")) {  // text the CSS puts on the page
    for (const pseudo of ["::before", "::after"]) {
      const content = getComputedStyle(el, pseudo).content;
      if (content && content.startsWith('"') && el.checkVisibility()) {
        seen.push(JSON.parse(content).replace(/\\s+/g, " ").trim());
      }
    }
  }
  seen.push(document.title);
  return seen;
}"""


@lru_cache(maxsize=1)
def english_messages() -> list[tuple[str, re.Pattern[str]]]:
    """Every English message whose French differs (a proper name reads the same in both), as a
    pattern over a whole text: its placeholders match any words."""
    with open(catalogs.po_path("fr"), "rb") as source:
        french = read_po(source)
    found = []
    for message in french:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for english in ids:
            words = re.sub(r"\{[^}]*\}", "", english)
            if english in forms or not re.search(r"[A-Za-z]{2}", words):
                continue
            plain = " ".join(english.split())
            pattern = PLACEHOLDER.sub(".+?", re.escape(plain))
            found.append((english, re.compile(f"^{pattern}$")))
    return found


def english_left(page: Page) -> list[str]:
    """The texts on screen that are a message of the English catalog."""
    texts = page.evaluate(VISIBLE_TEXTS)
    return sorted({f"{text!r} is {english!r}" for text in texts
                   for english, pattern in english_messages() if pattern.match(text)})


def french_page(browser: Browser, size: str) -> Page:
    """A browser whose language is French (``Accept-Language: fr-FR``), with a chosen name."""
    context = browser.new_context(viewport=SIZES[size], locale="fr-FR", bypass_csp=True,
                                  is_mobile=size == "phone", has_touch=size == "phone")
    context.add_init_script("try { localStorage.setItem('parlour.name', 'Ada'); "
                            "localStorage.setItem('parlour.name.chosen', '1'); } catch (e) {}")
    return context.new_page()


def sign_in(page: Page, server: Server, username: str) -> None:
    """Sign ``page`` in as ``username`` (an account made with the tests' password)."""
    page.goto(server.base + "/account")
    page.fill("#signin-name", username)
    page.fill("#signin-password", PASSWORD)
    page.click("#signin-form button[type=submit]")
    page.wait_for_url(server.base + "/")


DOCS = {"fr-lobby-desktop.png", "fr-learn-done-desktop.png", "fr-table-stomp-the-plank-phone.png",
        "fr-profile-puzzles-desktop.png"}
"""The screenshots docs/translations.md and docs/web.md show (rewritten with
PARLOUR_UPDATE_SCREENSHOTS=1)."""


def check(page: Page, screenshots: Screenshots, name: str, axe_source: str) -> None:
    assert page.evaluate("document.documentElement.lang") == "fr"
    screenshots.save(page, name, readme=name in DOCS)
    assert english_left(page) == []
    assert horizontal_overflow(page) == 0
    # longer French words never widen the page past the screen (a phone would zoom out)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert axe_violations(page, axe_source) == []


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_lobby_rules_tutorial_and_account_page_in_french(
        server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str):
    host = account(server, f"fr-host-{size}")  # a tournament to list: the lobby's words for it
    made = host.post("/api/tournaments", json={"game": "clobber", "params": {"size": "3x4"},
                                               "format": "swiss", "rounds": 3,
                                               "name": "Club du jeudi"})
    assert made.status_code == 201, made.text
    page = french_page(browser, size)
    errors = watch_errors(page)
    try:
        page.goto(server.base + "/")
        page.wait_for_selector(".card h2")
        page.wait_for_selector("#tournaments-list li")
        assert page.inner_text(".lobby-intro").startswith("Choisissez un jeu")
        computer = page.locator("[data-mode=computer]").first
        assert computer.inner_text() == "Jouer contre l'ordinateur"
        page.locator(".card details.options > summary").first.click()  # the options, opened
        check(page, screenshots, f"fr-lobby-{size}.png", axe_source)

        page.goto(server.base + "/rules/stomp-the-plank")
        page.wait_for_selector(".rules-figure svg")
        assert page.inner_text("h1") == "Stomp the Plank"
        assert "Le basculement" in page.inner_text("article")
        check(page, screenshots, f"fr-rules-{size}.png", axe_source)

        page.goto(server.base + "/learn/gobblestones")
        page.wait_for_selector("#board svg")
        page.wait_for_function("document.querySelector('#instruction').textContent.length > 0",
                               timeout=WAIT_MS)
        assert page.inner_text("#step-title") == "La première pose"
        check(page, screenshots, f"fr-learn-{size}.png", axe_source)
        page.click("#show")  # "Show me": the engine plays the step, and explains it in French
        page.wait_for_function("document.querySelector('#feedback').textContent.length > 0",
                               timeout=WAIT_MS)
        assert "Vous avez marqué" in page.inner_text("#feedback")
        check(page, screenshots, f"fr-learn-done-{size}.png", axe_source)

        page.goto(server.base + "/account")
        page.wait_for_selector("#signin-form")
        assert page.inner_text("#account-title") == "Connectez-vous ou créez un compte"
        check(page, screenshots, f"fr-account-{size}.png", axe_source)
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("game", list_games())
def test_a_table_of_each_game_in_french(server: Server, browser: Browser,
                                        screenshots: Screenshots, axe_source: str,
                                        game: str, size: str):
    table = server.create(game, seats=[ME, COMPUTER])
    page = french_page(browser, size)
    errors = watch_errors(page)
    try:
        page.goto(server.base + table["url"])
        wait_my_turn(page)
        page.wait_for_selector("#board svg")
        page.wait_for_function("document.querySelector('#status').textContent.length > 0",
                               timeout=WAIT_MS)
        assert page.inner_text("#players-title") == "Joueurs"
        assert page.text_content("#conn") == "en direct"
        page.click("#moves-panel > summary")  # "Taper un coup", with the legal moves
        check(page, screenshots, f"fr-table-{game}-{size}.png", axe_source)
        page.fill("#typed", "zz99")  # a move that cannot be read: the refusal is French
        page.click("#typed-go")
        page.wait_for_function("document.querySelector('#message').textContent.length > 0",
                               timeout=WAIT_MS)
        assert english_left(page) == []
        assert errors == []
    finally:
        page.context.close()


def test_the_headers_choice_switches_the_language_and_is_remembered(server: Server,
                                                                     browser: Browser):
    page = french_page(browser, "desktop")
    try:
        page.goto(server.base + "/")
        page.wait_for_selector(".card h2")
        assert page.evaluate("document.documentElement.lang") == "fr"
        with page.expect_navigation():
            page.select_option("#language", "en")
        page.wait_for_selector(".card h2")
        assert page.evaluate("document.documentElement.lang") == "en"
        assert page.inner_text(".lobby-intro").startswith("Pick a game")
        page.goto(server.base + "/rules/clobber")  # remembered across pages (the cookie)
        assert page.evaluate("document.documentElement.lang") == "en"
        cookies = {c["name"]: c["value"] for c in page.context.cookies()}
        assert cookies["parlour_lang"] == "en"
        with page.expect_navigation():
            page.select_option("#language", "fr")
        assert page.inner_text("h2") == "Le plateau"
        page.set_viewport_size(SIZES["phone"])  # on a phone the choice is the languages' codes
        assert not page.is_visible("#language") and page.is_visible("#language-short")
        with page.expect_navigation():
            page.select_option("#language-short", "en")
        assert page.inner_text("h2") == "The board"
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_puzzle_page_and_a_puzzle_rating_on_a_profile_in_french(
        server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str):
    """A Clobber puzzle in French from its start to a solve (the solver's reply and the
    verdict in French), one missed, and the player's puzzle rating on their profile."""
    from .test_puzzles import _move, _puzzle, _wrong

    puzzle = _puzzle()
    page = french_page(browser, size)
    errors = watch_errors(page)
    try:
        name = f"fr-puzzler-{size}"
        made = page.request.post(f"{server.base}/api/accounts",
                                 data={"username": name, "password": PASSWORD})
        assert made.status == 201
        page.goto(f"{server.base}/puzzles/clobber/{puzzle.id}")
        page.wait_for_function("window.parlour && window.parlour.puzzle", timeout=WAIT_MS)
        colour = "blancs" if puzzle.to_move == "o" else "noirs"
        assert page.inner_text("#task") == f"Les {colour} jouent et gagnent"
        assert "3 coups à trouver" in page.inner_text("#about")
        check(page, screenshots, f"fr-puzzle-{size}.png", axe_source)
        _move(page, puzzle.line[0])
        assert f"Le solveur a répondu {puzzle.line[1]}" in page.inner_text("#feedback")
        check(page, screenshots, f"fr-puzzle-going-{size}.png", axe_source)
        _move(page, puzzle.line[2])
        _move(page, puzzle.line[4])
        assert "Résolu !" in page.inner_text("#feedback")
        check(page, screenshots, f"fr-puzzle-solved-{size}.png", axe_source)
        page.goto(f"{server.base}/puzzles/clobber/{puzzle.id}")  # again: not rated again
        page.wait_for_function("window.parlour && window.parlour.puzzle", timeout=WAIT_MS)
        _move(page, _wrong(puzzle))
        assert "Ce n'est pas le coup gagnant" in page.inner_text("#feedback")
        check(page, screenshots, f"fr-puzzle-failed-{size}.png", axe_source)

        page.goto(f"{server.base}/players/{name}")
        card = page.locator("[data-puzzles=clobber]")
        card.wait_for(timeout=WAIT_MS)
        assert card.locator("h3").inner_text() == "Problèmes de Clobber"
        assert "1 problème résolu sur 1" in card.inner_text()
        check(page, screenshots, f"fr-profile-puzzles-{size}.png", axe_source)
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_tournaments_page_in_french(browser: Browser, screenshots: Screenshots,
                                      axe_source: str, size: str, tmp_path: Path):
    """A Swiss made through the API, three players joined and started: its first round is
    being played (one player sits it out), read by a guest and by one of its players. (A
    server of its own: the lobby's list of tournaments on the shared one stays short.)"""
    server = Server(tmp_path / "tournament.db").start()
    try:
        _tournament_in_french(server, browser, screenshots, axe_source, size)
    finally:
        server.stop()


def _tournament_in_french(server: Server, browser: Browser, screenshots: Screenshots,
                          axe_source: str, size: str) -> None:
    names = [f"frt{size[0]}-{who}" for who in ("ana", "bea", "cyr")]
    players = [account(server, name) for name in names]
    made = players[0].post("/api/tournaments", json={
        "game": "clobber", "params": {"size": "3x4"}, "format": "swiss", "rounds": 2,
        "rated": True, "clock": {"per_move": 86400}, "name": f"Lundi ({size})"})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    for player in players:
        assert player.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert players[0].post(f"/api/tournaments/{tid}/start").status_code == 200
    page = french_page(browser, size)
    errors = watch_errors(page)
    try:
        page.goto(f"{server.base}/tournaments/{tid}")
        page.wait_for_selector("#t-rounds .round .listing")
        assert page.inner_text("#t-status") == "La ronde 1 sur 2 est en cours."
        assert page.inner_text("#t-about").startswith(  # the board in French words too
            "Système suisse de Clobber, Taille du plateau : 3x4, 2 rondes, 1 jour par coup, "
            "classée.")
        assert page.inner_text("#t-standings-title") == "Classement du tournoi"
        check(page, screenshots, f"fr-tournament-{size}.png", axe_source)
        playing = [n for n in names if n not in page.inner_text("#t-rounds .muted")]
        sign_in(page, server, playing[0])  # one of its players: "Your games" too
        page.goto(f"{server.base}/tournaments/{tid}")
        page.wait_for_selector("#t-yours-list li")
        assert page.inner_text("#t-yours-list .button") == "Jouer votre partie"
        check(page, screenshots, f"fr-tournament-player-{size}.png", axe_source)
        assert errors == []
    finally:
        page.context.close()


AGREEING = {  # the status line says which piece is yours, its colour agreeing with it
    "stomple": ("vous êtes l'écraseur ", ("blanc", "jaune", "rouge", "bleu", "vert", "noir")),
    "stomp-the-plank": ("vous êtes l'éléphant ", ("rouge", "bleu", "vert", "orange")),
}
MARBLES = ("blanche", "jaune", "rouge", "bleue", "verte", "noire", "œil-de-chat")


@pytest.mark.parametrize("game", sorted(AGREEING))
def test_colour_words_agree_with_their_nouns_on_a_french_table(server: Server, browser: Browser,
                                                               game: str):
    """French colours agree with the noun (the catalog's contexts): "l'écraseur vert", "la
    bille verte", "l'éléphant vert"; never the feminine of every piece."""
    table = server.create(game, seats=[ME, COMPUTER])
    page = french_page(browser, "desktop")
    try:
        page.goto(server.base + table["url"])
        wait_my_turn(page)
        status = page.inner_text("#status")
        prefix, forms = AGREEING[game]
        assert any(f"{prefix}{form}" == status.split("· ")[-1] for form in forms), status
        if game == "stomple":
            labels = page.evaluate("[...document.querySelectorAll('#board [aria-label]')]"
                                   ".map(e => e.getAttribute('aria-label'))")
            marbles = [label.split(", ", 1)[1].split(":")[0] for label in labels
                       if ", bille " in label]
            assert marbles and all(m.removeprefix("bille ") in MARBLES for m in marbles), marbles
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_lobbys_advanced_section_and_the_bots_widgets_in_french(
        server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str):
    """Signed in: a challenge waiting in the lobby's notice, every card's Advanced section open
    (each option by the game's label, with its help), a profile's challenge form, and the
    account page's tokens."""
    me, rival = f"frw{size[0]}-moi", f"frw{size[0]}-rival"
    mine, theirs = account(server, me), account(server, rival)
    sent = theirs.post("/api/challenges", json={"opponent": me, "game": "clobber",
                                                "clock": {"per_move": 86400}})
    assert sent.status_code == 201, sent.text
    made = mine.post("/api/tokens", json={"name": "mon script", "scopes": ["tables:read"]})
    assert made.status_code == 201, made.text
    page = french_page(browser, size)
    errors = watch_errors(page)
    try:
        sign_in(page, server, me)
        page.wait_for_selector("#challenge-notices .challenge")
        assert page.inner_text("#challenge-notices .challenge span").startswith(
            f"{rival} vous défie")
        for card in page.locator(".card").all():
            card.locator("details.options > summary").click()
            card.locator("details.advanced > summary").click()
        page.wait_for_selector(".card details.advanced .seat-choices select")
        labels = page.locator("[data-game=clobber] details.advanced label").all_inner_texts()
        assert "Taille du plateau" not in labels and "Rangées du plateau" in labels
        assert "rows" not in labels
        check(page, screenshots, f"fr-lobby-advanced-{size}.png", axe_source)

        page.goto(f"{server.base}/players/{rival}")
        page.wait_for_selector("#challenge-form")
        assert page.inner_text("#challenge-send") == f"Défier {rival}"
        check(page, screenshots, f"fr-profile-challenge-{size}.png", axe_source)

        page.goto(server.base + "/account")
        page.wait_for_selector("#tokens .token-row")
        assert page.inner_text("#tokens .token-row button") == "Révoquer"
        check(page, screenshots, f"fr-account-tokens-{size}.png", axe_source)
        assert errors == []
    finally:
        page.context.close()
