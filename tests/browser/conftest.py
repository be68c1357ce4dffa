"""A real server process and Debian's Chromium, driven by Playwright.

Chromium is Debian's package (``apt-get install chromium``), started with ``executable_path``:
Playwright's own browser download is not used. axe-core (the accessibility checker injected
into pages) is the npm package pinned in ``tests/browser/package.json``; ``.ci/run`` installs it,
and this file runs ``npm ci`` here once if it is missing.

Screenshots go to the git-ignored ``test-artifacts/screenshots/``. The README's screenshots in
``docs/screenshots/`` are rewritten only when asked: ``PARLOUR_UPDATE_SCREENSHOTS=1``
(see ``docs/web.md``), so an ordinary run never touches a tracked file.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from tests.server.helpers import ServerProcess

from .pages import WAIT_MS

CHROMIUM = os.environ.get("PARLOUR_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
README_SCREENSHOTS = ROOT / "docs" / "screenshots"
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The same real server process the HTTP and websocket tests drive (computer players
    move at once: ``--ai-delay 0``)."""
    proc = ServerProcess(tmp_path_factory.mktemp("browser") / "parlour.db").start()
    yield proc
    proc.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Chromium, whose every profile waits up to ``WAIT_MS`` for what a test asks of a page
    (Playwright's own default, 30 s, is short on a busy machine)."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
    new_context = browser.new_context

    def patient_context(**options: Any) -> BrowserContext:
        context = new_context(**options)
        context.set_default_timeout(WAIT_MS)
        return context

    browser.new_context = patient_context  # type: ignore[method-assign]
    yield browser
    browser.close()


class Screenshots:
    """Where a test saves a picture: always under ``test-artifacts/``; also in
    ``docs/screenshots/`` (the README's) when ``PARLOUR_UPDATE_SCREENSHOTS=1``."""

    def __init__(self, folder: Path, publish: bool) -> None:
        self.folder = folder
        self.publish = publish

    def path(self, name: str) -> str:
        return str(self.folder / name)

    def save(self, page: Page, name: str, *, readme: bool = False, full: bool = True) -> Path:
        """The whole page (``full``), or what the screen shows without scrolling."""
        target = self.folder / name
        page.screenshot(path=str(target), full_page=full)
        if readme and self.publish:
            README_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(target, README_SCREENSHOTS / name)
        return target


@pytest.fixture(scope="session")
def screenshots() -> Screenshots:
    folder = Path(os.environ.get("PARLOUR_SCREENSHOTS", ARTIFACTS))
    folder.mkdir(parents=True, exist_ok=True)
    return Screenshots(folder, os.environ.get("PARLOUR_UPDATE_SCREENSHOTS") == "1")


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script, installed from ``tests/browser/package.json``."""
    if not AXE.is_file() and shutil.which("npm"):
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=HERE, check=True,
            timeout=300,
        )
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run `npm ci --prefix tests/browser` (needs npm)")
    return AXE.read_text(encoding="utf-8")


def named_context(browser: Browser, name: str | None, size: str = "desktop") -> BrowserContext:
    """A browser profile of its own whose player has chosen ``name`` (remembered as the page
    remembers it), at a desktop or phone size. CSP is bypassed only so axe can be injected."""
    context = browser.new_context(viewport=SIZES[size], bypass_csp=True,
                                  is_mobile=size == "phone", has_touch=size == "phone")
    if name is not None:
        context.add_init_script(
            f"try {{ localStorage.setItem('parlour.name', {json.dumps(name)}); "
            "localStorage.setItem('parlour.name.chosen', '1'); } catch (e) {}"
        )
    return context
