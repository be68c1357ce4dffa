"""The fourth round of hostile use (issue 62), its attacks on signing in, signing up and
passkeys, each replayed against real server processes: one on SQLite with the default limits,
and two on one PostgreSQL (every limit that protects accounts is kept in the database, so a
client alternating between processes gets no more than from one).

Nothing here times an answer: the tests count answers. Where a count may depend on the
machine's speed it is bounded by what the limit allows in the time the test measured.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from parlour.server.accounts.passwords import Hasher, HashingBusy
from parlour.server.accounts.throttle import FLIGHT_SECONDS, Throttle, TooManyAttempts, keys
from parlour.server.limits import Limits
from parlour.server.persistence.devdb import throwaway_cluster
from parlour.server.persistence.store import Store

from .helpers import PASSWORD, TIMEOUT, ServerProcess, run_async

DEFAULTS = Limits()
DOUBLINGS_IN_A_MINUTE = 6
"""Failures let through past the free ones by a burst shorter than a minute: after them each
attempt waits 1 s, 2 s, 4 s, 8 s, 16 s, 32 s from the last."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with the default limits (the ones a deployment has)."""
    folder = tmp_path_factory.mktemp("round4-auth")
    process = ServerProcess(folder / "parlour.db", limits="").start()
    yield process
    process.stop()


def _sign_up(base: str, username: str, source: str = "127.0.0.1") -> httpx.Response:
    with httpx.Client(base_url=base, timeout=TIMEOUT,
                      transport=httpx.HTTPTransport(local_address=source)) as http:
        return http.post("/api/accounts", json={"username": username, "password": PASSWORD})


def _at_once(calls: list[tuple[str, str, dict[str, Any], str]]) -> list[httpx.Response]:
    """``(base, path, body, source address)`` requests sent together: each thread holds its
    own connection, and all are let go at one barrier."""
    start = threading.Barrier(len(calls))

    def send(call: tuple[str, str, dict[str, Any], str]) -> httpx.Response:
        base, path, body, source = call
        with httpx.Client(base_url=base, timeout=120,
                          transport=httpx.HTTPTransport(local_address=source)) as http:
            http.get("/healthz")  # the connection is open before the barrier
            start.wait()
            return http.post(path, json=body)

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(send, calls))


def _statuses(answers: list[httpx.Response]) -> Counter[int]:
    return Counter(a.status_code for a in answers)


# -- 1. guesses sent at once are all checked -----------------------------------------------------
def test_forty_guesses_for_one_name_sent_at_once_are_counted_before_any_is_checked(
        server: ServerProcess):
    """Before: all 40 answered 401, each checked against the hash; the throttle counted them
    only afterwards. Now each is counted before its hash, two at most are checked at once,
    and the sixth waits its delay: at most the free five and the doublings get a 401."""
    assert _sign_up(server.base, "ada-r4").status_code == 201
    wrong = {"username": "ada-r4", "password": "not the password at all"}
    answers = _at_once([(server.base, "/api/session", wrong, "127.0.0.10")] * 40)
    statuses = _statuses(answers)
    assert set(statuses) <= {401, 429}, statuses
    assert statuses[401] <= DEFAULTS.sign_in_free_per_account + DOUBLINGS_IN_A_MINUTE, statuses
    assert statuses[429] >= 40 - DEFAULTS.sign_in_free_per_account - DOUBLINGS_IN_A_MINUTE
    assert all("Retry-After" in a.headers for a in answers if a.status_code == 429)


def test_forty_names_guessed_at_once_from_one_address_are_counted_for_the_address(
        server: ServerProcess):
    """One guess each for forty names (none of them an account) from one address: the
    address's free twenty, and its doublings, are all that get checked."""
    calls = [(server.base, "/api/session", {"username": f"nobody-{n}", "password": "x" * 12},
              "127.0.0.11") for n in range(40)]
    statuses = _statuses(_at_once(calls))
    assert set(statuses) <= {401, 429}, statuses
    assert statuses[401] <= DEFAULTS.sign_in_free_per_address + DOUBLINGS_IN_A_MINUTE, statuses
    # another address is not held back
    assert _sign_up(server.base, "babbage-r4", "127.0.0.12").status_code == 201


# -- 2. one client can fill the hashing queue ----------------------------------------------------
SLOW_REFILL = Limits.from_text("sign_ins_per_minute=1")
"""The defaults but one token a minute after the burst: a sequence of sign-ins on a slow,
busy machine still outruns the refill, so the test does not depend on the machine's speed."""


def test_right_passwords_are_limited_per_address_too(tmp_path: Path):
    """Before: successful sign-ins were never limited (225 at 15/s kept the hashing pool
    busy for everyone). Now every attempt takes a token of the address's bucket."""
    server = ServerProcess(tmp_path / "parlour.db", limits="sign_ins_per_minute=1").start()
    try:
        _right_passwords_run_out(server)
    finally:
        server.stop()


def _right_passwords_run_out(server: ServerProcess) -> None:
    assert _sign_up(server.base, "lovelace-r4", "127.0.0.13").status_code == 201
    answers = []
    started = time.monotonic()
    with httpx.Client(base_url=server.base, timeout=TIMEOUT,
                      transport=httpx.HTTPTransport(local_address="127.0.0.13")) as http:
        for _ in range(SLOW_REFILL.sign_ins_burst + 15):
            answers.append(http.post("/api/session", json={"username": "lovelace-r4",
                                                           "password": PASSWORD}))
    elapsed = time.monotonic() - started
    statuses = _statuses(answers)
    allowed = SLOW_REFILL.sign_ins_burst + elapsed * SLOW_REFILL.sign_ins_per_minute / 60 + 1
    assert set(statuses) <= {200, 429} and statuses[200] <= allowed, (statuses, elapsed)
    refused = [a for a in answers if a.status_code == 429]
    assert refused and "too many sign-ins from here" in refused[0].json()["detail"]
    assert int(refused[0].headers["Retry-After"]) >= 1
    # the same account from another address signs in at once
    other = httpx.post(server.base + "/api/session", timeout=TIMEOUT,
                       json={"username": "lovelace-r4", "password": PASSWORD})
    assert other.status_code == 200


def test_clients_take_turns_for_the_hashing_pool_and_each_has_a_bounded_share():
    """The pool with one thread: client A queues three hashes, then B one, then A a fourth.
    In the order they came (first come, first served) B's would be the fourth done; taking
    turns, it is done before A's third. A's fifth is refused at once (429) while its four
    are queued or running."""
    hasher = Hasher(at_once=1, per_client=4, queued=100)
    done: list[str] = []

    async def flood() -> BaseException | None:
        async def one(client: str, n: int) -> None:
            await hasher.hash(f"a passphrase number {n}", client)
            done.append(f"{client}{n}")

        tasks = [asyncio.create_task(one("A", n)) for n in range(1, 4)]
        await asyncio.sleep(0)  # A's three are queued first
        tasks.append(asyncio.create_task(one("B", 1)))
        tasks.append(asyncio.create_task(one("A", 4)))
        await asyncio.sleep(0)
        refused: BaseException | None = None
        try:
            await hasher.hash("one too many", "A")
        except HashingBusy as exc:
            refused = exc
        await asyncio.gather(*tasks)
        return refused

    try:
        refused = run_async(flood)
    finally:
        hasher.close()
    assert done == ["A1", "A2", "B1", "A3", "A4"]
    assert isinstance(refused, HashingBusy) and refused.status == 429


def test_a_sign_in_waits_behind_no_queue_of_sign_ups_from_many_addresses():
    """New accounts from three addresses (each its own client) queue three hashes; a player's
    sign-in sent after them is done next, not after the three: the two lanes take turns."""
    hasher = Hasher(at_once=1, per_client=4, queued=100)
    done: list[str] = []

    async def flood() -> None:
        async def sign_up(n: int) -> None:
            await hasher.hash(f"a new passphrase {n}", f"U{n}", "sign_up")
            done.append(f"U{n}")

        async def sign_in() -> None:
            await hasher.verify(None, "a passphrase of nobody's", "P")
            done.append("P")

        tasks = [asyncio.create_task(sign_up(n)) for n in range(1, 4)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(sign_in()))
        await asyncio.gather(*tasks)

    try:
        run_async(flood)
    finally:
        hasher.close()
    assert done == ["U1", "P", "U2", "U3"]


# -- 3. passkey prompts can be used up by anyone -------------------------------------------------
def test_one_address_cannot_take_the_passkey_prompts_of_another(server: ServerProcess):
    """Before: every prompt was given until 10,000 were open (all addresses together). Now
    one address holds at most ``passkey_prompts_per_client`` open prompts, which expire in
    two minutes; another address still gets its prompt."""
    with server.http_from("127.0.0.20") as flood:
        answers = [flood.post("/api/session/passkey/options", json={})
                   for _ in range(DEFAULTS.passkey_prompts_per_client + 5)]
    statuses = [a.status_code for a in answers]
    assert statuses == [200] * DEFAULTS.passkey_prompts_per_client + [429] * 5, statuses
    assert "too many passkey prompts from here" in answers[-1].json()["detail"]
    with server.http_from("127.0.0.21") as someone:
        answer = someone.post("/api/session/passkey/options", json={})
    assert answer.status_code == 200 and answer.json()["ceremony"]
    store = Store(f"sqlite:///{server.db_path}")
    try:
        with store.engine.connect() as connection:
            longest = connection.exec_driver_sql(
                "SELECT max(expires_at) FROM parlour_webauthn_challenges").scalar()
    finally:
        store.close()
    assert longest <= time.time() + DEFAULTS.passkey_prompt_seconds
    assert DEFAULTS.passkey_prompt_seconds <= 120


# -- 8. per-process limits -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with throwaway_cluster() as url:
        yield url


@pytest.fixture(scope="module")
def two(postgres_url: str, tmp_path_factory: pytest.TempPathFactory
        ) -> Iterator[list[ServerProcess]]:
    """Two processes on one PostgreSQL, both with the default limits."""
    folder = tmp_path_factory.mktemp("round4-auth-pg")
    processes = [ServerProcess(folder / f"{n}.db", db_url=postgres_url, limits="",
                               log_path=folder / f"{n}.log").start() for n in "ab"]
    yield processes
    for process in processes:
        process.stop()


def test_alternating_two_processes_signs_up_no_more_than_one_would(two):
    """Before: each process counted its own sign-ups, so alternating gave 10 where the limit
    is 5. Now the bucket is in the database."""
    a, b = two
    started = time.monotonic()
    answers = [_sign_up((a, b)[n % 2].base, f"alternate-{n}", "127.0.0.30") for n in range(12)]
    elapsed = time.monotonic() - started
    statuses = _statuses(answers)
    refill = int(elapsed * DEFAULTS.sign_ups_per_hour / 3600)
    assert set(statuses) <= {201, 429}, statuses
    assert DEFAULTS.sign_ups_burst <= statuses[201] <= DEFAULTS.sign_ups_burst + refill
    assert "too many new accounts from here" in answers[-1].json()["detail"]


def test_guesses_sent_at_once_to_two_processes_are_counted_together(two):
    a, b = two
    assert _sign_up(a.base, "hopper-r4", "127.0.0.31").status_code == 201
    wrong = {"username": "hopper-r4", "password": "not the password at all"}
    calls = [((a, b)[n % 2].base, "/api/session", wrong, "127.0.0.32") for n in range(40)]
    statuses = _statuses(_at_once(calls))
    assert set(statuses) <= {401, 429}, statuses
    assert statuses[401] <= DEFAULTS.sign_in_free_per_account + DOUBLINGS_IN_A_MINUTE, statuses


def test_passkey_prompts_are_counted_for_the_address_on_every_process(two):
    a, b = two
    statuses = []
    for n in range(DEFAULTS.passkey_prompts_per_client + 4):
        with (a, b)[n % 2].http_from("127.0.0.33") as http:
            statuses.append(http.post("/api/session/passkey/options", json={}).status_code)
    assert statuses == [200] * DEFAULTS.passkey_prompts_per_client + [429] * 4, statuses


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_attempts_in_flight_are_capped_per_name_and_address_across_processes(
        database: str, tmp_path: Path, request: pytest.FixtureRequest):
    """Two throttles on one database, as two processes have: a name has two attempts being
    checked at most, an address four, whichever process checks them; a settled attempt frees
    its place, and one whose process died is forgotten after a minute."""
    if database == "sqlite":
        urls = [f"sqlite:///{tmp_path / 'flight.db'}"] * 2
    else:
        url = request.getfixturevalue("postgres_url")
        urls = [url.replace("postgresql://", "postgresql+psycopg://")] * 2
    stores = [Store(u) for u in urls]
    limits = Limits(sign_in_free_per_account=1000, sign_in_free_per_address=1000)
    one, other = (Throttle(s, limits) for s in stores)
    try:
        now = time.time()
        name = keys("addr-flight-1", f"grace-{database}")
        one.begin(name, now)
        other.begin(name, now)
        with pytest.raises(TooManyAttempts, match="being checked already"):
            one.begin(keys("addr-flight-2", f"grace-{database}"), now)  # same name elsewhere
        other.end(name, "failed")
        one.begin(keys("addr-flight-2", f"grace-{database}"), now)
        for n in range(2, 5):  # the address's second to fourth, for other names
            (one, other)[n % 2].begin(keys("addr-flight-1", f"n{n}-{database}"), now)
        with pytest.raises(TooManyAttempts, match="from here at once"):
            other.begin(keys("addr-flight-1", f"n9-{database}"), now)
        # a process died holding them: a minute on, the places are free again
        later = now + FLIGHT_SECONDS + 1
        other.begin(keys("addr-flight-1", f"n9-{database}"), later)
        one.begin(keys("addr-flight-3", f"grace-{database}"), later)
    finally:
        for store in stores:
            store.close()
