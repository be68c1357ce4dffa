"""The fourth round of hostile use (issue 62), the play side: ratings from games nobody played
and from one pair farming, deleted accounts that still played, a computer put on a rated
table's seat, and a person posing as the computer. Each test replays the attack against a
real ``parlour serve`` process."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

from .helpers import PASSWORD, TIMEOUT, ServerProcess, account, play_out, play_turn, token_of

CLOCK = {"per_move": 600}
SMALL = {"size": "3x4"}


def _challenge_game(server: ServerProcess, challenger: httpx.Client, opponent: httpx.Client,
                    opponent_name: str) -> tuple[str, dict[int, str], list[str]]:
    """A rated challenge sent and accepted: the table, each seat's link by seat, and the
    challenger's and the opponent's links."""
    sent = challenger.post("/api/challenges", json={
        "opponent": opponent_name, "game": "clobber", "params": SMALL, "rated": True,
        "clock": CLOCK})
    assert sent.status_code == 201, sent.text
    accepted = opponent.post(f"/api/challenges/{sent.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    table = accepted.json()["table"]
    links = [challenger.get(f"/api/challenges/{sent.json()['id']}").json()["url"],
             accepted.json()["url"]]
    seats = {}
    for link in links:
        seats[server.get(f"/api/play/{token_of(link)}").json()["hand"]["seats"][0]] = link
    return table, seats, links


def _resign(server: ServerProcess, link: str) -> None:
    response = server.post(f"/api/play/{token_of(link)}/resign")
    assert response.status_code == 200, response.text


def _move(server: ServerProcess, link: str) -> None:
    """The seat of ``link`` plays its first legal move (it must be to act)."""
    with server.client(link) as player:
        message = player.wait_state(lambda m: m["legal"] and m["to_act"] in m["hand"]["seats"])
        assert play_turn(player, message, lambda legal: legal[0])["type"] == "ack"


def _ratings(server: ServerProcess, table: str) -> dict[str, Any]:
    return server.get(f"/api/tables/{table}/ratings").json()


# -- 4. rating from games nobody played ------------------------------------------------------------
def test_a_challenge_resigned_at_move_0_three_times_rates_nobody(server: ServerProcess):
    """The attack: a rated challenge accepted and resigned at once, three times, took the
    winner from 1500 to 1753. A game in which a player never moved rates nobody; it stands as
    a casual game (a win and a loss on the profiles, no rating, no "rated loss with no rating
    change"), and the result screen says why."""
    winner, loser = account(server, "r4-farmer"), account(server, "r4-feeder")
    tables = []
    for _ in range(3):
        table, _seats, (_winner, feeder) = _challenge_game(server, winner, loser, "r4-feeder")
        _resign(server, feeder)
        tables.append(table)
    for table in tables:
        ratings = _ratings(server, table)
        assert ratings["changes"] == []
        assert ratings["unrated"] == "Not rated: the game ended before every player had moved"
    profile = server.get("/api/players/r4-farmer").json()
    assert profile["ratings"] == {}
    assert profile["totals"]["wins"] == 3
    assert [(g["rated"], g["change"], g["outcome"]) for g in profile["games"]] == [
        (False, None, "win")] * 3
    yours = winner.get("/api/me/games").json()["games"]
    assert [(g["rated"], g["result"]) for g in yours] == [(False, "win")] * 3
    french = server.get(f"/api/tables/{tables[0]}/ratings", headers={"Accept-Language": "fr"})
    assert french.json()["unrated"].startswith("Non classée")


def test_a_game_both_players_moved_in_is_rated_when_one_resigns(server: ServerProcess):
    """The other side of the rule: once each player has moved, a resignation rates."""
    ada, bob = account(server, "r4-mover-a"), account(server, "r4-mover-b")
    table, seats, _links = _challenge_game(server, ada, bob, "r4-mover-b")
    _move(server, seats[0])
    _move(server, seats[1])
    _resign(server, seats[0])
    changes = _ratings(server, table)["changes"]
    assert [c["change"] > 0 for c in changes] == [False, True]
    assert _ratings(server, table)["unrated"] is None


def test_only_three_rated_games_a_day_between_the_same_two_accounts_rate(
        server: ServerProcess):
    """Two accounts of one person could play each other all day, one move each and a
    resignation, for a rating; three games between the same pair rate in 24 hours
    (``rated_pair_games_per_day``), the fourth is played unrated and says so. Another pair is
    not held back by it."""
    ada, bob = account(server, "r4-pair-a"), account(server, "r4-pair-b")
    played = []
    for _ in range(4):
        table, seats, _links = _challenge_game(server, ada, bob, "r4-pair-b")
        _move(server, seats[0])
        _move(server, seats[1])
        _resign(server, seats[1])
        played.append(table)
    assert [len(_ratings(server, t)["changes"]) for t in played] == [2, 2, 2, 0]
    assert _ratings(server, played[3])["unrated"] == (
        "Not rated: these players have had today's rated games against each other already")
    profile = server.get("/api/players/r4-pair-a").json()
    assert profile["ratings"]["clobber"]["games"] == 3
    assert profile["games"][0]["rated"] is False and profile["games"][0]["change"] is None
    cy = account(server, "r4-pair-c")
    table, seats, _links = _challenge_game(server, ada, cy, "r4-pair-c")
    _move(server, seats[0])
    _move(server, seats[1])
    _resign(server, seats[0])
    assert len(_ratings(server, table)["changes"]) == 2


# -- 5. deleted accounts still play ---------------------------------------------------------------
def _delete(browser: httpx.Client) -> None:
    response = browser.post("/api/me/delete", json={"password": PASSWORD})
    assert response.status_code == 200, response.text


def test_a_challenge_sent_before_deleting_the_account_cannot_be_accepted(server: ServerProcess):
    """The attack: a rated challenge sent, the challenger's account deleted, the challenge
    accepted: a rated game against a nameless seat. Deleting cancels every waiting challenge
    of the account, sent and received."""
    gone, other, third = (account(server, n) for n in ("r4-gone", "r4-left", "r4-third"))
    sent = gone.post("/api/challenges", json={"opponent": "r4-left", "game": "clobber",
                                              "params": SMALL, "rated": True, "clock": CLOCK})
    received = third.post("/api/challenges", json={"opponent": "r4-gone", "game": "clobber",
                                                   "params": SMALL, "clock": CLOCK})
    assert sent.status_code == received.status_code == 201
    assert len(other.get("/api/challenges").json()["challenges"]) == 1
    _delete(gone)
    accepted = other.post(f"/api/challenges/{sent.json()['id']}/accept")
    assert accepted.status_code == 409, accepted.text
    assert accepted.json()["detail"] == "this challenge was cancelled already"
    assert other.get("/api/challenges").json()["challenges"] == []
    assert third.get("/api/challenges").json()["challenges"] == []
    seen = other.get(f"/api/challenges/{sent.json()['id']}").json()
    assert seen["status"] == "cancelled" and seen["table"] is None
    assert other.get("/api/account/games").json().get("games", []) == []


def _tournament(browser: httpx.Client, **fields: Any) -> str:
    response = browser.post("/api/tournaments", json={
        "game": "clobber", "params": SMALL, "format": "round-robin", "rated": True,
        "clock": CLOCK, **fields})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def _tables_of(browser: httpx.Client, tid: str) -> list[dict[str, Any]]:
    """The player's tables of the tournament, once the runner (every second) has made them."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        tables = browser.get(f"/api/tournaments/{tid}").json()["you"]["tables"]
        if tables:
            return tables
        time.sleep(0.1)
    raise TimeoutError("the round's tables were not made")


def test_a_deleted_account_leaves_open_tournaments_and_forfeits_running_ones(
        server: ServerProcess):
    """A deleted account stayed in open tournaments and was paired. Now it leaves every
    tournament not started yet, and in a running one forfeits its game at once, as a no-show
    (long before the grace time of an hour), with no rating change for anyone."""
    host, gone = account(server, "r4-t-host"), account(server, "r4-t-gone")
    waiting = _tournament(host)
    running = _tournament(host, grace=3600)
    for tid in (waiting, running):
        assert gone.post(f"/api/tournaments/{tid}/join").status_code == 200
        assert host.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert host.post(f"/api/tournaments/{running}/start").json() == {"started": True}
    tables = _tables_of(host, running)
    assert len(tables) == 1
    link = tables[0]["url"]
    _delete(gone)
    assert server.get(f"/api/tournaments/{waiting}").json()["players"] == 1
    with server.client(link) as player:
        end = player.wait_state(lambda m: m.get("terminal"))
    assert end["result"]["reason"] == "resignation"
    mine = end["hand"]["seats"][0]
    assert end["result"]["returns"][mine] == 1.0
    assert [s["name"] for s in end["seats"] if s["seat"] != mine] == ["deleted player"]
    ratings = _ratings(server, tables[0]["table"])
    assert ratings["changes"] == [] and ratings["unrated"] is not None


# -- 9. a computer on a rated table's free seat ----------------------------------------------------
def test_the_creator_cannot_fill_a_rated_tables_free_seat_with_the_computer(
        server: ServerProcess):
    """The attack: ``POST /api/play/TOKEN/fill`` put a computer on a free seat of a rated open
    table (still "rated"; the profile then listed a rated loss with no rating change). Every
    way a seat of a rated table is filled keeps its rules: filling is refused, the seat stays
    free, a guest cannot take it, an account can."""
    ada = account(server, "r4-filler")
    table = ada.post("/api/tables", json={"game": "clobber", "params": SMALL, "open": True,
                                          "rated": True, "clock": CLOCK}).json()
    filled = server.post(f"/api/play/{token_of(table['url'])}/fill",
                         {"seat": 1, "agent": "easy"})
    assert filled.status_code == 409, filled.text
    assert filled.json()["detail"] == "a rated game is between people: no computer players"
    state = server.get(f"/api/play/{token_of(table['url'])}").json()
    assert state["seats"][1]["kind"] == "open" and not state["started"]
    listed = {t["table"]: t for t in server.get("/api/tables").json()["open"]}
    assert listed[table["table"]]["seats"][1]["free"]
    guest = server.post(f"/api/tables/{table['table']}/seats/1")
    assert guest.status_code == 401
    bob = account(server, "r4-fill-bob")
    taken = bob.post(f"/api/tables/{table['table']}/seats/1")
    assert taken.status_code == 200, taken.text
    state = server.get(f"/api/play/{token_of(table['url'])}").json()
    assert state["started"] and all(s["account"] for s in state["seats"])


def test_a_rematch_with_a_deleted_player_is_casual(server: ServerProcess):
    """A rated game's rematch is rated between the same accounts; once one of them is
    deleted, its seat is nobody's account, and the rematch is a casual game."""
    ada, gone = account(server, "r4-re-a"), account(server, "r4-re-gone")
    table, seats, _links = _challenge_game(server, ada, gone, "r4-re-gone")
    clients = [server.client(seats[0]), server.client(seats[1])]
    try:
        assert play_out(clients, random.Random(5).choice)["terminal"]
    finally:
        for client in clients:
            client.close()
    assert len(_ratings(server, table)["changes"]) == 2
    _delete(gone)
    rematch = server.post(f"/api/play/{token_of(seats[1])}/rematch")
    assert rematch.status_code == 200, rematch.text
    again = server.get(f"/api/play/{token_of(rematch.json()['url'])}").json()
    assert again["rated"] is False


# -- 10. a person posing as the computer -----------------------------------------------------------
POSING = ["Computer (hard)", "computer (HARD)", "Ordinateur (difficile)", "C0mputer (hard)",
          "Сomputer (hard)",  # a Cyrillic С
          "Ｃｏｍｐｕｔｅｒ (ｈａｒｄ)",  # full-width
          "C o m p u t e r", "Cornputer", "Cómpütér", "The Computer"]


@pytest.mark.parametrize("name", POSING)
def test_a_guest_cannot_call_a_seat_by_the_computers_name(server: ServerProcess, name: str):
    """The attack: a guest named their seat "Computer (hard)" and read exactly like a
    computer seat. The computer's word in every language parlour speaks, ignoring case,
    spaces, accents, compatibility forms and letters drawn alike, is refused in a person's
    name, wherever a name is given; nothing is stored."""
    created = server.post("/api/tables", {"game": "clobber", "params": SMALL, "seats": [
        {"kind": "me", "name": name}, {"kind": "hotseat", "name": "Ada"}]})
    assert created.status_code == 400, created.text
    assert "reads like a computer player's: choose another" in created.json()["detail"]
    table = server.create("clobber", SMALL, seats=[{"kind": "me", "name": "Ada"},
                                                  {"kind": "invite"}])
    renamed = server.post(f"/api/play/{token_of(table['url'])}/name", {"name": name})
    assert renamed.status_code == 400, renamed.text
    assert renamed.json()["detail"].endswith("”)")  # the rule, in brackets, at the end
    state = server.get(f"/api/play/{token_of(table['url'])}").json()
    assert state["seats"][0]["name"] == "Ada"
    queued = server.post("/api/queue", {"game": "clobber", "clock": "1d", "name": name})
    assert queued.status_code == 400, queued.text


def test_the_refusal_is_in_the_readers_language_and_real_names_pass(server: ServerProcess):
    table = server.create("clobber", SMALL, seats=[{"kind": "me"}, {"kind": "invite"}])
    french = server.post(f"/api/play/{token_of(table['url'])}/name",
                         {"name": "Computer (hard)"}, headers={"Accept-Language": "fr"})
    assert french.status_code == 400
    assert french.json()["detail"] == (
        "le nom 'Computer (hard)' se lit comme celui d'un joueur ordinateur : choisissez-en un "
        "autre (le nom d'une personne ne contient jamais « Computer »)")
    for fine in ("Ada", "Compton", "Zoë", "Ordinary Joe", "Player 2"):
        named = server.post(f"/api/play/{token_of(table['url'])}/name", {"name": fine})
        assert named.status_code == 200, named.text


@pytest.mark.parametrize("username", ["Computer_hard", "c0mputer", "The-Computer",
                                      "ordinateur", "CORNPUTER"])
def test_an_account_cannot_be_named_like_the_computer(server: ServerProcess, username: str):
    browser = httpx.Client(base_url=server.base, timeout=TIMEOUT)
    response = browser.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert response.status_code == 400, response.text
    assert "reads like a computer player's" in response.json()["detail"]
