"""GobbleStones in two browsers: each page shows its own rack and never the other's (G-3), and
when the game ends every page, a spectator's too, shows every rack and face-down tile (G-5)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from parlour import load_game
from parlour.server.persistence.store import Store
from tests.server.helpers import ServerProcess as Server

from .conftest import Screenshots, named_context
from .pages import WAIT_MS, latest, wait_my_turn, wait_version, watch_errors

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _true_state(server: Server, table_id: str, params: dict):
    store = Store(f"sqlite:///{server.db_path}")
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    return load_game("gobblestones", **params).new_state_from_actions(
        [a.action for a in stored.actions]
    )


def _shown_rack(page: Page) -> str:
    return "".join(page.locator("[data-rack]").evaluate_all("els => els.map(e => e.dataset.rack)"))


def _tile_on(page: Page, square: str) -> str | None:
    return page.get_attribute(f"[data-square='{square}'] [data-tile]", "data-tile")


NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "P": "purple"}


@pytest.mark.parametrize("bluff", [False, True], ids=["open", "bluff"])
def test_each_page_shows_only_its_own_rack(
    server: Server, browser: Browser, screenshots: Screenshots, bluff: bool
):
    # Two turns, one play each; the second is the last (max_turns), so the game then ends.
    params = {"bluff": True, "max_turns": 2} if bluff else {"max_turns": 2}
    table = server.create("gobblestones", params)
    contexts = [named_context(browser, "Ada"), named_context(browser, "Bo"),
                named_context(browser, None)]
    *pages, watcher = [c.new_page() for c in contexts]
    errors = [e for page in (*pages, watcher) for e in watch_errors(page)]
    try:
        pages[0].goto(server.base + table["url"])
        pages[1].goto(server.base + table["invites"][0]["url"])
        watcher.goto(server.base + table["watch"])
        for page in pages:  # each has said their name
            page.wait_for_function(
                "window.parlour.latest && window.parlour.latest.seats.every(s => s.name)"
            )
        for turn in range(2):  # each seat makes one play by clicking
            for page in pages:
                page.wait_for_selector("[data-rack]")
            truth = _true_state(server, table["table"], params)
            for seat, page in enumerate(pages):
                wait_version(page, truth.move_number())
                own = truth.view(seat)["rack"]
                assert _shown_rack(page) == own
                assert latest(page)["view"] == truth.view(seat)
                other = truth.view(1 - seat)["rack"]
                text = page.inner_text("#private")
                assert f"{['Ada', 'Bo'][1 - seat]} {len(other)}" in text  # the other's size only
            mover = pages[turn]
            seen = wait_my_turn(mover)
            first = next(m for m in seen["legal"] if re.fullmatch(r"[a-o]\d+(:[rygbp])?", m["s"]))
            square = first["s"].split(":")[0]
            if bluff:  # choose the tile's colour from the rack first
                mover.click(f"[data-rack='{first['s'][-1].upper()}'] >> nth=0")
            mover.click(f"[data-square='{square}']")
            mover.wait_for_selector("[data-play-summary]")  # how the play stands, beside the board
            assert mover.inner_text("#message") == "Go on with your turn, or undo."
            for _ in range(5):  # add highlighted squares until the play may end (B3, B4)
                if mover.locator("[data-move='end']").count():
                    break
                steps = mover.evaluate("window.parlour.pending.length")
                if bluff and not mover.locator("button[data-rack][aria-pressed='true']").count():
                    mover.locator("button[data-rack]").first.click()  # that colour ran out
                mover.locator(".from-legal").first.click(force=True)
                mover.wait_for_function(f"() => window.parlour.pending.length > {steps}",
                                        timeout=WAIT_MS)
            mover.wait_for_selector("[data-move='end']")
            if turn == 0:
                screenshots.save(mover, f"gobblestones{'-bluff' if bluff else ''}.png",
                                 readme=bluff)
            mover.click("[data-move='end']")
            if bluff:  # the other seat decides: trust the play
                decider = pages[1 - turn]
                decider.wait_for_selector("[data-move='trust']")
                decider.click("[data-move='trust']")
            wait_version(pages[1 - turn], seen["version"] + 2)
            truth = _true_state(server, table["table"], params)
            placed = truth.view(1 - turn)["tiles"]
            assert any(ch != "." for row in placed for ch in row)
            if turn == 0:  # before the end: face-down tiles stay hidden from the others
                wait_version(watcher, truth.move_number())
                assert truth.view(None)["racks"] is None
                for square in truth.view(0)["owners"]:
                    assert _tile_on(pages[1], square) == _tile_on(watcher, square) == "?"
                    assert _tile_on(pages[0], square) not in (None, "?")
                for page in (*pages, watcher):
                    assert page.locator("[data-revealed-rack]").count() == 0
        # G-5: the game is over; every page shows every rack and every face-down colour
        for page in (*pages, watcher):
            page.wait_for_function("window.parlour.latest && window.parlour.latest.terminal",
                                   timeout=WAIT_MS)
        truth = _true_state(server, table["table"], params)
        assert truth.is_terminal() and truth.end_reason == "max-turns"
        final = truth.view(None)
        assert bool(final["owners"]) == bluff, "bluffing, the trusted plays stay face down"
        for viewer, page in ((0, pages[0]), (1, pages[1]), (None, watcher)):
            assert latest(page)["view"] == truth.view(viewer)
            assert latest(page)["view"]["racks"] == final["racks"]
            assert page.locator("[data-revealed-rack]").all_inner_texts() == [
                f"{['Ada', 'Bo'][i]} holds: " + (", ".join(NAMES[c] for c in rack) or "nothing")
                for i, rack in enumerate(final["racks"])
            ]
            for square in final["owners"]:
                rank, file = int(square[1:]), "abcdefghijklmno".index(square[0])
                assert _tile_on(page, square) == final["tiles"][15 - rank][file] != "?"
        if bluff:
            ARTIFACTS.mkdir(exist_ok=True)
            watcher.screenshot(path=str(ARTIFACTS / "gobblestones-bluff-end.png"), full_page=True)
            pages[1].set_viewport_size({"width": 390, "height": 844})
            pages[1].screenshot(path=str(ARTIFACTS / "gobblestones-bluff-end-phone.png"),
                                full_page=True)
        assert errors == []
    finally:
        for context in contexts:
            context.close()

