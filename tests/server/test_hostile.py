"""The web table under hostile use: each test drives a real server process on 127.0.0.1 the way
an attacker or a broken client would, and checks the server refuses clearly and keeps serving.

Every limit used here is the server's default unless a test says otherwise (the shared test
server of the other tests lifts one client's rate limits, since all tests come from one
address).
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from parlour import load_game
from parlour.server.limits import Limits

from .helpers import TIMEOUT, Client, ServerProcess, token_of

DEFAULTS = Limits()


@pytest.fixture()
def strict(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server with every default limit, as `parlour serve` starts."""
    proc = ServerProcess(tmp_path / "strict.db", limits="").start()
    yield proc
    proc.stop()


def _children(pid: int) -> set[int]:
    """The live child processes of ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


# -- hidden information: previews ----------------------------------------------------------------
def _to_bluff_decision(server: ServerProcess) -> tuple[dict, Client, Client]:
    """A two-player bluffing GobbleStones table where seat 1 must decide challenge or trust."""
    table = server.create("gobblestones", {"bluff": True}, seats=[{"kind": "me"},
                                                                   {"kind": "invite"}])
    player = server.client(table["url"])
    decider = server.client(table["invites"][0]["url"])
    game = load_game("gobblestones", bluff=True)
    message = player.wait_state(lambda m: bool(m["legal"]))
    steps: list[int] = []
    legal = [m["a"] for m in message["legal"]]
    while True:  # lay one tile, then end the play
        tile = next(a for a in legal if a not in (game.PASS, game.END))
        steps.append(tile)
        reply = player.act(list(steps), at=message["version"])
        assert reply["type"] == "partial"
        legal = [m["a"] for m in reply["legal"]]
        if game.END in legal:
            break
    assert player.act([*steps, game.END], at=message["version"])["type"] == "ack"
    decider.wait_state(lambda m: [x["a"] for x in m["legal"]] == [game.CHALLENGE, game.TRUST])
    return table, player, decider


def test_a_bluff_decider_cannot_peek_with_a_preview(server: ServerProcess):
    """Issue 14: a challenge previewed (or sent plainly in a two-player game) used to come back
    unstored with the real colours; now a decision is a whole turn: a preview of it is refused
    and a plain one is stored at once."""
    game = load_game("gobblestones", bluff=True)
    table, player, decider = _to_bluff_decision(server)
    with player, decider:
        at = decider.state["version"]
        peek = decider.act([game.CHALLENGE], at=at, preview=True)
        assert peek["type"] == "error" and peek["code"] == "preview_refused"
        assert "view" not in peek and "last_challenge" not in json.dumps(peek)
        trust = decider.act([game.TRUST], at=at)  # nothing was stored: trusting is still open
        assert trust["type"] == "ack" and trust["seq"] == at
        stored = server.get(f"/api/watch/{table['table']}").json()
        assert stored["version"] > at


def test_a_plain_challenge_in_a_two_player_game_is_stored_at_once(server: ServerProcess):
    game = load_game("gobblestones", bluff=True)
    _table, player, decider = _to_bluff_decision(server)
    with player, decider:
        at = decider.state["version"]
        reply = decider.act([game.CHALLENGE], at=at)
        assert reply["type"] == "ack" and reply["seq"] == at  # not a "partial" preview
        after = decider.act([game.TRUST], at=at)
        assert after["type"] == "error" and after["code"] == "stale"


@pytest.mark.parametrize(
    ("game", "params"),
    [("gobblestones", {"bluff": True, "players": 3}), ("gobblestones", {}),
     ("stomple", {"players": 2}), ("stomp-the-plank", {}), ("clobber", {})],
)
def test_previews_only_ever_show_a_turn_still_in_progress(
    server: ServerProcess, game: str, params: dict
):
    """Every legal step previewed at every turn of a game: a preview answers only for steps
    that leave the same player mid-turn (nothing a finished turn reveals), else it is refused."""
    seats = [{"kind": "hotseat"}] * load_game(game, **params).num_players()
    seats[0] = {"kind": "me"}
    table = server.create(game, params, seats=seats)
    rng = random.Random(4)
    version = 0
    with server.client(table["url"]) as hand:
        for _turn in range(12):
            message = hand.wait_state(
                lambda m, v=version: m["version"] >= v and (bool(m["legal"]) or m["terminal"])
            )
            if message["terminal"]:
                break
            at, steps = message["version"], []
            legal = [m["a"] for m in message["legal"]]
            while True:
                for action in legal:
                    reply = hand.act([*steps, action], at=at, preview=True)
                    if reply["type"] == "partial":
                        assert reply["complete"] is False and reply["to_act"] == message["to_act"]
                    else:
                        assert reply["code"] == "preview_refused", reply
                steps.append(rng.choice(legal))
                reply = hand.act(list(steps), at=at)
                if reply["type"] != "partial":
                    assert reply["type"] == "ack", reply
                    version = reply["version"]
                    break
                legal = [m["a"] for m in reply["legal"]]


# -- computer players: deadlines, shutdown ----------------------------------------------------
def test_a_computer_player_that_thinks_too_long_is_stopped_and_the_table_told(tmp_path: Path):
    """``greedy`` on a 99 x 26 Clobber board needs seconds a move; with a 1 s deadline the server
    stops it, plays a random legal move and says so at the table."""
    server = ServerProcess(tmp_path / "slow.db", ai="process",
                           extra_args=("--ai-deadline", "1")).start()
    try:
        # greedy: easy's one random move in ten would answer at once
        table = server.create("clobber", {"rows": 99, "columns": 26},
                              seats=[{"kind": "ai", "agent": "greedy"}, {"kind": "me"}])
        with server.client(table["url"]) as me:
            moved = me.wait_state(lambda m: m["version"] >= 1, timeout=60)
            assert moved["notices"] and "ran out of thinking time" in moved["notices"][-1]
            assert "Computer (greedy)" in moved["notices"][-1]
        ai = server.get("/healthz").json()["ai"]
        assert ai["timeouts"] >= 1
    finally:
        server.stop()


def test_tables_share_the_computer_players_in_turn(tmp_path: Path):
    """A computer-vs-computer table on the largest board cannot hold the one AI worker: a
    small table's computer move comes within a couple of deadlines."""
    server = ServerProcess(tmp_path / "fair.db", ai="process",
                           extra_args=("--ai-deadline", "1")).start()
    try:
        big = server.create("clobber", {"rows": 99, "columns": 26},
                            seats=[{"kind": "ai", "agent": "greedy"},
                                   {"kind": "ai", "agent": "greedy"}])
        with server.client(big["watch"]):  # watched: a table of computers alone waits
            time.sleep(1.0)
            small = server.create("clobber", {"rows": 3, "columns": 4},
                                  seats=[{"kind": "ai", "agent": "random"}, {"kind": "me"}])
            with server.client(small["url"]) as me:
                me.wait_state(lambda m: m["version"] >= 1, timeout=TIMEOUT)
    finally:
        server.stop()


def _busy_worker(server: ServerProcess) -> int:
    greedy = {"kind": "ai", "agent": "greedy"}
    table = server.create("clobber", {"rows": 99, "columns": 26}, seats=[greedy, greedy])
    assert table["table"]
    # watched: a table where only computers play waits while nobody watches it (the socket
    # stays open until the server goes)
    server.client(table["watch"])
    assert server.proc is not None
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        workers = _children(server.proc.pid)
        if workers:
            time.sleep(3.0)  # started and thinking about the first move
            return workers.pop()
        time.sleep(0.1)
    raise AssertionError("no AI worker process started")


def test_sigterm_stops_the_computer_players_with_the_server(tmp_path: Path):
    server = ServerProcess(tmp_path / "term.db", ai="process",
                           extra_args=("--ai-deadline", "60")).start()
    worker = _busy_worker(server)
    assert server.proc is not None
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(timeout=TIMEOUT)
    deadline = time.monotonic() + TIMEOUT
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(worker), "an AI worker outlived the server"


def test_a_killed_server_takes_its_computer_players_with_it(tmp_path: Path):
    server = ServerProcess(tmp_path / "kill.db", ai="process",
                           extra_args=("--ai-deadline", "60")).start()
    worker = _busy_worker(server)
    server.kill()
    deadline = time.monotonic() + TIMEOUT
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(worker), "an AI worker outlived a SIGKILLed server"


# -- limits: rates and quotas ------------------------------------------------------------------
def test_creating_tables_in_a_loop_is_throttled_with_a_clear_429(strict: ServerProcess):
    codes = []
    for _ in range(DEFAULTS.tables_burst + 5):
        response = strict.post("/api/tables", {"game": "clobber"})
        codes.append(response.status_code)
        if response.status_code == 429:
            assert int(response.headers["retry-after"]) >= 1
            assert "too many new tables" in response.json()["detail"]
    assert codes[: DEFAULTS.tables_burst] == [201] * DEFAULTS.tables_burst
    assert codes[DEFAULTS.tables_burst :] == [429] * 5
    assert strict.get("/healthz").status_code == 200


def test_open_tables_per_client_are_capped(tmp_path: Path):
    server = ServerProcess(tmp_path / "quota.db",
                           limits="tables_burst=1000,open_tables_per_client=3").start()
    try:
        assert [server.post("/api/tables", {"game": "clobber"}).status_code
                for _ in range(4)] == [201, 201, 201, 429]
    finally:
        server.stop()


def test_a_message_flood_is_refused_but_the_connection_kept(strict: ServerProcess):
    table = strict.create("clobber")
    with strict.client(table["url"]) as me:
        me.wait_state()
        flood = DEFAULTS.messages_burst + 40
        for i in range(flood):
            me.send({"type": "ping", "nonce": str(i)})
        codes = []
        for _ in range(flood):
            reply = me.wait(lambda m: m["type"] in ("pong", "error"))
            codes.append(reply.get("code", "pong"))
        assert "rate_limited" in codes and codes.count("pong") >= DEFAULTS.messages_burst
        time.sleep(1.0)  # the bucket refills: the connection still works
        me.send({"type": "ping", "nonce": "after"})
        assert me.wait(lambda m: m["type"] == "pong")["nonce"] == "after"


def test_http_requests_in_a_loop_get_429(tmp_path: Path):
    server = ServerProcess(tmp_path / "req.db",
                           limits="requests_burst=30,requests_per_second=0.01").start()
    try:
        codes = [server.get("/api/games").status_code for _ in range(40)]
        assert codes[:25] == [200] * 25 and codes[-5:] == [429] * 5
        refused = server.get("/api/games")
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        assert server.get("/healthz").status_code == 200  # health checks are never throttled
    finally:
        server.stop()


def test_connecting_in_a_loop_is_refused(strict: ServerProcess):
    table = strict.create("clobber")
    refused = 0
    for _ in range(DEFAULTS.connects_burst + 10):
        try:
            with connect(strict.ws_base + "/ws" + table["watch"], open_timeout=TIMEOUT):
                pass
        except InvalidStatus as exc:
            assert exc.response.status_code == 403
            refused += 1
    assert refused >= 5


# -- bodies ----------------------------------------------------------------------------------
def _raw_request(port: int, head: bytes, body_parts: list[bytes], wait: float = 5.0) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(head)
        for part in body_parts:
            try:
                sock.sendall(part)
            except OSError:
                break
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks):
                    break
        except (TimeoutError, ConnectionResetError):
            pass
        return b"".join(chunks)


def test_an_oversized_body_is_refused_by_its_length_before_it_is_read(server: ServerProcess):
    """Content-Length of 60 MB and no body sent: the 413 comes at once, not after reading."""
    head = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 60000000\r\n\r\n")
    answer = _raw_request(server.port, head, [])
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_a_chunked_body_is_read_only_up_to_the_limit(server: ServerProcess):
    head = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"x" * 4096
    parts = [b"%x\r\n%s\r\n" % (len(chunk), chunk)] * 64  # 256 kB offered
    answer = _raw_request(server.port, head, parts)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


# -- spectators and presence -----------------------------------------------------------------
def test_spectators_coming_and_going_cost_the_players_nothing(server: ServerProcess):
    table = server.create("clobber")
    with server.client(table["url"]) as me:
        me.wait_state()
        me.wait(lambda m: m["type"] == "state")  # my own arrival's presence update comes
        me.send({"type": "ping", "nonce": "start"})
        me.wait(lambda m: m["type"] == "pong")
        before = len(me.received)
        for _ in range(30):
            with server.client(table["watch"]) as spectator:
                spectator.wait_state()
        me.send({"type": "ping", "nonce": "end"})
        me.wait(lambda m: m["type"] == "pong")
        assert len(me.received) - before == 1  # just the pong: no broadcast per spectator


def test_a_seat_coming_online_is_one_update_however_often_it_reconnects(server: ServerProcess):
    table = server.create("clobber")
    with server.client(table["watch"]) as spectator:
        spectator.wait_state()
        before = len(spectator.received)
        began = time.monotonic()
        for _ in range(10):
            with server.client(table["invites"][0]["url"]) as guest:
                guest.wait_state()
        deadline = time.monotonic() + TIMEOUT
        while True:  # until an update has come and the last one shows the guest gone
            time.sleep(DEFAULTS.presence_delay)
            spectator.send({"type": "ping"})
            spectator.wait(lambda m: m["type"] == "pong")
            states = [m for m in spectator.received[before:] if m["type"] == "state"]
            if states and not states[-1]["seats"][1]["online"]:
                break
            assert time.monotonic() < deadline, "no update of the guest's presence came"
        took = time.monotonic() - began
        # gathered: at most one update in each interval (however slowly the machine ran the
        # loop), never one per connect and one per disconnect
        assert 1 <= len(states) <= min(19, 2 + int(took / DEFAULTS.presence_delay)), took


def test_spectators_beyond_a_tables_room_are_refused_but_seats_get_in(tmp_path: Path):
    server = ServerProcess(tmp_path / "room.db", limits="listeners_per_table=3").start()
    try:
        table = server.create("clobber")
        watchers = [server.client(table["watch"]) for _ in range(3)]
        for watcher in watchers:
            watcher.wait_state()
        with server.client(table["watch"]) as late:
            refused = late.wait(lambda m: m["type"] == "error")
            assert refused["code"] == "table_full"
        with server.client(table["url"]) as me:  # a seat holder is always let in
            assert me.wait_state()["hand"]["seats"] == [0]
        for watcher in watchers:
            watcher.close()
    finally:
        server.stop()


def test_one_client_cannot_hold_unbounded_connections(tmp_path: Path):
    server = ServerProcess(tmp_path / "conns.db", limits="connections_per_client=4").start()
    try:
        table = server.create("clobber")
        held = [server.client(table["watch"]) for _ in range(4)]
        with pytest.raises(InvalidStatus):
            server.client(table["watch"])
        for client in held:
            client.close()
    finally:
        server.stop()


# -- malformed input -------------------------------------------------------------------------
def test_deeply_nested_json_is_malformed_and_the_socket_stays(server: ServerProcess):
    table = server.create("clobber")
    nested = '{"type": "act", "client_id": "a", "steps": ' + "[" * 1000 + "]" * 1000 + "}"
    with server.client(table["url"]) as me:
        me.wait_state()
        me.send("[" * 1000 + "]" * 1000)
        assert me.wait(lambda m: m["type"] == "error")["code"] == "malformed"
        me.send(nested)
        assert me.wait(lambda m: m["type"] == "error")["code"] == "malformed"
        me.send({"type": "ping", "nonce": "still-here"})
        assert me.wait(lambda m: m["type"] == "pong")["nonce"] == "still-here"
    response = httpx.post(
        f"{server.base}/api/play/{token_of(table['url'])}/act",
        content=("[" * 1000 + "]" * 1000).encode(),
        headers={"content-type": "application/json"}, timeout=TIMEOUT,
    )
    assert response.status_code == 400 and response.json()["code"] == "malformed"
    assert "Traceback" not in server.log_path.read_text()


# -- hygiene ---------------------------------------------------------------------------------
def test_seat_tokens_never_reach_the_log(server: ServerProcess):
    table = server.create("clobber")
    tokens = [token_of(table["url"]), token_of(table["invites"][0]["url"])]
    with server.client(table["url"]) as me:
        me.wait_state()
    logged = len(server.log_path.read_bytes())  # what the log held before these requests
    for token in tokens:
        assert server.get(f"/play/{token}").status_code == 200
        assert server.get(f"/api/play/{token}").status_code == 200
    deadline = time.monotonic() + TIMEOUT  # the requests were logged...
    while server.log_path.read_bytes()[logged:].count(b'"GET /play/<token> ') < len(tokens):
        assert time.monotonic() < deadline, "the requests were not logged"
        time.sleep(0.1)
    log = server.log_path.read_text()
    assert "/play/<token>" in log
    for token in tokens:
        assert token not in log  # ...without their tokens


def test_cross_site_requests_and_sockets_are_refused(server: ServerProcess):
    body = {"game": "clobber"}
    plain = httpx.post(server.base + "/api/tables", content=json.dumps(body).encode(),
                       headers={"content-type": "text/plain"}, timeout=TIMEOUT)
    assert plain.status_code == 415
    evil = server.post("/api/tables", body, headers={"origin": "http://evil.example"})
    assert evil.status_code == 403 and evil.json()["code"] == "cross_site"
    own = server.post("/api/tables", body, headers={"origin": server.base})
    assert own.status_code == 201
    with pytest.raises(InvalidStatus) as refused:
        connect(server.ws_base + "/ws" + own.json()["watch"], open_timeout=TIMEOUT,
                origin="http://evil.example")  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    with connect(server.ws_base + "/ws" + own.json()["watch"], open_timeout=TIMEOUT,
                 origin=server.base) as ws:  # type: ignore[arg-type]
        assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "state"


def test_another_site_can_be_allowed_by_configuration(tmp_path: Path):
    server = ServerProcess(tmp_path / "origin.db",
                           extra_args=("--allow-origin", "https://friends.example")).start()
    try:
        allowed = server.post("/api/tables", {"game": "clobber"},
                              headers={"origin": "https://friends.example"})
        assert allowed.status_code == 201
        assert server.post("/api/tables", {"game": "clobber"},
                           headers={"origin": "https://other.example"}).status_code == 403
    finally:
        server.stop()


@pytest.mark.parametrize("path", ["/", "/api/games", "/static/js/table.js", "/rules/clobber"])
def test_every_response_carries_the_security_headers(server: ServerProcess, path: str):
    headers = server.get(path).headers
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-content-type-options"] == "nosniff"


def test_the_database_is_readable_by_its_owner_only(tmp_path: Path):
    folder = tmp_path / "fresh" / "data"
    server = ServerProcess(folder / "parlour.db", log_path=tmp_path / "perm.log").start()
    try:
        server.create("clobber")
    finally:
        server.stop()
    assert stat.S_IMODE((folder / "parlour.db").stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for extra in folder.glob("parlour.db-*"):
        assert stat.S_IMODE(extra.stat().st_mode) == 0o600


def test_the_default_data_folder_is_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from parlour.server.persistence.config import default_db_url

    monkeypatch.delenv("PARLOUR_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    url = default_db_url()
    folder = Path(url.removeprefix("sqlite:///")).parent
    assert folder.is_relative_to(tmp_path) and stat.S_IMODE(folder.stat().st_mode) == 0o700


# -- memory: lazy resume and idle tables ------------------------------------------------------
def test_a_restart_loads_only_the_tables_that_wait_for_the_server(tmp_path: Path):
    db = tmp_path / "lazy.db"
    first = ServerProcess(db).start()
    humans = [first.create("clobber") for _ in range(30)]
    # `hard` thinks 1 s on the 5x6 board, so the kill below comes before its reply (a `random`
    # seat sometimes answered first on a busy machine, and then nothing waited for the restart)
    ai = first.create("clobber", seats=[{"kind": "me"}, {"kind": "ai", "agent": "hard"}])
    with first.client(ai["url"]) as me:
        message = me.wait_state()
        assert me.act([message["legal"][0]["a"]], at=0)["type"] == "ack"
    first.kill()  # the computer is now to move, and nobody will tell it but the restart
    second = ServerProcess(db).start()
    try:
        with second.client(ai["url"]) as me:
            me.wait_state(lambda m: m["version"] >= 2)
        deadline = time.monotonic() + TIMEOUT  # the resume counts the table once it is done
        while second.get("/healthz").json()["resumed"] < 1 and time.monotonic() < deadline:
            time.sleep(0.2)
        health = second.get("/healthz").json()
        assert health["resumed"] == 1
        assert health["tables_loaded"] <= 2  # the human tables stayed in the database
        with second.client(humans[7]["url"]) as me:  # ...until someone opens one
            assert me.wait_state()["version"] == 0
    finally:
        second.stop()


def test_idle_tables_are_unloaded_and_come_back_intact(tmp_path: Path):
    server = ServerProcess(tmp_path / "idle.db", limits="idle_unload_seconds=1").start()
    try:
        table = server.create("clobber")
        with server.client(table["url"]) as me:
            message = me.wait_state()
            assert me.act([message["legal"][0]["a"]], at=0)["type"] == "ack"
        deadline = time.monotonic() + TIMEOUT
        while server.get("/healthz").json()["tables_loaded"] and time.monotonic() < deadline:
            time.sleep(0.3)
        assert server.get("/healthz").json()["tables_loaded"] == 0
        with server.client(table["invites"][0]["url"]) as them:
            assert them.wait_state()["version"] == 1
    finally:
        server.stop()


def test_an_old_database_is_brought_up_to_date(tmp_path: Path):
    """A database from before the new columns opens, and its unfinished tables resume."""
    import sqlite3

    db = tmp_path / "old.db"
    with sqlite3.connect(db) as old:
        old.executescript(
            """
            CREATE TABLE parlour_tables (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64),
              params JSON, seed BIGINT, created_at FLOAT, finished BOOLEAN,
              rematch_of VARCHAR(32), rematch_id VARCHAR(32));
            CREATE TABLE parlour_seats (table_id VARCHAR(32), seat INTEGER, kind VARCHAR(16),
              agent VARCHAR(64), PRIMARY KEY (table_id, seat));
            CREATE TABLE parlour_hands (token VARCHAR(64) PRIMARY KEY, table_id VARCHAR(32),
              hand INTEGER, seats JSON, role VARCHAR(16), creator BOOLEAN);
            CREATE TABLE parlour_actions (table_id VARCHAR(32), seq INTEGER, action INTEGER,
              player INTEGER, client_key VARCHAR(160), created_at FLOAT,
              PRIMARY KEY (table_id, seq), UNIQUE (table_id, client_key));
            INSERT INTO parlour_tables VALUES ('old1', 'clobber', '{"rows": 3, "columns": 4}',
              7, 0, 0, NULL, NULL);
            INSERT INTO parlour_seats VALUES ('old1', 0, 'human', NULL),
              ('old1', 1, 'ai', 'random');
            INSERT INTO parlour_hands VALUES ('oldtoken0123456789', 'old1', 0, '[0]', 'me', 1);
            """
        )
        game = load_game("clobber", rows=3, columns=4)
        first = game.new_initial_state().legal_actions()[0]
        old.execute("INSERT INTO parlour_actions VALUES ('old1', 0, ?, 0, NULL, 0)", (first,))
    server = ServerProcess(db, extra_args=("--upgrade",)).start()  # an older schema: asked for
    try:
        with server.client("/play/oldtoken0123456789") as me:
            assert me.wait_state(lambda m: m["version"] >= 2)["seats"][1]["kind"] == "ai"
    finally:
        server.stop()
    assert os.path.exists(db)
