"""The third round of hostile use (issue 28), each test named after the attack it replays
against real server processes.

G-3: a player's view shows only what that player may see; a re-deal or a set-up position must
not hand anyone tiles another player has seen or written.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from parlour import load_game

from .helpers import ServerProcess, token_of


def _stored(db: Path, table_id: str) -> tuple[int, list[int], list[tuple[int, int, int]]]:
    """The table's secret seed, its stored actions and the actions taken back, as stored."""
    from parlour.server.store import Store

    store = Store(f"sqlite:///{db}")
    try:
        data = store.load(table_id)
        assert data is not None
        return data.seed, [a.action for a in data.actions], store.taken_back(table_id)
    finally:
        store.close()


# -- 1. an early start re-deals ----------------------------------------------------------------
@pytest.mark.parametrize("bluff", [False, True])
def test_g3_an_early_start_deals_again_from_fresh_randomness(tmp_path: Path, bluff: bool):
    """Four seats offered, seat 2 left free, seats 3 and 4 taken and their racks seen; the
    creator starts early. The deal of the three-player game is drawn from a new secret seed
    (stored), not replayed from the old one: drawn from the old seed, the player renumbered
    into seat 2 would be dealt exactly the rack seat 3's holder had already seen."""
    db = tmp_path / "redeal.db"
    server = ServerProcess(db).start()
    try:
        params: dict[str, Any] = {"players": 4, "bluff": bluff}
        response = server.post("/api/tables", {"game": "gobblestones", "params": params,
                                               "open": True})
        assert response.status_code == 201, response.text
        table = response.json()
        joined = [server.post(f"/api/tables/{table['table']}/seats/{seat}").json()
                  for seat in (2, 3)]
        seen: list[list[Any]] = []
        for url in [table["url"], *(j["url"] for j in joined)]:
            with server.client(url) as player:
                seen.append(player.wait_state()["view"]["rack"])
        old_seed, old_actions, _ = _stored(db, table["table"])

        started = server.post(f"/api/play/{token_of(table['url'])}/start", {})
        assert started.status_code == 200, started.text
        assert started.json()["players"] == 3

        new_seed, new_actions, taken_back = _stored(db, table["table"])
        assert new_seed != old_seed
        assert [a for _undo, _seq, a in taken_back] == old_actions
        # what the old seed deals a three-player game: the attack's re-deal
        game = load_game("gobblestones", players=3, bluff=bluff)
        replayed = game.new_initial_state()
        old_deal = []
        while replayed.is_chance_node():
            seq = replayed.move_number()
            action = replayed.sample_chance_outcome(random.Random(f"chance:{old_seed}:{seq}"))
            old_deal.append(action)
            replayed.apply_action(action)
        assert new_actions != old_deal
        assert new_actions[: len(old_deal)] != old_deal[: len(new_actions)]
        # and the players hold the racks of the deal that was stored
        state = game.new_state_from_actions(new_actions)
        for url, seat in [(table["url"], 0), (joined[0]["url"], 1), (joined[1]["url"], 2)]:
            with server.client(url) as player:
                message = player.wait_state(lambda m: m["started"])
                assert message["hand"]["seats"] == [seat]
                assert message["view"]["rack"] == state.view(seat)["rack"]
    finally:
        server.stop()
