"""Rated tables on a real server: who may create and join them, a rated game to its end with
Glicko-2 updates stored once, profiles and leaderboards, several players rated pair by pair,
and a resignation (issue 29)."""

from __future__ import annotations

import random

import httpx
import pytest

from parlour.ratings import NEW_RATING, NEW_RD, NEW_VOLATILITY, rate_game

from .helpers import TIMEOUT, ServerProcess, account, play_out, play_turn

CLOCK = {"per_move": 600}
SMALL = {"size": "3x4"}


def _rated(browser: httpx.Client, game: str = "clobber", params: dict | None = None,
           players: int = 2, **extra) -> httpx.Response:
    body = {"game": game, "params": SMALL if params is None else params, "open": True,
            "rated": True, "clock": CLOCK, **extra}
    if players != 2:
        body["seats"] = [{"kind": "me"}] + [{"kind": "open"}] * (players - 1)
    return browser.post("/api/tables", json=body)


def _refused(response: httpx.Response, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    assert words in response.json()["detail"]


def test_what_a_rated_table_refuses(server: ServerProcess):
    guest = httpx.Client(base_url=server.base, timeout=TIMEOUT)
    _refused(_rated(guest), 401, "sign in to play rated games")
    ada = account(server, "rated-ada")
    _refused(_rated(ada, clock=None), 400, "needs a clock")
    _refused(_rated(ada, params={"position": "xo/ox x"}), 400, "not a set-up position")
    vs_ai = ada.post("/api/tables", json={"game": "clobber", "params": SMALL, "rated": True,
                                          "clock": CLOCK, "seats": [
                                              {"kind": "me"}, {"kind": "ai", "agent": "easy"}]})
    _refused(vs_ai, 400, "no computer players")
    for kind in ("hotseat", "invite"):
        seats = [{"kind": "me"}, {"kind": kind}]
        response = ada.post("/api/tables", json={"game": "clobber", "params": SMALL,
                                                 "rated": True, "clock": CLOCK, "seats": seats})
        _refused(response, 400, "every player sits on their own account")
    table = _rated(ada).json()
    assert table["rated"]
    _refused(guest.post(f"/api/tables/{table['table']}/seats/1"), 401,
             "sign in to take a seat at a rated table")
    _refused(ada.post(f"/api/tables/{table['table']}/seats/1"), 409,
             "you have a seat at this table already")
    listed = [t for t in server.get("/api/tables").json()["open"] if t["table"] == table["table"]]
    assert listed and listed[0]["rated"]


def _sit(server: ServerProcess, names: list[str], game: str = "clobber",
         params: dict | None = None) -> tuple[list[httpx.Client], list[str], str]:
    """Accounts ``names`` at one rated open table: the seat links in seat order."""
    browsers = [account(server, name) for name in names]
    table = _rated(browsers[0], game, params, len(names)).json()
    links = [table["url"]] + [
        b.post(f"/api/tables/{table['table']}/seats/{seat}").json()["url"]
        for seat, b in enumerate(browsers[1:], 1)
    ]
    return browsers, links, table["table"]


def test_a_rated_game_moves_both_ratings_once(server: ServerProcess):
    browsers, links, table_id = _sit(server, ["rg-white", "rg-black"])
    clients = [server.client(link) for link in links]
    try:
        state = clients[0].wait_state()
        assert state["rated"] and [s["name"] for s in state["seats"]] == ["rg-white", "rg-black"]
        assert all(s["account"] for s in state["seats"])
        end = play_out(clients, random.Random(7).choice)
    finally:
        for client in clients:
            client.close()
    winner = end["result"]["returns"].index(1.0)
    changes = server.get(f"/api/tables/{table_id}/ratings").json()["changes"]
    assert [c["username"] for c in changes] == ["rg-white", "rg-black"]
    # two new players, one game: Glicko-2 gives 1662 / 1338 with RD 290 (provisional)
    expected = rate_game([(NEW_RATING, NEW_RD, NEW_VOLATILITY)] * 2,
                         [1.0 if s == winner else -1.0 for s in range(2)])
    for change, (rating, rd, _vol) in zip(changes, expected, strict=True):
        assert change["before"] == 1500 and change["after"] == round(rating)
        assert change["change"] == round(rating) - 1500 and change["rd"] == round(rd)
        assert change["shown"] == f"{round(rating)}?"
    profile = server.get(f"/api/players/{changes[winner]['username'].upper()}").json()
    clobber = profile["ratings"]["clobber"]
    assert clobber["games"] == 1 and clobber["wins"] == 1 and clobber["provisional"]
    assert clobber["rating"] == pytest.approx(expected[winner][0], abs=0.05)
    assert profile["bot"] is False and profile["totals"]["wins"] == 1
    assert profile["games"][0]["table"] == table_id and profile["games"][0]["change"] > 0
    assert profile["games"][0]["outcome"] == "win"
    assert [p["rating"] for p in profile["history"]["clobber"]] == [clobber["rating"]]
    board = server.get("/api/leaderboard/clobber").json()
    names = [p["username"] for p in board["provisional"]]
    assert changes[winner]["username"] in names  # one game: still provisional
    top = next(p for p in board["provisional"] if p["username"] == changes[winner]["username"])
    assert top["low"] == round(top["rating"] - 2 * top["rd"])
    # a rematch of a rated game is rated too, between the same accounts
    rematch = httpx.post(f"{server.base}/api/play/{links[0].rsplit('/', 1)[-1]}/rematch",
                         timeout=TIMEOUT).json()
    again = server.get(f"/api/play/{rematch['url'].rsplit('/', 1)[-1]}").json()
    assert again["rated"] and {s["name"] for s in again["seats"]} == {"rg-white", "rg-black"}
    for browser in browsers:
        browser.close()


def test_a_resignation_ends_a_rated_game_and_rates_it(server: ServerProcess):
    """Once each player has moved (a game in which one never moved is not rated, issue 62:
    tests/server/test_attacks_round4_play.py), a resignation ends it and rates it."""
    _browsers, links, table_id = _sit(server, ["rs-white", "rs-black"])
    with server.client(links[0]) as white, server.client(links[1]) as black:
        first = white.wait_state()
        play_turn(white, first, lambda legal: legal[0])
        play_turn(black, black.wait_state(lambda m: m["version"] >= 1), lambda legal: legal[0])
        white.wait_state(lambda m: m["version"] >= 2)
        black.send({"type": "resign"})
        black.wait(lambda m: m["type"] == "resigned")
        end = white.wait_state(lambda m: m.get("terminal"))
    assert end["result"]["reason"] == "resignation"
    changes = server.get(f"/api/tables/{table_id}/ratings").json()["changes"]
    assert [c["change"] > 0 for c in changes] == [True, False]


def test_three_players_are_rated_pair_by_pair(server: ServerProcess):
    names = ["p3-a", "p3-b", "p3-c"]
    _browsers, links, table_id = _sit(server, names, "stomp-the-plank", {"players": 3})
    clients = [server.client(link) for link in links]
    try:
        end = play_out(clients, random.Random(3).choice)
    finally:
        for client in clients:
            client.close()
    returns = end["result"]["returns"]
    changes = server.get(f"/api/tables/{table_id}/ratings").json()["changes"]
    assert {c["pool"] for c in changes} == {"stomp-the-plank-3p"}
    scores = [0.0] * 3  # Stomp the Plank keeps no points: the return is the placing
    places = sorted(set(zip(returns, scores, strict=True)))
    expected = rate_game([(NEW_RATING, NEW_RD, NEW_VOLATILITY)] * 3,
                         [float(places.index((r, 0.0))) for r in returns])
    assert [c["after"] for c in changes] == [round(r) for r, _, _ in expected]
    board = server.get("/api/leaderboard/stomp-the-plank-3p").json()
    assert board["title"] == "Stomp the Plank, 3 players"
    assert server.get("/api/leaderboard/stomp-the-plank-9p").status_code == 404
    assert server.get("/api/leaderboard/chess").status_code == 404


def test_casual_games_count_on_the_profile_but_rate_nobody(server: ServerProcess):
    browser = account(server, "casual-kim")
    table = browser.post("/api/tables", json={
        "game": "clobber", "params": SMALL,
        "seats": [{"kind": "me"}, {"kind": "ai", "agent": "random"}]}).json()
    with server.client(table["url"]) as me:
        message = me.wait_state()
        while not message["terminal"]:
            if message["legal"]:
                play_turn(me, message, lambda legal: legal[0])
            message = me.wait_state(lambda m, v=message["version"]: m["version"] > v)
    profile = server.get("/api/players/casual-kim").json()
    assert profile["ratings"] == {} and profile["totals"]["games"] == 1
    assert profile["games"][0]["rated"] is False and profile["games"][0]["change"] is None
    assert server.get("/api/players/nobody-at-all").status_code == 404
