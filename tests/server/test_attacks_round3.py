"""The third round of hostile use (issue 28), each test named after the attack it replays
against real server processes.

G-3: a player's view shows only what that player may see; a re-deal or a set-up position must
not hand anyone tiles another player has seen or written.
"""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from parlour import load_game

from .helpers import TIMEOUT, ServerProcess, token_of


def _stored(db: Path, table_id: str) -> tuple[int, list[int], list[tuple[int, int, int]]]:
    """The table's secret seed, its stored actions and the actions taken back, as stored."""
    from parlour.server.persistence.store import Store

    store = Store(f"sqlite:///{db}")
    try:
        data = store.load(table_id)
        assert data is not None
        return data.seed, [a.action for a in data.actions], store.taken_back(table_id)
    finally:
        store.close()


# -- 1. an early start re-deals --------------------------------------------------------------------
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


# -- 2. a set-up position through an open table ----------------------------------------------------
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


# -- 3. one client starving every computer player --------------------------------------------------
def test_six_computer_tables_on_the_largest_board_do_not_starve_another_clients_computer(
    tmp_path: Path,
):
    """One client (127.0.0.2) watches six computer-against-computer tables on 99 x 26 Clobber
    boards; another (127.0.0.3) plays ``easy`` on the usual board. Before, its reply came after
    32 s (every job of the six tables ran to the 5 s deadline, first come first served); now
    people waiting go first, clients take turns, and one client never holds every worker.

    Counted, not timed (a busy machine makes every wait longer): while the victim waits for
    each reply, at most one of the six tables moves (the one job already running), where first
    come first served let all six move first."""
    import threading
    import time

    server = ServerProcess(tmp_path / "starve.db", ai="process").start()
    watchers = []
    stop, listeners = threading.Event(), []
    try:
        with server.http_from("127.0.0.2") as attacker:
            hard = {"kind": "ai", "agent": "hard"}
            for _ in range(6):
                response = attacker.post("/api/tables", json={
                    "game": "clobber", "params": {"rows": 99, "columns": 26},
                    "seats": [hard, hard]})
                assert response.status_code == 201, response.text
                watchers.append(server.client(response.json()["watch"], source="127.0.0.2"))
        watchers[0].wait_state(lambda m: m["version"] >= 1, timeout=60)  # under way
        moved: list[float] = []  # when each of the six tables' moves reached its watcher

        def listen(watcher: Any) -> None:
            seen = watcher.state["version"] if watcher.state else -1
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    message = watcher.recv(timeout=0.5)
                    if message["type"] == "state" and message["version"] > seen:
                        seen = message["version"]
                        moved.append(time.monotonic())

        listeners.extend(threading.Thread(target=listen, args=(w,), daemon=True)
                         for w in watchers)
        for listener in listeners:
            listener.start()
        with server.http_from("127.0.0.3") as victim:
            mine = victim.post("/api/tables", json={
                "game": "clobber", "seats": [{"kind": "me"}, {"kind": "ai", "agent": "easy"}],
            }).json()
        waits, others = [], []
        with server.client(mine["url"], source="127.0.0.3") as me:
            for _ in range(3):
                state = me.wait_state(lambda m: bool(m["legal"]) or m["terminal"])
                if state["terminal"]:
                    break
                reply = me.act([state["legal"][0]["a"]], at=state["version"])
                assert reply["type"] == "ack"
                sent = time.monotonic()
                answered = me.wait_state(
                    lambda m, v=reply["version"]: m["version"] > v or m["terminal"], timeout=60)
                waits.append(time.monotonic() - sent)
                others.append(sum(sent <= t <= sent + waits[-1] for t in moved))
                assert answered["notices"] == [] or "ran out" not in answered["notices"][-1]
        print("easy's replies under the attack (s):", [round(w, 3) for w in waits],
              "moves of the six tables meanwhile:", others)
        assert waits and max(others) <= 1, (others, waits)
    finally:
        stop.set()
        for listener in listeners:
            listener.join(timeout=TIMEOUT)
        for watcher in watchers:
            watcher.close()
        server.stop()


def test_a_table_where_only_computers_play_waits_while_nobody_watches(server: ServerProcess):
    """Its moves would cost the server's thinking for no one: it waits, and goes on as soon as
    someone opens it."""
    import time

    table = server.create("clobber", {"rows": 3, "columns": 4},
                          seats=[{"kind": "ai", "agent": "random"},
                                 {"kind": "ai", "agent": "random"}])
    time.sleep(1.0)
    assert server.get(f"/api/watch/{table['table']}").json()["version"] == 0
    with server.client(table["watch"]) as spectator:
        assert spectator.wait_state(lambda m: m["terminal"], timeout=30)["version"] > 0


# -- 4. memory under sockets that never read -------------------------------------------------------
def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _upgrade(port: int, path: str, host: str | None = None,
             origin: str | None = None) -> tuple[Any, bytes]:
    """A raw websocket handshake (a small receive buffer, so that the server's writes back up
    at once if it is never read): the socket and the status line of the answer."""
    import base64
    import os
    import socket

    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    extra = f"Origin: {origin}\r\n" if origin else ""
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\n{extra}"
        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            break
        head += chunk
    return sock, head.split(b"\r\n", 1)[0]


def _unread_socket(port: int, path: str) -> Any:
    """A websocket that completes its handshake, then sends and never reads again."""
    sock, status = _upgrade(port, path)
    assert b" 101 " in status
    return sock


def _masked_text_frame(text: str) -> bytes:
    import os
    import struct

    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    assert len(payload) < 126
    return struct.pack("!BB", 0x81, 0x80 | len(payload)) + mask + masked


def test_sockets_that_never_read_cannot_grow_the_server(tmp_path: Path):
    """Eight websockets that never read, each asking for the state of a 99 x 26 table again and
    again (a message of 130 kB) at the rate the limits allow, for 16 s. Before, the server
    grew from 148 MB to 1,728 MB; now each socket holds one fresh state at most (a new state
    replaces the one waiting) and outgoing bytes are bounded per socket and per client."""
    import time

    server = ServerProcess(tmp_path / "unread.db", limits="").start()
    sockets = []
    try:
        table = server.create("clobber", {"rows": 99, "columns": 26})
        assert server.proc is not None
        with server.client(table["url"]) as me:
            me.wait_state()
        idle = _rss_mb(server.proc.pid)
        # the seat to act: its state lists its 5,023 legal moves
        sockets = [_unread_socket(server.port, f"/ws{table['url']}") for _ in range(8)]
        request = _masked_text_frame('{"type":"state"}')
        peak = idle
        end = time.monotonic() + 16
        while time.monotonic() < end:
            for sock in sockets:
                with contextlib.suppress(OSError):  # a socket let go: allowed too
                    sock.sendall(request)
            time.sleep(0.1)
            peak = max(peak, _rss_mb(server.proc.pid))
        print(f"server memory: idle {idle:.0f} MB, peak under the attack {peak:.0f} MB")
        assert peak - idle < 300, (idle, peak)
        with server.client(table["url"]) as me:  # and it still serves
            assert me.wait_state()["version"] == 0
    finally:
        for sock in sockets:
            sock.close()
        server.stop()


# -- 6. the analysis board monopolised -------------------------------------------------------------
def test_one_client_cannot_monopolise_the_analysis_board(tmp_path: Path):
    """Eight analyses in flight at once for the 5 x 6 start (each runs to the 5 s limit) from
    one client (127.0.0.2), within its rate: before, every other client got ``503 busy`` for
    50 s. Now a client has one analysis in flight at a time (the others are refused at once,
    saying why) and the clients take turns for the worker: another client (127.0.0.3) gets its
    answer."""
    import threading

    server = ServerProcess(tmp_path / "board.db", limits="").start()
    try:
        start = "oxoxox/xoxoxo/oxoxox/xoxoxo/oxoxox o"
        replies: list[Any] = []
        gate = threading.Barrier(8)

        def flood() -> None:
            with server.http_from("127.0.0.2") as attacker:
                gate.wait()
                replies.append(attacker.post("/api/analyse/clobber", json={"position": start}))

        threads = [threading.Thread(target=flood) for _ in range(8)]
        for thread in threads:
            thread.start()
        import time

        time.sleep(0.5)  # the flood is in
        with server.http_from("127.0.0.3") as other:
            answer = other.post("/api/analyse/clobber", json={"position": "xoxo/oxox o"})
        for thread in threads:
            thread.join(60)
        assert answer.status_code == 200, answer.text
        assert answer.json()["winner"] == "o"
        codes = sorted(r.status_code for r in replies)
        assert codes == [200] + [429] * 7, codes
        refused = [r.json() for r in replies if r.status_code == 429]
        assert all(r["code"] == "one_at_a_time" for r in refused)
    finally:
        server.stop()


# -- 7. an archived table accepts a resignation ----------------------------------------------------
def test_an_archived_table_refuses_every_change(tmp_path: Path):
    """Archived tables are read-only: a resignation (before: 200, then terminal, reason
    "resignation", still archived), a move, a name, chat and undo are all refused with
    ``archived``, and nothing is stored."""
    import time

    from .helpers import token_of

    db = tmp_path / "archived.db"
    server = ServerProcess(db, extra_args=("--archive-after", "2s")).start()
    try:
        table = server.create("clobber", {"rows": 3, "columns": 4})
        me = token_of(table["url"])
        with server.client(table["url"]) as player:
            first = player.wait_state()
            assert player.act([first["legal"][0]["a"]], at=0)["type"] == "ack"
        deadline = time.monotonic() + TIMEOUT
        while not server.get(f"/api/play/{me}").json()["archived"]:
            assert time.monotonic() < deadline
            time.sleep(0.5)
        _seed, before, _ = _stored(db, table["table"])

        resigned = server.post(f"/api/play/{me}/resign")
        assert resigned.status_code == 409 and resigned.json()["code"] == "archived"
        named = server.post(f"/api/play/{me}/name", {"name": "Ada"})
        assert named.status_code == 409 and "archived" in named.json()["detail"]
        with server.client(table["invites"][0]["url"]) as them:
            state = them.wait_state()
            assert them.act([0], at=state["version"])["code"] == "archived"
            for message in ({"type": "resign"}, {"type": "chat", "text": "hello"},
                            {"type": "undo", "answer": "ask"}):
                them.send(message)
                reply = them.wait(lambda m: m["type"] == "error")
                assert reply["code"] == "archived", (message, reply)
        state = server.get(f"/api/play/{me}").json()
        assert state["archived"] and not state["terminal"] and state["result"] is None
        assert _stored(db, table["table"])[1] == before
    finally:
        server.stop()


# -- 8. DNS rebinding ------------------------------------------------------------------------------
def test_a_host_the_server_is_not_served_as_is_refused(tmp_path: Path):
    """A page of evil.example whose name the attacker has pointed at 127.0.0.1 sends
    ``Host: evil.example`` and a matching ``Origin``: before, it was served (tables created,
    analyses run, websockets upgraded). Now every request and websocket naming another host is
    refused; the loopback names and the hosts given with ``--allowed-host`` are served."""
    import httpx

    server = ServerProcess(tmp_path / "rebind.db",
                           extra_args=("--allowed-host", "parlour.example")).start()
    try:
        evil = {"Host": "evil.example:80", "Origin": "http://evil.example:80"}
        created = httpx.post(server.base + "/api/tables", json={"game": "clobber"},
                             headers=evil)
        assert created.status_code == 400 and created.json()["code"] == "unknown_host"
        assert httpx.get(server.base + "/", headers=evil).status_code == 400
        analysed = httpx.post(server.base + "/api/analyse/clobber",
                              json={"position": "xo o"}, headers=evil)
        assert analysed.status_code == 400
        table = server.create("clobber")
        sock, status = _upgrade(server.port, "/ws" + table["watch"], host="evil.example",
                                origin="http://evil.example")
        sock.close()
        assert b" 101 " not in status and b" 403 " in status, status
        assert server.get("/api/tables").status_code == 200  # 127.0.0.1 is served
        named = {"Host": "parlour.example", "Origin": "http://parlour.example"}
        assert httpx.post(server.base + "/api/tables", json={"game": "clobber"},
                          headers=named).status_code == 201
        assert httpx.get(server.base + "/healthz", headers=evil).status_code == 200
    finally:
        server.stop()
