"""A real server process and Debian's Chromium, driven by Playwright.

Chromium is Debian's package (``apt-get install chromium``), started with ``executable_path``:
Playwright's own browser download is not used.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.server.helpers import ServerProcess

CHROMIUM = os.environ.get("PARLOUR_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("PARLOUR_SCREENSHOTS", ROOT / "docs" / "screenshots"))


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The same real server process the HTTP and websocket tests drive."""
    proc = ServerProcess(tmp_path_factory.mktemp("browser") / "parlour.db").start()
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
