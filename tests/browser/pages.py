"""Helpers that drive the table page as a person would, reading the page's own state only to
know what is on the screen (``window.parlour.latest`` is the last message the page received)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

WAIT_MS = 20_000
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
