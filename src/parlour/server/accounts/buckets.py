"""Token buckets kept in the database, so that every server process takes from the same one
(sign-ups and sign-ins per address): a limit counted in each process would let a client that
alternates between processes through as many times over.

One statement takes a token (an upsert whose update only happens when the refilled bucket
holds one, as :meth:`parlour.server.persistence.claims_repo.ClaimsRepo.claim` decides a
claim), so two processes asking at once cannot both take the last token. The in-memory
:class:`parlour.server.limits.RateLimiter` stays for the limits that guard one process's own
work (requests, websocket messages).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import case, delete, select
from sqlalchemy.dialects import postgresql, sqlite

from parlour.server.accounts.models import RateBucketRow
from parlour.server.persistence.store import Store

FORGET_AFTER = 86400.0
"""A bucket untouched for a day is full again for every limit it serves: its row goes."""


class SharedBuckets:
    def __init__(self, store: Store) -> None:
        self.store = store

    def take(self, key: str, burst: float, per_second: float,
             now: float | None = None) -> int:
        """Take one token from ``key``'s bucket (``burst`` at most, refilled at
        ``per_second``): 0 if taken, else the whole seconds until one is there (nothing
        taken)."""
        now = time.time() if now is None else now
        if burst < 1:
            return 3600
        held = RateBucketRow.__table__.c
        filled = held.tokens + (now - held.at) * per_second
        level = case((filled > burst, float(burst)), else_=filled)
        upsert: Callable[..., Any] = (postgresql.insert if self.store.engine.dialect.name
                                      == "postgresql" else sqlite.insert)
        statement = upsert(RateBucketRow).values(key=key[:80], tokens=burst - 1.0, at=now)
        take = statement.on_conflict_do_update(
            index_elements=[held.key], set_={"tokens": level - 1.0, "at": now},
            where=level >= 1.0,
        ).returning(held.tokens)
        with self.store.engine.begin() as connection:
            if random.random() < 0.01:  # now and then, forget the buckets a day has filled
                connection.execute(delete(RateBucketRow).where(
                    RateBucketRow.at < now - FORGET_AFTER))
            if connection.execute(take).first() is not None:
                return 0
            row = connection.execute(select(held.tokens, held.at).where(
                held.key == key[:80])).first()
        if row is None or per_second <= 0:
            return 3600
        tokens = min(float(burst), row.tokens + (now - row.at) * per_second)
        return max(1, math.ceil((1.0 - tokens) / per_second))
