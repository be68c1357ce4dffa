"""Helpers that drive the table page as a person would, reading the page's own state only to
know what is on the screen (``window.parlour.latest`` is the last message the page received)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

WAIT_MS = 20_000


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
    return errors
