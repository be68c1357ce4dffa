"""``parlour bot`` against a real ``parlour serve`` (issue 31): three bot accounts playing each
other with ``random``, declining what they do not play, coming back after the server is killed
and restarted mid-game, and stopping cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from parlour.client import BotClient

from .helpers import TIMEOUT, ServerProcess, run_async
from .test_bots import assert_streams_show_seat_views, bearer, bot_account

PARLOUR = str(Path(sys.executable).with_name("parlour"))


class ServeProcess(ServerProcess):
    """The server as users start it: ``parlour serve`` (the same options)."""

    def start(self) -> ServeProcess:
        return self._start_serve()

    def _start_serve(self) -> ServeProcess:
        command = [PARLOUR, "serve", "--port", str(self.port), "--db", self.db_url, "--no-open",
                   "--ai", self.ai, "--ai-delay", str(self.ai_delay)]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PARLOUR_LIMITS": self.limits}
        self.log = self.log_path.open("ab")
        self.proc = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(self.log_path.read_text()[-2000:])
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("parlour serve did not start in time")


def start_bot(server: ServerProcess, token: str, log: Path, *args: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PARLOUR_TOKEN": token, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([PARLOUR, "bot", "--server", server.base, "--agent", "random", *args],
                            stdout=log.open("ab"), stderr=subprocess.STDOUT, env=env)


def finished(server: ServerProcess, tables: list[str]) -> list[bool]:
    with sqlite3.connect(server.db_path) as db:
        return [bool(db.execute("SELECT finished FROM parlour_tables WHERE id = ?",
                                (t,)).fetchone()[0]) for t in tables]


def wait_for(check, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("not in time")
        time.sleep(0.3)


def table_of(server: ServerProcess, token: str, challenge_id: str) -> str | None:
    return server.get(f"/api/challenges/{challenge_id}", headers=bearer(token)).json()["table"]


def to_act(server: ServerProcess, table: str) -> str | None:
    """The name of the seat the table waits for, as a spectator sees it."""
    body = server.get(f"/api/watch/{table}").json()
    names = {seat["seat"]: seat["name"] for seat in body["seats"]}
    return names.get(body["to_act"]) if body["started"] else None


@pytest.fixture()
def serve(tmp_path: Path):
    proc = ServeProcess(tmp_path / "serve.db").start()
    yield proc
    proc.stop()


def test_three_bots_play_each_other_to_the_end(serve: ServeProcess, tmp_path: Path):
    names = ["bot-ada", "bot-bea", "bot-cy"]
    tokens = {n: bot_account(serve, n)[1] for n in names}
    bots = {n: start_bot(serve, tokens[n], tmp_path / f"{n}.log", "--stop-after", "2",
                         "--accept", "casual") for n in names}
    try:
        pairs = [("bot-ada", "bot-bea", "clobber", {"size": "4x5"}),
                 ("bot-bea", "bot-cy", "stomp-the-plank", {}),
                 ("bot-cy", "bot-ada", "gobblestones", {"bluff": True})]
        sent = []
        for who, whom, game, params in pairs:
            answer = serve.post("/api/challenges", {"opponent": whom, "game": game,
                                                    "params": params,
                                                    "clock": {"per_move": 60}},
                                headers=bearer(tokens[who]))
            assert answer.status_code == 201, answer.text
            sent.append((tokens[who], answer.json()["id"]))
        rated = serve.post("/api/challenges", {"opponent": "bot-ada", "game": "clobber",
                                               "rated": True, "clock": {"per_move": 60}},
                           headers=bearer(tokens["bot-cy"])).json()
        wait_for(lambda: all(table_of(serve, t, c) for t, c in sent))
        tables = [table_of(serve, t, c) for t, c in sent]
        wait_for(lambda: all(finished(serve, tables)), 240)
        for name, proc in bots.items():
            assert proc.wait(timeout=60) == 0, (tmp_path / f"{name}.log").read_text()[-2000:]
        declined = serve.get(f"/api/challenges/{rated['id']}", headers=bearer(tokens["bot-cy"]))
        assert declined.json()["status"] == "declined"
        assert declined.json()["reason"] == "this bot plays no rated games"
        summary = (tmp_path / "bot-ada.log").read_text()
        assert "2 games finished" in summary and "1 declined" in summary
        profile = serve.get("/api/players/bot-ada").json()
        assert profile["bot"] is True
    finally:
        for proc in bots.values():
            if proc.poll() is None:
                proc.kill()


def test_a_bot_comes_back_after_the_server_is_killed_and_resumes(serve: ServeProcess,
                                                                  tmp_path: Path):
    tokens = {n: bot_account(serve, n)[1] for n in ("bot-phoenix", "bot-rook")}
    # Only bot-rook plays before the kill, so the game waits for bot-phoenix and is certainly
    # unfinished when the server dies (two random bots finish a game in under a second).
    bots = [start_bot(serve, tokens["bot-rook"], tmp_path / "bot-rook.log", "--stop-after", "1")]
    try:
        challenge = serve.post("/api/challenges", {
            "opponent": "bot-rook", "game": "stomple", "clock": {"per_move": 60}},
            headers=bearer(tokens["bot-phoenix"])).json()
        wait_for(lambda: table_of(serve, tokens["bot-rook"], challenge["id"]) is not None)
        table = table_of(serve, tokens["bot-rook"], challenge["id"])
        # bot-rook's opening move, if it has the first turn, is stored before the kill
        wait_for(lambda: to_act(serve, table) == "bot-phoenix")
        serve.kill()  # SIGKILL, mid-game
        assert not finished(serve, [table])[0]
        time.sleep(1.5)  # bot-rook is cut off and keeps trying
        again = ServeProcess(serve.db_path)
        again.port = serve.port
        again.start()
        bots.append(start_bot(again, tokens["bot-phoenix"], tmp_path / "bot-phoenix.log",
                              "--stop-after", "1"))
        try:
            wait_for(lambda: finished(again, [table])[0], 240)
            for proc in bots:
                assert proc.wait(timeout=60) == 0
            log = (tmp_path / "bot-rook.log").read_text()
            assert "reconnecting" in log and "1 games finished" in log
        finally:
            again.stop()
    finally:
        for proc in bots:
            if proc.poll() is None:
                proc.kill()


def test_a_bot_plays_with_anyones_agent_class_and_declines_games_outside_its_list(
        serve: ServeProcess, tmp_path: Path):
    """``module.path:ClassName``: the greedy agent's class plays Clobber from states rebuilt
    from the seat's views; a game outside ``--games`` is declined, saying why."""
    tokens = {n: bot_account(serve, n)[1] for n in ("bot-greedy", "bot-random")}
    greedy = start_bot(serve, tokens["bot-greedy"], tmp_path / "greedy.log", "--stop-after",
                       "1", "--agent", "parlour.agents.greedy:GreedyAgent", "--games", "clobber")
    rand = start_bot(serve, tokens["bot-random"], tmp_path / "random.log", "--stop-after", "1")
    try:
        other = serve.post("/api/challenges", {"opponent": "bot-greedy",
                                               "game": "gobblestones"},
                           headers=bearer(tokens["bot-random"])).json()
        wait_for(lambda: serve.get(f"/api/challenges/{other['id']}",
                                   headers=bearer(tokens["bot-random"])).json()["status"]
                 == "declined")
        reason = serve.get(f"/api/challenges/{other['id']}",
                           headers=bearer(tokens["bot-random"])).json()["reason"]
        assert reason == "this bot plays only clobber"
        played = serve.post("/api/challenges", {"opponent": "bot-greedy", "game": "clobber",
                                                "params": {"size": "4x4"}},
                            headers=bearer(tokens["bot-random"])).json()
        for proc in (greedy, rand):
            assert proc.wait(timeout=120) == 0, (tmp_path / "greedy.log").read_text()[-2000:]
        table = table_of(serve, tokens["bot-random"], played["id"])
        assert finished(serve, [table]) == [True]
        assert "1 games finished" in (tmp_path / "greedy.log").read_text()
    finally:
        for proc in (greedy, rand):
            if proc.poll() is None:
                proc.kill()


def test_search_agents_play_a_gobblestones_bluffing_game_from_their_seats_views(
        serve: ServeProcess, tmp_path: Path):
    """Issue 31: ``--agent medium`` and ``--agent mcts:iterations=50`` play a GobbleStones
    bluffing game (hidden racks and face-down tiles) to its end, each deciding from states
    rebuilt from its seat's views and memory, one reading its streams as NDJSON, the other
    over the websockets; the game stream each bot's token receives is its seat's view of the
    stored game at every move (G-3)."""
    specs = {"bot-medium": "medium", "bot-mcts": "mcts:iterations=50"}
    transports = {"bot-medium": "ndjson", "bot-mcts": "websocket"}  # both ways of streaming
    tokens = {n: bot_account(serve, n)[1] for n in specs}
    challenge = serve.post("/api/challenges", {
        "opponent": "bot-medium", "game": "gobblestones", "params": {"bluff": True},
        "clock": {"per_move": 60}}, headers=bearer(tokens["bot-mcts"])).json()
    table = serve.post(f"/api/challenges/{challenge['id']}/accept",
                       headers=bearer(tokens["bot-medium"])).json()["table"]
    seen: dict[str, list[dict[str, Any]]] = {n: [] for n in specs}
    streaming = {n: threading.Event() for n in specs}

    async def watch(name: str) -> None:  # the bot's own game stream, as its token reads it
        async with BotClient(serve.base, tokens[name]) as client:
            async for line in client.game(table):
                seen[name].append(line)
                streaming[name].set()

    async def both() -> None:
        await asyncio.gather(*(watch(n) for n in specs))

    watcher = threading.Thread(target=run_async, args=(both, 900))
    watcher.start()
    for event in streaming.values():
        assert event.wait(TIMEOUT)
    # the bots start on a game already under way: the event stream announces it (gameStart)
    bots = {n: start_bot(serve, tokens[n], tmp_path / f"{n}.log", "--stop-after", "1",
                         "--agent", spec, "--transport", transports[n])
            for n, spec in specs.items()}
    try:
        for name, proc in bots.items():
            assert proc.wait(timeout=900) == 0, (tmp_path / f"{name}.log").read_text()[-2000:]
            log = (tmp_path / f"{name}.log").read_text()
            assert "1 games finished" in log and "refused" not in log, log[-2000:]
        watcher.join(TIMEOUT)
        served = serve.log_path.read_text()
        assert f'"WebSocket /api/bot/game/{table}/ws" [accepted]' in served
        assert finished(serve, [table]) == [True]
        assert_streams_show_seat_views(serve, table, seen)
    finally:
        for proc in bots.values():
            if proc.poll() is None:
                proc.kill()


def test_a_bot_stops_cleanly_on_sigterm(serve: ServeProcess, tmp_path: Path):
    _browser, token = bot_account(serve, "bot-sleepy")
    proc = start_bot(serve, token, tmp_path / "sleepy.log")
    # listening (its handlers set): the server has answered its event stream
    wait_for(lambda: "/api/bot/stream" in serve.log_path.read_text(), timeout=120)
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=15) == 0
    assert "0 games finished" in (tmp_path / "sleepy.log").read_text()


def test_a_bad_token_stops_the_bot_with_the_reason(serve: ServeProcess, tmp_path: Path):
    proc = start_bot(serve, "plr_" + "B" * 43, tmp_path / "bad.log")
    assert proc.wait(timeout=30) == 1
    assert "that token is not valid" in (tmp_path / "bad.log").read_text()
