"""Sign-in attempts limited per address and per account, with growing delays, in the database
(so every process counts the same failures).

Each key (an address's hash, and the username as typed, folded: whether or not such an account
exists, so the limit tells nothing about who has one) counts its failures in a row. The first
few are free; after them every attempt must wait a delay that doubles from 1 s with each
further failure, up to ``sign_in_max_delay``. A success clears the account's count; a day
without failures clears any.

An attempt is counted *before* its password is checked (:meth:`Throttle.begin`, one
transaction holding both keys' rows), as a failure until it proves otherwise, and with the
attempts of that key being checked at that moment: forty guesses sent at once are forty counts
in a row, and at most ``sign_ins_at_once_per_account`` of them for one name (and
``sign_ins_at_once_per_address`` from one address) are checked at once, on every process
together. :meth:`Throttle.end` settles it. A process that dies while checking leaves its count
in flight; it is forgotten :data:`FLIGHT_SECONDS` after that key's last attempt began.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from parlour.i18n import Message
from parlour.server.accounts.models import SignInFailureRow
from parlour.server.accounts.sessions import digest
from parlour.server.limits import Limits
from parlour.server.persistence.store import Store

FORGET_AFTER = 86400.0
FLIGHT_SECONDS = 60.0
"""Longest an attempt is counted as being checked (its hash waits a few seconds at most)."""


class TooManyAttempts(ValueError):
    """A sign-in refused before any password is checked: ``wait`` whole seconds (the
    ``Retry-After``), and the reason in a player's words."""

    def __init__(self, wait: int, message: str | None = None, status: int = 429) -> None:
        super().__init__(message or Message("too many failed sign-ins: try again in {wait} s",
                                            wait=wait))
        self.wait = wait
        self.status = status


def keys(address: str, username: str) -> tuple[str, str]:
    """The two keys of an attempt: by address (already hashed) and by the folded username."""
    return f"addr:{address[:32]}", f"user:{digest(username.casefold())[:40]}"


class Throttle:
    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits

    def _free(self, key: str) -> int:
        return (self.limits.sign_in_free_per_address if key.startswith("addr:")
                else self.limits.sign_in_free_per_account)

    def delay(self, key: str, failures: int) -> float:
        over = failures - self._free(key)
        if over < 0:
            return 0.0
        return min(self.limits.sign_in_max_delay, 2.0 ** over)

    # -- counted before the check --------------------------------------------------------------
    def _at_once(self, key: str) -> int:
        return (self.limits.sign_ins_at_once_per_address if key.startswith("addr:")
                else self.limits.sign_ins_at_once_per_account)

    def begin(self, attempt: Sequence[str], now: float | None = None) -> None:
        """Count an attempt before its check, as a failure and as in flight, for every key at
        once; :class:`TooManyAttempts` (and nothing counted) if a key must wait or has as many
        attempts being checked as it may."""
        for _ in range(2):
            try:
                return self._begin(attempt, now)
            except IntegrityError:  # another process counted a key's first attempt meanwhile
                continue
        return self._begin(attempt, now)

    def _begin(self, attempt: Sequence[str], now: float | None) -> None:
        now = time.time() if now is None else now
        with Session(self.store.engine) as session, session.begin():
            if random.random() < 0.01:
                session.execute(delete(SignInFailureRow).where(
                    SignInFailureRow.last_at < now - FORGET_AFTER))
            rows = []
            for key in sorted(attempt):  # one order everywhere: no deadlock between processes
                row = session.get(SignInFailureRow, key, with_for_update=True)
                if row is None:
                    row = SignInFailureRow(key=key, failures=0, last_at=now, in_flight=0,
                                           flight_at=now)
                    session.add(row)
                    session.flush()  # IntegrityError if another process just added it
                if now - row.last_at > FORGET_AFTER:
                    row.failures = 0
                if row.in_flight is None or now - (row.flight_at or 0.0) > FLIGHT_SECONDS:
                    row.in_flight = 0
                rows.append(row)
            wait = max((row.last_at + self.delay(row.key, row.failures) - now
                        for row in rows if self.delay(row.key, row.failures) > 0),
                       default=0.0)
            if wait > 0:
                raise TooManyAttempts(math.ceil(wait))
            for row in rows:
                if (row.in_flight or 0) < self._at_once(row.key):
                    continue
                if row.key.startswith("user:"):
                    raise TooManyAttempts(1, Message(
                        "a sign-in for this username is being checked already: try again in a"
                        " moment"))
                raise TooManyAttempts(1, Message(
                    "too many sign-ins from here at once: try again in a moment"))
            for row in rows:
                row.failures += 1
                row.last_at = now
                row.in_flight = (row.in_flight or 0) + 1
                row.flight_at = now

    def end(self, attempt: Sequence[str], outcome: str) -> None:
        """Settle an attempt :meth:`begin` counted: ``"failed"`` keeps its count,
        ``"succeeded"`` clears the account's and takes it back from the address, and
        ``"unchecked"`` (the password was never checked) takes it back from both."""
        now = time.time()
        with Session(self.store.engine) as session, session.begin():
            for key in sorted(attempt):
                row = session.get(SignInFailureRow, key, with_for_update=True)
                if row is None:
                    continue
                row.in_flight = max(0, (row.in_flight or 0) - 1)
                if outcome == "failed":  # the delay runs from the failure's answer
                    row.last_at = max(row.last_at, now)
                elif outcome == "succeeded" and key.startswith("user:"):
                    row.failures = 0
                elif outcome != "failed":
                    row.failures = max(0, row.failures - 1)
                if row.failures == 0 and row.in_flight == 0:
                    session.delete(row)
