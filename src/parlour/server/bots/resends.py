"""Resent Bot API moves: a move sent again is answered as the first was, and applied once.

A bot that loses the answer to ``POST /api/bot/game/{id}/move`` (a timeout, a dropped
connection) cannot know whether its move was stored, so it sends it again: with the same
``Idempotency-Key`` header, or without one with the same ``at`` and the same move. The
submission's key is made from them (:func:`resend_of`), so the table stores the move once: the
mover answers a key it has stored already with a duplicate ack, and the stored actions keep
their keys, so that holds after a restart and in another server process too. The answer the
first one got is remembered here (:class:`ResentMoves`), so that the resend gets the same
status and the same bytes.

Bounded: ``bot_move_answers`` answers at most (the oldest forgotten first), each for
``bot_move_answer_seconds`` (docs/web.md, docs/bots.md), kept by the process that answered;
past them the move is still applied once, and a resend is answered with the table's own ack
(``"duplicate": true``). Refusals are not remembered: a refused move changed nothing, and sent
again it is checked again. A remembered key sent with another move (another body, another
table) is refused: a key names one move.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

IDEMPOTENCY_KEY_CHARS = 255
"""The longest ``Idempotency-Key`` taken (a UUID is 36 characters)."""


@dataclass(frozen=True)
class Resend:
    """What tells a move from its resends: ``memory`` names it among the remembered answers
    (the account and its key, or its ``at`` and move), ``request`` is what was asked (the table
    and the body) and ``client_key`` the submission's key (the same for every resend)."""

    memory: tuple[int, str]
    request: str
    client_key: str


def resend_of(account: int, table: str, hand: int, body: Mapping[str, Any],
              key: str | None) -> Resend | None:
    """The resend identity of a move ``body`` sent to ``table`` by ``account``'s seat in
    ``hand``, with the ``Idempotency-Key`` ``key`` (or ``None``); ``None`` when nothing tells
    it apart (no key and no ``at``: each such move is a new one)."""
    request = json.dumps([table, dict(body)], sort_keys=True, separators=(",", ":"))
    if key is not None:
        name = f"key:{key}"
        # the request is in the submission's key too: a key forgotten here and sent again with
        # another move makes another submission, never the old move's ack
        seed = f"key\0{key}\0{request}"
    elif body.get("at") is not None:
        name = f"at:{request}"
        seed = f"at\0{request}"
    else:
        return None
    digest = hashlib.sha256(seed.encode()).hexdigest()[:32]
    return Resend((account, name), request, f"{hand}:bot:{digest}")


@dataclass(frozen=True)
class Answer:
    """The answer a move got: its status and body as sent, for the move stored as ``seq``."""

    request: str
    client_key: str
    seq: int
    status: int
    body: bytes
    at: float


class KeyReused(Exception):
    """The key was sent before with another move."""


class ResentMoves:
    """The answers of the Bot API's stored moves, kept for their resends (bounded)."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count = count
        self.seconds = seconds
        self._answers: OrderedDict[tuple[int, str], Answer] = OrderedDict()
        self._busy: dict[tuple[int, str], tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def one_at_a_time(self, resend: Resend) -> AsyncIterator[None]:
        """Hold ``resend``'s turn: a resend that arrives while the first is being stored
        waits for its answer instead of racing it to the table."""
        lock, users = self._busy.get(resend.memory, (asyncio.Lock(), 0))
        self._busy[resend.memory] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._busy[resend.memory]
            if users > 1:
                self._busy[resend.memory] = (lock, users - 1)
            else:
                del self._busy[resend.memory]

    def recall(self, resend: Resend, acks: Mapping[str, int],
               now: float | None = None) -> Answer | None:
        """The first answer to ``resend``'s move if it is remembered and the move is still on
        the table (``acks``: the table's stored submission keys; a move taken back is not);
        raises :class:`KeyReused` if its key was remembered with another move."""
        now = time.monotonic() if now is None else now
        self._forget_old(now)
        answer = self._answers.get(resend.memory)
        if answer is None:
            return None
        if answer.request != resend.request:
            raise KeyReused(resend.memory[1])
        if acks.get(answer.client_key) != answer.seq:
            del self._answers[resend.memory]
            return None
        return answer

    def remember(self, resend: Resend, status: int, reply: Mapping[str, Any], body: bytes,
                 now: float | None = None) -> None:
        """Keep the answer of a stored move (an ``ack``; a refusal changed nothing)."""
        if reply.get("type") != "ack" or self.count <= 0:
            return
        now = time.monotonic() if now is None else now
        self._answers.pop(resend.memory, None)
        self._answers[resend.memory] = Answer(resend.request, resend.client_key,
                                              int(reply["seq"]), status, body, now)
        while len(self._answers) > self.count:
            self._answers.popitem(last=False)
        self._forget_old(now)

    def _forget_old(self, now: float) -> None:
        while self._answers:
            oldest = next(iter(self._answers.values()))
            if now - oldest.at <= self.seconds:
                return
            self._answers.popitem(last=False)

    def __len__(self) -> int:
        return len(self._answers)
