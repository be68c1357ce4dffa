"""A real parlour server in a subprocess, and small blocking clients for it.

Tests talk to the server only as a browser would: HTTP and websockets on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

TIMEOUT = 60.0
"""How long a test waits for an answer or a message before it fails: long, since the machine
may be busy with other work (a wait ends as soon as what it waits for comes)."""
START_TIMEOUT = 120.0
"""How long a server process may take to start answering (imports, migrations, workers) on a
loaded machine."""
FOR_TESTS = (
    "tables_burst=100000,requests_burst=100000,connects_burst=100000,"
    "open_tables_per_client=100000,connections_per_client=10000,messages_burst=100000,"
    "analyses_burst=100000,sign_in_free_per_address=100000,sign_ups_burst=100000,"
    "sign_ins_burst=100000,sign_ins_at_once_per_address=100000,password_hashes_per_client=100000,"
    "passkey_prompts_per_client=100000,"
    "puzzle_mining_seconds_per_hour=0"
)
"""The limits of a server that many tests share from one address: one client's rate limits
raised so that the tests' hundreds of tables and connections are not throttled, and no
mining of the finished Clobber games for puzzles (the suite finishes hundreds; the mining's
own test turns it on). The tests of the limits themselves start a server with the defaults
(``limits=""``)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """``python -m parlour.server`` on a free port, with its own database."""

    def __init__(
        self,
        db_path: Path,
        *,
        ai_delay: float = 0.0,
        ai: str = "thread",
        limits: str = FOR_TESTS,
        extra_args: tuple[str, ...] = (),
        log_path: Path | None = None,
        db_url: str | None = None,
        command: tuple[str, ...] = ("-m", "parlour.server"),
    ) -> None:
        self.db_path = db_path
        self.command = command
        """What the interpreter runs: ``-m parlour.server``, or the ``parlour`` script and
        ``serve`` for the command users type."""
        self.ai_delay = ai_delay
        self.ai = ai
        self.limits = limits
        self.extra_args = extra_args
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = log_path or db_path.with_suffix(".log")
        self.db_url = db_url or f"sqlite:///{db_path}"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        command = [
            sys.executable, *self.command,
            "--port", str(self.port),
            "--db", self.db_url,
            "--no-open",
            "--ai", self.ai,
            "--ai-delay", str(self.ai_delay),
            *self.extra_args,
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PARLOUR_LIMITS": self.limits}
        self.log = self.log_path.open("ab")
        self.proc = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()  # a server that never answered must not outlive the test that started it
        raise RuntimeError(f"server did not start in time: {self.log_path.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=TIMEOUT)
        self.log.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.log.close()

    # -- HTTP ---------------------------------------------------------------------------------
    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return httpx.get(self.base + path, timeout=TIMEOUT, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> httpx.Response:
        return httpx.post(self.base + path, json=body, timeout=TIMEOUT, **kwargs)

    def create(self, game: str, params: dict[str, Any] | None = None,
               seats: list[dict[str, Any]] | None = None, *, arrive: bool = True
               ) -> dict[str, Any]:
        """A new table; its invited players open their links at once (``arrive``), so the
        game has started, unless ``arrive=False`` keeps it waiting for them."""
        body: dict[str, Any] = {"game": game, "params": params or {}}
        if seats is not None:
            body["seats"] = seats
        response = self.post("/api/tables", body)
        assert response.status_code == 201, response.text
        table = response.json()
        if arrive:
            self.arrive(table)
        return table

    def arrive(self, table: dict[str, Any]) -> None:
        """Every invited player of a table just created opens their link (the seat's API),
        as a friend does: the game starts once all have (an invitation table waits)."""
        for invite in table.get("invites", []):
            response = self.get(f"/api/play/{token_of(invite['url'])}")
            assert response.status_code == 200, response.text

    def client(self, url: str, source: str | None = None) -> Client:
        """A websocket client for a page URL like ``/play/TOKEN`` or ``/watch/ID``; ``source``
        is the loopback address it connects from (another client, as the server counts them:
        ``127.0.0.2``...)."""
        sock = None
        if source is not None:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT,
                                            source_address=(source, 0))
        ws = connect(
            self.ws_base + "/ws" + url, open_timeout=TIMEOUT, max_size=2**24, max_queue=None,
            sock=sock,
        )
        return Client(ws.__enter__())  # closed by Client.close

    def http_from(self, source: str) -> httpx.Client:
        """An HTTP client connecting from the loopback address ``source`` (another client)."""
        transport = httpx.HTTPTransport(local_address=source)
        return httpx.Client(base_url=self.base, transport=transport, timeout=TIMEOUT)


def token_of(url: str) -> str:
    return url.rsplit("/", 1)[-1]


class Client:
    """One websocket, keeping every message it received (for the G-3 checks)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.counter = 0

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def wait(self, predicate: Callable[[dict[str, Any]], bool],
             timeout: float = TIMEOUT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            message = self.recv(left)
            if predicate(message):
                return message

    def wait_state(self, predicate: Callable[[dict[str, Any]], bool] = lambda m: True,
                   timeout: float = TIMEOUT) -> dict[str, Any]:
        if self.state is not None and predicate(self.state):
            return self.state
        return self.wait(lambda m: m["type"] == "state" and predicate(m), timeout)

    def act(self, steps: list[int | str], client_id: str | None = None,
            at: int | None = None, **extra: Any) -> dict[str, Any]:
        """Send an act and return its reply (ack, partial or error)."""
        if client_id is None:
            self.counter += 1
            client_id = f"c{self.counter}-{time.monotonic_ns()}"
        message = {"type": "act", "client_id": client_id, "steps": steps, **extra}
        if at is not None:
            message["at"] = at
        self.send(message)
        return self.wait(lambda m: m["type"] in ("ack", "partial", "error")
                         and m.get("client_id") == client_id)

    def close(self) -> None:
        self.ws.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def play_turn(client: Client, message: dict[str, Any], choose: Callable[[list[int]], int],
              **extra: Any) -> dict[str, Any]:
    """Play one whole turn for the seat of ``message`` (which must be to act).

    Steps are chosen one at a time from the legal moves the server lists; a step that leaves
    the same seat to act comes back as a preview (``partial``) and the turn goes on.
    """
    steps: list[int] = []
    legal = [m["a"] for m in message["legal"]]
    while True:
        steps.append(choose(legal))
        reply = client.act(list(steps), at=message["version"], **extra)
        if reply["type"] != "partial":
            return reply
        legal = [m["a"] for m in reply["legal"]]


# -- accounts (issue 29) -------------------------------------------------------------------------
PASSWORD = "a long and unusual passphrase"


def account(server: ServerProcess, username: str, password: str = PASSWORD) -> httpx.Client:
    """A browser of its own (a cookie jar) signed up as ``username``."""
    browser = httpx.Client(base_url=server.base, timeout=TIMEOUT)
    response = browser.post("/api/accounts", json={"username": username, "password": password})
    assert response.status_code == 201, response.text
    return browser


def play_out(clients: list[Client], choose: Callable[[list[int]], int],
             until: Callable[[dict[str, Any]], bool] = lambda m: False) -> dict[str, Any]:
    """Play a table to its end (or until ``until`` holds), each seat's client moving in turn
    with ``choose``; returns the last state message."""
    message = clients[0].wait_state()
    while not message.get("terminal") and not until(message):
        to_act = message["to_act"]
        mover = clients[to_act]
        seen = mover.wait_state(lambda m, v=message["version"]: m["version"] >= v)
        if seen["to_act"] == to_act and seen["legal"]:
            play_turn(mover, seen, choose)
        message = clients[0].wait_state(lambda m, v=seen["version"]: m["version"] > v)
    return message


def run_async(make: Callable[[], Awaitable[Any]], timeout: float = TIMEOUT) -> Any:
    """Run the coroutine ``make()`` to its end (within ``timeout`` seconds) on an event loop of
    its own, in a thread: the browser tests' Playwright keeps a loop running in the main
    thread for the whole session, where ``asyncio.run`` cannot start another."""

    async def bounded() -> Any:
        return await asyncio.wait_for(make(), timeout)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, bounded()).result()
