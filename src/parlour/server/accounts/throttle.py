"""Sign-in attempts limited per address and per account, with growing delays, in the database
(so every process counts the same failures).

Each key (an address's hash, and the username as typed, folded: whether or not such an account
exists, so the limit tells nothing about who has one) counts its failures in a row. The first
few are free; after them every attempt must wait a delay that doubles from 1 s with each
further failure, up to ``sign_in_max_delay``. A success clears the account's count; a day
without failures clears any.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from parlour.server.accounts.models import SignInFailureRow
from parlour.server.accounts.sessions import digest
from parlour.server.limits import Limits
from parlour.server.store import Store

FORGET_AFTER = 86400.0


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

    def wait(self, attempt: Sequence[str], now: float | None = None) -> int:
        """Whole seconds the attempt must still wait (0: it may go ahead)."""
        now = time.time() if now is None else now
        with Session(self.store.engine) as session:
            rows = session.scalars(
                select(SignInFailureRow).where(SignInFailureRow.key.in_(list(attempt)))
            ).all()
        wait = 0.0
        for row in rows:
            if now - row.last_at > FORGET_AFTER:
                continue
            wait = max(wait, row.last_at + self.delay(row.key, row.failures) - now)
        return math.ceil(wait) if wait > 0 else 0

    def failed(self, attempt: Sequence[str], now: float | None = None) -> None:
        try:
            self._failed(attempt, now)
        except IntegrityError:  # another process counted this key's first failure meanwhile
            self._failed(attempt, now)

    def _failed(self, attempt: Sequence[str], now: float | None) -> None:
        now = time.time() if now is None else now
        with Session(self.store.engine) as session, session.begin():
            if random.random() < 0.01:  # now and then, forget the counts a day has cleared
                session.execute(delete(SignInFailureRow).where(
                    SignInFailureRow.last_at < now - FORGET_AFTER))
            for key in attempt:
                row = session.get(SignInFailureRow, key, with_for_update=True)
                if row is None:
                    session.add(SignInFailureRow(key=key, failures=1, last_at=now))
                else:
                    row.failures = 1 if now - row.last_at > FORGET_AFTER else row.failures + 1
                    row.last_at = now

    def succeeded(self, attempt: Sequence[str]) -> None:
        """A right password clears the account's count (not the address's: one good guess
        among many does not buy a free run)."""
        with self.store.engine.begin() as connection:
            connection.execute(delete(SignInFailureRow).where(
                SignInFailureRow.key.in_([k for k in attempt if k.startswith("user:")])))
