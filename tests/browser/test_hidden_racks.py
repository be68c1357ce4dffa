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


def _tile_on(page: Page, square: str) -> str:
    return page.get_attribute(f"[data-square='{square}'] [data-tile]", "data-tile")


def test_g5_when_the_game_ends_every_page_turns_up_every_rack_and_face_down_tile(
    server: Server, browser: Browser
):
    """G-5: a bluffing game's last turn. Before it each page shows its own rack and face-down
    tile only (G-3); after it every page, the spectator's too, shows both racks and both
    face-down colours."""
    from tests.games.gobblestones.helpers import position

    text = position(tiles={"h8": "r", "i8": "y"}, owners={"h8": 0, "i8": 1},
                    racks=("RRGBP", "YYPPB"), points=(10, 12))
    params = {"bluff": True, "max_turns": 1, "position": text}
    table = server.create("gobblestones", params)
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    pages = [c.new_page() for c in contexts]
    errors = [e for page in pages for e in watch_errors(page)]
    try:
        pages[0].goto(server.base + table["url"])
        pages[1].goto(server.base + table["invites"][0]["url"])
        pages[2].goto(server.base + table["watch"])
        for page in pages:
            page.wait_for_selector("[data-square='h8'] [data-tile]")
        assert [_tile_on(p, "h8") for p in pages] == ["r", "?", "?"]
        assert [_tile_on(p, "i8") for p in pages] == ["?", "y", "?"]
        for page in pages:
            assert page.locator("[data-revealed-rack]").count() == 0
        wait_my_turn(pages[0])
        pages[0].click("[data-move='pass']")  # the last turn: a pass, a draw of five, the end
        for page in pages:
            page.wait_for_function("window.parlour.latest && window.parlour.latest.terminal",
                                   timeout=20_000)
        truth = _true_state(server, table["table"], params)
        assert truth.is_terminal()
        racks = truth.view(None)["racks"]
        names = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "P": "purple"}
        for page in pages:
            assert [_tile_on(page, "h8"), _tile_on(page, "i8")] == ["r", "y"]
            shown = page.locator("[data-revealed-rack]").all_inner_texts()
            assert shown == [f"P{i + 1} holds: " + ", ".join(names[c] for c in rack)
                             for i, rack in enumerate(racks)]
            assert latest(page)["view"]["racks"] == racks
        artifacts = Path(__file__).resolve().parents[2] / "test-artifacts"
        artifacts.mkdir(exist_ok=True)
        pages[2].screenshot(path=str(artifacts / "gobblestones-bluff-end.png"), full_page=True)
        pages[1].set_viewport_size({"width": 390, "height": 844})
        pages[1].screenshot(path=str(artifacts / "gobblestones-bluff-end-phone.png"),
                            full_page=True)
        assert errors == []
    finally:
        for context in contexts:
            context.close()
