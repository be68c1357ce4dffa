"""The fourth round of hostile use (issue 62), items 6 and 7, replayed against real server
processes: the confirmation e-mail (one parsed mailbox, mailed alone, so many an hour per
account and a day per address, counted in the database), and the Bot API's HTTP streams
(counted with the websockets, per client address and per account, before they are answered).

Mail goes to a real SMTP server (aiosmtpd, in this test process), which keeps each message's
envelope recipients. A confirmation mail is sent before ``POST /api/me/email`` answers, so
what the inbox holds when the answer comes is final."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from parlour.server.persistence.devdb import throwaway_cluster

from .helpers import FOR_TESTS, TIMEOUT, ServerProcess, account, run_async
from .test_bots import bearer, bot_account


# -- 6. the confirmation e-mail --------------------------------------------------------------------
def _mailing(folder: Path, port: int, name: str, db_url: str | None = None) -> ServerProcess:
    """A server that mails through the test's SMTP server, with the default mail limits."""
    return ServerProcess(folder / f"{name}.db", db_url=db_url, log_path=folder / f"{name}.log",
                         limits=FOR_TESTS, extra_args=(
                             "--smtp", f"smtp://127.0.0.1:{port}?from=parlour@example.com"))


@pytest.fixture(scope="module")
def mailing(smtp, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = _mailing(tmp_path_factory.mktemp("round4-mail"), smtp[1], "mail").start()
    yield proc
    proc.stop()


HOSTILE = [
    "root,victim@evil.example",  # a list, as the issue sent it
    "a;b@evil.example",
    "x@[127.0.0.1]",  # an IP-literal domain
    "eve@example.com, adam@example.com",
    "Eve <eve@example.com>",  # a display name
    '"eve adam"@example.com',  # a quoted local part
    "eve@localhost",  # no dot, a name of this machine
    "eve@printer.local",  # a special-use name
    "eve@example.com\r\nBcc: adam@example.com",  # a header smuggled in
    "a" * 65 + "@example.com",  # a local part over 64 characters
    "eve@" + "a" * 64 + ".com",  # a label over 63 characters
]


def _address(browser: httpx.Client) -> str | None:
    found: str | None = browser.get("/api/me").json()["account"]["email"]
    return found


def test_an_address_is_one_mailbox_and_its_mail_goes_to_it_alone(mailing, smtp):
    """Every hostile form is refused (400, saying what is wanted), nothing is mailed and the
    account keeps no address; a real one is stored as parsed (its domain in lower case) and
    its confirmation goes to it only: the envelope's one recipient and the ``To``."""
    inbox, _port = smtp
    eve = account(mailing, "round4-eve")
    before = len(inbox.messages)
    for text in HOSTILE:
        refused = eve.post("/api/me/email", json={"email": text, "notify": True})
        assert refused.status_code == 400, (text, refused.text)
        assert "give one e-mail address" in refused.json()["detail"], text
    assert len(inbox.messages) == before, "nothing is mailed for a refused address"
    assert _address(eve) is None
    saved = eve.post("/api/me/email", json={"email": "Eve.Adams@Example.COM", "notify": True})
    assert saved.status_code == 200, saved.text
    assert _address(eve) == "Eve.Adams@example.com"
    [recipients], [confirmation] = inbox.recipients[before:], inbox.messages[before:]
    assert recipients == ["Eve.Adams@example.com"]
    assert confirmation.get_all("To") == ["Eve.Adams@example.com"]
    assert confirmation.get_all("Cc") is None and confirmation.get_all("Bcc") is None


def test_twelve_changes_send_three_mails_and_a_restart_does_not_forget(smtp, tmp_path: Path):
    """``confirmation_mails_per_hour`` (3): the issue's twelve changes sent twelve mails; now
    three go, each later change is refused (429 with ``Retry-After``) and changes nothing, and
    the count is in the database: after a restart the next change is still refused. Choosing
    whether to be notified, with the address it has, sends nothing and is never refused."""
    inbox, port = smtp
    server = _mailing(tmp_path, port, "changes").start()
    try:
        ann = account(server, "round4-ann")
        before = len(inbox.messages)
        answers = [ann.post("/api/me/email", json={"email": f"ann{n}@example.com",
                                                   "notify": True}) for n in range(12)]
        assert [a.status_code for a in answers] == [200] * 3 + [429] * 9
        over = answers[3]
        assert "too many confirmation e-mails for this account" in over.json()["detail"]
        assert 0 < int(over.headers["retry-after"]) <= 3600
        assert inbox.recipients[before:] == [[f"ann{n}@example.com"] for n in range(3)]
        assert _address(ann) == "ann2@example.com"  # the refusals changed nothing
        same = ann.post("/api/me/email", json={"email": "ann2@example.com", "notify": False})
        assert same.status_code == 200 and not ann.get("/api/me").json()["account"][
            "notify_email"]
        server.stop()
        server.start()
        again = ann.post("/api/me/email", json={"email": "ann12@example.com", "notify": True})
        assert again.status_code == 429, again.text
        assert len(inbox.messages) == before + 3 and _address(ann) == "ann2@example.com"
    finally:
        server.stop()


def test_one_address_receives_three_confirmations_a_day_from_all_accounts(mailing, smtp):
    """``confirmation_mails_per_recipient`` (3 a day): four accounts naming one victim's
    address (in any case) mail it three times; the fourth is refused and keeps its own."""
    inbox, _port = smtp
    before = len(inbox.messages)
    browsers = [account(mailing, f"round4-fan{n}") for n in range(4)]
    spellings = ["victim@example.org", "Victim@example.org", "victim@EXAMPLE.org",
                 "VICTIM@example.org"]
    answers = [b.post("/api/me/email", json={"email": text, "notify": True})
               for b, text in zip(browsers, spellings, strict=True)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert "gone to this address today" in answers[3].json()["detail"]
    assert len(inbox.messages) == before + 3
    assert _address(browsers[3]) is None


def test_the_confirmation_limits_hold_across_two_processes(smtp, tmp_path: Path):
    """Two processes on one PostgreSQL: twelve changes of one account sent at once, six to
    each process, send three mails in all (the count is taken in the database, its row
    locked, before each mail)."""
    inbox, port = smtp
    with throwaway_cluster() as url:
        two = [_mailing(tmp_path, port, name, db_url=url).start() for name in "ab"]
        try:
            first = account(two[0], "round4-pg-ann")
            browsers = [httpx.Client(base_url=p.base, cookies=first.cookies, timeout=TIMEOUT)
                        for p in two]
            before = len(inbox.messages)

            def change(n: int) -> int:
                return browsers[n % 2].post("/api/me/email", json={
                    "email": f"pg{n}@example.com", "notify": True}).status_code

            with ThreadPoolExecutor(12) as pool:
                statuses = sorted(pool.map(change, range(12)))
            assert statuses == [200] * 3 + [429] * 9
            assert len(inbox.messages) == before + 3
            mailed = {r[0] for r in inbox.recipients[before:]}
            assert _address(browsers[1]) in mailed  # the address kept is one that was mailed
        finally:
            for proc in two:
                proc.stop()


# -- 7. the Bot API's streams ----------------------------------------------------------------------
async def _http_stream(client: httpx.AsyncClient, path: str, token: str) -> httpx.Response:
    """A stream asked for and left open (its status read, its body not yet)."""
    request = client.build_request("GET", path, headers=bearer(token))
    return await client.send(request, stream=True)


_LINES: dict[httpx.Response, AsyncIterator[str]] = {}
"""Each open response's line iterator, kept: an iterator left to the garbage collector closes
its response's connection, which would give the stream's place back behind the test's back."""


async def _first_line(response: httpx.Response) -> dict[str, Any]:
    lines = _LINES.setdefault(response, response.aiter_lines())
    async for text in lines:
        if text.strip():
            found: dict[str, Any] = json.loads(text)
            return found
    raise AssertionError("the stream ended without a line")


async def _close(stream: httpx.Response | ClientConnection) -> None:
    if isinstance(stream, httpx.Response):
        lines = _LINES.pop(stream, None)
        await stream.aclose()
        if lines is not None:
            with contextlib.suppress(Exception):
                await lines.aclose()  # type: ignore[attr-defined]
    else:
        await stream.close()


async def _websocket(server: ServerProcess, path: str, token: str | None = None,
                     source: str | None = None) -> ClientConnection:
    """A websocket (the Bot API's with ``token`` in the upgrade), from the loopback address
    ``source`` if given."""
    sock = None
    if source is not None:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT,
                                        source_address=(source, 0))
        sock.setblocking(False)
    headers = bearer(token) if token else None
    return await connect(server.ws_base + path, additional_headers=headers, sock=sock,
                         open_timeout=TIMEOUT, max_size=2**24)


def _client(server: ServerProcess, source: str = "127.0.0.1") -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=server.base, timeout=TIMEOUT,
                             transport=httpx.AsyncHTTPTransport(local_address=source),
                             limits=httpx.Limits(max_connections=None))


def _bot_in_a_game(server: ServerProcess, name: str) -> tuple[str, str]:
    """A bot account's token and the table of its one game (a day a move: nobody's time runs
    out during the test)."""
    person = account(server, f"{name}-person")
    bot, token = bot_account(server, name)
    challenge = person.post("/api/challenges", json={
        "opponent": name, "game": "clobber", "params": {"size": "3x4"},
        "clock": {"per_move": 86400}}).json()
    accepted = bot.post(f"/api/challenges/{challenge['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    return token, accepted.json()["table"]


def _server(tmp_path: Path, extra: str = "") -> ServerProcess:
    return ServerProcess(tmp_path / "streams.db", limits=FOR_TESTS + extra).start()


@pytest.mark.parametrize("transports", ["http", "http+websocket"])
def test_a_hundred_simultaneous_event_streams_let_exactly_the_limit_through(
        tmp_path: Path, transports: str):
    """``bot_streams_per_account`` (8): a hundred event streams asked for at once with one
    token (all NDJSON, or half of them websockets) used to let 13 to 29 through, each counted
    only once it ran. Now each is counted before it is answered: exactly 8 stay open, and
    hear the challenge sent once all were asked for; the other 92 are refused with 429 and
    say why (a websocket: its error message, then the close code 4429)."""
    server = _server(tmp_path)
    try:
        person = account(server, "crowd-person")
        _bot, token = bot_account(server, "crowd-bot")

        async def crowd() -> tuple[int, list[str]]:
            async with _client(server) as client:
                def ask(n: int) -> Any:
                    if transports == "http" or n % 2 == 0:
                        return _http_stream(client, "/api/bot/stream", token)
                    return _websocket(server, "/api/bot/ws", token)

                opened = await asyncio.gather(*(ask(n) for n in range(100)))
                sent = await asyncio.to_thread(person.post, "/api/challenges", json={
                    "opponent": "crowd-bot", "game": "clobber"})
                assert sent.status_code == 201, sent.text
                heard, refusals = 0, []
                for stream in opened:
                    if isinstance(stream, httpx.Response):
                        if stream.status_code == 200:
                            line = await _first_line(stream)
                            assert line["type"] == "challenge", line
                            heard += 1
                        else:
                            assert stream.status_code == 429, stream.status_code
                            await stream.aread()
                            refusals.append(stream.json()["detail"])
                    else:
                        message = json.loads(await asyncio.wait_for(stream.recv(), TIMEOUT))
                        if message["type"] == "challenge":
                            heard += 1
                        else:
                            assert message["status"] == 429, message
                            refusals.append(message["message"])
                for stream in opened:  # none before every one is decided: no place frees
                    await _close(stream)
                return heard, refusals

        heard, refusals = run_async(crowd, timeout=3 * TIMEOUT)
        assert heard == 8
        assert len(refusals) == 92
        assert all("at most 8 event streams" in r for r in refusals), set(refusals)
    finally:
        server.stop()


def test_game_streams_count_with_the_websockets_of_their_address(tmp_path: Path):
    """``connections_per_client`` (64): the issue held 300 game streams open with one token
    (file descriptors 29 -> 326) where the websocket form stops at 64. A hundred asked for at
    once now get exactly 64 places (each hears its ``gameFull``), the rest 429; with the
    address full, a websocket to a table is refused too, and closing one stream lets it in."""
    server = _server(tmp_path, ",connections_per_client=64")
    try:
        token, table = _bot_in_a_game(server, "greedy-bot")

        async def flood() -> tuple[int, list[str], bool]:
            async with _client(server) as client:
                opened = await asyncio.gather(*(
                    _http_stream(client, f"/api/bot/game/{table}/stream", token)
                    for _ in range(100)))
                held = [s for s in opened if s.status_code == 200]
                refusals = []
                for stream in opened:
                    if stream.status_code != 200:
                        assert stream.status_code == 429, stream.status_code
                        assert int(stream.headers["retry-after"]) > 0
                        await stream.aread()
                        refusals.append(stream.json()["message"])
                        await _close(stream)
                for stream in held:
                    assert (await _first_line(stream))["type"] == "gameFull"
                try:
                    await _websocket(server, f"/ws/watch/{table}")
                    watcher_refused = False
                except InvalidStatus:
                    watcher_refused = True
                await _close(held.pop())
                # the place comes free once the server has seen the stream close
                for _try in range(100):
                    try:
                        watcher = await _websocket(server, f"/ws/watch/{table}")
                    except InvalidStatus:
                        await asyncio.sleep(0.1)
                        continue
                    await watcher.close()
                    break
                else:
                    raise AssertionError("the closed stream's place never came free")
                for stream in held:
                    await _close(stream)
                return len(held) + 1, refusals, watcher_refused

        held, refusals, watcher_refused = run_async(flood, timeout=3 * TIMEOUT)
        assert held == 64
        assert len(refusals) == 36
        assert all("too many open connections from this address" in r for r in refusals)
        assert watcher_refused
    finally:
        server.stop()


def test_an_accounts_game_streams_are_counted_over_addresses_and_transports(tmp_path: Path):
    """``bot_game_streams_per_account`` (10 here) counts a bot's game streams of every
    transport from every address; ``connections_per_client`` (6 here) each address's. Three
    NDJSON streams and three websockets fill 127.0.0.1 (a seventh is refused for the
    address); from 127.0.0.2 six asked for at once get the account's last four places."""
    server = _server(tmp_path, ",connections_per_client=6,bot_game_streams_per_account=10")
    try:
        token, table = _bot_in_a_game(server, "spread-bot")
        http_path, ws_path = f"/api/bot/game/{table}/stream", f"/api/bot/game/{table}/ws"

        async def spread() -> dict[str, Any]:
            async with _client(server) as home, _client(server, "127.0.0.2") as away:
                first = await asyncio.gather(
                    *(_http_stream(home, http_path, token) for _ in range(3)),
                    *(_websocket(server, ws_path, token) for _ in range(3)))
                lines = []
                for stream in first:
                    if isinstance(stream, httpx.Response):
                        assert stream.status_code == 200
                        lines.append(await _first_line(stream))
                    else:
                        lines.append(json.loads(await asyncio.wait_for(stream.recv(), TIMEOUT)))
                assert [line["type"] for line in lines] == ["gameFull"] * 6
                seventh = await _http_stream(home, http_path, token)
                await seventh.aread()
                second = await asyncio.gather(*(_http_stream(away, http_path, token)
                                                for _ in range(6)))
                for stream in second:
                    if stream.status_code != 200:
                        await stream.aread()
                late = await _websocket(server, ws_path, token, source="127.0.0.3")
                late_message = json.loads(await asyncio.wait_for(late.recv(), TIMEOUT))
                await late.close()
                result = {"seventh": (seventh.status_code, seventh.json()["message"]),
                          "second": sorted(s.status_code for s in second),
                          "details": {s.json()["detail"] for s in second
                                      if s.status_code == 429},
                          "late": late_message}
                for stream in [*first, seventh, *second]:
                    await _close(stream)
                return result

        result = run_async(spread, timeout=3 * TIMEOUT)
        status, message = result["seventh"]
        assert status == 429 and "too many open connections from this address" in message
        assert result["second"] == [200] * 4 + [429] * 2
        assert result["details"] == {"a bot holds at most 10 game streams at once (websockets "
                                     "and HTTP streams together): close one first"}
        assert result["late"]["type"] == "error" and result["late"]["status"] == 429
    finally:
        server.stop()
