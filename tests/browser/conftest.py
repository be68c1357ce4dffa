"""A real server process and Debian's Chromium, driven by Playwright.

Chromium is Debian's package (``apt-get install chromium``), started with ``executable_path``:
Playwright's own browser download is not used.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

CHROMIUM = os.environ.get("PARLOUR_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("PARLOUR_SCREENSHOTS", ROOT / "docs" / "screenshots"))


class Server:
    def __init__(self, db: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.db = db
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = db.with_suffix(".log").open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "parlour.server", "--port", str(self.port),
             "--db", f"sqlite:///{db}", "--no-open", "--ai", "thread", "--ai-delay", "0"],
            stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)

    def create(self, game: str, params: dict | None = None, seats: list | None = None) -> dict:
        body = {"game": game, "params": params or {}}
        if seats is not None:
            body["seats"] = seats
        reply = httpx.post(self.base + "/api/tables", json=body, timeout=30)
        assert reply.status_code == 201, reply.text
        return reply.json()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    proc = Server(tmp_path_factory.mktemp("browser") / "parlour.db")
    yield proc
    proc.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
