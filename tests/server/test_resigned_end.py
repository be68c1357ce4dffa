"""A game that ends by a resignation is over like any other: a rematch is offered, and in
GobbleStones every rack and face-down tile is turned up (G-5), against a real server."""

from __future__ import annotations

import pytest

from .helpers import ServerProcess, token_of

GAMES = ["clobber", "stomple", "stomp-the-plank", "gobblestones"]


def _resign(server: ServerProcess, token: str) -> dict:
    """Resign the seat of ``token`` and return its state message once the game is over."""
    assert server.post(f"/api/play/{token}/resign").status_code == 200
    state = server.get(f"/api/play/{token}").json()
    assert state["terminal"] and state["result"]["reason"] == "resignation"
    return state


@pytest.mark.parametrize("game", GAMES)
def test_a_rematch_is_offered_after_resigning_against_the_computer(
    server: ServerProcess, game: str
):
    table = server.create(game, seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}])
    me = token_of(table["url"])
    _resign(server, me)
    rematch = server.post(f"/api/play/{me}/rematch")
    assert rematch.status_code == 200, rematch.text
    again = server.get(f"/api/play/{token_of(rematch.json()['url'])}").json()
    assert again["game"] == game and not again["terminal"]
    # the seats moved one place on: the computer's seat is now the first
    assert [s["kind"] for s in again["seats"]] == ["ai", "human"]


@pytest.mark.parametrize("game", GAMES)
def test_both_people_reach_one_rematch_after_a_resignation(server: ServerProcess, game: str):
    table = server.create(game)
    me, them = token_of(table["url"]), token_of(table["invites"][0]["url"])
    _resign(server, them)
    first = server.post(f"/api/play/{me}/rematch")
    second = server.post(f"/api/play/{them}/rematch")
    assert first.status_code == second.status_code == 200
    assert first.json()["table"] == second.json()["table"]


def _racks_turned_up(view: dict) -> None:
    assert view["racks"] is not None and len(view["racks"]) == view["players"]
    assert all(isinstance(rack, str) for rack in view["racks"])
    assert all("?" not in row for row in view["tiles"])  # no face-down tile stays hidden


def test_g5_a_resigned_gobblestones_game_turns_every_rack_up(server: ServerProcess):
    table = server.create("gobblestones",
                          seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}])
    me = token_of(table["url"])
    before = server.get(f"/api/play/{me}").json()
    assert before["view"]["racks"] is None  # while the game goes on, the other rack is hidden
    state = _resign(server, me)
    _racks_turned_up(state["view"])
    watch = server.get(f"/api/watch/{table['table']}").json()
    _racks_turned_up(watch["view"])
    assert watch["view"]["racks"] == state["view"]["racks"]
    replay = server.get(f"/api/play/{me}/replay").json()["steps"]
    _racks_turned_up(replay[-1]["view"])
    assert all(step["view"]["racks"] is None for step in replay[:-1])
    record = server.get(f"/api/play/{me}/record").json()
    assert record["result"]["reason"] == "resignation"
    _racks_turned_up(record["steps"][-1]["view"])
