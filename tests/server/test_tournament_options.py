"""A tournament with a game's options, on a real ``parlour serve`` (issue 65, item 10): the
lobby's "Hold a tournament" form sends the options the catalogue offers, the server checks them
as it does a table's (an unknown parameter or a refused value is a clear error and makes
nothing), the tournament says them in words, and its games are played on them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from .helpers import TIMEOUT, ServerProcess, account, token_of


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory):
    """The command a user types, ``parlour serve``, on a database of its own."""
    parlour = str(Path(sys.executable).with_name("parlour"))
    proc = ServerProcess(tmp_path_factory.mktemp("tournament-options") / "parlour.db",
                         command=(parlour, "serve")).start()
    yield proc
    proc.stop()


def _upcoming(client: httpx.Client) -> list[str]:
    return [t["id"] for t in client.get("/api/tournaments").json()["upcoming"]]


def test_the_catalogue_says_which_parameters_set_up_a_position(serve: ServerProcess):
    games = serve.get("/api/games").json()["games"]
    for game in games:
        flagged = {p["name"] for p in game["params"] if p["set_up"]}
        assert flagged == ({"position"} & {p["name"] for p in game["params"]}), game["name"]
    clocks = serve.get("/api/queue").json()["clocks"]
    assert [c["label"] for c in clocks] == ["3 min + 2 s", "10 min + 5 s", "1 day a move"]


def test_a_tournament_on_a_small_board_and_what_its_options_refuse(serve: ServerProcess):
    ada = account(serve, "opt-ada")
    bob = account(serve, "opt-bob")
    body: dict[str, Any] = {"game": "clobber", "format": "round-robin",
                            "clock": {"initial": 180, "increment": 2}, "name": "Small board"}

    def refused(params: dict[str, Any], words: str) -> None:
        before = _upcoming(ada)
        response = ada.post("/api/tournaments", json={**body, "params": params})
        assert response.status_code == 400, response.text
        assert words in response.json()["detail"], response.json()["detail"]
        assert _upcoming(ada) == before  # nothing made

    refused({"bogus": 1}, "Unknown parameter 'bogus'")
    refused({"rows": 0, "columns": 4}, "A board is 1x2 up to 99x26, not 0x4")
    refused({"rows": "three"}, "Board rows: expected a whole number")
    refused({"position": "xo/ox x"}, "not a set-up position")
    refused({f"p{i}": 1 for i in range(17)}, "params")  # at most 16 of them

    made = ada.post("/api/tournaments", json={**body, "params": {"rows": 3, "columns": 4}})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    info = ada.get(f"/api/tournaments/{tid}").json()
    assert info["params"] == {"rows": 3, "columns": 4}
    assert info["settings"] == ["Board rows: 3", "Board columns: 4"]
    assert tid in _upcoming(ada)

    # its games are played on that board
    for player in (ada, bob):
        assert player.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert ada.post(f"/api/tournaments/{tid}/start").json() == {"started": True}
    seen = ada.get(f"/api/tournaments/{tid}").json()["you"]["tables"]
    assert len(seen) == 1
    state = ada.get(f"/api/play/{token_of(seen[0]['url'])}").json()
    assert state["params"] == {"rows": 3, "columns": 4}
    assert (state["view"]["rows"], state["view"]["columns"]) == (3, 4)

    # a game's options in a player's words: a lobby choice by its label, a ticked box by its own
    other = ada.post("/api/tournaments", json={
        "game": "clobber", "format": "swiss", "rounds": 2,
        "params": {"size": "6x7", "cannibal": True}}).json()
    assert ada.get(f"/api/tournaments/{other['id']}").json()["settings"] == [
        "Board: 6 x 7", "Cannibal Clobber: stones may also capture their own colour"]
    plank = ada.post("/api/tournaments", json={
        "game": "stomp-the-plank", "format": "swiss", "rounds": 2,
        "params": {"players": 3, "tip_at": 10}}).json()
    read = httpx.get(f"{serve.base}/api/tournaments/{plank['id']}", timeout=TIMEOUT).json()
    assert read["players_per_table"] == 3 and read["settings"] == ["Weight that tips a plank: 10"]
