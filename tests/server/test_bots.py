"""Bot accounts, personal API tokens, challenges and the Bot API on a real server (issue 31).

Everything goes over HTTP to a real server process with its own SQLite database; what is
stored is read back from that database (tokens hashed, the actions a stream's views are
checked against)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import sqlite3
import time
from typing import Any

import httpx
import pytest

import parlour
from parlour.client import BotClient, RequestRefused

from .helpers import FOR_TESTS, PASSWORD, TIMEOUT, ServerProcess, account, run_async


def bot_account(server: ServerProcess, name: str, scopes: tuple[str, ...] = ("bot:play",)
                ) -> tuple[httpx.Client, str]:
    """A new bot account (signed in) and a token of it."""
    browser = account(server, name)
    assert browser.post("/api/account/bot").status_code == 200
    made = browser.post("/api/tokens", json={"name": "my bot", "scopes": list(scopes)})
    assert made.status_code == 201, made.text
    return browser, made.json()["token"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def read_lines(server: ServerProcess, path: str, token: str, count: int) -> list[dict[str, Any]]:
    """The first ``count`` JSON lines of a stream (keep-alive lines skipped)."""
    found: list[dict[str, Any]] = []
    with httpx.stream("GET", server.base + path, headers=bearer(token), timeout=TIMEOUT) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["content-type"].startswith("application/x-ndjson")
        for text in r.iter_lines():
            if text.strip():
                found.append(json.loads(text))
            if len(found) == count:
                break
    return found


# -- bot accounts ---------------------------------------------------------------------------------
def test_an_account_becomes_a_bot_once_and_only_before_it_has_played(server: ServerProcess):
    player = account(server, "played-once")
    made = player.post("/api/tables", json={"game": "clobber", "params": {"size": "3x4"}})
    assert made.status_code == 201
    refused = player.post("/api/account/bot")
    assert refused.status_code == 409
    assert "only an account that has played no games" in refused.json()["detail"]
    assert player.get("/api/me").json()["account"]["bot"] is False

    bot, _token = bot_account(server, "fresh-bot")
    assert bot.get("/api/me").json()["account"]["bot"] is True
    again = bot.post("/api/account/bot")
    assert again.status_code == 409 and "a bot account already" in again.json()["detail"]
    assert server.post("/api/account/bot").status_code == 401  # a guest
    queued = bot.post("/api/queue", json={"game": "clobber", "clock": "3+2"})
    assert queued.status_code == 403 and "Bot API" in queued.json()["detail"]
    profile = server.get("/api/players/fresh-bot").json()
    assert profile["bot"] is True


# -- tokens ---------------------------------------------------------------------------------------
def test_a_token_is_shown_once_and_stored_hashed(server: ServerProcess):
    person = account(server, "token-keeper")
    made = person.post("/api/tokens", json={"name": "laptop script", "scopes": ["tables:read"]})
    assert made.status_code == 201
    secret = made.json()["token"]
    assert secret.startswith("plr_") and len(secret) > 40
    listed = person.get("/api/tokens").json()["tokens"]
    assert [t["name"] for t in listed] == ["laptop script"]
    assert secret not in json.dumps(listed)
    with sqlite3.connect(server.db_path) as db:
        rows = db.execute("SELECT secret_hash FROM parlour_tokens").fetchall()
    assert (hashlib.sha256(secret.encode()).hexdigest(),) in rows
    assert secret.encode() not in server.db_path.read_bytes()
    games = server.get("/api/account/games", headers=bearer(secret))
    assert games.status_code == 200 and games.json()["games"] == []


def test_bad_tokens_and_scopes_are_refused_with_their_reason(server: ServerProcess):
    person = account(server, "scope-person")
    no_bot = person.post("/api/tokens", json={"name": "x", "scopes": ["bot:play"]})
    assert no_bot.status_code == 403 and "only a bot account" in no_bot.json()["detail"]
    unknown = person.post("/api/tokens", json={"name": "x", "scopes": ["admin"]})
    assert unknown.status_code == 400 and "not admin" in unknown.json()["detail"]
    unnamed = person.post("/api/tokens", json={"name": "  ", "scopes": ["tables:read"]})
    assert unnamed.status_code == 400 and "name the token" in unnamed.json()["detail"]
    reader = person.post("/api/tokens", json={"name": "r", "scopes": ["tables:read"]}).json()

    forged = server.get("/api/bot/stream", headers=bearer("plr_" + "A" * 43))
    assert forged.status_code == 401
    assert 'error="invalid_token"' in forged.headers["www-authenticate"]
    assert "not valid" in forged.json()["detail"]
    missing = server.get("/api/bot/stream")
    assert missing.status_code == 401 and "bot:play token" in missing.json()["detail"]
    basic = server.get("/api/bot/stream", headers={"Authorization": "Basic eDp5"})
    assert basic.status_code == 401 and "Bearer" in basic.json()["detail"]
    narrow = server.get("/api/bot/stream", headers=bearer(reader["token"]))
    assert narrow.status_code == 403
    assert 'error="insufficient_scope", scope="bot:play"' in narrow.headers["www-authenticate"]
    assert "lacks the bot:play scope" in narrow.json()["detail"]
    # a token cannot make tokens: that takes the session
    assert server.post("/api/tokens", {"name": "y", "scopes": ["tables:read"]},
                       headers=bearer(reader["token"])).status_code == 401

    assert person.delete(f"/api/tokens/{reader['id']}").json() == {"revoked": True}
    leaving = account(server, "leaving-lee")
    kept = leaving.post("/api/tokens", json={"name": "k", "scopes": ["tables:read"]}).json()
    assert leaving.post("/api/me/delete", json={"password": PASSWORD}).status_code == 200
    gone = server.get("/api/account/games", headers=bearer(kept["token"]))
    assert gone.status_code == 401
    with sqlite3.connect(server.db_path) as db:
        assert db.execute("SELECT COUNT(*) FROM parlour_tokens WHERE id = ?",
                          (kept["id"],)).fetchone() == (0,)
    revoked = server.get("/api/account/games", headers=bearer(reader["token"]))
    assert revoked.status_code == 401 and "revoked" in revoked.json()["detail"]
    assert person.delete(f"/api/tokens/{reader['id']}").status_code == 404


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory):
    """A server with small bot limits: 3 requests a token, one game a bot, 3 challenges."""
    proc = ServerProcess(tmp_path_factory.mktemp("limited") / "limited.db", limits=(
        FOR_TESTS + ",token_requests_burst=3,token_requests_per_second=0.01,"
        "bot_games_at_once=1,challenges_per_minute=3")).start()
    yield proc
    proc.stop()


def test_each_token_has_its_own_request_rate(limited: ServerProcess):
    person = account(limited, "rate-person")
    first, second = (person.post("/api/tokens", json={"name": n, "scopes": ["tables:read"]})
                     .json()["token"] for n in ("one", "two"))
    answers = [limited.get("/api/account/games", headers=bearer(first)).status_code
               for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    over = limited.get("/api/account/games", headers=bearer(first))
    assert int(over.headers["retry-after"]) > 0 and "this token" in over.json()["detail"]
    assert limited.get("/api/account/games", headers=bearer(second)).status_code == 200


def test_a_bot_plays_so_many_games_at_once_and_is_challenged_so_often(limited: ServerProcess):
    person = account(limited, "eager-person")
    bot, _token = bot_account(limited, "busy-bot")
    sent = [person.post("/api/challenges", json={"opponent": "busy-bot", "game": "clobber"})
            for _ in range(4)]
    assert [r.status_code for r in sent] == [201, 201, 201, 429]
    assert "too many challenges" in sent[3].json()["detail"]
    first, second = (r.json()["id"] for r in sent[:2])
    assert bot.post(f"/api/challenges/{first}/accept").status_code == 200  # the session
    busy = bot.post(f"/api/challenges/{second}/accept")
    assert busy.status_code == 429 and "plays 1 games at once already" in busy.json()["detail"]
    assert bot.get(f"/api/challenges/{second}").json()["status"] == "waiting"


# -- challenges ----------------------------------------------------------------------------------
def test_what_a_challenge_refuses(server: ServerProcess):
    person = account(server, "picky-person")
    bot_account(server, "picky-bot")

    def refused(body: dict[str, Any], status: int, words: str) -> None:
        answer = person.post("/api/challenges", json={"opponent": "picky-bot",
                                                      "game": "clobber", **body})
        assert answer.status_code == status, answer.text
        assert words in answer.json()["detail"]

    refused({"opponent": "nobody-here"}, 404, "no player 'nobody-here'")
    refused({"opponent": "picky-person"}, 400, "cannot challenge yourself")
    refused({"game": "chess"}, 400, "chess")
    refused({"params": {"size": "99x99x"}}, 400, "size")
    refused({"game": "stomple", "params": {"players": 3}}, 400, "between two players")
    refused({"params": {"position": "xo/ox x"}}, 400, "not a set-up position")
    refused({"rated": True}, 400, "needs a clock")
    refused({"clock": {"per_move": 1}}, 400, "clock per_move must be")
    assert server.post("/api/challenges", {"opponent": "picky-bot", "game": "clobber"}
                       ).status_code == 401


def test_a_challenge_accepted_starts_a_table_with_both_seated(server: ServerProcess):
    person = account(server, "challenger-ann")
    _bot, token = bot_account(server, "accepting-bot")
    sent = person.post("/api/challenges", json={
        "opponent": "Accepting-Bot", "game": "clobber", "params": {"size": "3x4"},
        "clock": {"per_move": 60}})
    assert sent.status_code == 201
    challenge = sent.json()
    assert challenge["status"] == "waiting" and challenge["opponent"]["bot"] is True
    incoming = server.get("/api/challenges", headers=bearer(token)).json()["challenges"]
    assert [(c["id"], c["direction"]) for c in incoming] == [(challenge["id"], "in")]
    # only the challenged player accepts
    assert person.post(f"/api/challenges/{challenge['id']}/accept").status_code == 403
    stranger = account(server, "stranger-sam")
    assert stranger.post(f"/api/challenges/{challenge['id']}/accept").status_code == 404

    accepted = server.post(f"/api/challenges/{challenge['id']}/accept", headers=bearer(token))
    assert accepted.status_code == 200
    assert accepted.json()["status"] == "accepted" and accepted.json()["table"]
    again = server.post(f"/api/challenges/{challenge['id']}/accept", headers=bearer(token))
    assert again.status_code == 409

    mine = person.get(f"/api/challenges/{challenge['id']}").json()
    assert mine["url"].startswith("/play/")
    state = server.get("/api/play/" + mine["url"].rsplit("/", 1)[1]).json()
    seats = {s["name"]: s for s in state["seats"]}
    assert set(seats) == {"challenger-ann", "accepting-bot"}
    assert seats["accepting-bot"]["bot"] is True and seats["challenger-ann"]["bot"] is False
    assert all(s["account"] for s in state["seats"])
    record = server.get("/api/play/" + mine["url"].rsplit("/", 1)[1] + "/record").json()
    assert record["metadata"]["bots"] == [seats["accepting-bot"]["seat"]]


def test_a_declined_challenge_says_why_and_starts_nothing(server: ServerProcess):
    person = account(server, "declined-dan")
    _bot, token = bot_account(server, "declining-bot")
    challenge = person.post("/api/challenges", json={"opponent": "declining-bot",
                                                     "game": "stomple"}).json()
    answer = server.post(f"/api/challenges/{challenge['id']}/decline", {"reason": "casual only"},
                         headers=bearer(token))
    assert answer.status_code == 200
    assert answer.json()["status"] == "declined" and answer.json()["reason"] == "casual only"
    assert answer.json()["table"] is None
    assert server.post(f"/api/challenges/{challenge['id']}/accept",
                       headers=bearer(token)).status_code == 409
    assert person.get("/api/challenges").json()["challenges"] == []


# -- the Bot API's streams --------------------------------------------------------------------
def test_the_event_stream_announces_challenges_and_games(server: ServerProcess):
    person = account(server, "stream-sue")
    _bot, token = bot_account(server, "stream-bot")
    challenge = person.post("/api/challenges", json={"opponent": "stream-bot",
                                                     "game": "clobber",
                                                     "params": {"size": "3x4"}}).json()
    [event] = read_lines(server, "/api/bot/stream", token, 1)
    assert event["type"] == "challenge" and event["challenge"]["id"] == challenge["id"]
    assert event["challenge"]["challenger"] == {"username": "stream-sue", "bot": False}
    table = server.post(f"/api/challenges/{challenge['id']}/accept",
                        headers=bearer(token)).json()["table"]
    [start] = read_lines(server, "/api/bot/stream", token, 1)
    assert start["type"] == "gameStart" and start["game"]["id"] == table
    players = {p["name"]: p for p in start["game"]["players"]}
    assert players["stream-sue"]["rating"] == 1500 and players["stream-sue"]["bot"] is False
    assert players["stream-bot"]["bot"] is True

    async def resign_and_hear() -> dict[str, Any]:
        async with BotClient(server.base, token) as client:
            seen: list[dict[str, Any]] = []
            async for line in client.events():
                seen.append(line)
                if line["type"] == "gameStart":
                    await client.resign(table)
                if line["type"] == "gameFinish":
                    return line
        raise AssertionError(seen)

    finish = run_async(resign_and_hear)
    assert finish["game"]["id"] == table and finish["game"]["outcome"] == "loss"


def test_moves_only_on_the_bots_turn_and_a_refused_move_names_its_rule(server: ServerProcess):
    person = account(server, "turn-tess")
    _bot, token = bot_account(server, "turn-bot")
    challenge = person.post("/api/challenges", json={"opponent": "turn-bot", "game": "clobber",
                                                     "params": {"size": "3x4"}}).json()
    table = server.post(f"/api/challenges/{challenge['id']}/accept",
                        headers=bearer(token)).json()["table"]
    full, state = read_lines(server, f"/api/bot/game/{table}/stream", token, 2)
    assert full["type"] == "gameFull" and full["seat"] == state["viewer"]
    path = f"/api/bot/game/{table}/move"
    if state["to_act"] != state["viewer"]:  # the person starts: the bot must wait
        early = server.post(path, {"action": "a1a2"}, headers=bearer(token))
        assert early.status_code == 409 and early.json()["code"] == "not_your_turn"
        link = person.get(f"/api/challenges/{challenge['id']}").json()["url"]
        seat_token = link.rsplit("/", 1)[1]
        mine = server.get(f"/api/play/{seat_token}").json()
        played = server.post(f"/api/play/{seat_token}/act",
                             {"type": "act", "client_id": "c1",
                              "steps": [mine["legal"][0]["a"]]})
        assert played.status_code == 200, played.text
        state = read_lines(server, f"/api/bot/game/{table}/stream", token, 2)[1]
    legal = {m["s"] for m in state["legal"]}
    illegal = next(move for move in _clobber_moves(state["view"]["position"])
                   if move not in legal)  # a stone of the other colour's move
    refused = server.post(path, {"action": illegal}, headers=bearer(token))
    assert refused.status_code == 400 and refused.json()["code"] == "illegal"
    assert refused.json()["message"].endswith(")") and refused.json()["rule"]
    garbled = server.post(path, {"action": "hello"}, headers=bearer(token))
    assert garbled.status_code == 400 and garbled.json()["code"] == "notation"
    played = server.post(path, {"action": sorted(legal)[0], "at": state["version"]},
                         headers=bearer(token))
    assert played.status_code == 200 and played.json()["type"] == "ack"
    other = account(server, "not-at-table")
    other_bot, other_token = bot_account(server, "other-bot")
    assert server.post(path, {"action": "a1a2"}, headers=bearer(other_token)).status_code == 404
    del other, other_bot


def _clobber_moves(position: str) -> list[str]:
    """Every move on the board's grid that names a square off none of its edges."""
    board = parlour.load_game("clobber", size="3x4").state_from_position(position)
    moves = []
    for action in range(board.get_game().num_distinct_actions()):
        try:
            moves.append(board.action_to_string(action))
        except ValueError:  # off the board
            continue
    return moves


def test_a_bot_that_does_not_move_loses_on_time(server: ServerProcess):
    _a, slow = bot_account(server, "slow-bot")
    _b, quick = bot_account(server, "quick-bot")
    challenge = server.post("/api/challenges", {"opponent": "slow-bot", "game": "clobber",
                                                "params": {"size": "3x4"},
                                                "clock": {"per_move": 5}},
                            headers=bearer(quick)).json()
    table = server.post(f"/api/challenges/{challenge['id']}/accept",
                        headers=bearer(slow)).json()["table"]

    async def play_quick_only() -> dict[str, Any]:
        async with BotClient(server.base, quick) as client:
            async for line in client.game(table):
                if line.get("type") != "state":
                    continue
                if line["terminal"]:
                    return line
                if line["to_act"] == line["viewer"] and line["legal"]:
                    await client.move(table, line["legal"][0]["s"], line["version"])
        raise AssertionError("the stream ended before the game")

    last = run_async(play_quick_only, 40)
    slow_seat = next(s["seat"] for s in last["seats"] if s["name"] == "slow-bot")
    assert last["result"]["returns"][slow_seat] < 0
    with sqlite3.connect(server.db_path) as db:
        kinds = [k for (k,) in db.execute(
            "SELECT kind FROM parlour_events WHERE table_id = ? ORDER BY seq", (table,))]
    assert "timeout" in kinds


# -- never more than the seat may see (G-3) ---------------------------------------------------
def _bot_game(server: ServerProcess, game: str, params: dict[str, Any], seed: int
              ) -> tuple[str, dict[str, list[dict[str, Any]]]]:
    """Two bot accounts play ``game`` to its end through the Bot API, choosing at random; every
    line each one's game stream sent, by account name."""
    tokens = {name: bot_account(server, name)[1] for name in (f"seer-{seed}-a", f"seer-{seed}-b")}
    (_first, first_token), (second, second_token) = tokens.items()
    challenge = server.post("/api/challenges", {"opponent": second, "game": game,
                                                "params": params}, headers=bearer(first_token))
    assert challenge.status_code == 201, challenge.text
    table = server.post(f"/api/challenges/{challenge.json()['id']}/accept",
                        headers=bearer(second_token)).json()["table"]
    rng = random.Random(seed)
    seen: dict[str, list[dict[str, Any]]] = {name: [] for name in tokens}

    async def play(name: str) -> None:
        async with BotClient(server.base, tokens[name]) as client:
            async for line in client.game(table):
                seen[name].append(line)
                if line.get("type") != "state" or line["terminal"]:
                    continue
                if line["to_act"] == line["viewer"] and line["legal"]:
                    move = rng.choice(line["legal"])["a"]
                    for _try in range(10):
                        try:
                            await client.move(table, move, line["version"])
                        except RequestRefused as exc:
                            if exc.status == 429:  # over the token's rate: as a bot must
                                await asyncio.sleep(exc.retry_after or 1)
                                continue
                            assert exc.status == 409, exc  # the table moved on: never illegal
                        break

    async def both() -> None:
        await asyncio.gather(*(play(name) for name in tokens))

    run_async(both, 240)
    return table, seen


def _stored_actions(server: ServerProcess, table: str) -> tuple[dict[str, Any], list[int]]:
    with sqlite3.connect(server.db_path) as db:
        (params,) = db.execute("SELECT params FROM parlour_tables WHERE id = ?",
                               (table,)).fetchone()
        actions = [a for (a,) in db.execute(
            "SELECT action FROM parlour_actions WHERE table_id = ? ORDER BY seq", (table,))]
    return json.loads(params), actions


@pytest.mark.parametrize(("game", "params", "seed"), [
    ("gobblestones", {"bluff": True}, 31),
    ("stomp-the-plank", {}, 32),
])
def test_a_bots_stream_is_its_seats_view_for_a_whole_game(server: ServerProcess, game: str,
                                                          params: dict[str, Any], seed: int):
    """Ruling G-3: each state line a bot receives is exactly what its seat's view function
    gives for the stored game at that move, with the seat's legal moves and nothing more."""
    table, seen = _bot_game(server, game, params, seed)
    assert_streams_show_seat_views(server, table, seen)


def assert_streams_show_seat_views(server: ServerProcess, table: str,
                                   seen: dict[str, list[dict[str, Any]]]) -> None:
    """Every state line of each stream in ``seen`` (all the lines one bot account's game
    stream sent, first to last) is its seat's view of the stored game at that move, with the
    seat's legal moves when it is to act and none otherwise."""
    stored_params, actions = _stored_actions(server, table)
    with sqlite3.connect(server.db_path) as db:
        (game,) = db.execute("SELECT game FROM parlour_tables WHERE id = ?", (table,)).fetchone()
    loaded = parlour.load_game(game, **stored_params)
    replayed = [loaded.new_initial_state()]
    for action in actions:
        replayed.append(replayed[-1].clone())
        replayed[-1].apply_action(action)
    at_version = {state.move_number(): state for state in replayed}  # the last of each number
    assert replayed[-1].is_terminal()
    for lines in seen.values():
        states = [line for line in lines if line.get("type") == "state"]
        assert lines[0]["type"] == "gameFull" and states[-1]["terminal"]
        seat = lines[0]["seat"]
        assert len(states) > 10
        for line in states:
            truth = at_version[line["version"]]
            assert line["viewer"] == seat
            assert line["view"] == truth.view(seat)
            if truth.current_player() == seat and not truth.is_terminal():
                assert [m["a"] for m in line["legal"]] == truth.legal_actions()
            else:
                assert line["legal"] == []


def test_stream_limits_and_unknown_games(server: ServerProcess):
    _bot, token = bot_account(server, "lonely-bot")
    unknown = server.get("/api/bot/game/nosuchtable/stream", headers=bearer(token))
    assert unknown.status_code == 404 and "no seat" in unknown.json()["detail"]
    resign = server.post("/api/bot/game/nosuchtable/resign", headers=bearer(token))
    assert resign.status_code == 404
    big = server.post("/api/bot/game/x/move", {"action": "a" * 300}, headers=bearer(token))
    assert big.status_code == 400
    time.sleep(0)  # the streams above closed with their requests
