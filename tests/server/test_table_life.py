"""Tables that stay alive when people come and go: open tables and the lobby, clocks,
resigning, chat and undo, against real server processes."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from parlour import load_game

from .helpers import TIMEOUT, ServerProcess, play_turn, token_of


def _create(server: ServerProcess, body: dict) -> dict:
    """A table; its invited players open their links at once, so the game has started."""
    response = server.post("/api/tables", body)
    assert response.status_code == 201, response.text
    server.arrive(response.json())
    return response.json()


# -- open tables and the lobby ------------------------------------------------------------
def test_an_open_table_is_listed_and_its_free_seat_taken_from_the_lobby(server: ServerProcess):
    table = _create(server, {"game": "clobber", "params": {"rows": 3, "columns": 4},
                             "open": True})
    private = server.create("clobber")
    lobby = server.get("/api/tables").json()
    listed = {t["table"]: t for t in lobby["open"]}
    assert table["table"] in listed and private["table"] not in listed
    assert all(private["table"] != t["table"] for t in lobby["playing"])
    entry = listed[table["table"]]
    assert [s["free"] for s in entry["seats"]] == [False, True]
    assert "position" not in json.dumps(entry) and "token" not in json.dumps(entry)
    with server.client(table["url"]) as host:
        waiting = host.wait_state()
        assert waiting["started"] is False and waiting["legal"] == []
        refused = host.act([0], at=0)
        assert refused["type"] == "error" and refused["code"] == "waiting"
        seat = server.post(f"/api/tables/{table['table']}/seats/1")
        assert seat.status_code == 200
        again = server.post(f"/api/tables/{table['table']}/seats/1")
        assert again.status_code == 409  # taken: nobody gets it twice
        started = host.wait_state(lambda m: m["started"])
        assert started["legal"]
        # the creator never holds the link of a seat someone took from the lobby
        assert token_of(seat.json()["url"]) not in json.dumps(host.received)
        with server.client(seat.json()["url"]) as guest:
            assert guest.wait_state()["hand"]["seats"] == [1]
    lobby = server.get("/api/tables").json()
    assert table["table"] not in {t["table"] for t in lobby["open"]}
    assert table["table"] in {t["table"] for t in lobby["playing"]}


def test_the_creator_fills_a_free_seat_with_the_computer(server: ServerProcess):
    table = _create(server, {"game": "stomple", "params": {"players": 3}, "open": True})
    me = token_of(table["url"])
    for seat in (1, 2):
        filled = server.post(f"/api/play/{me}/fill", {"seat": seat, "agent": "random"})
        assert filled.status_code == 200, filled.text
    with server.client(table["url"]) as host:
        state = host.wait_state(lambda m: m["started"])
        assert [s["kind"] for s in state["seats"]] == ["human", "ai", "ai"]
    not_creator = server.post(f"/api/tables/{table['table']}/seats/1")
    assert not_creator.status_code == 409


def test_a_free_seat_is_only_for_an_open_table(server: ServerProcess):
    response = server.post("/api/tables", {"game": "clobber",
                                           "seats": [{"kind": "me"}, {"kind": "open"}]})
    assert response.status_code == 400 and "open table" in response.json()["detail"]


# -- clocks -------------------------------------------------------------------------------
def test_bad_clocks_are_refused_with_a_reason(server: ServerProcess):
    for clock, words in [({"per_move": 1}, "5 s to"), ({"initial": 60, "per_move": 5}, "no"),
                         ({"increment": 3}, "initial"), ({"per_move": 10 ** 9}, "5 s to")]:
        response = server.post("/api/tables", {"game": "clobber", "clock": clock})
        assert response.status_code in (400, 422), response.text
        assert words in response.text


def test_a_per_move_clock_that_runs_out_loses_a_two_player_game(server: ServerProcess):
    table = _create(server, {"game": "clobber", "clock": {"per_move": 5}})
    with server.client(table["url"]) as white, server.client(table["watch"]) as spectator:
        first = white.wait_state()
        assert first["clock"]["per_move"] == 5 and first["clock"]["running"] == 0
        assert 0 < first["clock"]["left"] <= 5
        assert white.act([first["legal"][0]["a"]], at=0)["type"] == "ack"
        over = spectator.wait_state(lambda m: m["terminal"], timeout=20)
        assert over["result"]["reason"] == "time" and over["result"]["loser"] == 1
        assert over["result"]["returns"] == [1.0, -1.0]
        assert any("ran out of time" in n for n in over["notices"])
        late = white.act([0], at=over["version"])
        assert late["type"] == "error" and late["code"] == "game_over"


def test_with_three_players_the_computer_moves_for_a_player_out_of_time(server: ServerProcess):
    table = _create(server, {"game": "stomp-the-plank", "params": {"players": 3},
                             "clock": {"per_move": 5},
                             "seats": [{"kind": "me"}, {"kind": "hotseat"},
                                       {"kind": "hotseat"}]})
    with server.client(table["url"]) as hand:
        first = hand.wait_state()
        assert first["to_act"] == 0
        moved = hand.wait_state(
            lambda m: any("the computer plays this turn" in n for n in m["notices"]), timeout=20
        )
        assert not moved["terminal"]
        covered = hand.wait_state(lambda m: m["to_act"] not in (0, -1), timeout=20)
        assert covered["log"] and covered["log"][0]["player"] == 0  # the computer's turn


def test_two_time_outs_in_a_row_hand_the_seat_to_the_computer_until_reclaimed(
    server: ServerProcess,
):
    # Stomple plays rounds until someone has 15 points: long enough for two time-outs
    table = _create(server, {"game": "stomple", "params": {"players": 3},
                             "clock": {"per_move": 5},
                             "seats": [{"kind": "me"}, {"kind": "ai", "agent": "random"},
                                       {"kind": "ai", "agent": "random"}]})
    with server.client(table["url"]) as me:
        held = me.wait_state(lambda m: 0 in m["taken_over"], timeout=120)
        assert any("until they come back" in n for n in held["notices"])
        me.send({"type": "reclaim"})
        back = me.wait(lambda m: m["type"] in ("reclaimed", "error"))
        assert back["type"] == "reclaimed"
        assert me.wait_state(lambda m: 0 not in m["taken_over"])


def test_a_chess_clock_survives_a_sigkill_with_the_right_time_left(tmp_path: Path):
    db = tmp_path / "clock.db"
    first = ServerProcess(db).start()
    table = first.create("clobber", {"rows": 3, "columns": 4})
    table = _create(first, {"game": "clobber", "params": {"rows": 3, "columns": 4},
                            "clock": {"initial": 120, "increment": 2}})
    with first.client(table["url"]) as white:
        message = white.wait_state()
        sent = time.time()  # black's clock starts after this...
        assert white.act([message["legal"][0]["a"]], at=0)["type"] == "ack"
        after = white.wait_state(lambda m: m["version"] == 1)
        black_started = time.time()  # ...and before this
        white_left = after["clock"]["remaining"][0]
    time.sleep(1.5)
    first.kill()
    time.sleep(1.0)
    second = ServerProcess(db).start()
    try:
        opened = time.time()  # the state below is made after this...
        with second.client(table["watch"]) as spectator:
            state = spectator.wait_state()
            came = time.time()  # ...and before this
            clock = state["clock"]
            assert clock["running"] == 1
            assert abs(clock["remaining"][0] - white_left) < 1e-6  # not running: unchanged
            # black's time ran on while the server was down: by as long as passed between
            # the start of black's turn and the state, however slowly the machine went
            left = clock["remaining"][1]
            assert 120 - (came - sent) - 0.01 <= left <= 120 - (opened - black_started) + 0.01
    finally:
        second.stop()


def test_a_deadline_that_passed_while_the_server_was_down_is_applied_at_start(tmp_path: Path):
    db = tmp_path / "down.db"
    first = ServerProcess(db).start()
    table = _create(first, {"game": "clobber", "clock": {"per_move": 5}})
    first.kill()
    time.sleep(6)
    second = ServerProcess(db).start()
    try:
        with second.client(table["watch"]) as spectator:
            over = spectator.wait_state(lambda m: m["terminal"], timeout=TIMEOUT)
            assert over["result"]["reason"] == "time" and over["result"]["loser"] == 0
    finally:
        second.stop()


# -- resigning ----------------------------------------------------------------------------
def test_resigning_loses_a_two_player_game(server: ServerProcess):
    table = server.create("clobber")
    with server.client(table["url"]) as me, server.client(table["watch"]) as spectator:
        me.wait_state()
        me.send({"type": "resign"})
        assert me.wait(lambda m: m["type"] in ("resigned", "error"))["type"] == "resigned"
        over = spectator.wait_state(lambda m: m["terminal"])
        assert over["result"]["reason"] == "resignation" and over["result"]["returns"] == [-1, 1]
    record = server.get(f"/api/play/{token_of(table['url'])}").json()
    assert record["terminal"]


def test_resigning_with_more_players_hands_the_seat_to_the_computer(server: ServerProcess):
    table = server.create("stomple", {"players": 3},
                          seats=[{"kind": "me"}, {"kind": "invite"}, {"kind": "invite"}])
    resigned = server.post(f"/api/play/{token_of(table['url'])}/resign")
    assert resigned.status_code == 200
    with server.client(table["watch"]) as spectator:
        state = spectator.wait_state(lambda m: m["version"] > 0 or 0 in m["taken_over"])
        assert 0 in state["resigned"] and not state["terminal"]
    with server.client(table["url"]) as me:
        me.wait_state()
        me.send({"type": "reclaim"})
        refused = me.wait(lambda m: m["type"] in ("reclaimed", "error"))
        assert refused["code"] == "resigned"


# -- chat ---------------------------------------------------------------------------------
def test_chat_is_plain_text_per_channel_stored_and_rate_limited(server: ServerProcess):
    table = server.create("clobber")
    hostile = '<img src=x onerror="alert(1)">\u202e\x07hi'
    with (
        server.client(table["url"]) as me,
        server.client(table["invites"][0]["url"]) as them,
        server.client(table["watch"]) as spectator,
    ):
        for client in (me, them, spectator):
            client.wait_state()
        me.send({"type": "chat", "text": hostile})
        heard = them.wait(lambda m: m["type"] == "chat")
        assert heard["text"] == '<img src=x onerror="alert(1)">hi'  # text, never markup
        assert heard["name"] == "Player 1" and heard["channel"] == "players"
        spectator.send({"type": "chat", "text": "hello players?"})
        seen = spectator.wait(lambda m: m["type"] == "chat")
        assert seen["channel"] == "spectators"
        me.send({"type": "chat", "text": "x" * 501})
        assert me.wait(lambda m: m["type"] == "error")["code"] == "too_long"
        codes = []
        for i in range(6):
            me.send({"type": "chat", "text": f"spam {i}"})
        deadline = time.monotonic() + 10
        while "rate_limited" not in codes and time.monotonic() < deadline:
            message = me.recv()
            codes.append(message.get("code", message["type"]))
        assert "rate_limited" in codes
    assert all(m.get("channel") != "spectators" for m in them.received if m["type"] == "chat")
    assert all(m.get("channel") != "players" for m in spectator.received
               if m["type"] == "chat")
    with server.client(table["invites"][0]["url"]) as later:
        history = later.wait(lambda m: m["type"] == "chat_history")
        assert history["messages"][0]["text"] == heard["text"]


# -- undo ---------------------------------------------------------------------------------
def _two_moves(server: ServerProcess) -> tuple[dict, list[int]]:
    table = server.create("clobber", {"rows": 3, "columns": 4})
    game = load_game("clobber", rows=3, columns=4)
    state = game.new_initial_state()
    played = []
    with server.client(table["url"]) as white, server.client(table["invites"][0]["url"]) as bl:
        for client in (white, bl, white):
            seen = client.wait_state(lambda m: m["version"] == state.move_number())
            action = seen["legal"][0]["a"]
            assert client.act([action], at=state.move_number())["type"] == "ack"
            state.apply_action(action)
            played.append(action)
    return table, played


def test_undo_accepted_takes_the_turn_back_and_keeps_it_stored(server: ServerProcess):
    table, played = _two_moves(server)
    with server.client(table["url"]) as white, server.client(table["invites"][0]["url"]) as bl:
        white.wait_state()
        bl.wait_state()
        white.send({"type": "undo", "answer": "ask"})
        assert white.wait(lambda m: m["type"] == "undo")["state"] == "asked"
        bl.wait_state(lambda m: m["undo"] is not None)
        bl.send({"type": "undo", "answer": "accept"})
        assert bl.wait(lambda m: m["type"] == "undo")["state"] == "accepted"
        back = white.wait_state(lambda m: m["version"] == 2)
        assert back["to_act"] == 0
    from parlour.server.persistence.store import Store

    store = Store(f"sqlite:///{server.db_path}")
    try:
        assert store.taken_back(table["table"]) == [(0, 2, played[2])]
    finally:
        store.close()


def test_undo_declined_changes_nothing(server: ServerProcess):
    table, _played = _two_moves(server)
    with server.client(table["url"]) as white, server.client(table["invites"][0]["url"]) as bl:
        white.wait_state()
        bl.wait_state()
        white.send({"type": "undo", "answer": "ask"})
        white.wait(lambda m: m["type"] == "undo")
        bl.wait_state(lambda m: m["undo"] is not None)
        bl.send({"type": "undo", "answer": "decline"})
        assert bl.wait(lambda m: m["type"] == "undo")["state"] == "declined"
        assert white.wait_state(lambda m: m["undo"] is None)["version"] == 3


@pytest.mark.parametrize(("game", "params"), [("gobblestones", {}), ("stomp-the-plank", {})])
def test_undo_is_not_offered_where_information_is_hidden_or_chance_decides(
    server: ServerProcess, game: str, params: dict
):
    table = server.create(game, params)
    with server.client(table["url"]) as me:
        me.wait_state()
        me.send({"type": "undo", "answer": "ask"})
        assert me.wait(lambda m: m["type"] == "error")["code"] == "undo_refused"


# -- archiving ----------------------------------------------------------------------------
def test_idle_tables_are_archived_read_only_and_still_replayable(tmp_path: Path):
    server = ServerProcess(tmp_path / "archive.db", extra_args=("--archive-after", "2s")).start()
    try:
        table = server.create("clobber", {"rows": 3, "columns": 4})
        with server.client(table["url"]) as me:
            message = me.wait_state()
            assert me.act([message["legal"][0]["a"]], at=0)["type"] == "ack"
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            state = server.get(f"/api/play/{token_of(table['url'])}").json()
            if state["archived"]:
                break
            time.sleep(0.5)
        assert state["archived"]
        with server.client(table["invites"][0]["url"]) as them:
            refused = them.act([state["legal"][0]["a"] if state["legal"] else 0], at=1)
            assert refused["code"] == "archived"
        replay = server.get(f"/api/watch/{table['table']}/replay").json()
        assert len(replay["steps"]) == 2
    finally:
        server.stop()


def test_g3_the_lobby_and_the_clock_reveal_nothing_hidden(server: ServerProcess):
    """An open, clocked GobbleStones table: its lobby entry and its clock carry no rack, no
    tile, no seed, no token; only seats, options and times."""
    table = _create(server, {"game": "gobblestones", "params": {"bluff": True},
                             "open": True, "clock": {"initial": 300, "increment": 5}})
    entry = next(t for t in server.get("/api/tables").json()["open"]
                 if t["table"] == table["table"])
    assert set(entry) == {"table", "game", "title", "params", "custom_start", "seats", "clock",
                          "moves", "to_act", "created_at", "watch", "rated"}
    text = json.dumps(entry)
    assert "rack" not in text and "seed" not in text and token_of(table["url"]) not in text
    seat = server.post(f"/api/tables/{table['table']}/seats/1").json()
    with server.client(seat["url"]) as guest:
        clock = guest.wait_state(lambda m: m["started"])["clock"]
        assert set(clock) <= {"initial", "increment", "per_move", "label", "remaining",
                              "running", "deadline", "left", "now"}
        assert all(isinstance(v, int | float | str | list | type(None)) for v in clock.values())


def test_the_creator_starts_an_open_table_early_with_the_players_seated(tmp_path: Path):
    """Four seats offered, two taken: the creator starts a two-player Stomple; the player who
    took seat 3 now holds seat 2 of the smaller game; the first deal is kept as taken back;
    a restart rebuilds the same table."""
    db = tmp_path / "early.db"
    server = ServerProcess(db).start()
    table = _create(server, {"game": "stomple", "params": {"players": 4}, "open": True})
    me = token_of(table["url"])
    alone = server.post(f"/api/play/{me}/start", {})
    assert alone.status_code == 409 and "2 to 6 players" in alone.json()["detail"]
    taken = server.post(f"/api/tables/{table['table']}/seats/2").json()
    started = server.post(f"/api/play/{me}/start", {})
    assert started.status_code == 200, started.text
    assert started.json() == {"players": 2, "seats": [0]}
    with server.client(taken["url"]) as guest:
        state = guest.wait_state(lambda m: m["started"])
        assert state["num_players"] == 2 and state["hand"]["seats"] == [1]
        assert [s["kind"] for s in state["seats"]] == ["human", "human"]
    with server.client(table["url"]) as host:
        first = host.wait_state(lambda m: bool(m["legal"]))
        # a whole turn (a Stomple stomp may start a string of several)
        assert play_turn(host, first, lambda legal: legal[0])["type"] == "ack"
    server.kill()
    again = ServerProcess(db).start()
    try:
        with again.client(taken["url"]) as guest:
            state = guest.wait_state()
            assert state["num_players"] == 2 and state["hand"]["seats"] == [1]
            assert state["version"] > first["version"]
        from parlour.server.persistence.store import Store

        store = Store(f"sqlite:///{db}")
        try:
            assert {undo for undo, _seq, _a in store.taken_back(table["table"])} == {-1}
        finally:
            store.close()
        refused = again.post(f"/api/play/{me}/start", {})
        assert refused.status_code == 409
    finally:
        again.stop()
