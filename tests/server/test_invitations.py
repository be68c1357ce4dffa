"""Invitation tables wait for their friends: until every invited seat's link has been opened
(a websocket, or the seat's API), nobody moves and no clock runs; the last arrival starts the
game; an invitation nobody takes ends the table unplayed after ``invitation_seconds``. Tables
whose players are all known from the start (against the computer, paired, a challenge) do
not wait. Against real server processes."""

from __future__ import annotations

import time
from pathlib import Path

from .helpers import FOR_TESTS, ServerProcess, account, token_of


def _invitation(server: ServerProcess, **extra: object) -> dict:
    response = server.post("/api/tables", {
        "game": "clobber", "params": {"rows": 3, "columns": 4},
        "seats": [{"kind": "me", "name": "Ada"}, {"kind": "invite"}], **extra})
    assert response.status_code == 201, response.text
    return response.json()


def test_the_host_cannot_move_before_the_friend_arrives_and_nothing_changes(
        server: ServerProcess):
    table = _invitation(server)
    with server.client(table["url"]) as host:
        waiting = host.wait_state()
        assert waiting["started"] is False and waiting["awaited"] == [1]
        assert waiting["legal"] == [] and waiting["expires_at"] > time.time()
        refused = host.act(["a1b1"], at=0)
        assert refused["type"] == "error" and refused["code"] == "waiting"
        assert "Player 2" in refused["message"] and "invitation link" in refused["message"]
        # over HTTP too, and the table is as it was
        me = token_of(table["url"])
        http = server.post(f"/api/play/{me}/act", {"type": "act", "client_id": "h1",
                                                   "steps": ["a1b1"]})
        assert http.status_code == 409 and http.json()["code"] == "waiting"
        state = server.get(f"/api/play/{me}").json()
        assert state["version"] == waiting["version"] and state["log"] == waiting["log"]
        assert state["started"] is False


def test_the_clock_does_not_run_until_the_friend_arrives(server: ServerProcess):
    table = _invitation(server, clock={"initial": 60, "increment": 0})
    me = token_of(table["url"])
    first = server.get(f"/api/play/{me}").json()
    assert first["clock"]["running"] is None and first["clock"]["deadline"] is None
    time.sleep(1.5)
    later = server.get(f"/api/play/{me}").json()
    assert later["clock"]["remaining"] == [60.0, 60.0] and later["clock"]["running"] is None
    # the scan finds no deadline of the clock's to apply: the host has not lost on time
    assert later["terminal"] is False


def test_the_game_starts_when_the_friend_opens_the_link(server: ServerProcess):
    table = _invitation(server, clock={"per_move": 600})
    friend_url = table["invites"][0]["url"]
    with server.client(table["url"]) as host:
        assert host.wait_state()["started"] is False
        with server.client(friend_url) as friend:
            mine = friend.wait_state()
            assert mine["started"] is True and mine["awaited"] == []
            started = host.wait_state(lambda m: m["started"])
            assert started["legal"] and started["clock"]["running"] == 0
            assert started["clock"]["deadline"] is not None
            assert "Everyone is here: the game starts" in started["notices"]
            move = started["legal"][0]["a"]
            reply = host.act([move], at=started["version"])
            assert reply["type"] == "ack"
            friend.wait_state(lambda m: m["version"] == started["version"] + 1)


def test_an_invited_player_using_the_seat_api_arrives_too(server: ServerProcess):
    table = _invitation(server)
    friend = token_of(table["invites"][0]["url"])
    assert server.get(f"/api/play/{friend}").json()["started"] is True
    state = server.get(f"/api/play/{token_of(table['url'])}").json()
    assert state["started"] is True and state["legal"]


def test_opening_the_page_alone_is_not_arriving(server: ServerProcess):
    """A link preview (a chat app fetching the page to show it) takes nobody's seat."""
    table = _invitation(server)
    page = server.get(table["invites"][0]["url"])
    assert page.status_code == 200
    state = server.get(f"/api/play/{token_of(table['url'])}").json()
    assert state["started"] is False and state["awaited"] == [1]


def test_the_computer_does_not_move_before_the_invited_player_arrives(server: ServerProcess):
    response = server.post("/api/tables", {
        "game": "stomple", "params": {"players": 3},
        "seats": [{"kind": "ai", "agent": "random"}, {"kind": "me"}, {"kind": "invite"}]})
    assert response.status_code == 201, response.text
    table = response.json()
    me = token_of(table["url"])
    created = server.get(f"/api/play/{me}").json()
    time.sleep(1.0)
    before = server.get(f"/api/play/{me}").json()
    assert before["started"] is False and before["version"] == created["version"]
    server.get(f"/api/play/{token_of(table['invites'][0]['url'])}")
    with server.client(table["url"]) as host:
        host.wait_state(lambda m: m["version"] > created["version"])


def test_tables_with_known_players_do_not_wait(server: ServerProcess):
    versus = server.create("clobber", {}, seats=[{"kind": "me"}, {"kind": "ai", "agent": "easy"}])
    hotseat = server.create("clobber", {}, seats=[{"kind": "me"}, {"kind": "hotseat"}])
    for table in (versus, hotseat):
        state = server.get(f"/api/play/{token_of(table['url'])}").json()
        assert state["started"] is True and state["awaited"] == [] and state["legal"]


def test_an_invitation_nobody_takes_expires_and_the_table_ends_unplayed(tmp_path: Path):
    server = ServerProcess(tmp_path / "p.db", limits=FOR_TESTS + ",invitation_seconds=3").start()
    try:
        table = _invitation(server)
        me = token_of(table["url"])
        with server.client(table["url"]) as host:
            ended = host.wait_state(lambda m: m["terminal"], timeout=20)
        assert ended["result"]["reason"] == "expired" and ended["result"]["returns"] == [0, 0]
        assert ended["legal"] == [] and ended["expires_at"] is None
        # the friend arriving late starts nothing
        late = server.get(f"/api/play/{token_of(table['invites'][0]['url'])}").json()
        assert late["terminal"] is True and late["result"]["reason"] == "expired"
        # it survives a restart as it was
        server.stop()
        server.start()
        again = server.get(f"/api/play/{me}").json()
        assert again["terminal"] is True and again["result"]["reason"] == "expired"
    finally:
        server.stop()


def test_an_arrival_survives_a_restart(tmp_path: Path):
    server = ServerProcess(tmp_path / "p.db").start()
    try:
        table = _invitation(server)
        server.get(f"/api/play/{token_of(table['invites'][0]['url'])}")
        server.kill()
        server.start()
        state = server.get(f"/api/play/{token_of(table['url'])}").json()
        assert state["started"] is True and state["legal"]
    finally:
        server.stop()


def test_a_signed_in_hosts_games_list_says_waiting_until_the_friend_arrives(
        server: ServerProcess):
    host = account(server, "Invita")
    made = host.post("/api/tables", json={"game": "clobber", "params": {"rows": 3, "columns": 4},
                                          "seats": [{"kind": "me"}, {"kind": "invite"}]})
    assert made.status_code == 201, made.text
    table = made.json()

    def listed() -> dict:
        games = host.get("/api/account/games").json()["games"]
        return next(g for g in games if g["table"] == table["table"])

    assert listed()["your_turn"] is False and listed()["to_act"] is None
    server.get(f"/api/play/{token_of(table['invites'][0]['url'])}")  # the friend comes
    assert listed()["your_turn"] is True and listed()["to_act"] == 0
