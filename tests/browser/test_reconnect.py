"""A closed tab reopened with the same link resumes where the game is."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.server.helpers import ServerProcess as Server

from .pages import latest, wait_my_turn, wait_version


def _play_first(page) -> str:
    move = wait_my_turn(page)["legal"][0]["s"]
    page.click(f"[data-square='{move[:2]}']")
    page.click(f"[data-square='{move[2:]}']")
    return move


def test_reconnect_mid_game(server: Server, browser: Browser):
    table = server.create("clobber")
    mine, theirs = server.base + table["url"], server.base + table["invites"][0]["url"]
    me_context, them_context = browser.new_context(), browser.new_context()
    try:
        me = me_context.new_page()
        them = them_context.new_page()
        me.goto(mine)
        them.goto(theirs)
        _play_first(me)
        wait_version(them, 1)
        them.wait_for_selector("li[data-seat='0'] .dot.on")
        me.close()  # the tab is closed mid-game
        them.wait_for_selector("li[data-seat='0'] .dot:not(.on)")  # seen as away
        black_move = _play_first(them)
        wait_version(them, 2)
        again = me_context.new_page()
        again.goto(mine)  # reopened with the same link
        state = wait_version(again, 2)
        assert state["last"]["text"] == black_move and state["legal"]
        assert again.locator(f"[data-square='{black_move[2:]}'] [data-last]").count() == 1
        them.wait_for_selector("li[data-seat='0'] .dot.on")
        _play_first(again)
        assert wait_version(them, 3)["version"] == 3
        assert wait_version(again, 3)["view"] == latest(them)["view"] | {"player": 0}
    finally:
        me_context.close()
        them_context.close()
