"""Tournaments on a real server, driven through the HTTP API by real clients: what creating and
joining refuse, a round robin and a four-round Swiss of four players played to the end with
random legal moves (the second with the server SIGKILLed mid-round and restarted), a no-show
forfeiting, and tables of three (issue 31)."""

from __future__ import annotations

import random
import sys
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from .helpers import TIMEOUT, ServerProcess, account, token_of

SMALL = {"size": "3x4"}
CLOCK = {"per_move": 600}


def _refused(response: httpx.Response, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    assert words in response.json()["detail"], response.json()["detail"]


def _tournament(creator: httpx.Client, **fields: Any) -> str:
    body = {"game": "clobber", "params": SMALL, "format": "round-robin", **fields}
    response = creator.post("/api/tournaments", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


class RandomPlayer(threading.Thread):
    """A player who, until the tournament finishes, finds their tables in the tournament's
    answer and plays a random legal move whenever it is their turn, through the move API."""

    def __init__(self, base: str, browser: httpx.Client, tid: str, seed: int) -> None:
        super().__init__(daemon=True)
        self.base = base
        self.cookies = browser.cookies
        self.tid = tid
        self.rng = random.Random(seed)
        self.moves = 0
        self.stop_at = time.monotonic() + 240
        self.paused = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._play()
        except BaseException as exc:  # reported by the test
            self.error = exc

    def _http(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, cookies=self.cookies, timeout=TIMEOUT)

    def _play(self) -> None:
        http = self._http()
        while time.monotonic() < self.stop_at:
            if self.paused.is_set():
                time.sleep(0.05)
                continue
            try:
                info = http.get(f"/api/tournaments/{self.tid}").json()
                if info["status"] == "finished":
                    return
                for table in info["you"]["tables"]:
                    if not table["over"]:
                        self._turn(http, token_of(table["url"]))
            except httpx.TransportError:  # the server is down: try again when it is back
                time.sleep(0.2)
            time.sleep(0.02)
        raise AssertionError("the tournament did not finish in time")

    def _turn(self, http: httpx.Client, token: str) -> None:
        state = http.get(f"/api/play/{token}").json()
        if state.get("terminal") or state.get("to_act") not in state["hand"]["seats"] or (
                not state.get("legal")):
            return
        steps: list[int] = []
        legal = [m["a"] for m in state["legal"]]
        while True:
            steps.append(self.rng.choice(legal))
            reply = http.post(f"/api/play/{token}/act", json={
                "type": "act", "client_id": uuid.uuid4().hex[:16], "steps": steps,
                "at": state["version"]}).json()
            if reply["type"] != "partial":
                break
            legal = [m["a"] for m in reply["legal"]]
        if reply["type"] != "error":
            self.moves += 1


def _players(server: ServerProcess, prefix: str, count: int) -> list[httpx.Client]:
    return [account(server, f"{prefix}{i}") for i in range(count)]


def _play_to_the_end(server: ServerProcess, tid: str, browsers: list[httpx.Client],
                     during: Any = None) -> dict[str, Any]:
    players = [RandomPlayer(server.base, b, tid, seed) for seed, b in enumerate(browsers)]
    for p in players:
        p.start()
    if during is not None:
        during(players)
    for p in players:
        p.join(timeout=300)
        assert p.error is None, repr(p.error)
    assert all(p.moves for p in players)
    return browsers[0].get(f"/api/tournaments/{tid}").json()


def test_what_creating_and_joining_refuse(server: ServerProcess):
    guest = httpx.Client(base_url=server.base, timeout=TIMEOUT)
    _refused(guest.post("/api/tournaments", json={"game": "clobber", "format": "swiss"}), 401,
             "sign in first")
    ada = account(server, "tour-ada")

    def refused(status: int, words: str, **fields: Any) -> None:
        body = {"game": "clobber", "format": "swiss", **fields}
        _refused(ada.post("/api/tournaments", json=body), status, words)

    refused(400, "format: choose round-robin or swiss", format="knockout")
    refused(400, "unknown game", game="chess")
    refused(400, "rounds: 1 to 30", rounds=31)
    refused(400, "rounds: 1 to 30", rounds=0)
    refused(400, "max_players: 2 to 64", max_players=65)
    refused(400, "max_players: 2 to 24", max_players=30, format="round-robin")
    refused(400, "needs a clock", rated=True)
    refused(400, "not a set-up position", params={"position": "xo/ox x"})
    refused(400, "grace: 5 to 3600 seconds", grace=1)
    refused(400, "starts_at: a time from now to 30 days ahead", starts_at="2020-01-01T00:00:00")
    refused(400, "unknown clock field", clock={"per_hour": 3})
    refused(400, "name", name="x" * 300)
    refused(400, "colour: is not expected here", colour="white")
    tid = _tournament(ada, name="  Friday\u0007 night  ")
    info = ada.get(f"/api/tournaments/{tid}").json()
    assert info["name"] == "Friday night" and info["status"] == "open"
    assert info["you"] == {"joined": False, "creator": True, "can_join": True,
                           "can_start": True, "tables": []}
    _refused(guest.post(f"/api/tournaments/{tid}/join"), 401, "sign in, or send a token")
    _refused(ada.post(f"/api/tournaments/{tid}/start"), 409, "at least 2 players")
    assert ada.post(f"/api/tournaments/{tid}/join").json() == {"joined": True, "players": 1}
    assert ada.post(f"/api/tournaments/{tid}/join").json() == {"joined": True, "players": 1}
    bob = account(server, "tour-bob")
    _refused(bob.post(f"/api/tournaments/{tid}/start"), 403, "only the tournament's creator")
    _refused(bob.post("/api/tournaments/nope/join"), 404, "no tournament")
    _refused(bob.get("/api/tournaments/" + "x" * 100), 404, "no such tournament")
    for _ in range(4):  # five open at once at most
        _tournament(ada)
    _refused(ada.post("/api/tournaments", json={"game": "clobber", "format": "swiss"}), 429,
             "5 tournaments open or running")
    full = _tournament(bob, max_players=2)
    assert bob.post(f"/api/tournaments/{full}/join").status_code == 200
    assert ada.post(f"/api/tournaments/{full}/join").status_code == 200
    _refused(account(server, "tour-cy").post(f"/api/tournaments/{full}/join"), 409,
             "full: 2 players")
    assert bob.post(f"/api/tournaments/{full}/start").json() == {"started": True}
    _refused(account(server, "tour-dee").post(f"/api/tournaments/{full}/join"), 409,
             "joining is closed")
    listed = server.get("/api/tournaments").json()
    assert tid in [t["id"] for t in listed["upcoming"]]
    assert full in [t["id"] for t in listed["running"]]


def test_a_round_robin_of_four_played_to_the_end(server: ServerProcess):
    browsers = _players(server, "rr", 4)
    tid = _tournament(browsers[0], rated=True, clock=CLOCK)
    for b in browsers:
        assert b.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert browsers[0].post(f"/api/tournaments/{tid}/start").json() == {"started": True}
    # a seat link is its player's key: each sees only their own, a guest none
    during = [b.get(f"/api/tournaments/{tid}").json() for b in browsers]
    for i, seen in enumerate(during):
        mine = [g["table"] for g in seen["games"] if f"rr{i}" in g["players"]]
        assert [t["table"] for t in seen["you"]["tables"]] == mine and len(mine) == 1
    as_guest = server.get(f"/api/tournaments/{tid}")
    assert "you" not in as_guest.json() and "/play/" not in as_guest.text
    final = _play_to_the_end(server, tid, browsers)
    assert final["status"] == "finished" and final["rounds"] == 3 and final["round"] == 3
    games = final["games"]
    assert len(games) == 6 and all(g["over"] and g["points"] for g in games)
    met = {frozenset(g["players"]) for g in games}
    assert len(met) == 6  # everyone met everyone once
    table = final["standings"]
    assert sum(s["points"] for s in table) == 6.0
    assert [s["points"] for s in table] == sorted((s["points"] for s in table), reverse=True)
    # Sonneborn-Berger from the games themselves
    total = {s["player"]: s["points"] for s in table}
    for s in table:
        sb = sum(g["points"][g["players"].index(s["player"])]
                 * total[g["players"][1 - g["players"].index(s["player"])]]
                 for g in games if s["player"] in g["players"])
        assert s["sonneborn_berger"] == pytest.approx(sb)
    # rated through the existing path: every game changed both ratings, and the plot has them
    for g in games:
        changes = server.get(f"/api/tables/{g['table']}/ratings").json()
        assert len(changes["changes"]) == 2, changes
    assert {len(points) for points in final["ratings"].values()} == {4}  # start + 3 games
    profile = server.get("/api/players/rr0").json()
    assert profile["ratings"]["clobber"]["games"] == 3


def test_a_four_round_swiss_survives_a_sigkill_mid_round(tmp_path):
    parlour = str(Path(sys.executable).with_name("parlour"))  # the command users type
    server = ServerProcess(tmp_path / "swiss.db", command=(parlour, "serve")).start()
    try:
        browsers = _players(server, "sw", 4)
        tid = _tournament(browsers[0], format="swiss", rounds=4)
        for b in browsers:
            b.post(f"/api/tournaments/{tid}/join")
        browsers[0].post(f"/api/tournaments/{tid}/start")

        def kill_mid_round(players: list[RandomPlayer]) -> None:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:  # round 2 has begun and has moves in it
                info = server.get(f"/api/tournaments/{tid}").json()
                if info["round"] == 2 and any(not g["over"] for g in info["games"]):
                    break
                time.sleep(0.02)
            for p in players:
                p.paused.set()
            time.sleep(0.5)  # a move on its way is answered
            before = server.get(f"/api/tournaments/{tid}").json()
            moves = {g["table"]: server.get(f"/api/watch/{g['table']}").json()["version"]
                     for g in before["games"]}
            server.kill()
            server.start()  # the same database, a new process
            after = server.get(f"/api/tournaments/{tid}").json()
            assert after["round"] == before["round"] == 2
            assert [g for g in after["games"] if g["over"]] == [
                g for g in before["games"] if g["over"]]
            assert [g["table"] for g in after["games"]] == list(moves)
            # every move the players were told was accepted is still there
            assert {t: server.get(f"/api/watch/{t}").json()["version"] for t in moves} == moves
            assert sum(moves.values()) > 0
            for p in players:
                p.paused.clear()

        final = _play_to_the_end(server, tid, browsers, during=kill_mid_round)
    finally:
        server.stop()
    assert final["status"] == "finished" and final["round"] == 4
    games = final["games"]
    assert len(games) == 8 and all(g["over"] for g in games)
    rounds = [[frozenset(g["players"]) for g in games if g["round"] == r] for r in (1, 2, 3)]
    assert len({pair for r in rounds for pair in r}) == 6  # no repeat in the first three
    firsts = [g["players"][0] for g in games]
    assert all(firsts.count(f"sw{i}") == 2 for i in range(4))  # seats balanced: 2 + 2 each
    table = final["standings"]
    assert sum(s["points"] for s in table) == 8.0
    total = {s["player"]: s["points"] for s in table}
    for s in table:
        opponents = [p for g in games if s["player"] in g["players"] for p in g["players"]
                     if p != s["player"]]
        assert s["buchholz"] == pytest.approx(sum(total[o] for o in opponents))


def test_a_tournament_starts_at_its_time_or_is_cancelled(server: ServerProcess):
    ann, ben = account(server, "at-ann"), account(server, "at-ben")
    soon = datetime.now(UTC) + timedelta(seconds=3)
    tid = _tournament(ann, format="swiss", rounds=1, starts_at=soon.isoformat())
    lonely = _tournament(ben, starts_at=time.time() + 3)
    for b in (ann, ben):
        b.post(f"/api/tournaments/{tid}/join")
    ben.post(f"/api/tournaments/{lonely}/join")
    assert ann.get(f"/api/tournaments/{tid}").json()["starts_at"] == pytest.approx(
        soon.timestamp())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # started, round 1 paired and its table made
        info, alone = (ann.get(f"/api/tournaments/{t}").json() for t in (tid, lonely))
        if info["you"]["tables"] and alone["status"] == "finished":
            break
        time.sleep(0.2)
    assert info["status"] == "running" and info["round"] == 1
    assert len(info["you"]["tables"]) == 1  # the round's table is made, with ann's seat link
    assert server.get(info["you"]["tables"][0]["url"].replace("/play/", "/api/play/")
                      ).status_code == 200
    assert alone["status"] == "finished" and alone["games"] == []
    assert alone["cancelled"] == "fewer than 2 players had joined at the start"
    _refused(account(server, "at-cy").post(f"/api/tournaments/{tid}/join"), 409,
             "joining is closed")


def test_a_player_who_does_not_show_forfeits(server: ServerProcess):
    there, absent = account(server, "show-up"), account(server, "no-show")
    tid = _tournament(there, grace=5, rounds=1)
    for b in (there, absent):
        b.post(f"/api/tournaments/{tid}/join")
    there.post(f"/api/tournaments/{tid}/start")
    info = there.get(f"/api/tournaments/{tid}").json()
    game = info["games"][0]
    if game["players"][0] == "show-up":  # move first, then wait for the other
        token = token_of(info["you"]["tables"][0]["url"])
        state = there.get(f"/api/play/{token}").json()
        there.post(f"/api/play/{token}/act", json={
            "type": "act", "client_id": "m1", "steps": [state["legal"][0]["a"]],
            "at": state["version"]})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        info = there.get(f"/api/tournaments/{tid}").json()
        if info["status"] == "finished":
            break
        time.sleep(0.2)
    assert info["status"] == "finished"
    assert info["games"][0]["forfeits"] == ["no-show"]
    assert [(s["player"], s["points"]) for s in info["standings"]] == [
        ("show-up", 1.0), ("no-show", 0.0)]


def test_a_no_show_at_a_table_of_three_is_played_on_and_placed_last(server: ServerProcess):
    present = [account(server, f"three-{i}") for i in range(2)]
    absent = account(server, "three-away")
    tid = _tournament(present[0], game="stomple", params={"players": 3}, format="swiss",
                      rounds=1, grace=5)
    for b in (*present, absent):
        b.post(f"/api/tournaments/{tid}/join")
    present[0].post(f"/api/tournaments/{tid}/start")
    final = _play_to_the_end(server, tid, present)
    game = final["games"][0]
    assert game["forfeits"] == ["three-away"] and game["over"]
    assert game["points"][game["players"].index("three-away")] == 0.0
    assert final["standings"][-1]["player"] == "three-away"


def test_tables_of_three_in_a_swiss(server: ServerProcess):
    browsers = _players(server, "st", 4)
    tid = _tournament(browsers[0], game="stomple", params={"players": 3}, format="swiss",
                      rounds=2)
    for b in browsers:
        b.post(f"/api/tournaments/{tid}/join")
    browsers[0].post(f"/api/tournaments/{tid}/start")
    final = _play_to_the_end(server, tid, browsers)
    assert final["status"] == "finished" and final["players_per_table"] == 3
    assert all(len(g["players"]) == 3 for g in final["games"])
    assert [len(r["byes"]) for r in final["rounds_played"]] == [1, 1]
    byes = [r["byes"][0] for r in final["rounds_played"]]
    assert len(set(byes)) == 2  # nobody sits out twice
    assert sum(s["points"] for s in final["standings"]) == pytest.approx(2 * 1.5 + 2 * 1.0)
