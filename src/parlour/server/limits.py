"""Every size, count, rate and time the web table bounds, in one place, with why.

A server on the open internet meets clients that loop: creating tables, sending messages,
connecting and disconnecting. Each limit below caps what one client (one address) can make the
server do, and is named in docs/web.md. ``parlour serve --limit NAME=VALUE`` (or
``$PARLOUR_LIMITS="NAME=VALUE,..."``) changes one, e.g. for a load test from one address.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

LIMITS_ENV = "PARLOUR_LIMITS"


@dataclass(frozen=True)
class Limits:
    """The numbers (see docs/web.md, "Limits", for the reasoning behind each)."""

    body_bytes: int = 16384
    """Largest HTTP request body: a table's options or a whole turn fit many times over."""
    message_bytes: int = 8192
    """Largest websocket message accepted (a larger frame, up to 64 kB, gets an error)."""
    tables_burst: int = 20
    """Tables one client may create in a burst..."""
    tables_per_minute: float = 6.0
    """...and then per minute: friends start a few games an evening, not thousands."""
    open_tables_per_client: int = 200
    """Unfinished tables one client may have created (finished or archived ones don't count)."""
    requests_burst: int = 120
    """HTTP requests one client may send in a burst..."""
    requests_per_second: float = 20.0
    """...and then per second (a page load is a handful; the API is not a stream)."""
    messages_burst: int = 60
    """Websocket messages one connection may send in a burst..."""
    messages_per_second: float = 10.0
    """...and then per second (a person clicks a few times a second at most)."""
    connects_burst: int = 30
    """Websocket connections one client may open in a burst..."""
    connects_per_second: float = 2.0
    """...and then per second (reconnecting after a network change is one or two)."""
    connections_per_client: int = 64
    """Open websockets from one client at once (tabs, seats, a few spectated tables)."""
    send_bytes_per_connection: int = 1_048_576
    """Bytes of messages waiting for one websocket before it is closed as one that does not
    read (a state message replaces the one still waiting, so a socket holds one at most: 130 kB
    on a 99 x 26 board, a kilobyte on the others)."""
    send_bytes_per_client: int = 16_777_216
    """Bytes waiting for all of one client's websockets together (64 sockets of the largest
    board's states fit)."""
    listeners_per_table: int = 200
    """Open websockets at one table; seat holders are always let in, spectators up to this."""
    loaded_tables: int = 2000
    """Tables kept in memory; beyond it the longest-idle ones nobody watches are unloaded."""
    idle_unload_seconds: float = 300.0
    """A table nobody watches and nothing happens at is unloaded after this (it is reloaded
    from the database on the next request)."""
    presence_delay: float = 0.5
    """Seconds over which seat-presence changes (someone connecting or leaving) are gathered
    into one update for the table."""
    analysis_seconds: float = 5.0
    """The analysis board's solve limit: a position not solved in it is answered "not solved
    within N s" (the regions and the principal line get 2 s more; the worker is killed 3 s
    after that)."""
    analysis_stones: int = 80
    """Stones in a position sent to the analysis board (the board itself may be 99 x 26)."""
    analyses_burst: int = 20
    """Analyses one client may ask for in a burst..."""
    analyses_per_minute: float = 30.0
    """...and then per minute (each may keep a core busy for seconds)."""
    analysis_workers: int = 1
    """Worker processes that solve for the analysis board (apart from the computer players'),
    so that analyses never delay a table's computer move."""
    analysis_queue: int = 8
    """Analyses waiting for a worker at once; beyond, a request is answered busy (503)."""
    rate_keys: int = 100_000
    """Clients remembered by the rate limiters (least recently seen forgotten first)."""
    # -- accounts (issue 29; docs/web.md, "Accounts") ------------------------------------------
    sign_in_free_per_account: int = 5
    """Failed sign-ins in a row for one username before each next try must wait..."""
    sign_in_free_per_address: int = 20
    """...and for one address (a family behind one router mistypes too)..."""
    sign_in_max_delay: float = 900.0
    """...a wait that doubles from 1 s with every further failure, up to this (15 min)."""
    sign_ups_burst: int = 5
    """Accounts one client may create in a burst..."""
    sign_ups_per_hour: float = 10.0
    """...and then per hour (a household signs up a few people, a script thousands)."""
    password_hashes_at_once: int = 2
    """Argon2id hashes computed at once (64 MiB and tens of ms each): the rest queue."""
    password_hashes_per_client: int = 4
    """Hashes one client may have queued or running at once in a process (beyond, 429);
    clients take turns for the pool, one hash each, so one client's queue never delays
    another's hash by more than a hash per client waiting."""
    password_hash_queue: int = 200
    """Hashes waiting in one process, every client together (beyond, 503 "busy")."""
    sign_ins_burst: int = 30
    """Sign-ins one client may try in a burst, right or wrong, every process together..."""
    sign_ins_per_minute: float = 30.0
    """...and then per minute (a class signs in at once; a loop of right passwords still
    costs a hash each)."""
    sign_ins_at_once_per_address: int = 4
    """Sign-ins from one address being checked at once, every process together..."""
    sign_ins_at_once_per_account: int = 2
    """...and for one username (a person signs in on one device at a time)."""
    passkey_prompts_per_client: int = 10
    """Passkey prompts one client may hold open at once, every process together..."""
    passkey_prompts_open: int = 10_000
    """...and every client together (beyond, 503 "try again soon")."""
    passkey_prompt_seconds: float = 120.0
    """A passkey prompt must be answered within this (the browser gives up after 60 s)."""
    session_days: float = 30.0
    """A session unused this long ends (each use moves its end on, at most once a day)."""
    sessions_per_account: int = 20
    """Signed-in browsers per account; signing in on one more ends the oldest."""
    passkeys_per_account: int = 10
    """Passkeys one account may register (a phone, a laptop, a security key or two)."""
    guest_games_joined: int = 20
    """Seat links a browser hands over at sign-in (it remembers 20)."""
    queue_per_client: int = 4
    """"Play someone now" entries one client (address) may have at once."""
    rated_pair_games_per_day: int = 3
    """Rated games between the same two accounts that change ratings in 24 hours; the rest
    are played unrated (two accounts of one person cannot farm a rating, issue 62)."""
    mails_per_day: int = 20
    """Turn e-mails one account receives a day at most."""
    mail_delay: float = 60.0
    """Seconds a correspondence turn waits before its e-mail goes (a quick reply needs none)."""
    confirmation_mails_per_hour: int = 3
    """Confirmation e-mails one account may have sent in an hour (every process together): a
    typo mended or two, not a way to make the server write to address after address."""
    confirmation_mails_per_recipient: int = 3
    """Confirmation e-mails one address may receive in a day, from every account together:
    nobody can use many accounts to fill someone else's mailbox."""
    # bots, tokens and challenges (issue 31, docs/bots.md)
    tokens_per_account: int = 20
    """Personal API tokens one account may hold at once."""
    token_requests_burst: int = 120
    """Requests one API token may make in a burst (each server process counts its own)..."""
    token_requests_per_second: float = 20.0
    """...and the rate that bucket refills at."""
    challenges_open_per_account: int = 20
    """Challenges one account may have sent and still waiting for an answer."""
    challenges_per_minute: float = 20.0
    """Challenges one account may send a minute (a burst of as many)."""
    challenge_seconds: float = 600.0
    """How long a challenge waits for its answer before it lapses."""
    invitation_seconds: float = 86400.0
    """How long a table waits for its invited players to open their links; then it ends
    unplayed (a friend has a day to come; nobody's clock runs meanwhile)."""
    bot_streams_per_account: int = 8
    """Event streams one bot account may hold open at once (each game stream apart)."""
    bot_game_streams_per_account: int = 100
    """Game streams one bot account may hold open at once, over all its games: two for each
    of ``bot_games_at_once`` (a stream opened again before the dropped one is noticed gone)."""
    bot_games_at_once: int = 50
    """Unfinished games one bot account may play at once: a challenge past it is refused."""
    bot_move_answers: int = 10_000
    """Answers of stored Bot API moves this process remembers for their resends (the oldest
    forgotten first): a resend within them gets the first answer again, byte for byte."""
    bot_move_answer_seconds: float = 600.0
    """How long such an answer is remembered: a bot resends a lost move within seconds."""
    # puzzles from the server's finished games (issue 32, docs/web.md "Puzzles")
    puzzle_mining_seconds_per_hour: float = 300.0
    """Solver time an hour that mining finished Clobber games for puzzles may take, every
    process together (a twelfth of a core); 0 turns the mining off."""
    puzzle_game_seconds: float = 60.0
    """Solver time one finished game gets (its candidate positions in the order played)."""
    puzzle_position_seconds: float = 10.0
    """Solver time one candidate position gets, all its solves together (its winning moves,
    its line's replies, its effort); past it the position is skipped."""

    @classmethod
    def from_text(cls, text: str | None, base: Limits | None = None) -> Limits:
        """``"name=value,name=value"`` applied over ``base`` (or the defaults)."""
        limits = base or cls()
        if not text:
            return limits
        fields = {f.name: f for f in dataclasses.fields(cls)}
        changes: dict[str, Any] = {}  # each checked against its field's kind below
        for item in text.replace(";", ",").split(","):
            if not item.strip():
                continue
            name, sep, value = item.partition("=")
            name = name.strip()
            if not sep or name not in fields:
                known = ", ".join(sorted(fields))
                raise ValueError(f"unknown limit {item.strip()!r}; limits: {known}")
            kind = int if fields[name].type in ("int", int) else float
            try:
                number = kind(value.strip())
            except ValueError:
                raise ValueError(f"limit {name} takes a number, not {value.strip()!r}") from None
            if number < 0:
                raise ValueError(f"limit {name} cannot be negative")
            changes[name] = number
        return dataclasses.replace(limits, **changes)

    @classmethod
    def from_env(cls) -> Limits:
        return cls.from_text(os.environ.get(LIMITS_ENV))


class RateLimiter:
    """Token buckets per key: ``burst`` at once, then ``rate`` per second.

    The keys are bounded (least recently used forgotten first), so a flood of new addresses
    cannot grow it without end; a forgotten client starts again with a full bucket.
    """

    def __init__(self, burst: float, rate: float, max_keys: int = 100_000) -> None:
        self.burst = float(burst)
        self.rate = float(rate)
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, now: float | None = None) -> bool:
        """Take one token for ``key``; ``False`` (and take nothing) if there is none."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return allowed

    def retry_after(self, key: str) -> int:
        """Whole seconds until ``key`` has a token again."""
        tokens, _last = self._buckets.get(key, (self.burst, 0.0))
        if tokens >= 1.0 or self.rate <= 0:
            return 1
        return max(1, int((1.0 - tokens) / self.rate + 0.999))


def client_key(address: str | None) -> str:
    """A client's address as the server keeps it: hashed (it is never stored in the clear)."""
    return hashlib.sha256(f"parlour-client:{address or '?'}".encode()).hexdigest()[:32]
