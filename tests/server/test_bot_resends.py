"""A resent Bot API move on a real server (issue 63): answered as the first was, applied once.

Two bots play a small Clobber game over HTTP; what the table stored is read back from the
server's SQLite database, and how far the game got from the bot's own game stream."""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from parlour.server.bots.resends import KeyReused, ResentMoves, resend_of

from .helpers import FOR_TESTS, ServerProcess
from .test_bots import bearer, bot_account, read_lines


@pytest.fixture(scope="module")
def forgetful(tmp_path_factory: pytest.TempPathFactory):
    """A server that remembers no answer (``bot_move_answers=0``)."""
    proc = ServerProcess(tmp_path_factory.mktemp("forgetful") / "forgetful.db",
                         limits=FOR_TESTS + ",bot_move_answers=0").start()
    yield proc
    proc.stop()


def _stored(server: ServerProcess, table: str) -> list[tuple[int, int, str]]:
    """The table's stored actions: move number, action id and submission key."""
    with sqlite3.connect(server.db_path) as db:
        return db.execute("SELECT seq, action, client_key FROM parlour_actions "
                          "WHERE table_id = ? ORDER BY seq", (table,)).fetchall()


def _game(server: ServerProcess, first: str, second: str) -> tuple[str, dict[str, str]]:
    """A Clobber 3x4 game between two new bots; the table and each bot's token by seat."""
    _a, one = bot_account(server, first)
    _b, two = bot_account(server, second)
    challenge = server.post("/api/challenges", {"opponent": second, "game": "clobber",
                                                "params": {"size": "3x4"}},
                            headers=bearer(one)).json()
    table = server.post(f"/api/challenges/{challenge['id']}/accept",
                        headers=bearer(two)).json()["table"]
    return table, {first: one, second: two}


def _to_act(server: ServerProcess, table: str, tokens: dict[str, str]
            ) -> tuple[str, dict[str, Any]]:
    """The token of the bot whose turn it is, and the state its stream shows it."""
    for token in tokens.values():
        state = read_lines(server, f"/api/bot/game/{table}/stream", token, 2)[1]
        if state["to_act"] == state["viewer"]:
            return token, state
    raise AssertionError("neither bot is to act")


def test_a_move_resent_with_its_key_is_answered_as_the_first_and_applied_once(
        server: ServerProcess):
    table, tokens = _game(server, "resend-ann", "resend-bob")
    token, state = _to_act(server, table, tokens)
    path = f"/api/bot/game/{table}/move"
    moves = sorted(m["s"] for m in state["legal"])
    headers = {**bearer(token), "Idempotency-Key": "move-1"}
    body = {"action": moves[0], "at": state["version"]}

    first = server.post(path, body, headers=headers)
    assert first.status_code == 200 and first.json()["type"] == "ack", first.text
    again = server.post(path, body, headers=headers)
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert len(_stored(server, table)) == 1
    after = read_lines(server, f"/api/bot/game/{table}/stream", token, 2)[1]
    assert after["version"] == state["version"] + 1

    other = server.post(path, {"action": moves[-1], "at": state["version"]}, headers=headers)
    assert other.status_code == 422, other.text
    assert other.json()["code"] == "idempotency_key_reused"
    assert "another move" in other.json()["message"]
    elsewhere = server.post(path, {"action": moves[0]}, headers=headers)  # no "at": another body
    assert elsewhere.status_code == 422
    assert len(_stored(server, table)) == 1

    too_long = server.post(path, body, headers={**bearer(token), "Idempotency-Key": "k" * 256})
    assert too_long.status_code == 400 and "1 to 255 characters" in too_long.json()["detail"]


def test_the_same_at_and_move_sent_again_is_the_same_move(server: ServerProcess):
    """Without a key, ``at`` tells a resend from a new move: a new move is for a newer one."""
    table, tokens = _game(server, "rs-ann", "rs-bob")
    token, state = _to_act(server, table, tokens)
    path = f"/api/bot/game/{table}/move"
    body = {"action": sorted(m["s"] for m in state["legal"])[0], "at": state["version"]}
    first = server.post(path, body, headers=bearer(token))
    assert first.status_code == 200 and first.json()["type"] == "ack", first.text
    again = server.post(path, body, headers=bearer(token))
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert len(_stored(server, table)) == 1
    moved = read_lines(server, f"/api/bot/game/{table}/stream", token, 2)[1]
    assert moved["version"] == state["version"] + 1 and moved["to_act"] != moved["viewer"]


def test_resends_at_once_wait_for_the_first_answer(server: ServerProcess):
    """Eight copies of one move sent together: one is stored, all eight get its answer."""
    table, tokens = _game(server, "burst-ann", "burst-bob")
    token, state = _to_act(server, table, tokens)
    path = f"/api/bot/game/{table}/move"
    body = {"action": sorted(m["s"] for m in state["legal"])[0], "at": state["version"]}
    headers = {**bearer(token), "Idempotency-Key": "burst"}

    def send(_: int) -> httpx.Response:
        return server.post(path, body, headers=headers)

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(send, range(8)))
    assert {(a.status_code, a.content) for a in answers} == {
        (answers[0].status_code, answers[0].content)}
    assert answers[0].json()["type"] == "ack" and answers[0].json()["duplicate"] is False
    assert len(_stored(server, table)) == 1


def test_past_what_is_remembered_a_resend_is_still_stored_once(forgetful: ServerProcess):
    """With no answer remembered, the table's own record of the key answers the resend."""
    table, tokens = _game(forgetful, "forget-ann", "forget-bob")
    token, state = _to_act(forgetful, table, tokens)
    path = f"/api/bot/game/{table}/move"
    body = {"action": sorted(m["s"] for m in state["legal"])[0], "at": state["version"]}
    headers = {**bearer(token), "Idempotency-Key": "once"}
    first = forgetful.post(path, body, headers=headers)
    again = forgetful.post(path, body, headers=headers)
    assert first.status_code == again.status_code == 200, again.text
    assert first.json()["duplicate"] is False and again.json()["duplicate"] is True
    assert again.json()["seq"] == first.json()["seq"]
    assert len(_stored(forgetful, table)) == 1


def test_the_answers_kept_are_bounded_in_number_and_time():
    answers = ResentMoves(count=2, seconds=60.0)
    moves = [resend_of(7, "t1", 1, {"action": f"a{n}", "at": n}, f"key-{n}") for n in range(3)]
    acks = {}
    for n, move in enumerate(moves):
        assert move is not None
        acks[move.client_key] = n
        answers.remember(move, 200, {"type": "ack", "seq": n}, b"{}", now=0.0)
    assert len(answers) == 2
    assert answers.recall(moves[0], acks, now=1.0) is None  # the oldest, forgotten
    assert answers.recall(moves[2], acks, now=1.0) is not None
    assert answers.recall(moves[2], acks, now=61.0) is None  # too old
    assert len(answers) == 0

    kept = moves[1]
    answers.remember(kept, 200, {"type": "ack", "seq": 1}, b"{}", now=100.0)
    other = resend_of(7, "t1", 1, {"action": "b1", "at": 1}, "key-1")
    with pytest.raises(KeyReused):
        answers.recall(other, acks, now=100.0)
    assert answers.recall(kept, {}, now=100.0) is None  # taken back: no longer on the table
    answers.remember(kept, 409, {"type": "error", "code": "stale"}, b"{}", now=100.0)
    assert len(answers) == 0  # a refusal is not kept
