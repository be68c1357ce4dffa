"""Bots in tournaments (issue 31): a bot joins with its ``bot:play`` token, as people join with
their session, and its tournament games reach its Bot API stream, its seat marked as a bot."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path
from typing import Any

from .helpers import ServerProcess, account
from .test_bots import bearer, bot_account, read_lines
from .test_parlour_bot import ServeProcess, start_bot, wait_for


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


def test_four_parlour_bots_play_a_swiss_to_the_end_across_a_sigkill(tmp_path: Path):
    """Four ``parlour bot`` processes (``random``) enter a four-round Swiss with their tokens;
    the server is SIGKILLed mid-round and started again on its database; the bots reconnect,
    and the event finishes with every game played and nothing acknowledged lost."""
    server = ServeProcess(tmp_path / "bots.db").start()
    names = [f"swiss-bot-{i}" for i in range(4)]
    bots: list[subprocess.Popen[bytes]] = []
    try:
        host = account(server, "swiss-host")
        made = host.post("/api/tournaments", json={
            "game": "clobber", "params": {"size": "3x4"}, "format": "swiss", "rounds": 4,
            "clock": {"per_move": 60}})
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        for name in names:
            token = bot_account(server, name)[1]
            assert server.post(f"/api/tournaments/{tid}/join",
                               headers=bearer(token)).status_code == 200
            bots.append(start_bot(server, token, tmp_path / f"{name}.log"))
        assert host.post(f"/api/tournaments/{tid}/start").status_code == 200

        def info() -> dict[str, Any]:
            return server.get(f"/api/tournaments/{tid}").json()

        wait_for(lambda: info()["round"] >= 2, 240)
        before = info()
        server.kill()
        server.start()  # the same database and port, a new process
        after = info()
        assert after["round"] == before["round"]
        assert [g["table"] for g in after["games"]] == [g["table"] for g in before["games"]]
        assert [g for g in after["games"] if g["over"]] == [
            g for g in before["games"] if g["over"]]
        wait_for(lambda: info()["status"] == "finished", 300)
        final = info()
    finally:
        for proc in bots:
            proc.send_signal(signal.SIGTERM)
        for proc in bots:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        server.stop()
    assert final["round"] == 4
    games = final["games"]
    assert len(games) == 8 and all(g["over"] for g in games)
    assert {p for g in games for p in g["players"]} == set(names)
    assert sum(s["points"] for s in final["standings"]) == 8.0  # Clobber has no draws (C5)
    logs = "".join((tmp_path / f"{n}.log").read_text() for n in names)
    assert "reconnecting" in logs
