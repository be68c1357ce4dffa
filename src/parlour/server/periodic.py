"""The server's background rounds (matchmaking, tournaments, puzzle mining, archiving, a
cluster's catch-up and janitor): one loop for all, so that each round's failure is logged and
the round runs again at its next tick instead of ending silently with its task."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import NoReturn

log = logging.getLogger("parlour.server")


async def every(seconds: float, work: Callable[[], Awaitable[object]], what: str) -> NoReturn:
    """Await ``work()`` every ``seconds``, first after one wait, until cancelled. A failure
    is logged as "``what`` failed" with its traceback and the next tick tries again."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await work()
        except Exception:  # CancelledError is not an Exception: cancelling still stops it
            log.exception("%s failed", what)
