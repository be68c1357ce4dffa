"""The stack of docs/operating.md, for real: Caddy terminating TLS (its internal CA) in front of
two ``parlour serve`` processes on one PostgreSQL. Two people play Clobber in Chromium over
``https`` and ``wss``, with both processes serving; then one process is killed mid-game and the
game goes on through the other, losing no acknowledged move."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.stack import Stack, tls_stack

from .conftest import SIZES
from .pages import WAIT_MS, latest, watch_errors

pytestmark = pytest.mark.skipif(shutil.which("caddy") is None,
                                reason="needs Debian's caddy (.ci/run installs it)")


@pytest.fixture()
def stack(tmp_path: Path) -> Iterator[Stack]:
    with tls_stack(tmp_path) as running:
        yield running


def _person(browser: Browser, stack: Stack, name: str, size: str) -> BrowserContext:
    """A browser profile at ``size`` whose player is ``name``. Chromium is told to accept the
    stack's certificate (its CA is not in Chromium's store); httpx checks the same certificate
    against Caddy's root in :func:`test_the_certificate_is_caddys_and_names_the_host`."""
    context = browser.new_context(viewport=SIZES[size], ignore_https_errors=True, bypass_csp=True,
                                  is_mobile=size == "phone", has_touch=size == "phone")
    context.add_init_script(
        f"try {{ localStorage.setItem('parlour.name', {json.dumps(name)}); "
        "localStorage.setItem('parlour.name.chosen', '1'); } catch (e) {}")
    return context


def _table(stack: Stack) -> dict:
    with stack.client() as client:
        answer = client.post("/api/tables", json={"game": "clobber",
                                                  "params": {"rows": 3, "columns": 4}})
    assert answer.status_code == 201, answer.text
    return answer.json()


def _move(page: Page) -> int:
    """Play the first stone's first capture by keyboard; the version it made."""
    version = latest(page)["version"]
    page.locator("#board [role=button]").first.focus()
    page.keyboard.press("Enter")
    target = page.locator("#board g[data-square]:has([data-target])").first
    target.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.parlour.latest.version > {version}", timeout=WAIT_MS)
    return latest(page)["version"]


def _seated(browser: Browser, stack: Stack
            ) -> tuple[list[Page], list[str], list[list[str]], set[str]]:
    """Ada (desktop) and Ben (phone) at one new table through the proxy: their pages, the
    websocket addresses they opened, their errors and the processes that answered them."""
    table = _table(stack)
    pages: list[Page] = []
    sockets: list[str] = []
    errors: list[list[str]] = []
    upstreams: set[str] = set()
    for name, size, link in [("Ada", "desktop", table["url"]),
                             ("Ben", "phone", table["invites"][0]["url"])]:
        page = _person(browser, stack, name, size).new_page()
        errors.append(watch_errors(page))
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.on("response", lambda r: upstreams.add(r.headers.get("x-parlour-upstream", "")))
        page.goto(stack.url + link)
        page.wait_for_selector("#board svg.board-pic")
        pages.append(page)
    return pages, sockets, errors, upstreams


def _mover(pages: list[Page]) -> Page | None:
    """The page whose player is to move, or ``None`` once the game is over (both pages are at
    the same position: the one to move sees legal moves, the other none)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        for page in pages:
            state = latest(page)
            if state["terminal"]:
                return None
            if state["legal"]:
                return page
        pages[0].wait_for_timeout(100)  # a poll of the pages' own state, not a fixed wait
    raise TimeoutError("nobody is to move")


def _play_out(pages: list[Page], moves: int | None = None) -> int:
    """The two people move in turn until the game ends (or ``moves`` more are made); the
    version reached, seen by both pages."""
    version = max(latest(p)["version"] for p in pages)
    made = 0
    while moves is None or made < moves:
        for page in pages:  # both pages show the same position
            page.wait_for_function(f"window.parlour.latest.version >= {version}",
                                   timeout=WAIT_MS)
        mover = _mover(pages)
        if mover is None:
            break
        version = _move(mover)
        made += 1
    return version


def test_the_certificate_is_caddys_and_names_the_host(stack: Stack):
    """Checked against Caddy's root alone (the host name included); the machine's own trust
    store does not know that CA, so the same request without it is refused."""
    with stack.client() as client:
        answer = client.get("/")
    assert answer.status_code == 200 and answer.url.scheme == "https"
    with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
        httpx.get(stack.url + "/")


def test_a_game_over_https_and_wss_with_both_processes_serving(browser: Browser, stack: Stack):
    pages, sockets, errors, upstreams = _seated(browser, stack)
    for page in pages:
        page.reload()  # more requests: the proxy hands them to both processes in turn
        page.wait_for_selector("#board svg.board-pic")
    last = _play_out(pages)
    assert all(latest(p)["terminal"] and latest(p)["version"] == last for p in pages)
    assert sockets and all(url.startswith("wss://localhost:") for url in sockets), sockets
    assert upstreams >= set(stack.upstreams), upstreams  # both processes served these pages
    with stack.client() as client:
        session = client.post("/api/accounts", json={"username": "stack-ann",
                                                     "password": "a long and unusual passphrase"})
    assert session.status_code == 201, session.text
    cookie = session.headers["set-cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie  # --secure-cookies, behind TLS
    assert errors == [[], []]
    pages[0].screenshot(path=str(stack.folder / "stack-desktop.png"))


def test_a_process_killed_mid_game_and_the_game_goes_on_through_the_other(
    browser: Browser, stack: Stack,
):
    pages, sockets, _, _ = _seated(browser, stack)
    before = _play_out(pages, moves=2)
    opened = len(sockets)
    serving = next(p for p in stack.processes  # one that holds a page's websocket
                   if "WebSocket /ws/play/" in p.log_path.read_text())
    serving.kill()  # SIGKILL: no shutdown code runs
    other = next(p for p in stack.processes if p is not serving)
    last = _play_out(pages)  # a move sent into a dead socket is sent again on reconnecting
    assert len(sockets) > opened  # a page lost its process and opened a socket to the other
    assert last > before
    final = latest(pages[0])
    assert final["terminal"] and len(final["log"]) == last
    with stack.client() as client:  # the other process serves every page and answer now
        for _ in range(4):
            answer = client.get("/readyz")
            assert answer.status_code == 200
            assert answer.headers["x-parlour-upstream"] == f"127.0.0.1:{other.port}"
