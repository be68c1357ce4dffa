"""Two actions for one turn: exactly one is applied. A resent action: applied once."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from parlour.server.persistence.records import ActionData, ConflictError, HandData, SeatData
from parlour.server.persistence.store import Store

from .helpers import Client, ServerProcess


def _race(a: Client, b: Client, first: int | str, second: int | str, at: int | None, tag: str):
    """Send both actions as close together as two threads allow; return both replies."""
    replies: dict[str, dict] = {}
    barrier = threading.Barrier(2)

    def go(name: str, client: Client, step: int | str) -> None:
        barrier.wait()
        replies[name] = client.act([step], client_id=f"race-{name}-{tag}", at=at)

    threads = [
        threading.Thread(target=go, args=("a", a, first)),
        threading.Thread(target=go, args=("b", b, second)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return replies["a"], replies["b"]


@pytest.mark.parametrize("with_version", [True, False])
def test_two_tabs_of_one_seat_racing_for_a_turn_store_exactly_one(
    server: ServerProcess, with_version: bool
):
    table = server.create("clobber", {"size": "6x7"})
    with (
        server.client(table["url"]) as tab1,
        server.client(table["url"]) as tab2,
        server.client(table["invites"][0]["url"]) as other,
    ):
        version = 0
        for _round in range(6):
            mine = tab1.wait_state(lambda m, v=version: m["version"] == v)
            tab2.wait_state(lambda m, v=version: m["version"] == v)
            legal = [m["a"] for m in mine["legal"]]
            one, two = _race(
                tab1, tab2, legal[0], legal[-1], version if with_version else None, str(version)
            )
            kinds = sorted([one["type"], two["type"]])
            assert kinds == ["ack", "error"], (one, two)
            refused = one if one["type"] == "error" else two
            assert refused["code"] in ("stale", "not_your_turn") and refused["message"]
            version += 1
            seen = other.wait_state(lambda m, v=version: m["version"] == v)
            reply = other.act([seen["legal"][0]["a"]], at=version)
            assert reply["type"] == "ack"
            version += 1
        replay = server.get(f"/api/watch/{table['table']}/replay").json()["steps"]
        assert [s["version"] for s in replay] == list(range(version + 1))  # no extra action


def test_a_resent_action_is_applied_once_even_across_connections(server: ServerProcess):
    table = server.create("clobber")
    with server.client(table["url"]) as me:
        state = me.wait_state()
        action = state["legal"][0]["a"]
        first = me.act([action], client_id="same-id", at=0)
        assert first == {**first, "type": "ack", "seq": 0, "duplicate": False}
        again = me.act([action], client_id="same-id", at=0)
        assert again["type"] == "ack" and again["duplicate"] and again["seq"] == 0
    with server.client(table["url"]) as reopened:  # a closed tab reopened resends
        assert reopened.wait_state()["version"] == 1
        third = reopened.act([action], client_id="same-id", at=0)
        assert third["type"] == "ack" and third["duplicate"]
    # the same client id from another seat is its own submission
    with server.client(table["invites"][0]["url"]) as black:
        legal = black.wait_state()["legal"]
        other = black.act([legal[0]["a"]], client_id="same-id", at=1)
        assert other["type"] == "ack" and not other["duplicate"] and other["seq"] == 1
    assert server.get(f"/api/watch/{table['table']}").json()["version"] == 2


def test_the_database_itself_refuses_a_second_action_for_a_move(tmp_path: Path):
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    store.create_table(
        "t1", "clobber", {}, 7, [SeatData(0, "human", None), SeatData(1, "human", None)],
        [HandData("tok", 0, (0, 1), "hotseat", True)], [],
    )
    store.append("t1", [ActionData(0, 1, 0, "0:a")], finished=False, to_act=1)
    with pytest.raises(ConflictError):
        store.append("t1", [ActionData(0, 2, 0, "0:b")], finished=False)  # same move number
    with pytest.raises(ConflictError):
        store.append("t1", [ActionData(1, 2, 1, "0:a")], finished=False)  # same submission
    with pytest.raises(ConflictError):  # a batch is all or nothing
        store.append("t1", [ActionData(1, 5, 1, None), ActionData(0, 6, 0, None)], False)
    loaded = store.load("t1")
    assert loaded is not None
    assert [(a.seq, a.action) for a in loaded.actions] == [(0, 1)]
    store.close()
