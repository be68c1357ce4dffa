"""Usernames and passwords: the rules they follow, and Argon2id hashing off the event loop.

The password policy is NIST SP 800-63B's (section 3.1.1.2 of revision 4, 5.1.1.2 of revision
3): at least 8 characters and at most :data:`MAX_PASSWORD` (so that any passphrase fits), no
composition rules (no "one digit and one capital"), every printable character and space
allowed, compared after Unicode NFKC normalisation; refused when it is on a list of common or
breached passwords (the 30,000 most common passwords of the Xato corpus that ships in the
``zxcvbn`` package), repetitive or sequential ("aaaaaaaa", "12345678"), or built on the
username or the service's name.

Hashes are Argon2id with argon2-cffi's recommended parameters (RFC 9106's second recommended
option: 64 MiB, 3 passes, 4 lanes), each taking tens of milliseconds and 64 MiB: they run in a
small pool of their own (:class:`Hasher`), never on the event loop and never more than
``password_hashes_at_once`` at a time, so a burst of sign-ins cannot take all the memory. The
hashes waiting for the pool queue per client and the clients take turns, one hash each (round
robin, as the computer players' fair queue does), with at most ``password_hashes_per_client``
queued or running for one client: a client that sends hundreds of sign-ins delays another's by
a hash or so, not by its whole queue. Signing in and signing up wait in two lanes served in
turn, so that new accounts made from many addresses at once (each its own client) delay a
returning player's sign-in by a hash, not by a hash per address.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import re
import unicodedata
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from parlour.i18n import Message
from parlour.server.names import NameRefused, check_person

MIN_USERNAME = 3
MAX_USERNAME = 20
USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
MIN_PASSWORD = 8
MAX_PASSWORD = 256
"""NIST asks for at least 64; 256 characters fit any passphrase and bound the hashing input."""
SERVICE_WORDS = ("parlour", "parlor")
RESERVED = frozenset({"admin", "administrator", "root", "system", "parlour", "moderator",
                      "support", "deleted", "guest", "computer", "anonymous", "me", "api"})
"""Usernames that would mislead: the service's own names, "deleted player", "Computer"."""


class PolicyError(ValueError):
    """A username or password that cannot be used (the message says why, in a player's words)."""


def username_key(name: str) -> str:
    """A username as compared: unique ignoring case."""
    return name.casefold()


def check_username(name: str) -> str:
    """The username if it can be used, else :class:`PolicyError`."""
    if not MIN_USERNAME <= len(name) <= MAX_USERNAME:
        raise PolicyError(Message(
            "a username is {min_username} to {max_username} characters long",
            min_username=MIN_USERNAME, max_username=MAX_USERNAME))
    if not USERNAME.fullmatch(name):
        raise PolicyError(Message("a username has only letters, digits, - and _"))
    if username_key(name) in RESERVED:
        raise PolicyError(Message("the username {name!r} is reserved: choose another", name=name))
    try:
        check_person(name)  # "Computer_hard", "c0mputer": the computer's, in any language
    except NameRefused as exc:
        raise PolicyError(exc.args[0]) from None
    return name


@functools.cache
def common_passwords() -> frozenset[str]:
    """The common and breached passwords refused (loaded once, on first use)."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(p.casefold() for p in FREQUENCY_LISTS["passwords"])


def normalise(password: str) -> str:
    """NFKC, as NIST asks, so that the same passphrase typed on two keyboards is one."""
    return unicodedata.normalize("NFKC", password)


def _sequential(text: str) -> bool:
    """Every character the same, or each one code point after (or before) the last."""
    if len(set(text)) == 1:
        return True
    steps = {ord(b) - ord(a) for a, b in itertools.pairwise(text)}
    return steps in ({1}, {-1})


def check_password(password: str, username: str) -> str:
    """The normalised password if the policy allows it, else :class:`PolicyError`."""
    text = normalise(password)
    if len(text) < MIN_PASSWORD:
        raise PolicyError(Message(
            "a password is at least {min_password} characters long",
            min_password=MIN_PASSWORD))
    if len(text) > MAX_PASSWORD:
        raise PolicyError(Message(
            "a password is at most {max_password} characters long",
            max_password=MAX_PASSWORD))
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in text):
        raise PolicyError(Message("a password cannot hold control characters"))
    folded = text.casefold()
    if folded in common_passwords():
        raise PolicyError(Message(
            "that password is one of the most common (it is on lists of breached passwords): "
            "choose another, a few unrelated words make a good one"))
    if _sequential(folded):
        raise PolicyError(Message(
            "a password of one repeated or sequential run of characters is guessed at once: choose"
            " another"))
    if username_key(username) in folded:
        raise PolicyError(Message("a password cannot contain your username"))
    stripped = folded.strip("0123456789!?.-_ ")
    if stripped in SERVICE_WORDS or stripped in common_passwords():
        raise PolicyError(Message(
            "that password is a common one with digits or signs around it: choose another"))
    return text


class HashingBusy(ValueError):
    """No room in the hashing queue: this client's share is full (429) or everyone's (503)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


_Job = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]
LANES = ("sign_in", "sign_up")
"""The hashing queue's lanes, served in turn: players signing in (and changing their
password), and new accounts."""


class Hasher:
    """Argon2id hashing and checking in a bounded pool of threads (argon2-cffi releases the
    GIL while it works), fed from a fair queue over clients.

    Everything but the hashing itself runs on the event loop's thread (the queue needs no
    lock): :meth:`_dispatch` starts the next job whenever a thread is free, from the lane
    whose turn it is (:data:`LANES`), and in it from the client whose turn it is. With two
    threads or more, one lane or one client runs on all but one of them at most (as one
    client's computer players do): the last thread is always there for somebody else.
    """

    def __init__(self, at_once: int = 2, per_client: int = 4, queued: int = 200) -> None:
        self.hasher = PasswordHasher()  # argon2-cffi's defaults: RFC 9106, low-memory option
        self.at_once = max(1, at_once)
        self.per_client = per_client
        self.queued = queued
        self._pool = ThreadPoolExecutor(max_workers=self.at_once,
                                        thread_name_prefix="parlour-argon2")
        self._dummy: str | None = None
        self._lanes: dict[str, OrderedDict[str, deque[_Job]]] = {
            lane: OrderedDict() for lane in LANES}
        """Per lane, each client's jobs in order (the first client's turn is next)."""
        self._turns = list(LANES)
        """The lanes in the order of their turns (a lane served goes last)."""
        self._held: Counter[str] = Counter()
        """Jobs per client queued or running (a client's share)."""
        self._busy: Counter[tuple[str, str]] = Counter()
        """Threads working per ``("lane", name)`` and ``("client", key)``."""
        self._queued = 0
        self._running = 0

    async def _run(self, lane: str, client: str, fn: Callable[..., Any], *args: Any) -> Any:
        if self._held[client] >= self.per_client:
            raise HashingBusy(Message(
                "too many sign-ins from here at once: try again in a moment"), 429)
        if self._queued >= self.queued:
            raise HashingBusy(Message(
                "the server is busy signing people in: try again in a moment"), 503)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._held[client] += 1
        self._lanes[lane].setdefault(client, deque()).append((fn, args, future))
        self._queued += 1
        self._dispatch(loop)
        try:
            return await future
        finally:
            self._held[client] -= 1
            if not self._held[client]:
                del self._held[client]

    def _next(self) -> tuple[str, str] | None:
        """The lane and client whose job goes next: the first in turn that may have one
        more thread."""
        most = max(1, self.at_once - 1)
        for lane in self._turns:
            if self._busy["lane", lane] >= most:
                continue
            for client in self._lanes[lane]:
                if self._busy["client", client] < most:
                    return lane, client
        return None

    def _dispatch(self, loop: asyncio.AbstractEventLoop) -> None:
        while self._running < self.at_once and self._queued:
            chosen = self._next()
            if chosen is None:
                return
            lane, client = chosen
            self._turns.remove(lane)
            self._turns.append(lane)  # the other lane's turn next
            waiting = self._lanes[lane]
            jobs = waiting[client]
            fn, args, future = jobs.popleft()
            self._queued -= 1
            if jobs:
                waiting.move_to_end(client)  # its next job waits for every other client
            else:
                del waiting[client]
            if future.done():  # its request went away while it waited
                continue
            self._running += 1
            self._busy["lane", lane] += 1
            self._busy["client", client] += 1
            work = loop.run_in_executor(self._pool, fn, *args)
            work.add_done_callback(functools.partial(self._finished, loop, future,
                                                     lane, client))

    def _finished(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any],
                  lane: str, client: str, work: asyncio.Future[Any]) -> None:
        self._running -= 1
        for key in (("lane", lane), ("client", client)):
            self._busy[key] -= 1
            if not self._busy[key]:
                del self._busy[key]  # no key kept for a client gone
        if not future.done():
            if work.cancelled():
                future.cancel()
            elif work.exception() is not None:
                future.set_exception(work.exception())  # type: ignore[arg-type]
            else:
                future.set_result(work.result())
        self._dispatch(loop)

    async def hash(self, password: str, client: str = "", lane: str = "sign_in") -> str:
        """The hash of a new password: ``lane`` ``"sign_up"`` for a new account's."""
        result: str = await self._run(lane, client, self.hasher.hash, password)
        return result

    def _verify(self, stored: str | None, password: str) -> tuple[bool, bool]:
        """``(matches, needs a new hash)``; an absent hash is checked against a dummy one so
        that an unknown user costs the same time as a wrong password."""
        if stored is None:
            if self._dummy is None:
                self._dummy = self.hasher.hash("parlour: nobody has this password")
            stored = self._dummy
            password = password + "\0"  # never matches
        try:
            self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False, False
        return True, self.hasher.check_needs_rehash(stored)

    async def verify(self, stored: str | None, password: str,
                     client: str = "") -> tuple[bool, bool]:
        result: tuple[bool, bool] = await self._run("sign_in", client, self._verify, stored,
                                                    password)
        return result

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
