"""What waits to be sent to a websocket, bounded in bytes.

A client that never reads its socket must not make the server hold its messages without end:
eight such sockets asking again and again for the state of a 99 x 26 table (130 kB a message)
once grew the server by 1.6 GB in 16 s (issue 28). So each connection's outgoing messages are

- **encoded once** (JSON text, shared by every listener of one hand), and counted in bytes;
- **fresh, not stale**: a new state message replaces the one still waiting (a state says
  everything; an older one adds nothing), so a socket that does not read holds at most one;
- **bounded**: past ``send_bytes_per_connection`` waiting for one socket, or
  ``send_bytes_per_client`` for all of one client's sockets, the socket is closed (the page
  reconnects and gets a fresh state when it reads again).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import Hashable

from parlour import i18n
from parlour.server.limits import Limits, RateLimiter
from parlour.server.messages.schemas import Outgoing
from parlour.server.persistence.records import HandData

log = logging.getLogger("parlour.server")


def encode(message: Outgoing) -> str:
    """A message as it goes on the wire."""
    return json.dumps(message, separators=(",", ":"))


class Outbox:
    """Bytes waiting to be sent, per client, over all of that client's sockets."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.bytes: dict[Hashable, int] = {}

    def fits(self, client: Hashable, size: int) -> bool:
        return self.bytes.get(client, 0) + size <= self.limits.send_bytes_per_client

    def add(self, client: Hashable, size: int) -> None:
        left = self.bytes.get(client, 0) + size
        if left > 0:
            self.bytes[client] = left
        else:
            self.bytes.pop(client, None)


class Connection:
    """One websocket: the hand it speaks for (``None``: a spectator), the language it reads
    (the context's when it opened), the messages waiting to be sent to it, and the rate at
    which it may send."""

    def __init__(
        self,
        hand: HandData | None,
        limits: Limits | None = None,
        client: Hashable = None,
        outbox: Outbox | None = None,
    ) -> None:
        self.hand = hand
        self.language = i18n.current()
        self.closed = False
        self.limits = limits or Limits()
        self.client = client
        self.outbox = outbox or Outbox(self.limits)
        self.rate = RateLimiter(self.limits.messages_burst, self.limits.messages_per_second, 1)
        self.refused = 0
        self.waiting_bytes = 0
        self._waiting: deque[tuple[str, str]] = deque()
        self._ready = asyncio.Event()

    def send(self, message: Outgoing) -> None:
        self.send_encoded(str(message.get("type", "")),
                          encode(i18n.localise(message, self.language)))

    def send_encoded(self, kind: str, text: str) -> None:
        """Queue an encoded message of ``kind`` (a ``state`` replaces one still waiting)."""
        if self.closed:
            return
        if kind == "state":
            for index, (waiting_kind, old) in enumerate(self._waiting):
                if waiting_kind == "state":
                    del self._waiting[index]
                    self._count(-len(old))
                    break
        size = len(text)
        if (self.waiting_bytes + size > self.limits.send_bytes_per_connection
                or not self.outbox.fits(self.client, size)):
            log.warning("dropping a client that does not read its messages")
            self.close(drop=True)
            return
        self._waiting.append((kind, text))
        self._count(size)
        self._ready.set()

    def _count(self, size: int) -> None:
        self.waiting_bytes += size
        self.outbox.add(self.client, size)

    async def next(self) -> str | None:
        """The next message to send, in order; ``None`` once closed and nothing waits."""
        while not self._waiting:
            if self.closed:
                return None
            self._ready.clear()
            await self._ready.wait()
        _kind, text = self._waiting.popleft()
        self._count(-len(text))
        return text

    def close(self, *, drop: bool = False) -> None:
        """No more messages; what waits is still sent unless ``drop`` (a socket not read)."""
        if drop:
            self._count(-self.waiting_bytes)
            self._waiting.clear()
        if not self.closed:
            self.closed = True
            self._ready.set()
