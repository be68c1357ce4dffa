"""Accounts on a real server: signing up, in and out, the password policy, sessions that end
everywhere, the throttle, deletion and guest games joining an account (issue 29)."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from .helpers import FOR_TESTS, PASSWORD, TIMEOUT, ServerProcess, account


def _browser(server: ServerProcess) -> httpx.Client:
    return httpx.Client(base_url=server.base, timeout=TIMEOUT)


def test_sign_up_signs_in_with_a_safe_cookie(server):
    browser = _browser(server)
    assert browser.get("/api/me").status_code == 401
    response = browser.post("/api/accounts", json={"username": "Ada_1", "password": PASSWORD})
    assert response.status_code == 201
    assert response.json()["account"]["username"] == "Ada_1"
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    assert "secure" not in cookie  # plain HTTP here; over HTTPS or --secure-cookies it is
    me = browser.get("/api/me").json()["account"]
    assert me == {**me, "username": "Ada_1", "bot": False}
    assert _browser(server).get("/api/whoami").json() == {"account": None}


@pytest.mark.parametrize(("name", "reason"), [
    ("ab", "3 to 20 characters"),
    ("a" * 21, "at most 20 characters"),
    ("no spaces", "letters, digits, - and _"),
    ("émile", "letters, digits, - and _"),
    ("Admin", "reserved"),
])
def test_usernames_the_policy_refuses(server, name, reason):
    response = _browser(server).post("/api/accounts", json={"username": name,
                                                            "password": PASSWORD})
    assert response.status_code == 400
    assert reason in response.json()["detail"]


def test_a_username_is_unique_ignoring_case(server):
    account(server, "Grace")
    for name in ("grace", "GRACE"):
        response = _browser(server).post("/api/accounts", json={"username": name,
                                                                "password": PASSWORD})
        assert response.status_code == 409
        assert "taken" in response.json()["detail"]


@pytest.mark.parametrize(("password", "reason"), [
    ("short", "at least 8 characters"),
    ("password", "most common"),
    ("iloveyou", "most common"),
    ("qwerty123!", "common one with digits"),
    ("zzzzzzzzzz", "repeated or sequential"),
    ("13579bdfhj", None),  # no rule of composition: letters and digits in any mix are fine
    ("ABCDEFGHIJ", "repeated or sequential"),
    ("my name is linus.t", "your username"),
    ("x" * 257, "at most 256"),
])
def test_passwords_the_nist_policy_refuses(server, password, reason):
    name = f"linus{abs(hash(password)) % 10**6}"
    body = {"username": name, "password": password.replace("linus.t", name)}
    response = _browser(server).post("/api/accounts", json=body)
    if reason is None:
        assert response.status_code == 201
    else:
        assert response.status_code == 400
        assert reason in response.json()["detail"]


def test_a_wrong_password_and_an_unknown_user_get_the_same_answer(server):
    account(server, "hopper")
    wrong = _browser(server).post("/api/session", json={"username": "hopper",
                                                        "password": "not the password"})
    unknown = _browser(server).post("/api/session", json={"username": "nobody-here",
                                                          "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.content == unknown.content
    assert "set-cookie" not in wrong.headers


def test_signing_in_makes_a_new_session_and_signing_out_ends_it(server):
    first = account(server, "lovelace")
    old = first.cookies["parlour_session"]
    # a session id set before signing in is never the one signed in (no fixation)
    second = _browser(server)
    signed = second.post("/api/session", json={"username": "LOVELACE", "password": PASSWORD},
                         headers={"cookie": "parlour_session=" + "x" * 43})
    assert signed.status_code == 200
    new = second.cookies["parlour_session"]
    assert new not in (old, "x" * 43)
    assert second.get("/api/me").json()["account"]["username"] == "lovelace"
    assert second.delete("/api/session").status_code == 200
    stale = _browser(server)
    stale.cookies.set("parlour_session", new)
    assert stale.get("/api/me").status_code == 401  # ended in the database, not just forgotten
    assert first.get("/api/me").status_code == 200  # the other browser is still signed in


def test_sign_out_everywhere_ends_every_session(server):
    first = account(server, "turing")
    second = _browser(server)
    assert second.post("/api/session", json={"username": "turing",
                                             "password": PASSWORD}).status_code == 200
    assert first.delete("/api/sessions").json() == {"signed_out": True, "sessions": 2}
    assert first.get("/api/me").status_code == 401
    assert second.get("/api/me").status_code == 401
    assert _browser(server).delete("/api/sessions").status_code == 401


def test_changing_the_password(server):
    browser = account(server, "noether")
    other = _browser(server)
    other.post("/api/session", json={"username": "noether", "password": PASSWORD})
    new = "a different long passphrase"
    refused = browser.post("/api/me/password", json={"current": "wrong one!", "new": new})
    assert refused.status_code == 401
    weak = browser.post("/api/me/password", json={"current": PASSWORD, "new": "12345678"})
    assert weak.status_code == 400
    assert browser.post("/api/me/password",
                        json={"current": PASSWORD, "new": new}).status_code == 200
    assert browser.get("/api/me").status_code == 200  # this browser has a new session
    assert other.get("/api/me").status_code == 401  # every other one ended
    assert _browser(server).post("/api/session", json={
        "username": "noether", "password": PASSWORD}).status_code == 401
    assert _browser(server).post("/api/session", json={
        "username": "noether", "password": new}).status_code == 200


def test_deleting_the_account_keeps_its_games_as_a_deleted_player(server):
    browser = account(server, "curie")
    table = browser.post("/api/tables", json={
        "game": "clobber", "params": {"size": "3x4"},
        "seats": [{"kind": "me"}, {"kind": "ai", "agent": "random"}]}).json()
    assert server.get(f"/api/play/{table['url'].rsplit('/', 1)[-1]}").json()[
        "seats"][0]["name"] == "curie"
    assert browser.post("/api/me/delete", json={"password": "wrong"}).status_code == 401
    assert browser.post("/api/me/delete", json={"password": PASSWORD}).status_code == 200
    assert browser.get("/api/me").status_code == 401
    assert server.get("/api/players/curie").status_code == 404
    watched = server.get(f"/api/watch/{table['table']}").json()
    assert watched["seats"][0]["name"] == "deleted player"
    assert not watched["seats"][0]["account"]
    account(server, "Curie")  # the name is free again


def test_guest_games_join_the_account_and_follow_it(server):
    guest = _browser(server)
    table = guest.post("/api/tables", json={
        "game": "clobber", "params": {"size": "3x4"},
        "seats": [{"kind": "me"}, {"kind": "ai", "agent": "random"}]}).json()
    browser = account(server, "hamilton")
    joined = browser.post("/api/me/games", json={"links": [table["url"], "/play/nonsense"]})
    assert joined.json() == {"joined": 1}
    elsewhere = _browser(server)  # another device
    elsewhere.post("/api/session", json={"username": "hamilton", "password": PASSWORD})
    games = elsewhere.get("/api/me/games").json()
    assert [g["url"] for g in games["games"]] == [table["url"]]
    assert games["games"][0]["your_turn"] and games["waiting"] == 1
    assert games["games"][0]["with"] == ["Computer (random)"]
    # the link is hamilton's now: another account cannot take it over
    thief = account(server, "thief")
    assert thief.post("/api/me/games", json={"links": [table["url"]]}).json() == {"joined": 0}
    too_many = thief.post("/api/me/games", json={"links": ["/play/x"] * 21})
    assert too_many.status_code == 400
    assert _browser(server).get("/api/me/games").status_code == 401


def test_no_password_or_session_id_reaches_the_log(server):
    secret = "a passphrase nobody logs 7"
    browser = account(server, "babbage", secret)
    browser.post("/api/session", json={"username": "babbage", "password": secret})
    cookie = browser.cookies["parlour_session"]
    log = server.log_path.read_text()
    assert secret not in log and cookie not in log


def test_sign_ins_slow_down_per_account_and_per_address(tmp_path: Path):
    limits = (FOR_TESTS.replace("sign_in_free_per_address=100000", "sign_in_free_per_address=4")
              + ",sign_in_free_per_account=2,sign_in_max_delay=60")
    proc = ServerProcess(tmp_path / "throttle.db", limits=limits).start()
    try:
        account(proc, "knuth")
        wrong = {"username": "knuth", "password": "not it at all"}
        answers = [_browser(proc).post("/api/session", json=wrong) for _ in range(3)]
        # two failures are free; then each try waits, 1 s, 2 s, 4 s... (up to the maximum)
        assert [a.status_code for a in answers] == [401, 401, 429]
        assert answers[2].headers["retry-after"] == "1"
        held = _browser(proc).post("/api/session", json={"username": "knuth",
                                                         "password": PASSWORD})
        assert held.status_code == 429  # even the right password waits its turn
        # an unknown username is held back just the same (nothing tells who has an account)
        ghost = {"username": "ghost", "password": "x" * 9}
        assert [_browser(proc).post("/api/session", json=ghost).status_code
                for _ in range(3)] == [401, 401, 429]
        # four failures from this address: every username now waits
        other = _browser(proc).post("/api/session", json={"username": "anyone",
                                                          "password": "y" * 9})
        assert other.status_code == 429
        assert "too many failed sign-ins" in other.json()["detail"]
    finally:
        proc.stop()


def test_what_passkey_ceremonies_refuse(server):
    guest = _browser(server)
    assert guest.post("/api/me/passkeys/options", json={}).status_code == 401
    browser = account(server, "keyless")
    started = browser.post("/api/me/passkeys/options", json={}).json()
    options = started["options"]
    assert options["rp"]["id"] == "127.0.0.1" and options["user"]["name"] == "keyless"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    forged = {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
              "response": {"clientDataJSON": "e30", "attestationObject": "oA"}}
    refused = browser.post("/api/me/passkeys", json={"ceremony": started["ceremony"],
                                                     "credential": forged})
    assert refused.status_code == 400 and "could not be registered" in refused.json()["detail"]
    again = browser.post("/api/me/passkeys", json={"ceremony": started["ceremony"],
                                                   "credential": forged})
    assert again.status_code == 400 and "expired" in again.json()["detail"]  # used once
    assert browser.get("/api/me/passkeys").json() == {"passkeys": []}
    sign_in = guest.post("/api/session/passkey/options", json={}).json()
    unknown = guest.post("/api/session/passkey", json={
        "ceremony": sign_in["ceremony"],
        "credential": {"id": "bm9ib2R5", "rawId": "bm9ib2R5", "type": "public-key",
                       "response": {}}})
    assert unknown.status_code == 401
    assert "set-cookie" not in unknown.headers
    assert guest.delete("/api/me/passkeys/xyz").status_code == 401


def test_a_used_session_lasts_and_an_unused_one_ends(server):
    import sqlite3

    from parlour.server.accounts.sessions import digest

    browser = account(server, "sleepy")
    key = digest(browser.cookies["parlour_session"])
    with sqlite3.connect(server.db_path) as db:  # as if last used two days ago
        db.execute("UPDATE parlour_sessions SET seen_at = seen_at - 172800, "
                   "expires_at = expires_at - 172800 WHERE id_hash = ?", (key,))
    before = time.time()
    assert browser.get("/api/me").status_code == 200
    with sqlite3.connect(server.db_path) as db:  # used: its end moved on by 30 days from now
        (expires,) = db.execute("SELECT expires_at FROM parlour_sessions WHERE id_hash = ?",
                                (key,)).fetchone()
        assert expires >= before + 30 * 86400 - 5
        db.execute("UPDATE parlour_sessions SET expires_at = 1 WHERE id_hash = ?", (key,))
    assert browser.get("/api/me").status_code == 401  # unused past its end: gone
    with sqlite3.connect(server.db_path) as db:
        assert db.execute("SELECT count(*) FROM parlour_sessions WHERE id_hash = ?",
                          (key,)).fetchone() == (0,)
