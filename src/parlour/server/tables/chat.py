"""Chat at a table: plain text on the players' channel (from a seat) or the spectators' (from a
spectator), stored, rate-limited per seat, and never carrying anything the game hides.

A chat message changes nothing at the table (no state, no turn, no clock), so it needs no unit
of work: it is stored, then passed to the listeners of its channel.
"""

from __future__ import annotations

import re
import time
from collections import deque
from typing import Any

from parlour.i18n import Message
from parlour.server.messages.outgoing import Connection
from parlour.server.messages.protocol import error
from parlour.server.messages.schemas import ChatMessage, ErrorMessage
from parlour.server.persistence.store import Store
from parlour.server.tables.table import ARCHIVED, Table

CHAT_LENGTH = 500
CHAT_BURST = 5
CHAT_WINDOW = 10.0
"""At most 5 chat messages per 10 seconds per seat (per connection for spectators)."""
CHAT_HISTORY = 50
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def clean_text(text: str, limit: int) -> str:
    """Plain text a person typed: control and direction characters removed, trimmed."""
    return CONTROL.sub("", text).strip()[:limit]


def channel_of(conn: Connection) -> str:
    """A seat's connection speaks on the players' channel, a spectator's on theirs."""
    return "players" if conn.hand is not None and conn.hand.seats else "spectators"


class Chat:
    """The tables' chat channels."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._times: dict[tuple[str, Any], deque[float]] = {}

    async def say(self, table: Table, conn: Connection, text: str) -> ErrorMessage | None:
        """Store and pass on a chat message to its channel; an error reply, or ``None``."""
        if table.archived:
            return error("archived", ARCHIVED)
        body = clean_text(text, CHAT_LENGTH)
        if not body:
            return error("empty", Message("an empty message is not sent"))
        if len(text.strip()) > CHAT_LENGTH:
            return error("too_long", Message("a chat message is at most {n} characters",
                                                n=CHAT_LENGTH))
        channel = channel_of(conn)
        seat = None if channel == "spectators" or conn.hand is None else table.focus(conn.hand)
        key = (table.id, seat if seat is not None else id(conn))
        times = self._times.setdefault(key, deque(maxlen=CHAT_BURST))
        now = time.time()
        if len(times) == CHAT_BURST and now - times[0] < CHAT_WINDOW:
            wait = int(CHAT_WINDOW - (now - times[0])) + 1
            window = f"{CHAT_WINDOW:g}"
            return error("rate_limited", Message("at most {n} messages in {window} s: wait "
                                                 "{wait} s", n=CHAT_BURST,
                                                 window=window, wait=wait),
                         scope="chat")
        times.append(now)
        name = table.seat_name(seat) if seat is not None else Message("Spectator")
        number = await self.store.run(
            self.store.add_chat, table.id, channel, seat, name, body, now
        )
        message: ChatMessage = {"type": "chat", "channel": channel, "id": number, "seat": seat,
                   "name": name, "text": body, "at": now}
        for other in list(table.connections):
            if channel_of(other) == channel:
                other.send(message)
        return None

    async def history(self, table: Table, conn: Connection) -> None:
        channel = channel_of(conn)
        messages = await self.store.run(self.store.chat, table.id, channel, CHAT_HISTORY)
        conn.send({"type": "chat_history", "channel": channel, "messages": messages})
