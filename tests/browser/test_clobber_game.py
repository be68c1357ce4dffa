"""Two browsers play a whole game of Clobber by clicking, from the lobby to the rematch."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from parlour import GameRecord, load_game
from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots, named_context
from .pages import latest, wait_my_turn, wait_version, watch_errors


def test_two_browsers_play_a_full_clobber_game_by_clicking(
    server: Server, browser: Browser, screenshots: Screenshots
):
    host_context, guest_context = named_context(browser, "Ada"), named_context(browser, "Bo")
    host, guest = host_context.new_page(), guest_context.new_page()
    errors = watch_errors(host) + watch_errors(guest)
    try:
        # the lobby: Clobber on 3 x 4 (an engine setting, under Advanced), a friend invited
        host.goto(server.base + "/")
        card = host.locator("[data-game='clobber']")
        card.locator("summary", has_text="Options").click()
        card.locator("summary", has_text="Advanced").click()
        card.locator("[data-param='rows']").fill("3")
        card.locator("[data-param='columns']").fill("4")
        card.get_by_role("button", name="Invite a friend").click()
        host.wait_for_selector("#created:not([hidden])")
        invite = host.locator("#links .link-text").first.inner_text()
        host.click("#go")
        guest.goto(invite)
        pages = [host, guest]
        for page in pages:
            page.wait_for_selector("[data-square='a1']")
        # each sees the other by name, with the colour they play
        host.wait_for_selector("#seats >> text=Bo (Black)")
        guest.wait_for_selector("#seats >> text=Ada (White)")

        # an illegal attempt is explained with the rule it breaks
        host.click("[data-square='a1']")
        host.click("[data-square='c3']")
        host.wait_for_selector("#message.error")
        assert "are not next to each other (Clobber: moving)" in host.inner_text("#message")

        game = load_game("clobber", rows=3, columns=4)
        state = game.new_initial_state()
        shot = False
        while not state.is_terminal():
            page = pages[state.current_player()]
            seen = wait_version(page, state.move_number())
            seen = wait_my_turn(page)
            assert [m["a"] for m in seen["legal"]] == state.legal_actions()
            move = seen["legal"][-1]
            origin, target = move["s"][:2], move["s"][2:]
            page.click(f"[data-square='{origin}']")
            page.wait_for_selector(f"[data-square='{target}'] [data-target]")
            page.click(f"[data-square='{target}']")
            state.apply_action(move["a"])
            for other in pages:
                shown = wait_version(other, state.move_number())
                assert shown["view"]["position"] == state.position()
            # the last move is marked on both boards
            assert host.locator(f"[data-square='{target}'] [data-last]").count() == 1
            if not shot and state.move_number() == 2:
                screenshots.save(host, "clobber-friends.png")
                shot = True

        winner = state.returns().index(1.0)
        pages[winner].wait_for_selector("#end-panel:not([hidden])")
        assert pages[winner].inner_text("#result") == "You win!"
        pages[1 - winner].wait_for_selector("#end-panel:not([hidden])")
        assert pages[1 - winner].inner_text("#result") == f"{['Ada', 'Bo'][winner]} wins."
        # before any rematch exists, nobody is offered a link to one
        assert guest.is_hidden("#rematch-link") and host.is_hidden("#rematch-link")

        # replay: step back to the start and forward again
        host.click("#replay-button")
        host.wait_for_selector("#replay-bar.on")
        for _ in range(state.move_number()):
            host.click("#replay-prev")
        assert "step 0 of" in host.inner_text("#status")
        host.click("#replay-next")
        assert host.locator("[data-last]").count() == 2  # the first move's two squares
        host.click("#replay-exit")

        # the record downloads and replays to the same final position
        with host.expect_download() as download:
            host.click("#record-link")
        record = GameRecord.from_json(Path(download.value.path()).read_text())
        assert record.final_state().position() == state.position()

        # a rematch: the guest follows the link the host's request created
        host.click("#rematch-button")
        host.wait_for_url("**/play/**")
        host.wait_for_selector("[data-square='a1']")
        guest.wait_for_selector("#rematch-link:not([hidden])")
        guest.click("#rematch-link")
        guest.wait_for_selector("[data-square='a1']")
        assert latest(host)["table"] == latest(guest)["table"] != seen["table"]
        assert latest(host)["hand"]["seats"] == [1] and latest(guest)["hand"]["seats"] == [0]
        assert errors == []
    finally:
        host_context.close()
        guest_context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_learned_computer_is_a_named_opponent(
    server: Server, browser: Browser, screenshots: Screenshots, size: str
):
    """Seat 2 offers "Computer (learned)" (the shipped network) for Clobber's standard board;
    it takes the seat by that name and answers a move."""
    context = named_context(browser, "Ada", size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + "/")
        card = page.locator("[data-game='clobber']")
        card.locator("summary", has_text="Options").click()
        card.locator("summary", has_text="Advanced").click()
        card.locator("#clobber-seat-1").select_option(label="Computer (learned)")
        card.get_by_role("button", name="Create with these seats").click()
        page.wait_for_url("**/play/**")
        page.wait_for_selector("#board svg")
        state = wait_my_turn(page)
        assert [s["name"] for s in state["seats"]] == ["Ada", "Computer (learned)"]
        assert "Computer (learned, Black)" in page.inner_text("#seats")
        page.locator("#board [role=button]").first.click()  # a stone, then one it captures
        page.locator("#board g[data-square]:has([data-target])").first.click()
        state = wait_version(page, state["version"] + 2)  # ours, then the computer's answer
        assert not state["notices"]
        assert page.inner_text("#status").startswith("Your turn") or state["terminal"]
        screenshots.save(page, f"learned-opponent-{size}.png")
        assert errors == []
    finally:
        context.close()
