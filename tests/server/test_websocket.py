"""Live play over real websockets: a whole game, and every kind of bad message."""

from __future__ import annotations

import json

import pytest
from websockets.exceptions import ConnectionClosed

from parlour import load_game

from .helpers import ServerProcess


def test_two_seats_play_a_whole_clobber_game_and_see_every_move(server: ServerProcess):
    table = server.create("clobber", {"rows": 3, "columns": 4})
    game = load_game("clobber", rows=3, columns=4)
    state = game.new_initial_state()
    with (
        server.client(table["url"]) as white,
        server.client(table["invites"][0]["url"]) as black,
        server.client(table["watch"]) as spectator,
    ):
        seats = [white, black]
        for client in (*seats, spectator):
            client.wait_state()
        while not state.is_terminal():
            player = state.current_player()
            mover = seats[player]
            seen = mover.wait_state(lambda m: m["version"] == state.move_number())
            assert [m["a"] for m in seen["legal"]] == state.legal_actions()
            action = seen["legal"][len(seen["legal"]) // 2]["a"]
            reply = mover.act([action], at=state.move_number())
            assert reply["type"] == "ack" and reply["seq"] == state.move_number()
            text = state.action_to_string(action)
            state.apply_action(action)
            for viewer, client in [(0, white), (1, black), (None, spectator)]:
                message = client.wait_state(lambda m: m["version"] == state.move_number())
                assert message["view"] == state.view(viewer)
                assert message["last"]["text"] == text  # perfect information: moves are public
                assert message["legal"] == [] or viewer == state.current_player()
        final = spectator.state
        assert final["terminal"] and final["result"]["returns"] == state.returns()


def test_bad_messages_get_a_clear_error_and_change_nothing(server: ServerProcess):
    table = server.create("clobber")
    with server.client(table["url"]) as me:
        start = me.wait_state()
        cases = [
            ("not json", "malformed"),
            (json.dumps([1, 2]), "malformed"),
            (json.dumps({"type": "shout"}), "malformed"),
            (json.dumps({"type": "act", "client_id": "a", "steps": []}), "malformed"),
            (json.dumps({"type": "act", "client_id": "a b", "steps": [1]}), "malformed"),
            (json.dumps({"type": "act", "client_id": "a", "steps": [True]}), "malformed"),
            (json.dumps({"type": "act", "client_id": "a", "steps": [1], "x": 1}), "malformed"),
            (json.dumps({"type": "act", "client_id": "a", "steps": ["x" * 9000]}), "too_large"),
            (b"\xff\xfe", "malformed"),
        ]
        for raw, code in cases:
            me.send(raw)
            reply = me.wait(lambda m: m["type"] == "error")
            assert reply["code"] == code, (raw[:40], reply)
            assert reply["message"]
        me.send({"type": "ping", "nonce": "n1"})
        assert me.wait(lambda m: m["type"] == "pong")["version"] == start["version"]
        # out of range, illegal with the rule named, bad notation: all refused, nothing stored
        out_of_range = me.act([10**6])
        assert out_of_range["code"] == "illegal" and out_of_range["rule"] == "G-2"
        own_stone = me.act(["a1b1"])  # b1 holds Black: fine; a1 holds White: a legal capture
        assert own_stone["type"] == "ack", own_stone
    with server.client(table["url"]) as me:
        state = me.wait_state()
        assert state["version"] == 1
        empty = me.act(["a1a2"])  # not my turn any more
        # a player is named as players count them; the message also says which seat (from 0,
        # as every seat field of the API) so a client can show its own name for it
        assert empty["code"] == "not_your_turn" and "Player 2 is to act" in empty["message"]
        assert empty["to_act"] == 1
    with server.client(table["invites"][0]["url"]) as black:
        black.wait_state()
        illegal = black.act(["b2b1"])  # b1 is now White's: a capture; but b2 is White's too
        assert illegal["code"] == "illegal" and illegal["rule"] == "rulebook: Moving"
        assert "holds no Black stone" in illegal["message"]
        assert illegal["message"].endswith("(Clobber: moving)"), illegal["message"]
        assert "illegal action" not in illegal["message"] and "[rule" not in illegal["message"]
        notation = black.act(["b2d4"])
        assert notation["code"] == "notation"
        assert notation["message"] == "b2 and d4 are not next to each other (Clobber: moving)"
        stale = black.act(["a2b2"], at=0)
        assert stale["code"] == "stale"
        assert black.act(["a2b2"], at=1)["type"] == "ack"  # the connection kept serving


def test_spectators_and_unknown_links_cannot_act(server: ServerProcess):
    table = server.create("clobber")
    with server.client(table["watch"]) as watcher:
        watcher.wait_state()
        refused = watcher.act([1])
        assert refused["code"] == "spectator"
        assert watcher.state["viewer"] is None and watcher.state["hand"] is None
    unknown = server.client("/play/" + "x" * 32)
    assert unknown.recv()["code"] == "unknown_seat"
    with pytest.raises(ConnectionClosed):
        unknown.recv(timeout=5)
    nowhere = server.client("/watch/nowhere")
    assert nowhere.recv()["code"] == "unknown_table"
    nowhere.close()
    assert server.get("/healthz").status_code == 200


def test_a_message_over_the_socket_limit_closes_only_that_socket(server: ServerProcess):
    table = server.create("clobber")
    with server.client(table["url"]) as me:
        me.wait_state()
        me.send("x" * 200_000)
        with pytest.raises(ConnectionClosed):
            while True:
                me.recv(timeout=5)
    with server.client(table["url"]) as again:
        assert again.wait_state()["version"] == 0


def test_ai_seat_answers_each_move(server: ServerProcess):
    table = server.create("clobber", {"rows": 2, "columns": 4},
                          seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}])
    game = load_game("clobber", rows=2, columns=4)
    with server.client(table["url"]) as me:
        message = me.wait_state()
        while not message["terminal"]:
            if message["legal"]:
                assert me.act([message["legal"][0]["a"]], at=message["version"])["type"] == "ack"
            message = me.wait_state(lambda m, v=message["version"]: m["version"] > v)
        token = table["url"].rsplit("/", 1)[1]
        record = json.loads(server.get(f"/api/play/{token}/record").text)
        state = game.new_state_from_actions(record["actions"])
        assert state.is_terminal() and message["result"]["returns"] == state.returns()
        assert {n["player"] for n in message["log"]} == {0, 1}
