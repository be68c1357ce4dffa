"""Challenges (issue 31): one account asks another, by name, to play a game; the other accepts
(a table starts, both seated on their accounts) or declines.

People and bots challenge alike (a session, or a ``bot:play`` token). A challenge lives in the
database, so it can be answered on any server process; it lapses after
:attr:`Limits.challenge_seconds`. The opponent hears of it on the page (people: the lobby's
notice asks ``GET /api/challenges``) or on the Bot API's event stream (bots). Accepting is one
compare-and-set on the row (``waiting`` -> ``accepted``), so two answers, even on two
processes, start one table.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy import JSON, Boolean, Float, Integer, String, func, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from parlour.core import ParlourError, load_game
from parlour.games.wording import refusal_text
from parlour.i18n import Message
from parlour.server.accounts.accounts import Account
from parlour.server.accounts.models import AccountRow
from parlour.server.accounts.passwords import MAX_USERNAME, username_key
from parlour.server.limits import Limits, RateLimiter
from parlour.server.messages.schemas import Challenge, ChallengePlayer, ClockJSON, Params
from parlour.server.messages.views import HIDDEN_PARAMS
from parlour.server.persistence.rows import Base
from parlour.server.persistence.store import Store
from parlour.server.refusals import Refusal
from parlour.server.tables.clocks import ClockConfig, ClockError, clock_label

WAITING, ACCEPTED, DECLINED, CANCELLED, LAPSED = (
    "waiting", "accepted", "declined", "cancelled", "lapsed")
Pair = Callable[[str, Params, Sequence[tuple[int | None, str]], ClockJSON | None,
                 bool, Sequence[int]], Awaitable[tuple[str, list[str]]]]
"""Start a table for two accounts (:meth:`TableMaker.create_paired`)."""


class ChallengeRow(Base):
    """A challenge: who asked whom, to what game, and how it was answered."""

    __tablename__ = "parlour_challenges"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    challenger_id: Mapped[int] = mapped_column(Integer, index=True)
    opponent_id: Mapped[int] = mapped_column(Integer, index=True)
    game: Mapped[str] = mapped_column(String(64))
    params: Mapped[Params] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(Boolean)
    clock: Mapped[ClockJSON | None] = mapped_column(JSON, nullable=True)
    status: Mapped[str] = mapped_column(String(12), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)
    answered_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    reason: Mapped[str | None] = mapped_column(String(120), nullable=True)


ANSWERED = {
    "accepted": Message("this challenge was accepted already"),
    "declined": Message("this challenge was declined already"),
    "cancelled": Message("this challenge was cancelled already"),
    "answered": Message("this challenge was answered already"),
}
"""Why a challenge no longer waits, by its status."""
GONE = "the account was deleted"
"""The reason stored with the challenges an account's deletion cancels."""


class ChallengeError(Refusal):
    """A challenge that cannot be sent or answered (``status``: the HTTP answer)."""


class Wakeups:
    """In-process wake-ups for an account's event streams (another process's changes are
    found by the streams' own polling, :data:`parlour.server.bots.botapi.POLL_SECONDS`)."""

    def __init__(self) -> None:
        self._events: dict[int, set[asyncio.Event]] = {}

    def listen(self, account_id: int) -> asyncio.Event:
        event = asyncio.Event()
        self._events.setdefault(account_id, set()).add(event)
        return event

    def forget(self, account_id: int, event: asyncio.Event) -> None:
        held = self._events.get(account_id)
        if held is not None:
            held.discard(event)
            if not held:
                del self._events[account_id]

    def wake(self, *account_ids: int) -> None:
        for account_id in account_ids:
            for event in self._events.get(account_id, ()):
                event.set()


class Challenges:
    """Sending, answering and listing challenges."""

    def __init__(self, store: Store, limits: Limits, pair: Pair) -> None:
        self.store = store
        self.limits = limits
        self.pair = pair
        self.wakeups = Wakeups()
        self._sent = RateLimiter(limits.challenges_per_minute, limits.challenges_per_minute / 60,
                                 limits.rate_keys)

    # -- sending -----------------------------------------------------------------------------
    async def send(self, challenger: Account, opponent: str, game: str, params: Params,
                   rated: bool, clock: ClockJSON | None) -> Challenge:
        """A new challenge, checked as a table would be (the game and its parameters, the
        clock, what a rated game needs); raises :class:`ChallengeError`."""
        try:
            loaded = load_game(game, **params)
            ClockConfig.parse(clock)
        except (ParlourError, ClockError, ValueError, TypeError) as exc:
            raise ChallengeError(refusal_text(exc)) from None
        if loaded.num_players() != 2:
            raise ChallengeError(Message(
                "a challenge is a game between two players: choose 2 players"))
        if any(k in params for k in HIDDEN_PARAMS):
            raise ChallengeError(Message("a challenge starts from the game's own start, not a "
                                         "set-up position"))
        if rated and clock is None:
            raise ChallengeError(Message("a rated game needs a clock: choose a time control"))
        if not self._sent.allow(str(challenger.id)):
            wait = self._sent.retry_after(str(challenger.id))
            raise ChallengeError(Message(
                "too many challenges in a short time: try again in {n} s", n=wait), 429)
        row = await self.store.run(self._insert, challenger, opponent, loaded.name,
                                   loaded.non_default_parameters(), rated, clock)
        self.wakeups.wake(row["opponent_id"])
        return await self.store.run(self._describe, row["id"], challenger.id)

    def _insert(self, challenger: Account, opponent: str, game: str, params: Params,
                rated: bool, clock: ClockJSON | None) -> dict[str, Any]:
        now = time.time()
        with Session(self.store.engine) as session, session.begin():
            other = (session.scalar(select(AccountRow).where(
                AccountRow.username_key == username_key(opponent),
                AccountRow.deleted_at.is_(None))) if len(opponent) <= MAX_USERNAME else None)
            if other is None:
                raise ChallengeError(Message("no player {name}", name=repr(opponent)), 404)
            if other.id == challenger.id:
                raise ChallengeError(Message("you cannot challenge yourself"))
            waiting = session.scalar(select(func.count()).select_from(ChallengeRow).where(
                ChallengeRow.challenger_id == challenger.id, ChallengeRow.status == WAITING,
                ChallengeRow.expires_at > now)) or 0
            if waiting >= self.limits.challenges_open_per_account:
                raise ChallengeError(Message(
                    "you have {n} challenges waiting for an answer: wait for them or cancel some",
                    n=waiting), 429)
            row = ChallengeRow(id=secrets.token_hex(6), challenger_id=challenger.id,
                               opponent_id=other.id, game=game, params=params, rated=rated,
                               clock=clock, status=WAITING, created_at=now,
                               expires_at=now + self.limits.challenge_seconds)
            session.add(row)
            return {"id": row.id, "opponent_id": other.id}

    # -- answering ---------------------------------------------------------------------------
    async def accept(self, account: Account, challenge_id: str) -> Challenge:
        """The opponent accepts: the challenge is taken (once, whichever process), a table
        starts with both on their accounts, seats drawn at random."""
        row = await self.store.run(self._take, account.id, challenge_id)
        players = [(row["challenger_id"], row["challenger"]), (row["opponent_id"],
                                                               row["opponent"])]
        random.SystemRandom().shuffle(players)
        try:
            table_id, _links = await self.pair(row["game"], row["params"], players,
                                               row["clock"], row["rated"], row["bots"])
        except Exception:
            await self.store.run(self._settle, challenge_id, None, "the table could not start")
            raise
        await self.store.run(self._settle, challenge_id, table_id, None)
        self.wakeups.wake(row["challenger_id"], row["opponent_id"])
        return await self.store.run(self._describe, challenge_id, account.id)

    def _take(self, account_id: int, challenge_id: str) -> dict[str, Any]:
        now = time.time()
        with Session(self.store.engine) as session, session.begin():
            row = self._mine(session, challenge_id, account_id)
            if row.opponent_id != account_id:
                raise ChallengeError(Message("only the challenged player accepts a challenge"), 403)
            self._check_waiting(row, now)
            taken = session.execute(update(ChallengeRow).where(
                ChallengeRow.id == challenge_id, ChallengeRow.status == WAITING)
                .values(status=ACCEPTED, answered_at=now))
            if not taken.rowcount:  # type: ignore[attr-defined]
                raise ChallengeError(Message("this challenge was answered already"), 409)
            names = dict(session.execute(select(AccountRow.id, AccountRow.username).where(
                AccountRow.id.in_([row.challenger_id, row.opponent_id]),
                AccountRow.deleted_at.is_(None))).tuples().all())
            if len(names) < 2:  # one sent before its account was deleted (an older server's)
                raise ChallengeError(ANSWERED["cancelled"], 409)
            bots = session.scalars(select(AccountRow.id).where(
                AccountRow.id.in_([row.challenger_id, row.opponent_id]),
                AccountRow.bot.is_(True))).all()
            for bot in bots:
                playing = self.store.players.games_at_once(session, bot)
                if playing >= self.limits.bot_games_at_once:
                    raise ChallengeError(Message(
                        "{name} plays {n} games at once already: try again when one has ended",
                        name=names[bot], n=playing), 429)
            return {"game": row.game, "params": dict(row.params), "rated": row.rated,
                    "clock": row.clock, "challenger_id": row.challenger_id,
                    "opponent_id": row.opponent_id, "challenger": names[row.challenger_id],
                    "opponent": names[row.opponent_id], "bots": list(bots)}

    def withdraw(self, connection: Any, account_id: int, now: float) -> None:
        """An account being deleted (in that transaction): every challenge of it still
        waiting, sent or received, is cancelled, so that none starts a game afterwards."""
        connection.execute(update(ChallengeRow).where(
            ChallengeRow.status == WAITING,
            (ChallengeRow.challenger_id == account_id) | (ChallengeRow.opponent_id == account_id))
            .values(status=CANCELLED, answered_at=now, reason=GONE))

    def _settle(self, challenge_id: str, table_id: str | None, failed: str | None) -> None:
        with Session(self.store.engine) as session, session.begin():
            values: dict[str, Any] = {"table_id": table_id}
            if failed is not None:
                values.update(status=CANCELLED, reason=failed)
            session.execute(update(ChallengeRow).where(ChallengeRow.id == challenge_id)
                            .values(**values))

    async def decline(self, account: Account, challenge_id: str, reason: str | None
                      ) -> Challenge:
        """The opponent declines (with a reason, if given); the challenger's decline is a
        cancel."""
        await self.store.run(self._decline, account.id, challenge_id, reason)
        return await self.store.run(self._describe, challenge_id, account.id)

    def _decline(self, account_id: int, challenge_id: str, reason: str | None) -> None:
        now = time.time()
        with Session(self.store.engine) as session, session.begin():
            row = self._mine(session, challenge_id, account_id)
            self._check_waiting(row, now)
            status = DECLINED if row.opponent_id == account_id else CANCELLED
            done = session.execute(update(ChallengeRow).where(
                ChallengeRow.id == challenge_id, ChallengeRow.status == WAITING).values(
                status=status, answered_at=now,
                reason=" ".join((reason or "").split())[:120] or None))
            if not done.rowcount:  # type: ignore[attr-defined]
                raise ChallengeError(Message("this challenge was answered already"), 409)
            both = (row.challenger_id, row.opponent_id)
        self.wakeups.wake(*both)

    @staticmethod
    def _mine(session: Session, challenge_id: str, account_id: int) -> ChallengeRow:
        row = session.get(ChallengeRow, challenge_id[:16])
        if row is None or account_id not in (row.challenger_id, row.opponent_id):
            raise ChallengeError(Message("no such challenge"), 404)
        return row

    @staticmethod
    def _check_waiting(row: ChallengeRow, now: float) -> None:
        if row.status != WAITING:
            raise ChallengeError(ANSWERED.get(row.status, ANSWERED["answered"]), 409)
        if row.expires_at <= now:
            raise ChallengeError(Message("this challenge lapsed: nobody answered it in time"), 409)

    # -- reading -----------------------------------------------------------------------------
    async def describe(self, account: Account, challenge_id: str) -> Challenge:
        return await self.store.run(self._describe, challenge_id, account.id)

    def _describe(self, challenge_id: str, account_id: int) -> Challenge:
        with Session(self.store.engine) as session:
            row = self._mine(session, challenge_id, account_id)
            return self._public(session, row, account_id)

    def _public(self, session: Session, row: ChallengeRow, account_id: int) -> Challenge:
        people = {a.id: a for a in session.scalars(select(AccountRow).where(
            AccountRow.id.in_([row.challenger_id, row.opponent_id])))}
        status = row.status
        if status == WAITING and row.expires_at <= time.time():
            status = LAPSED

        def who(account_id: int) -> ChallengePlayer:
            found = people.get(account_id)
            return {"username": found.username if found else None,
                    "bot": bool(found.bot) if found else False}

        body: Challenge = {
            "id": row.id, "status": status, "game": row.game, "params": row.params,
            "rated": row.rated, "clock": row.clock, "clock_label": clock_label(row.clock),
            "challenger": who(row.challenger_id),
            "opponent": who(row.opponent_id), "created_at": row.created_at,
            "expires_at": row.expires_at, "reason": row.reason,
            "direction": "in" if row.opponent_id == account_id else "out",
            "table": row.table_id, "url": None,
        }
        if row.table_id is not None:
            token = self.store.players.token_of(session, row.table_id, account_id)
            body["url"] = None if token is None else f"/play/{token}"
        return body

    async def waiting(self, account: Account) -> list[Challenge]:
        """The account's challenges still waiting for an answer, sent and received."""
        return await self.store.run(self._waiting, account.id)

    def _waiting(self, account_id: int) -> list[Challenge]:
        now = time.time()
        with Session(self.store.engine) as session:
            rows = session.scalars(select(ChallengeRow).where(
                ChallengeRow.status == WAITING, ChallengeRow.expires_at > now,
                (ChallengeRow.opponent_id == account_id)
                | (ChallengeRow.challenger_id == account_id))
                .order_by(ChallengeRow.created_at).limit(100)).all()
            return [self._public(session, r, account_id) for r in rows]
