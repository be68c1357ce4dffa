"""GobbleStones in two browsers: each page shows its own rack and never the other's (G-3)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from parlour import load_game
from parlour.server.store import Store
from tests.server.helpers import ServerProcess as Server

from .pages import latest, wait_my_turn, wait_version, watch_errors


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


@pytest.mark.parametrize("bluff", [False, True], ids=["open", "bluff"])
def test_each_page_shows_only_its_own_rack(
    server: Server, browser: Browser, screenshots: Path, bluff: bool
):
    params = {"bluff": True} if bluff else {}
    table = server.create("gobblestones", params)
    contexts = [browser.new_context(), browser.new_context()]
    pages = [c.new_page() for c in contexts]
    errors = watch_errors(pages[0]) + watch_errors(pages[1])
    try:
        pages[0].goto(server.base + table["url"])
        pages[1].goto(server.base + table["invites"][0]["url"])
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
                assert f"P{2 - seat}: {len(other)}" in text  # only the other rack's size
            mover = pages[turn]
            seen = wait_my_turn(mover)
            first = next(m for m in seen["legal"] if re.fullmatch(r"[a-o]\d+(:[rygbp])?", m["s"]))
            square = first["s"].split(":")[0]
            if bluff:  # choose the tile's colour from the rack first
                mover.click(f"[data-rack='{first['s'][-1].upper()}'] >> nth=0")
            mover.click(f"[data-square='{square}']")
            mover.wait_for_selector("#compose.on")
            assert mover.inner_text("#message") == "Go on with your turn, or undo."
            for _ in range(5):  # add highlighted squares until the play may end (B3, B4)
                if mover.locator("[data-move='end']").count():
                    break
                steps = mover.evaluate("window.parlour.pending.length")
                mover.locator(".from-legal").first.click(force=True)
                mover.wait_for_function(f"() => window.parlour.pending.length > {steps}",
                                        timeout=20_000)
            mover.wait_for_selector("[data-move='end']")
            if turn == 0:
                mover.screenshot(
                    path=str(screenshots / f"gobblestones{'-bluff' if bluff else ''}.png"),
                    full_page=True,
                )
            mover.click("[data-move='end']")
            if bluff:  # the other seat decides: trust the play
                decider = pages[1 - turn]
                decider.wait_for_selector("[data-move='trust']")
                decider.click("[data-move='trust']")
            wait_version(pages[1 - turn], seen["version"] + 2)
            truth = _true_state(server, table["table"], params)
            placed = truth.view(1 - turn)["tiles"]
            assert any(ch != "." for row in placed for ch in row)
        assert errors == []
    finally:
        for context in contexts:
            context.close()
