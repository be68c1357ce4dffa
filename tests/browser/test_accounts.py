"""Accounts in real Chromium (issue 29), at desktop and phone sizes: signing up and in from
another browser profile, a rated game between two accounts played to the end by clicking, both
ratings moving on the result screen, the profiles and the leaderboard; a passkey signed in
with Chromium's virtual authenticator; "Play someone now" pairing two browsers."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from parlour import load_game
from tests.server.helpers import PASSWORD
from tests.server.helpers import ServerProcess as Server

from .conftest import SIZES, Screenshots, named_context
from .pages import (
    WAIT_MS,
    axe_violations,
    horizontal_overflow,
    wait_my_turn,
    wait_version,
    watch_errors,
)


def _sign_up(context: BrowserContext, base: str, name: str) -> Page:
    page = context.new_page()
    page.goto(base + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_url(base + "/")
    page.wait_for_selector(f"#account-link >> text={name}")
    return page


def _play_by_clicking(pages: list[Page], rows: int, columns: int) -> None:
    state = load_game("clobber", rows=rows, columns=columns).new_initial_state()
    while not state.is_terminal():
        page = pages[state.current_player()]
        wait_version(page, state.move_number())
        move = wait_my_turn(page)["legal"][0]
        page.click(f"[data-square='{move['s'][:2]}']")
        page.wait_for_selector(f"[data-square='{move['s'][2:]}'] [data-target]")
        page.click(f"[data-square='{move['s'][2:]}']")
        state.apply_action(move["a"])
    for page in pages:
        wait_version(page, state.move_number())


def _no_serious(page: Page, axe_source: str) -> None:
    found = axe_violations(page, axe_source)
    assert not found, found


@pytest.mark.parametrize("size", list(SIZES))
def test_a_rated_game_between_two_accounts_moves_both_ratings(
    server: Server, browser: Browser, screenshots: Screenshots, axe_source: str, size: str
):
    white_name, black_name = f"white-{size}", f"black-{size}"
    contexts = [named_context(browser, None, size) for _ in range(3)]
    try:
        white = _sign_up(contexts[0], server.base, white_name)
        errors = watch_errors(white)
        account_page = contexts[1].new_page()
        account_page.goto(server.base + "/account")
        screenshots.save(account_page, f"account-{size}.png", readme=True)
        _no_serious(account_page, axe_source)
        assert horizontal_overflow(account_page) == 0
        account_page.close()
        black = _sign_up(contexts[1], server.base, black_name)
        # white opens a rated Clobber table on 3 x 4 with a clock, from the game's card
        card = white.locator("[data-game='clobber']")
        card.get_by_label("Clock", exact=True).select_option(label="1 day a move")
        card.locator("summary", has_text="Options").click()
        card.locator(".rated-choice").check()
        card.locator("summary", has_text="Advanced").click()
        card.locator("[data-param='rows']").fill("3")
        card.locator("[data-param='columns']").fill("4")
        card.get_by_role("button", name="Open table: anyone may join").click()
        white.wait_for_url("**/play/*")
        # black takes the seat from the lobby's open tables
        black.reload()
        listing = "Take a seat at Clobber (board 3 x 4, rated, 1 day a move)"
        black.get_by_role("button", name=listing).click()
        black.wait_for_url("**/play/*")
        pages = [white, black]
        for page in pages:
            page.wait_for_selector(f"#seats >> text={black_name}")
            page.wait_for_selector(f"#seats a >> text={white_name}")  # names link to profiles
        _play_by_clicking(pages, 3, 4)
        for page in pages:
            page.wait_for_selector("#rating-change p >> nth=1")
        lines = white.locator("#rating-change p").all_inner_texts()
        won = {f"{name} 1500 → 1662? (+162)" for name in (white_name, black_name)}
        lost = {f"{name} 1500 → 1338? (−162)" for name in (white_name, black_name)}
        assert len(set(lines) & won) == 1 and len(set(lines) & lost) == 1
        assert {line.split()[0] for line in lines} == {white_name, black_name}
        screenshots.save(white, f"rated-result-{size}.png", readme=True)
        # both profiles show the new ratings (one up, one down) and a history plot
        shown = []
        for name in (white_name, black_name):
            white.goto(f"{server.base}/players/{name}")
            white.wait_for_selector(".rating-card .rating-big")
            shown.append(white.inner_text(".rating-card .rating-big"))
        assert sorted(shown) == ["1338?", "1662?"]
        assert white.locator(".history-plot polyline").count() == 1
        assert "rated" in white.inner_text("#games")
        screenshots.save(white, f"profile-{size}.png", readme=True)
        _no_serious(white, axe_source)
        assert horizontal_overflow(white) == 0
        white.goto(f"{server.base}/leaderboard/clobber")
        white.wait_for_selector(f"#prov >> text={white_name}")
        assert black_name in white.inner_text("#prov")
        screenshots.save(white, f"leaderboard-{size}.png", readme=True)
        _no_serious(white, axe_source)
        assert horizontal_overflow(white) == 0
        # signed in from a third browser profile: "Your games" followed the account
        other = contexts[2].new_page()
        other.goto(server.base + "/account")
        other.fill("#signin-name", white_name.upper())
        other.fill("#signin-password", PASSWORD)
        other.click("#signin-form button[type=submit]")
        other.wait_for_url(server.base + "/")
        other.wait_for_selector(f"#your-games-list >> text=Clobber (rated) with {black_name}")
        screenshots.save(other, f"lobby-signed-in-{size}.png")
        assert horizontal_overflow(other) == 0
        assert errors == []
    finally:
        for context in contexts:
            context.close()


def test_a_passkey_signs_in(server: Server, browser: Browser, screenshots: Screenshots):
    # WebAuthn needs a host name as its relying party: localhost, not 127.0.0.1
    base = server.base.replace("127.0.0.1", "localhost")
    context = browser.new_context(viewport=SIZES["desktop"])
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
            "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
            "hasUserVerification": True, "isUserVerified": True,
            "automaticPresenceSimulation": True}})
        page.goto(base + "/account")
        page.fill("#signup-name", "passkey-pat")
        page.fill("#signup-password", PASSWORD)
        page.click("#signup-form button[type=submit]")
        page.wait_for_url(base + "/")
        page.goto(base + "/account")
        page.click("#passkey-add")
        page.wait_for_selector("#passkeys >> text=Passkey 1")
        screenshots.save(page, "account-passkey.png")
        page.click("#signout")
        page.wait_for_url(base + "/")
        page.wait_for_selector("#account-link >> text=Sign in")
        page.goto(base + "/account")
        page.click("#passkey-signin")
        page.wait_for_url(base + "/")
        page.wait_for_selector("#account-link >> text=passkey-pat")
        credentials = cdp.send("WebAuthn.getCredentials", {
            "authenticatorId": cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
                "protocol": "ctap2", "transport": "usb"}})["authenticatorId"]})
        assert credentials["credentials"] == []  # a second, empty authenticator signs nobody in
    finally:
        context.close()


def test_play_someone_now_pairs_two_browsers(
    server: Server, browser: Browser, screenshots: Screenshots
):
    contexts = [named_context(browser, "Nia", "phone"), named_context(browser, "Oz", "desktop")]
    try:
        pages = [c.new_page() for c in contexts]
        for page in pages:
            page.goto(server.base + "/")
        pages[0].wait_for_selector("#account-link >> text=Sign in")
        assert horizontal_overflow(pages[0]) == 0  # the guest's header fits a phone
        first = pages[0].locator("[data-game='gobblestones'] .queue")
        pages[0].locator("[data-game='gobblestones'] .clock-choice").select_option("3+2")
        first.get_by_role("button", name="Play someone now").click()
        pages[0].wait_for_selector("[data-game='gobblestones'] .queue-status >> text=Looking")
        first.scroll_into_view_if_needed()
        screenshots.save(pages[0], "queue-waiting-phone.png")
        second = pages[1].locator("[data-game='gobblestones'] .queue")
        pages[1].locator("[data-game='gobblestones'] .clock-choice").select_option("3+2")
        second.get_by_role("button", name="Play someone now").click()
        for page in pages:
            page.wait_for_url("**/play/*", timeout=WAIT_MS)
            page.wait_for_selector("#seats >> text=Nia")
            page.wait_for_selector("#seats >> text=Oz")
        table = [p.evaluate("window.parlour.latest.table") for p in pages]
        assert table[0] == table[1]
        assert pages[0].evaluate("window.parlour.latest.clock.initial") == 180
    finally:
        for context in contexts:
            context.close()
