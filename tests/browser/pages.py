"""Helpers that drive the table page as a person would, reading the page's own state only to
know what is on the screen (``window.parlour.latest`` is the last message the page received)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from playwright.sync_api import Browser, Page

WAIT_MS = 60_000
"""How long a page may take to show what a test waits for: long, since the machine may be busy
with other work (a wait ends as soon as the condition holds)."""
SERIOUS = ("serious", "critical")


def latest(page: Page) -> dict[str, Any]:
    return page.evaluate("window.parlour.latest")


def wait_version(page: Page, version: int) -> dict[str, Any]:
    page.wait_for_function(
        f"() => window.parlour.latest && window.parlour.latest.version >= {version}",
        timeout=WAIT_MS,
    )
    return latest(page)


def wait_my_turn(page: Page) -> dict[str, Any]:
    page.wait_for_function(
        "() => window.parlour.latest && (window.parlour.latest.terminal || "
        "window.parlour.latest.legal.length > 0)",
        timeout=WAIT_MS,
    )
    return latest(page)


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def axe_violations(page: Page, axe_source: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical findings on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source)
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .map(v => ({id: v.id, impact: v.impact, help: v.help,
                        targets: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"""
    )
    return [v for v in found if v["impact"] in SERIOUS]


def horizontal_overflow(page: Page) -> int:
    """How many pixels the page is wider than the screen (0: no horizontal scrolling)."""
    return page.evaluate(
        "Math.max(0, document.documentElement.scrollWidth - window.innerWidth)"
    )


def small_tap_targets(page: Page, selector: str, minimum: int = 40) -> list[str]:
    """Visible elements matching ``selector`` smaller than ``minimum`` CSS pixels either way."""
    return page.evaluate(
        """([selector, minimum]) => [...document.querySelectorAll(selector)]
            .filter(e => { const r = e.getBoundingClientRect();
                           return r.width > 0 && r.height > 0 &&
                                  (r.width < minimum - 0.5 || r.height < minimum - 0.5); })
            .map(e => (e.getAttribute('aria-label') || e.textContent || e.tagName).trim()
                      + ` ${Math.round(e.getBoundingClientRect().width)}x`
                      + `${Math.round(e.getBoundingClientRect().height)}`)""",
        [selector, minimum],
    )


def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    """The on-screen boxes (CSS pixels, relative to the screen) of the visible elements."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .map(e => e.getBoundingClientRect())
            .filter(r => r.width > 0 && r.height > 0)
            .map(r => ({left: r.left, top: r.top, right: r.right, bottom: r.bottom}))""",
        selector,
    )


def on_screen(page: Page, selector: str) -> bool:
    """Whether every visible element matching ``selector`` lies inside the screen as it is now
    (nothing to scroll to), and there is at least one."""
    size = page.viewport_size
    assert size is not None
    found = boxes(page, selector)
    return bool(found) and all(
        b["top"] >= 0 and b["left"] >= 0 and b["bottom"] <= size["height"] + 0.5
        and b["right"] <= size["width"] + 0.5 for b in found
    )


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] \
        and b["top"] < a["bottom"]


@contextmanager
def at_table(
    server: Any, browser: Browser, game: str, params: dict[str, Any] | None = None,
    seats: list[dict[str, Any]] | None = None, size: str = "desktop", name: str = "Ada",
) -> Iterator[tuple[Page, dict[str, Any], list[str]]]:
    """A new table of ``game``, opened by ``name``'s browser at ``size``: the page once its
    board is drawn and it is this player's turn (or the game is over), that state, and the
    page's errors so far (a list that grows)."""
    from .conftest import named_context

    table = server.create(game, params or {}, seats=seats)
    context = named_context(browser, name, size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.base + table["url"])
        state = wait_my_turn(page)
        page.wait_for_selector("#board svg.board-pic")
        yield page, state, errors
    finally:
        context.close()
