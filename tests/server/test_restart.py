"""SIGKILL the server mid-game: every acknowledged action survives and every table resumes."""

from __future__ import annotations

import random
from pathlib import Path

from parlour import list_games, load_game
from parlour.server.persistence.store import Store

from .helpers import ServerProcess, play_turn


def _seats(game: str) -> list[dict]:
    return [{"kind": "hotseat"}] * load_game(game).num_players()


def test_sigkill_loses_no_acknowledged_action_and_every_table_resumes(tmp_path: Path):
    rng = random.Random(8)
    db = tmp_path / "parlour.db"
    first = ServerProcess(db).start()
    acked: dict[str, list[tuple[int, int]]] = {}  # table -> acknowledged (seq, version after)
    tables = {}
    try:
        for game in list_games():  # one hot-seat table per game, a few turns each
            table = first.create(game, seats=_seats(game))
            tables[game] = table
            acked[table["table"]] = []
            with first.client(table["url"]) as hand:
                for _turn in range(4):
                    message = hand.wait_state()
                    if message["terminal"]:
                        break
                    reply = play_turn(hand, message, rng.choice)
                    assert reply["type"] == "ack", reply
                    acked[table["table"]].append((reply["seq"], reply["version"]))
                    hand.wait_state(lambda m, v=reply["version"]: m["version"] == v)
        ai_table = first.create("clobber", {"size": "6x7"},
                                seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}])
        with first.client(ai_table["url"]) as me:
            message = me.wait_state()
            last = me.act([message["legal"][0]["a"]], client_id="before-kill", at=0)
            assert last["type"] == "ack"
        first.kill()  # right after the acknowledgement: no clean shutdown of any kind
    finally:
        first.stop()

    store = Store(f"sqlite:///{db}")
    for table_id, acks in acked.items():
        stored = store.load(table_id)
        assert stored is not None
        seqs = [a.seq for a in stored.actions]
        assert seqs == list(range(len(seqs)))  # no gap, no duplicate
        for seq, version in acks:
            assert seq < version <= len(seqs)
    store.close()

    second = ServerProcess(db).start()
    try:
        for game, table in tables.items():
            with second.client(table["url"]) as hand:
                message = hand.wait_state()
                assert message["version"] == acked[table["table"]][-1][1], game
                if not message["terminal"]:  # the table plays on
                    reply = play_turn(hand, message, rng.choice)
                    assert reply["type"] == "ack", reply
        with second.client(ai_table["url"]) as me:
            # the AI seat was to move when the server died: the resumed table wakes it
            message = me.wait_state(lambda m: m["version"] >= 2)
            assert message["log"][0]["text"] and message["log"][1]["player"] == 1
            again = me.act([message["legal"][0]["a"]], client_id="before-kill", at=0)
            assert again["type"] == "ack" and again["duplicate"]  # applied once, still
    finally:
        second.stop()
