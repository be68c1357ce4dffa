"""Bots in tournaments (issue 31): a bot joins with its ``bot:play`` token, as people join with
their session, and its tournament games reach its Bot API stream, its seat marked as a bot."""

from __future__ import annotations

from .helpers import ServerProcess, account
from .test_bots import bearer, bot_account, read_lines


def test_a_bot_joins_a_tournament_with_its_token_and_hears_of_its_game(server: ServerProcess):
    creator = account(server, "t-host")
    made = creator.post("/api/tournaments", json={
        "game": "clobber", "params": {"size": "3x4"}, "format": "round-robin",
        "clock": {"per_move": 600}})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    _bot, token = bot_account(server, "t-bot")
    _reader, read_only = bot_account(server, "t-reader", scopes=("tables:read",))
    refused = server.post(f"/api/tournaments/{tid}/join", headers=bearer(read_only))
    assert refused.status_code == 403 and "bot:play" in refused.json()["detail"]
    assert server.post(f"/api/tournaments/{tid}/join", headers=bearer("forged")).status_code == 401

    joined = server.post(f"/api/tournaments/{tid}/join", headers=bearer(token))
    assert joined.status_code == 200, joined.text
    assert creator.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert creator.post(f"/api/tournaments/{tid}/start").status_code == 200

    [start] = read_lines(server, "/api/bot/stream", token, 1)
    assert start["type"] == "gameStart"
    players = {p["name"]: p for p in start["game"]["players"]}
    assert players["t-bot"]["bot"] is True and players["t-host"]["bot"] is False
    games = creator.get(f"/api/tournaments/{tid}").json()["games"]
    assert start["game"]["id"] in {g.get("table") for g in games}, games
