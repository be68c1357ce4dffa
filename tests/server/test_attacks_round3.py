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


# -- 2. a set-up position through an open table ------------------------------------------------
def _dealt_position(seed: int) -> str:
    rng = random.Random(seed)
    dealt = load_game("gobblestones").new_initial_state()
    while dealt.is_chance_node():
        dealt.apply_action(rng.choice([a for a, _p in dealt.chance_outcomes()]))
    return dealt.position()


def test_g3_a_set_up_position_with_hidden_racks_cannot_be_offered_to_strangers(
    server: ServerProcess,
):
    """The position text holds every rack: whoever takes a free seat would hold a rack its
    creator wrote. Refused as for invited seats, and nothing is listed."""
    position = _dealt_position(7)
    before = server.get("/api/tables").json()
    response = server.post(
        "/api/tables", {"game": "gobblestones", "params": {"position": position}, "open": True}
    )
    assert response.status_code == 400
    assert "cannot be open to the lobby" in response.json()["detail"]
    after = server.get("/api/tables").json()
    assert [t["table"] for t in after["open"]] == [t["table"] for t in before["open"]]
    assert position not in json.dumps(after)


def test_the_lobby_says_custom_start_for_a_table_set_up_from_a_position(server: ServerProcess):
    """Clobber shows everything, so a set-up position may be offered in the lobby; the lobby
    says that the table does not start from the usual start."""
    custom = server.create("clobber", {"position": "xo./.ox o"}, seats=None)
    assert custom  # a private table: not listed
    response = server.post(
        "/api/tables", {"game": "clobber", "params": {"position": "xox/oxo o"}, "open": True}
    )
    assert response.status_code == 201, response.text
    plain = server.post(
        "/api/tables", {"game": "clobber", "params": {"rows": 3, "columns": 3}, "open": True}
    ).json()
    listed = {t["table"]: t for t in server.get("/api/tables").json()["open"]}
    assert listed[response.json()["table"]]["custom_start"] is True
    assert listed[plain["table"]]["custom_start"] is False
    assert custom["table"] not in listed
