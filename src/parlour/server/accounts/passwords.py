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
``password_hashes_at_once`` at a time, so a burst of sign-ins cannot take all the memory.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import re
import unicodedata
from concurrent.futures import ThreadPoolExecutor

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


class Hasher:
    """Argon2id hashing and checking in a bounded pool of threads (argon2-cffi releases the
    GIL while it works)."""

    def __init__(self, at_once: int = 2) -> None:
        self.hasher = PasswordHasher()  # argon2-cffi's defaults: RFC 9106, low-memory option
        self._pool = ThreadPoolExecutor(max_workers=max(1, at_once),
                                        thread_name_prefix="parlour-argon2")
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        return await asyncio.get_running_loop().run_in_executor(
            self._pool, self.hasher.hash, password)

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

    async def verify(self, stored: str | None, password: str) -> tuple[bool, bool]:
        return await asyncio.get_running_loop().run_in_executor(
            self._pool, self._verify, stored, password)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
