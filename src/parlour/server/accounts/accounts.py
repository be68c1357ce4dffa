"""Accounts: signing up, in and out, changing the password, deleting the account, and the
guest games that join it.

Every method that touches the database runs on the store's thread (:meth:`Store.run`); the
Argon2id work runs in the hasher's own pool. What the routes answer is decided here: the same
:class:`SignInRefused` for a wrong password and an unknown username (after the same Argon2id
work), :class:`Taken` for a username in use, :class:`PolicyError` for a refused name or
password, :class:`TooManyAttempts` for an attempt refused before any hashing (a limit per
address or per name, kept in the database so that every process counts the same).
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from parlour.core import game_class
from parlour.i18n import Message, text_of
from parlour.server.accounts.buckets import SharedBuckets
from parlour.server.accounts.models import (
    AccountRow,
    CeremonyRow,
    PasskeyRow,
    QueueRow,
    RatingChangeRow,
    RatingRow,
    ResultRow,
    SessionRow,
)
from parlour.server.accounts.passwords import (
    MAX_PASSWORD,
    Hasher,
    HashingBusy,
    check_password,
    check_username,
    normalise,
    username_key,
)
from parlour.server.accounts.sessions import digest, new_id
from parlour.server.accounts.throttle import Throttle, TooManyAttempts, keys
from parlour.server.limits import Limits
from parlour.server.messages.accounts import AccountInfo, MyGame
from parlour.server.names import DELETED
from parlour.server.persistence.records import SeatData
from parlour.server.persistence.store import Store

"""How the seats of a deleted account are named in the games it played."""
DeleteHook = Callable[[Any, int, float], None]
"""Work done in the transaction that deletes an account: ``(connection, account id, when)``."""
SLIDE_EVERY = 86400.0
"""A session's end moves on when it is used, at most this often (one write a day)."""
GAMES_LISTED = 50
"""Games in an account's "Your games" (newest first)."""


class Taken(ValueError):
    """That username is someone else's (ignoring case)."""


class SignInRefused(ValueError):
    """A wrong password or an unknown username: the same answer for both."""

    MESSAGE = Message("that username and password do not match an account")


@dataclass(frozen=True)
class Account:
    id: int
    username: str
    bot: bool
    created_at: float
    email: str | None = None
    email_confirmed: bool = False
    notify_email: bool = False
    language: str | None = None
    """The language the player last read parlour in (their e-mails' language)."""

    def public(self) -> AccountInfo:
        return {"username": self.username, "bot": self.bot, "created_at": self.created_at,
                "email": self.email, "email_confirmed": self.email_confirmed,
                "notify_email": self.notify_email}


def account_from_row(row: AccountRow) -> Account:
    assert row.username is not None
    return Account(row.id, row.username, bool(row.bot), row.created_at, row.email,
                   bool(row.email_confirmed), bool(row.notify_email), row.language)


class Accounts:
    """The accounts of this server (every process shares them through the database)."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits
        self.hasher = Hasher(limits.password_hashes_at_once, limits.password_hashes_per_client,
                             limits.password_hash_queue)
        self.throttle = Throttle(store, limits)
        self.on_delete: list[DeleteHook] = []
        """Work stored with an account's deletion, in its transaction (issue 62): its waiting
        challenges cancelled, its places in open tournaments given up."""
        self.buckets = SharedBuckets(store)

    def close(self) -> None:
        self.hasher.close()

    # -- signing up and in ---------------------------------------------------------------------
    async def remember_language(self, account: Account, language: str) -> None:
        """Store the language ``account`` now reads parlour in (written only when it changed:
        its e-mails are written in it)."""
        if account.language != language:
            await self.store.run(self._set_language, account.id, language)

    def _set_language(self, account_id: int, language: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(update(AccountRow).where(AccountRow.id == account_id)
                               .values(language=language))

    async def sign_up(self, username: str, password: str, client: str = ""
                      ) -> tuple[Account, str]:
        """A new account and its first session id; :class:`Taken`, :class:`PolicyError`, or
        :class:`TooManyAttempts` (``client`` has signed up as many accounts as it may, every
        process together, or has as many hashes waiting as it may)."""
        wait = await self.store.run(self.buckets.take, f"sign_up:{client[:32]}",
                                    self.limits.sign_ups_burst,
                                    self.limits.sign_ups_per_hour / 3600.0)
        if wait:
            raise TooManyAttempts(wait, Message(
                "too many new accounts from here: try again in {wait} s", wait=wait))
        check_username(username)
        text = check_password(password, username)
        if await self.store.run(self._by_name, username_key(username)) is not None:
            raise Taken(Message("the username {username!r} is taken: choose another",
                                username=username))
        hashed = await _hashing(self.hasher.hash(text, client, "sign_up"))
        account = await self.store.run(self._insert, username, hashed)
        return account, await self.store.run(self._new_session, account.id)

    def _insert(self, username: str, hashed: str) -> Account:
        row = AccountRow(username=username, username_key=username_key(username),
                         password_hash=hashed, handle=secrets.token_bytes(32), bot=False,
                         created_at=time.time())
        try:
            with Session(self.store.engine, expire_on_commit=False) as session, session.begin():
                session.add(row)
        except IntegrityError:  # signed up at the same moment, maybe on another process
            raise Taken(Message("the username {username!r} is taken: choose another",
                                username=username)) from None
        return account_from_row(row)

    def _by_name(self, key: str) -> tuple[int, str | None] | None:
        with Session(self.store.engine) as session:
            row = session.scalar(select(AccountRow).where(AccountRow.username_key == key,
                                                          AccountRow.deleted_at.is_(None)))
            return None if row is None else (row.id, row.password_hash)

    async def sign_in(self, username: str, password: str, address: str) -> tuple[Account, str]:
        """A new session for the right password; :class:`SignInRefused` (the same for an
        unknown username, after the same work) or :class:`TooManyAttempts`."""
        attempt = keys(address, username[:64])
        wait = await self.store.run(self.buckets.take, f"sign_in:{address[:32]}",
                                    self.limits.sign_ins_burst,
                                    self.limits.sign_ins_per_minute / 60.0)
        if wait:  # right or wrong: each attempt costs a hash
            raise TooManyAttempts(wait, Message(
                "too many sign-ins from here: try again in {wait} s", wait=wait))
        await self.store.run(self.throttle.begin, attempt)  # counted before the hash
        outcome = "failed"
        try:
            found = (await self.store.run(self._by_name, username_key(username))
                     if len(username) <= 64 else None)
            try:
                ok, rehash = await self.hasher.verify(found[1] if found else None,
                                                      _normalised(password), address)
            except HashingBusy as exc:
                outcome = "unchecked"
                raise TooManyAttempts(1, text_of(exc), exc.status) from None
            if ok and found is not None:
                outcome = "succeeded"
        finally:
            await self.store.run(self.throttle.end, attempt, outcome)
        if outcome != "succeeded" or found is None:
            raise SignInRefused(SignInRefused.MESSAGE)
        if rehash:  # argon2-cffi's recommended parameters changed since: store a new hash
            with contextlib.suppress(HashingBusy):  # else the next sign-in does it
                await self.store.run(self._set_hash, found[0], await self.hasher.hash(
                    _normalised(password), address))
        return await self.begin(found[0])

    async def begin(self, account_id: int) -> tuple[Account, str]:
        """A new session for an account that proved who it is (a password, a passkey)."""
        account = await self.store.run(self._get, account_id)
        if account is None:
            raise SignInRefused(SignInRefused.MESSAGE)
        return account, await self.store.run(self._new_session, account_id)

    def _get(self, account_id: int) -> Account | None:
        with Session(self.store.engine) as session:
            row = session.get(AccountRow, account_id)
            return None if row is None or row.deleted_at is not None else account_from_row(row)

    def _new_session(self, account_id: int) -> str:
        secret = new_id()
        now = time.time()
        with Session(self.store.engine) as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.expires_at < now))  # ended ones
            session.add(SessionRow(id_hash=digest(secret), account_id=account_id, created_at=now,
                                   seen_at=now, expires_at=now + self.limits.session_days * 86400))
            old = session.scalars(
                select(SessionRow.id_hash).where(SessionRow.account_id == account_id)
                .order_by(SessionRow.seen_at.desc()).offset(self.limits.sessions_per_account)
            ).all()
            if old:
                session.execute(delete(SessionRow).where(SessionRow.id_hash.in_(list(old))))
        return secret

    # -- sessions ------------------------------------------------------------------------------
    async def by_session(self, secret: str | None) -> Account | None:
        if not secret:
            return None
        return await self.store.run(self._by_session, digest(secret))

    def _by_session(self, id_hash: str) -> Account | None:
        now = time.time()
        with Session(self.store.engine) as session:
            row = session.get(SessionRow, id_hash)
            if row is None:
                return None
            if row.expires_at < now:
                session.delete(row)
                session.commit()
                return None
            account = session.get(AccountRow, row.account_id)
            if account is None or account.deleted_at is not None:
                return None
            found = account_from_row(account)
            if now - row.seen_at > SLIDE_EVERY:
                row.seen_at = now
                row.expires_at = now + self.limits.session_days * 86400
                session.commit()
            return found

    async def sign_out(self, secret: str) -> None:
        await self.store.run(self._end, digest(secret))

    def _end(self, id_hash: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(delete(SessionRow).where(SessionRow.id_hash == id_hash))

    async def sign_out_everywhere(self, account_id: int) -> int:
        return await self.store.run(self._end_all, account_id)

    def _end_all(self, account_id: int) -> int:
        with self.store.engine.begin() as connection:
            return int(connection.execute(
                delete(SessionRow).where(SessionRow.account_id == account_id)).rowcount or 0)

    # -- the account's own changes -------------------------------------------------------------
    async def change_password(self, account: Account, current: str, new: str,
                              address: str) -> str:
        """Check the current password (throttled as a sign-in), store the new one, end every
        other session; returns a fresh session id for this browser."""
        await self.sign_in(account.username, current, address)  # raises if it is wrong
        text = check_password(new, account.username)
        await self.store.run(self._set_hash, account.id,
                             await _hashing(self.hasher.hash(text, address)))
        await self.sign_out_everywhere(account.id)
        return await self.store.run(self._new_session, account.id)

    def _set_hash(self, account_id: int, hashed: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(update(AccountRow).where(AccountRow.id == account_id)
                               .values(password_hash=hashed))

    async def delete(self, account: Account, password: str, address: str) -> list[str]:
        """Delete the account (its password asked again): its name, secrets, passkeys,
        sessions, ratings and address go; its games stay, played by "deleted player".
        Returns the tables it had seats at (to show the new name where they are loaded)."""
        await self.sign_in(account.username, password, address)
        return await self.store.run(self._delete, account.id)

    def _delete(self, account_id: int) -> list[str]:
        now = time.time()
        with self.store.engine.begin() as c:
            # the account's row first: a game of it ending at once waits, then sees it gone
            c.execute(update(AccountRow).where(AccountRow.id == account_id).values(
                username=None, username_key=f"deleted:{account_id}", password_hash=None,
                email=None, email_confirmed=None, notify_email=None, mail_token_hash=None,
                deleted_at=now))
            tables = self.store.players.forget_account(c, account_id, DELETED)
            c.execute(update(ResultRow).where(ResultRow.account_id == account_id)
                      .values(account_id=None))
            c.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            c.execute(delete(PasskeyRow).where(PasskeyRow.account_id == account_id))
            c.execute(delete(RatingRow).where(RatingRow.account_id == account_id))
            c.execute(delete(RatingChangeRow).where(RatingChangeRow.account_id == account_id))
            c.execute(delete(QueueRow).where(QueueRow.account_id == account_id))
            c.execute(delete(CeremonyRow).where(CeremonyRow.account_id == account_id))
            for hook in self.on_delete:
                hook(c, account_id, now)
        return tables

    # -- games ---------------------------------------------------------------------------------
    async def join_games(self, account: Account, tokens: list[str]) -> int:
        """The seat links a browser played as a guest join the account (those nobody else's
        account holds); a link's single seat becomes the account's too."""
        wanted = [t for t in tokens[: self.limits.guest_games_joined] if 0 < len(t) <= 64]
        return await self.store.run(self._join, account.id, wanted) if wanted else 0

    def _join(self, account_id: int, tokens: list[str]) -> int:
        with Session(self.store.engine) as session, session.begin():
            joined, seated = self.store.players.join_links(session, account_id, tokens)
            for table_id, seat in seated:
                session.execute(update(ResultRow).where(
                    ResultRow.table_id == table_id, ResultRow.seat == seat,
                    ResultRow.account_id.is_(None)).values(account_id=account_id))
        return joined

    async def games(self, account: Account) -> list[MyGame]:
        return await self.store.run(self._games, account.id)

    def _games(self, account_id: int) -> list[MyGame]:
        """The account's seat links, newest first, with whose turn it is: from the rows alone
        (no table is loaded)."""
        with Session(self.store.engine) as session:
            rows = self.store.players.links_held(session, account_id, GAMES_LISTED)
            ids = [t.id for _token, _seats, t in rows]
            seats = self.store.players.seats_of(session, ids)
            results = session.scalars(select(ResultRow).where(ResultRow.table_id.in_(ids))).all() \
                if ids else []
        by_table: dict[str, list[SeatData]] = {}
        for table_id, seat in seats:
            by_table.setdefault(table_id, []).append(seat)
        outcome = {(r.table_id, r.seat): r.outcome for r in results}
        listed: list[MyGame] = []
        for token, held, table in rows:
            mine = list(held)
            others = sorted((s for s in by_table.get(table.id, []) if s.seat not in mine),
                            key=lambda s: s.seat)
            listed.append({
                "url": f"/play/{token}",
                "table": table.id,
                "game": table.game,
                "title": game_class(table.game).game_type.long_name,
                "seats": mine,
                "with": [_seat_label(s) for s in others],
                "finished": bool(table.finished),
                "archived": bool(table.archived),
                "your_turn": not table.finished and not table.archived
                and table.to_act is not None and table.to_act in mine,
                "to_act": None if table.finished else table.to_act,
                "rated": bool(table.rated) and not table.unrated,  # an unrated end: casual
                "result": next((outcome[(table.id, s)] for s in mine
                                if (table.id, s) in outcome), None),
                "updated_at": table.updated_at or table.created_at,
            })
        return listed


def _seat_label(seat: SeatData) -> str:
    if seat.kind == "ai":
        return f"Computer ({seat.agent})"
    if seat.kind == "open":
        return "a free seat"
    return seat.name or f"Player {seat.seat + 1}"


async def _hashing(work: Awaitable[str]) -> str:
    """A hash, or :class:`TooManyAttempts` when the hashing queue has no room for it."""
    try:
        return await work
    except HashingBusy as exc:
        raise TooManyAttempts(1, text_of(exc), exc.status) from None


def _normalised(password: str) -> str:
    return normalise(password[: MAX_PASSWORD * 2])
