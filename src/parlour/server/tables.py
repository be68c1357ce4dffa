"""The live tables: state in memory, every change stored first, then shown to each seat.

A :class:`Hub` owns every table the server has loaded. One asyncio lock per table orders the
submissions to it: inside the lock an action is checked on a copy of the state, written to the
database and committed, and only then does the copy become the table's state and the
acknowledgement and the new views go out. Two submissions for the same turn therefore meet
one after the other, and the second finds the turn taken (refused, with the reason); a resent
submission finds its client id already stored (acknowledged again, applied once).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import os
import random
import secrets
import socket
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.agents import plays
from parlour.core import (
    CHANCE_PLAYER,
    Game,
    IllegalActionError,
    Information,
    ParlourError,
    State,
    load_game,
)
from parlour.games.wording import illegal_message, notation_message
from parlour.server.ai import (
    WEB_AGENTS,
    AIFailure,
    AIRunner,
    fallback_action,
    is_web_agent,
    move_seed,
)
from parlour.server.clocks import Clock, ClockConfig
from parlour.server.fanout import Listener
from parlour.server.limits import Limits, RateLimiter
from parlour.server.names import clean_name, seat_display_name
from parlour.server.protocol import error
from parlour.server.steward import COVER_AGENT, Steward, apply_event
from parlour.server.store import (
    ActionData,
    ConflictError,
    EventData,
    HandData,
    SeatData,
    Store,
    TableData,
)
from parlour.server.views import (
    HIDDEN_PARAMS,
    Note,
    is_public,
    public_params,
    state_payload,
    turn_log,
)

log = logging.getLogger("parlour.server")

SEAT_CHOICES = ("me", "invite", "hotseat", "ai", "open")
"""How the lobby fills a seat: the creator's own seat, a private link, another player at the
creator's screen, a computer player (with an agent name), or a free seat that anyone may take
from the public lobby (open tables only)."""
LOG_LENGTH = 30
"""How many recent moves each state message carries."""
MAX_QUEUE = 512
"""Messages waiting for a slow client before it is disconnected."""
CLAIM_TTL = 3.0
"""Seconds a process's claim on a table's next computer move lasts unless renewed (it is
renewed every second while the work goes on): a process killed mid-turn loses it this soon."""
JANITOR_SECONDS = 2.0
"""How often each process (PostgreSQL) looks for work a dead process left unclaimed."""
CATCH_UP_SECONDS = 5.0
"""How often each process (PostgreSQL) checks its watched tables against the database, in
case a notification was lost."""
NOTICES = 5
"""How many of a table's recent notices (a computer player's move cut short...) each state
message carries."""


def action_text(state: State, action: int, player: int) -> str:
    return state.safe_action_string(action, player)


def note_for(state: State, seq: int, player: int, action: int) -> Note:
    """The log entry of ``action`` about to be applied to ``state``: its full text (for the
    mover) and the text everyone may see (G-3, ``State.public_action_string``)."""
    try:
        public = state.public_action_string(action)
    except (ValueError, IndexError, KeyError):
        public = None
    try:
        scores: tuple[float, ...] | None = tuple(state.scores())
    except (ValueError, NotImplementedError):
        scores = None
    return Note(seq, player, action_text(state, action, player), public, scores)


def sample_chance(state: State, seed: int, seq: int) -> int:
    """The chance outcome at move ``seq``: drawn from the table's secret seed, so a table
    that is rebuilt after a crash before storing it draws the same outcome again."""
    return state.sample_chance_outcome(random.Random(f"chance:{seed}:{seq}"))


class Connection:
    """One websocket: the hand it speaks for (``None``: a spectator), its outgoing queue and
    the rate at which it may send."""

    def __init__(self, hand: HandData | None, limits: Limits | None = None) -> None:
        self.hand = hand
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.closed = False
        limits = limits or Limits()
        self.rate = RateLimiter(limits.messages_burst, limits.messages_per_second, 1)
        self.refused = 0

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            log.warning("dropping a client that does not read its messages")
            self.close()
            return
        self.queue.put_nowait(message)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)


@dataclass
class Table:
    """One game in progress (or finished): its configuration, state, notes and listeners."""

    id: str
    game: Game
    seed: int
    seats: tuple[SeatData, ...]
    hands: tuple[HandData, ...]
    state: State
    notes: list[Note]
    acks: dict[str, int]
    rematch_id: str | None = None
    rematch_tokens: dict[int, str] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    ai_task: asyncio.Task[None] | None = None
    notices: list[str] = field(default_factory=list)
    last_active: float = field(default_factory=time.monotonic)
    custom_start: bool = False
    presence_task: asyncio.Task[None] | None = None
    # around the game (issue 18): see parlour.server.steward
    clock: Clock | None = None
    events: list[EventData] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    """A result the table decided (a loss on time, a resignation), over the game's own."""
    covered: set[int] = field(default_factory=set)
    """Seats the computer plays this turn because their time ran out."""
    taken_over: set[int] = field(default_factory=set)
    """Seats the computer holds until their owner claims them back (or for good: resigned)."""
    resigned: set[int] = field(default_factory=set)
    timeouts: dict[int, int] = field(default_factory=dict)
    """Time-outs in a row per seat."""
    listed: bool = False
    archived: bool = False
    undo_request: dict[str, Any] | None = None
    timer: asyncio.Task[None] | None = None
    created_at: float = 0.0

    @property
    def version(self) -> int:
        return self.state.move_number()

    @property
    def title(self) -> str:
        return self.game.get_type().long_name

    def seat_names(self) -> list[str]:
        """Each seat as players call it: a name, a computer's strength, or "Player 2"."""
        return [self.seat_name(s.seat) for s in self.seats]

    @property
    def over(self) -> bool:
        """The game ended by its rules, or the table decided it (time, resignation)."""
        return self.outcome is not None or self.state.is_terminal()

    @property
    def started(self) -> bool:
        """Every seat is taken (an open table waits for players before anyone moves)."""
        return all(s.kind != "open" for s in self.seats)

    def to_act(self) -> int | None:
        """The seat whose time runs now, if any."""
        if self.over or not self.started:
            return None
        player = self.state.current_player()
        return player if player >= 0 else None

    def deciding(self) -> bool:
        """A bluff decision (challenge or trust) is what the player to act must make."""
        return deciding(self.state)

    def tick(self, when: float) -> None:
        """The clock after a change at ``when`` (a stored move, an event)."""
        running = self.to_act()
        if self.clock is not None:
            self.clock.advance(when, running, self.deciding())
        self.covered &= {running} if running is not None else set()

    def deadline(self) -> float | None:
        """When the running turn's time is up; none while the computer plays that seat (its
        own move deadline bounds it), so a turn times out once."""
        if self.clock is None or self.over:
            return None
        running = self.clock.running
        if running is not None and (running in self.covered or running in self.taken_over):
            return None
        return self.clock.deadline()

    def params_json(self) -> str:
        return json.dumps(self.game.non_default_parameters(), sort_keys=True)

    def hand_by_token(self, token: str) -> HandData | None:
        for hand in self.hands:
            if secrets.compare_digest(hand.token, token):
                return hand
        return None

    def online(self, seat: int) -> bool:
        return any(c.hand is not None and seat in c.hand.seats for c in self.connections)

    def presence(self) -> tuple[bool, ...]:
        return tuple(self.online(s.seat) for s in self.seats)

    def seat_name(self, seat: int) -> str:
        """How messages name a seat: the computer's strength, else "Player N" counted from 1
        as players count (the API's ``seat`` fields count from 0, as OpenSpiel does)."""
        held = self.seats[seat]
        if held.kind == "ai" and held.agent:
            return WEB_AGENTS.get(held.agent, f"Computer ({held.agent})")
        if held.kind == "open":
            return f"Free seat {seat + 1}"
        return held.name or f"Player {seat + 1}"  # a person's chosen name, when they gave one

    def notice(self, text: str) -> None:
        """Tell everyone at the table something the game itself does not show."""
        self.notices = [*self.notices, text][-NOTICES:]

    def focus(self, hand: HandData | None) -> int | None:
        """Whose eyes a hand sees through: the seat to act if it holds it, else its first."""
        if hand is None or not hand.seats:
            return None
        current = self.state.current_player()
        return current if current in hand.seats else hand.seats[0]

    def last_player_note(self) -> Note | None:
        for note in reversed(self.notes):
            if note.player != CHANCE_PLAYER:
                return note
        return None

    def message(self, hand: HandData | None, viewer: int | None = None) -> dict[str, Any]:
        """The full state message for a hand (or a spectator): built from one seat's view."""
        if viewer is None:
            viewer = self.focus(hand)
        public = is_public(self.game)
        body: dict[str, Any] = {
            "type": "state",
            "table": self.id,
            "game": self.game.name,
            "title": self.game.get_type().long_name,
            "params": public_params(self.game),
            "public": public,
            "num_players": self.game.num_players(),
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "agent": s.agent,
                    "label": self.seat_name(s.seat),
                    "name": seat_display_name(s.kind, s.agent, s.name),
                    "online": self.online(s.seat),
                }
                for s in self.seats
            ],
            "custom_start": self.custom_start,
            "notices": list(self.notices),
            "started": self.started,
            "listed": self.listed,
            "archived": self.archived,
            "taken_over": sorted(self.taken_over),
            "resigned": sorted(self.resigned),
            "undo": self.undo_request,
            "hand": None if hand is None else {"seats": list(hand.seats), "role": hand.role},
            "log": turn_log(self.game, self.notes, viewer, self._scores()),
            "watch": f"/watch/{self.id}",
            "rematch": None,
            **state_payload(self.state, viewer, self.last_player_note()),
            "clock": None if self.clock is None else self.clock.payload(time.time()),
        }
        if self.outcome is not None:  # the table decided the game: nobody moves any more
            body.update(terminal=True, legal=[], result=self.outcome, to_act=-4)
        elif not self.started:
            body["legal"] = []
        if hand is None:
            body["rematch"] = f"/watch/{self.rematch_id}" if self.rematch_id else None
        elif hand.hand in self.rematch_tokens:
            body["rematch"] = f"/play/{self.rematch_tokens[hand.hand]}"
        if hand is not None and hand.creator:
            body["invites"] = [
                {"seats": list(h.seats), "url": f"/play/{h.token}"}
                for h in self.hands
                if h.role == "invite"
            ]
        return body

    def _scores(self) -> tuple[float, ...] | None:
        try:
            return tuple(self.state.scores())
        except (ValueError, NotImplementedError):
            return None

    def broadcast(self) -> None:
        """Send every listener its own message (computed once per hand)."""
        cache: dict[int | None, dict[str, Any]] = {}
        for conn in list(self.connections):
            key = None if conn.hand is None else conn.hand.hand
            if key not in cache:
                cache[key] = self.message(conn.hand)
            conn.send(cache[key])


class CreateError(ParlourError):
    """A table that cannot be created as asked (bad game, parameters or seats)."""


class QuotaError(ParlourError):
    """A client over one of its limits (tables created too fast, too many open)."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def replay_into(table: Table, rows: Sequence[ActionData], events: Sequence[EventData]) -> None:
    """Apply stored actions and table events to ``table`` in the order they happened (an
    event at version ``v`` before action ``v``), the clock ticking at each commit time."""
    position = 0
    for index, row in enumerate(rows):
        if row.seq != table.version:
            break
        while position < len(events) and events[position].at <= row.seq:
            apply_event(table, events[position])
            position += 1
        table.notes.append(note_for(table.state, row.seq, row.player, row.action))
        table.state.apply_action(row.action)
        if row.client_key is not None:
            table.acks[row.client_key] = row.seq
        if row.player >= 0 and not (row.client_key or "").startswith(("ai:", "timeout:")):
            table.timeouts.pop(row.player, None)  # the player moved: no time-outs in a row
        if index + 1 == len(rows) or rows[index + 1].at != row.at:
            table.tick(row.at)
    for event in events[position:]:
        apply_event(table, event)


def deciding(state: State) -> bool:
    """Whether the player to act must decide to challenge or trust (GobbleStones, B9): such a
    decision has its own short time limit, and defaults to trust when it runs out."""
    trust = getattr(state.game, "TRUST", None)
    return (trust is not None and state.current_player() >= 0
            and trust in state.legal_actions())


def _to_act(state: State) -> int | None:
    """Who acts next, as the store keeps it: a seat, -1 for chance, ``None`` at the end."""
    return None if state.is_terminal() else state.current_player()


class Hub:
    """Every loaded table, the database behind them, and the AI workers."""

    def __init__(
        self,
        store: Store,
        ai: AIRunner,
        *,
        ai_delay: float = 0.0,
        limits: Limits | None = None,
        extra_agents: Sequence[str] = (),
    ) -> None:
        self.store = store
        self.extra_agents = frozenset(extra_agents)
        self.ai = ai
        self.ai_delay = ai_delay
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, str] = {}  # token -> table id, for the tables in memory
        self._loading: dict[str, asyncio.Lock] = {}
        self._creations = RateLimiter(
            self.limits.tables_burst, self.limits.tables_per_minute / 60.0, self.limits.rate_keys
        )
        self._background: set[asyncio.Task[Any]] = set()
        self.resumed = 0
        self.ready = False
        self.steward = Steward(self)
        self.archive_after: float | None = None
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        """This process, as its claims name it."""
        self.listener: Listener | None = None

    # -- loading ----------------------------------------------------------------------------
    async def start(self) -> None:
        """Resume, in the background, the unfinished tables that wait for the server itself
        (a computer player or a chance event to act). Other tables stay in the database until
        someone opens them: a restart costs nothing per idle table.

        On a shared database (PostgreSQL) also listen for other processes' moves, look for
        work a dead process left unclaimed, and check watched tables now and then."""
        if self.store.shared:
            loop = asyncio.get_running_loop()
            self.listener = Listener(self.store.url, loop, self._on_version, self._on_reconnect)
            self.listener.start()
            self._spawn(self._janitor())
            self._spawn(self._catch_up_loop())
        self._spawn(self._resume())
        self._spawn(self._sweep())
        self._spawn(self.steward.scan())
        if self.archive_after:
            self._spawn(self.steward.archive_loop(self.archive_after))

    # -- several processes on one database ---------------------------------------------------
    async def catch_up(self, table: Table) -> bool:
        """Apply the actions and events other processes stored since this copy was made (call
        with the table's lock held); ``True`` if the table changed."""
        if not self.store.shared:
            return False
        rows = await self.store.run(self.store.actions_since, table.id, table.version)
        events = await self.store.run(self.store.events_since, table.id, len(table.events))
        if not rows and not events:
            return False
        if any(e.kind in ("undo", "join", "fill", "start") for e in events):
            data = await self.store.run(self.store.load, table.id)
            if data is not None:  # the history itself changed: rebuild from the database
                self._replace(table, await asyncio.to_thread(self._build, data))
                return True
        replay_into(table, rows, events)
        table.last_active = time.monotonic()
        if table.over and table.rematch_id is None:
            held = await self.store.run(self.store.rematch_of, table.id)
            if held:
                await self._link_rematch(table, held)
        self.steward.arm(table)
        return True

    def _replace(self, table: Table, fresh: Table) -> None:
        """Give a loaded table (and so its listeners) the contents of a fresh rebuild."""
        for name in ("game", "seed", "seats", "hands", "state", "notes", "acks", "clock",
                     "events", "outcome", "covered", "taken_over", "resigned", "timeouts",
                     "archived"):
            setattr(table, name, getattr(fresh, name))
        table.undo_request = None
        for hand in table.hands:
            self.tokens[hand.token] = table.id

    async def refresh(self, table: Table) -> None:
        """Catch a table up and, if it moved, show everyone at it here and wake its AI."""
        async with table.lock:
            moved = await self.catch_up(table)
            if moved:
                table.broadcast()
        if moved:
            self.schedule_ai(table)

    def _on_version(self, table_id: str, version: int) -> None:
        table = self.tables.get(table_id)
        # a negative version announces a table event (a seat taken, a time-out, an undo)
        if table is not None and (version > table.version or version < 0):
            self._spawn(self.refresh(table))

    def _on_reconnect(self) -> None:
        for table in list(self.tables.values()):
            self._spawn(self.refresh(table))

    async def _catch_up_loop(self) -> None:
        while True:
            await asyncio.sleep(CATCH_UP_SECONDS)
            watched = {t.id: t for t in self.tables.values() if t.connections}
            try:
                versions = await self.store.run(self.store.versions, list(watched))
            except Exception:
                log.exception("periodic catch-up failed")
                continue
            for table_id, version in versions.items():
                if version > watched[table_id].version:
                    self._spawn(self.refresh(watched[table_id]))

    async def _janitor(self) -> None:
        """Take over the computer moves and chance events of tables whose process died."""
        while True:
            await asyncio.sleep(JANITOR_SECONDS)
            try:
                ids = await self.store.run(self.store.unclaimed_waiting_ids, JANITOR_SECONDS)
            except Exception:
                log.exception("looking for unclaimed work failed")
                continue
            for table_id in ids:
                table = await self.table(table_id)
                if table is not None:
                    log.info("table %s: taking over its waiting work", table_id)
                    await self._settle(table)

    async def claim(self, table: Table, version: int) -> bool:
        """Claim the table's work at ``version`` (always ours on a database of one process)."""
        if not self.store.shared:
            return True
        return await self.store.run(self.store.claim, table.id, self.owner, version, CLAIM_TTL)

    async def _keep_claim(self, table: Table, version: int) -> None:
        while True:
            await asyncio.sleep(CLAIM_TTL / 3)
            with contextlib.suppress(Exception):
                await self.claim(table, version)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _resume(self) -> None:
        try:
            ids = await self.store.run(self.store.waiting_table_ids)
            for table_id in ids:
                table = await self.table(table_id)
                if table is None:
                    continue
                await self._settle(table)
                await self.store.run(self.store.set_to_act, table.id, _to_act(table.state))
                self.resumed += 1
                self._maybe_unload(table)
            log.info("resumed %d tables waiting for the server", self.resumed)
        finally:
            self.ready = True

    async def _sweep(self) -> None:
        """Unload tables nobody watches and nothing happens at (memory stays bounded by the
        tables in use; the database keeps everything)."""
        period = max(1.0, min(30.0, self.limits.idle_unload_seconds / 4))
        while True:
            await asyncio.sleep(period)
            self.sweep()

    def sweep(self, now: float | None = None) -> int:
        now = time.monotonic() if now is None else now
        idle = [t for t in self.tables.values() if self._unloadable(t)]
        idle.sort(key=lambda t: t.last_active)
        excess = len(self.tables) - self.limits.loaded_tables
        unloaded = 0
        for table in idle:
            if excess > 0 or now - table.last_active >= self.limits.idle_unload_seconds:
                self._unload(table)
                excess -= 1
                unloaded += 1
        return unloaded

    async def close(self) -> None:
        if self.listener is not None:
            await asyncio.to_thread(self.listener.stop)
        for task in list(self._background):
            task.cancel()
        for table in self.tables.values():
            for running in (table.ai_task, table.presence_task):
                if running is not None:
                    running.cancel()
            for conn in list(table.connections):
                conn.close()
        self.ai.close()

    async def table(self, table_id: str) -> Table | None:
        if table_id in self.tables:
            found = self.tables[table_id]
            found.last_active = time.monotonic()
            if self.store.shared:  # the database is the truth: catch up before answering
                await self.refresh(found)
            return found
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            if table_id in self.tables:
                return self.tables[table_id]
            data = await self.store.run(self.store.load, table_id)
            if data is None:
                self._loading.pop(table_id, None)
                return None
            table = await asyncio.to_thread(self._build, data)
            if data.rematch_id:
                await self._link_rematch(table, data.rematch_id)
            self._remember(table)
            return table

    def _remember(self, table: Table) -> None:
        self.tables[table.id] = table
        for hand in table.hands:
            self.tokens[hand.token] = table.id

    @staticmethod
    def _build(data: TableData) -> Table:
        """Rebuild a table by replaying its stored actions (G-1: they reproduce the game)
        and its events, in the order they happened; the clock is recomputed from the times
        at which they were stored."""
        game = load_game(data.game, **data.params)
        config = ClockConfig.parse(data.clock) if data.clock else None
        starts = [i for i, e in enumerate(data.events) if e.kind == "start"]
        # an early start renumbered the seats and dealt again: what came before it is in the
        # stored seats and hands already
        events = list(data.events[starts[-1]:]) if starts else list(data.events)
        joins = {e.seat for e in events if e.kind in ("join", "fill")}
        seats = tuple(  # as they were when the table was created; the events fill them
            SeatData(s.seat, "open", None) if s.seat in joins else s for s in data.seats
        )
        table = Table(
            id=data.id,
            game=game,
            seed=data.seed,
            seats=seats,
            hands=data.hands,
            state=game.new_initial_state(),
            notes=[],
            acks={},
            rematch_id=data.rematch_id,
            custom_start=any(k in data.params for k in HIDDEN_PARAMS),
            clock=None if config is None else Clock(config, game.num_players()),
            listed=data.listed,
            archived=data.archived,
            created_at=data.created_at,
        )
        table.events = list(data.events[: starts[-1]]) if starts else []
        actions = list(data.actions)
        table.tick(data.created_at)
        replay_into(table, actions, events)
        table.notices = []  # notices are news: a rebuilt table starts with none
        return table

    async def reload(self, table_id: str) -> None:
        """Rebuild a loaded table from the database in place (after an undo, or a seat
        change made by another process); its listeners see the result."""
        table = self.tables.get(table_id)
        data = await self.store.run(self.store.load, table_id)
        if table is None or data is None:
            return
        fresh = await asyncio.to_thread(self._build, data)
        async with table.lock:
            self._replace(table, fresh)
            table.broadcast()
        self.steward.arm(table)
        self.schedule_ai(table)

    async def reload_seats(self, table: Table) -> None:
        self._spawn(self.reload(table.id))

    def forget(self, table: Table) -> None:
        """Drop a table from memory if nobody uses it (it reloads from the database)."""
        if self._unloadable(table):
            self._unload(table)

    async def _link_rematch(self, table: Table, rematch_id: str) -> None:
        data = await self.store.run(self.store.load, rematch_id)
        table.rematch_id = rematch_id
        if data is not None:
            table.rematch_tokens = {h.hand: h.token for h in data.hands}

    async def find_token(self, token: str) -> tuple[Table, HandData] | None:
        if not token or len(token) > 64:
            return None
        table_id = self.tokens.get(token) or await self.store.run(self.store.table_of_token, token)
        table = await self.table(table_id) if table_id else None
        if table is None:
            return None
        hand = table.hand_by_token(token)
        if hand is None and table_id is not None:  # a seat another process gave out
            await self.reload(table_id)
            hand = table.hand_by_token(token)
        return (table, hand) if hand is not None else None

    # -- creating ---------------------------------------------------------------------------
    def allows_agent(self, agent: str | None) -> bool:
        """Computer players the web offers (time-capped), plus any the app was built with."""
        return agent is not None and (is_web_agent(agent) or agent in self.extra_agents)

    def plan_seats(
        self,
        game: Game,
        seat_kinds: Sequence[tuple[str, str | None]] | None,
        names: Sequence[str | None] | None = None,
    ) -> tuple[list[SeatData], list[HandData]]:
        """Seats and hands for the lobby's choices.

        The creator's hand (always hand 0) holds the "me" and "hot-seat" seats; each invited
        seat gets a hand, and so a link, of its own. A creator who keeps no seat still gets a
        hand with none: it sees what a spectator sees plus the invitation links.
        """
        n = game.num_players()
        kinds = list(seat_kinds) if seat_kinds else [("me", None)] + [("invite", None)] * (n - 1)
        if len(kinds) != n:
            raise CreateError(f"{game} has {n} seats; {len(kinds)} were filled")
        seats: list[SeatData] = []
        for seat, (kind, agent) in enumerate(kinds):
            if kind not in SEAT_CHOICES:
                raise CreateError(f"seat {seat + 1}: choose one of {', '.join(SEAT_CHOICES)}")
            if kind == "ai":
                if agent is None or not self.allows_agent(agent):
                    raise CreateError(
                        f"seat {seat + 1}: no computer player {agent!r} here; choose one of "
                        f"{', '.join(WEB_AGENTS)}"
                    )
                if not plays(agent, game.name):
                    raise CreateError(
                        f"seat {seat + 1}: the computer player {agent!r} cannot play "
                        f"{game.get_type().long_name}"
                    )
                seats.append(SeatData(seat, "ai", agent))
            elif kind == "open":
                seats.append(SeatData(seat, "open", None))
            else:
                name = clean_name(names[seat]) if names and seat < len(names) else None
                seats.append(SeatData(seat, "human", None, name))
        own = tuple(i for i, (kind, _) in enumerate(kinds) if kind in ("me", "hotseat"))
        role = ("me" if any(kinds[i][0] == "me" for i in own) else "hotseat") if own else "host"
        hands = [HandData(secrets.token_urlsafe(24), 0, own, role, True)]
        for seat, (kind, _) in enumerate(kinds):
            if kind == "invite":
                hands.append(
                    HandData(secrets.token_urlsafe(24), len(hands), (seat,), "invite", False)
                )
        return seats, hands

    async def create(
        self,
        game_name: str,
        params: dict[str, Any],
        seat_kinds: Sequence[tuple[str, str | None]] | None = None,
        client: str | None = None,
        *,
        names: Sequence[str | None] | None = None,
        listed: bool = False,
        clock: dict[str, Any] | None = None,
    ) -> Table:
        """Create and store a table for the lobby's choices (``client``: the creator's
        address hash, for the per-client limits). A ``listed`` (open) table shows its free
        seats in the public lobby; ``clock`` is a time control (:class:`ClockConfig`); ``names``
        are the players' display names."""
        if client is not None:
            self.check_quota(client)
        try:
            game = load_game(game_name, **params)
            config = ClockConfig.parse(clock)
        except (ParlourError, ValueError) as exc:
            raise CreateError(str(exc)) from None
        if listed and seat_kinds is None:
            seat_kinds = [("me", None)] + [("open", None)] * (game.num_players() - 1)
        seats, hands = self.plan_seats(game, seat_kinds, names)
        if any(s.kind == "open" for s in seats) and not listed:
            raise CreateError('a free seat is for an open table: send "open": true')
        if listed and any(h.role == "invite" for h in hands):
            raise CreateError("an open table fills its free seats from the lobby: no invites")
        hidden = [k for k in HIDDEN_PARAMS if k in params]
        invited = any(h.role == "invite" for h in hands)
        if hidden and (invited or listed) and game.get_type().information != Information.PERFECT:
            whom = "be open to the lobby" if listed else "have invited players"
            raise CreateError(
                f"a {game.get_type().long_name} table that starts from a set-up position "
                f"cannot {whom}: the position shows every player's hidden tiles or cards to "
                "whoever wrote it. Play it hot-seat or against the computer"
            )
        if client is not None:
            count = await self.store.run(self.store.open_tables_created_by, client)
            if count >= self.limits.open_tables_per_client:
                raise QuotaError(
                    f"you have {count} unfinished tables: finish or leave some before "
                    "starting more",
                    retry_after=60,
                )
        return await self._create(game, seats, hands, None, client, listed=listed,
                                  clock=config)

    def check_quota(self, client: str) -> None:
        """The table-creation rate for one client (raises :class:`QuotaError`)."""
        if not self._creations.allow(client):
            wait = self._creations.retry_after(client)
            raise QuotaError(
                f"too many new tables in a short time: try again in {wait} s", retry_after=wait
            )

    async def _create(
        self,
        game: Game,
        seats: Sequence[SeatData],
        hands: Sequence[HandData],
        rematch_of: str | None,
        client: str | None = None,
        *,
        listed: bool = False,
        clock: ClockConfig | None = None,
    ) -> Table:
        table_id = secrets.token_urlsafe(9)
        seed = secrets.randbits(63)
        now = time.time()
        state = game.new_initial_state()
        rows: list[ActionData] = []
        notes: list[Note] = []
        self.resolve_chance(state, seed, rows, notes, now)
        table = Table(table_id, game, seed, tuple(seats), tuple(hands), state, notes, {},
                      listed=listed, created_at=now,
                      clock=None if clock is None else Clock(clock, game.num_players()))
        table.custom_start = any(k in game.non_default_parameters() for k in HIDDEN_PARAMS)
        table.tick(now)
        await self.store.run(
            lambda: self.store.create_table(
                table_id,
                game.name,
                game.non_default_parameters(),
                seed,
                seats,
                hands,
                rows,
                rematch_of,
                state.is_terminal(),
                _to_act(state),
                client,
                listed=listed,
                clock=None if clock is None else clock.to_json(),
                created_at=now,
            )
        )
        self._remember(table)
        log.info("table %s created: %s", table_id, game)
        if table.deadline() is not None:
            await self.steward.save_deadline(table)
        self.schedule_ai(table)
        return table

    async def rematch(self, table: Table) -> Table:
        """The same game again with the same people, every seat moved one place on (so who
        starts rotates). Asked twice, it returns the same rematch."""
        async with table.lock:
            if table.rematch_id:
                found = await self.table(table.rematch_id)
                if found is not None:
                    return found
            n = len(table.seats)
            seats = sorted(
                (SeatData((s.seat + 1) % n, s.kind, s.agent, s.name) for s in table.seats),
                key=lambda s: s.seat,
            )
            hands = [
                HandData(
                    secrets.token_urlsafe(24),
                    h.hand,
                    tuple(sorted((s + 1) % n for s in h.seats)),
                    h.role,
                    h.creator,
                )
                for h in table.hands
            ]
            new = await self._create(
                table.game, seats, hands, table.id,
                clock=None if table.clock is None else table.clock.config,
            )
            held = await self.store.run(self.store.set_rematch, table.id, new.id)
            await self._link_rematch(table, held)
            table.broadcast()
        return self.tables.get(held) or new

    # -- acting -----------------------------------------------------------------------------
    @staticmethod
    def resolve_chance(
        state: State, seed: int, rows: list[ActionData], notes: list[Note], now: float
    ) -> None:
        while state.is_chance_node():
            seq = state.move_number()
            action = sample_chance(state, seed, seq)
            notes.append(note_for(state, seq, CHANCE_PLAYER, action))
            rows.append(ActionData(seq, action, CHANCE_PLAYER, None, now))
            state.apply_action(action)

    async def submit(
        self,
        table: Table,
        seats: Sequence[int],
        steps: Sequence[int | str],
        client_key: str,
        *,
        client_id: str | None = None,
        at: int | None = None,
        partial: bool = False,
        preview: bool = False,
        origin: Connection | None = None,
    ) -> dict[str, Any]:
        """Check ``steps`` for the seat to act (one of ``seats``), store them, then show them.

        Returns the reply (also sent to ``origin``): ``ack``, ``partial`` (a preview, nothing
        stored) or ``error`` (nothing changed).
        """
        async with table.lock:
            before = table.version
            await self.catch_up(table)  # another process may have stored moves meanwhile
            reply = await self._submit_locked(
                table, seats, steps, client_key, client_id, at, partial, preview
            )
            if origin is not None:
                origin.send(reply)
            if table.version != before:
                table.broadcast()
        if table.version != before:
            self.steward.arm(table)
            self.schedule_ai(table)
        return reply

    async def store_action(self, table: Table, seat: int, action: int, key: str) -> None:
        """Store one action for ``seat`` on the table's behalf (a time-out's default), with
        the table's lock held."""
        reply = await self._submit_locked(table, (seat,), [action], key, None, table.version,
                                          True, False)
        if reply["type"] != "ack":
            log.error("table %s: the default action was refused: %s", table.id, reply)

    async def _submit_locked(
        self,
        table: Table,
        seats: Sequence[int],
        steps: Sequence[int | str],
        client_key: str,
        client_id: str | None,
        at: int | None,
        partial: bool,
        preview: bool,
    ) -> dict[str, Any]:
        ref = {"client_id": client_id}
        if client_key in table.acks:
            return {
                "type": "ack",
                **ref,
                "seq": table.acks[client_key],
                "version": table.version,
                "duplicate": True,
            }
        state = table.state
        if table.archived:
            return error("archived", "this table was archived: it can be replayed, not played",
                         **ref)
        if table.over:
            return error("game_over", "the game is over: no more moves", **ref)
        if not table.started:
            return error("waiting", "the table waits for its free seats to be taken", **ref)
        if at is not None and at != table.version:
            return error(
                "stale",
                f"the table has moved on to move {table.version}; "
                f"your move was for move {at}: look again and choose anew",
                **ref,
            )
        actor = state.current_player()
        if actor not in seats:
            return error(
                "not_your_turn",
                f"it is not your turn: {table.seat_name(actor)} is to act" if actor >= 0
                else "it is not your turn",
                to_act=actor,
                **ref,
            )
        work = state.clone()
        notes: list[Note] = []
        rows: list[ActionData] = []
        applied: list[int] = []
        for index, step in enumerate(steps, 1):
            if index > 1 and not self._turn_goes_on(work, actor):
                return error(
                    "turn_over", f"step {index}: your turn had already ended before it", **ref
                )
            try:
                actions = [step] if isinstance(step, int) else work.string_to_actions(step)
                for position, action in enumerate(actions):
                    if position and not self._turn_goes_on(work, actor):
                        raise IllegalActionError(step, "G-2", "your turn ended part-way")
                    note = note_for(work, work.move_number(), actor, action)
                    work.apply_action(action)
                    seq = note.seq
                    notes.append(note)
                    rows.append(ActionData(seq, action, actor, None))
                    applied.append(action)
            except IllegalActionError as exc:
                text = illegal_message(table.title, exc, table.seat_names())
                return error("illegal", text, rule=exc.rule, step=index, **ref)
            except ValueError as exc:  # NotationError and other bad input
                text = notation_message(table.title, str(exc), table.seat_names())
                return error("notation", text, step=index, **ref)
        if not rows:
            return error("notation", "those steps name no action", **ref)
        complete = not self._turn_goes_on(work, actor)
        if preview and complete:
            # A preview shows a turn being composed, never the outcome of a finished one
            # (a challenge's reveal, a draw): that is seen only once it is stored.
            return error(
                "preview_refused",
                "that move ends your turn: send it without preview to play it",
                **ref,
            )
        if preview or not (complete or partial):
            last = notes[-1] if notes else None
            return {
                "type": "partial",
                **ref,
                "steps": applied,
                "at": table.version,
                "complete": complete,
                **state_payload(work, actor, last, preview=True),
            }
        now = time.time()
        rows = [ActionData(r.seq, r.action, r.player, None, now) for r in rows]
        rows[0] = ActionData(rows[0].seq, rows[0].action, actor, client_key, now)
        self.resolve_chance(work, table.seed, rows, notes, now)
        clock = copy.deepcopy(table.clock)
        running = None if work.is_terminal() or work.current_player() < 0 else (
            work.current_player())
        deadline = None
        if clock is not None:
            clock.advance(now, running, deciding(work))
            deadline = clock.deadline()
        try:
            await self.store.append_grouped(
                table.id, rows, work.is_terminal(), _to_act(work), deadline
            )
        except ConflictError:
            # another process stored this move number (or this very submission) first
            await self.catch_up(table)
            if client_key in table.acks:
                return {"type": "ack", **ref, "seq": table.acks[client_key],
                        "version": table.version, "duplicate": True}
            return error(
                "stale",
                f"the table has moved on to move {table.version}; your move was for move "
                f"{state.move_number()}: look again and choose anew",
                **ref,
            )
        except Exception:  # the database is unreachable or full: nothing was applied
            log.exception("table %s: storing an action failed", table.id)
            return error("storage", "the action could not be stored; nothing was applied", **ref)
        table.state = work
        table.clock = clock
        table.covered &= {running} if running is not None else set()
        if not client_key.startswith(("ai:", "timeout:")):
            table.timeouts.pop(actor, None)  # the player moved: no time-outs in a row
        table.notes.extend(notes)
        table.acks[client_key] = rows[0].seq
        table.last_active = time.monotonic()
        log.info("table %s: seat %d stored moves %d-%d", table.id, actor, rows[0].seq, rows[-1].seq)
        return {
            "type": "ack",
            **ref,
            "seq": rows[0].seq,
            "version": table.version,
            "duplicate": False,
        }

    async def rename(self, table: Table, names: dict[int, str | None]) -> None:
        """Store players' display names for human seats, then show them to everyone."""
        async with table.lock:
            names = {
                seat: clean_name(name)
                for seat, name in names.items()
                if 0 <= seat < len(table.seats) and table.seats[seat].kind == "human"
            }
            if not names:
                return
            await self.store.run(self.store.set_seat_names, table.id, names)
            table.seats = tuple(
                SeatData(s.seat, s.kind, s.agent, names.get(s.seat, s.name)) if s.seat in names
                else s
                for s in table.seats
            )
            table.broadcast()

    @staticmethod
    def _turn_goes_on(state: State, actor: int) -> bool:
        """Whether the next action is still part of ``actor``'s turn (the game says so)."""
        return state.current_player() == actor and state.turn_in_progress()

    # -- computer players -----------------------------------------------------------------------
    async def _settle(self, table: Table) -> None:
        """Make a resumed table move on: draw a pending chance event, wake an AI seat."""
        if table.state.is_chance_node() and await self.claim(table, table.version):
            async with table.lock:
                await self.catch_up(table)
                if table.state.is_chance_node():
                    rows: list[ActionData] = []
                    notes: list[Note] = []
                    work = table.state.clone()
                    now = time.time()
                    self.resolve_chance(work, table.seed, rows, notes, now)
                    try:
                        await self.store.run(
                            self.store.append, table.id, rows, work.is_terminal(), _to_act(work)
                        )
                    except ConflictError:  # another process drew it (the same outcome)
                        await self.catch_up(table)
                    else:
                        table.state, table.notes = work, table.notes + notes
                        table.tick(now)
                        await self.steward.save_deadline(table)
                    table.broadcast()
        self.schedule_ai(table)

    def schedule_ai(self, table: Table) -> None:
        if table.ai_task is not None and not table.ai_task.done():
            return
        if self._ai_seat(table) is None:
            return
        table.ai_task = asyncio.create_task(self._ai_turns(table))

    @staticmethod
    def _ai_seat(table: Table) -> SeatData | None:
        """The computer seat to act: an AI seat, or a player's seat the computer plays for
        them (their time ran out, or it holds the seat until they come back)."""
        if table.over or not table.started or table.archived:
            return None
        player = table.state.current_player()
        if player < 0:
            return None
        if player in table.covered or player in table.taken_over:
            return SeatData(player, "ai", COVER_AGENT)
        return table.seats[player] if table.seats[player].kind == "ai" else None

    async def _ai_turns(self, table: Table) -> None:
        while (seat := self._ai_seat(table)) is not None:
            version = table.version
            if not await self.claim(table, version):
                return  # another process is on it (the claim expires if that one dies)
            keeper = asyncio.create_task(self._keep_claim(table, version))
            try:
                await self._ai_move(table, seat, version)
            finally:
                keeper.cancel()
            if table.version == version:
                return  # nothing was stored (the database refused): leave it to the janitor

    async def _ai_move(self, table: Table, seat: SeatData, version: int) -> None:
        """Think, then store, one computer move for ``seat`` at ``version``."""
        if self.ai_delay:
            await asyncio.sleep(self.ai_delay)
        seed = move_seed(table.seed, version)
        if table.version != version:
            return
        history = tuple(table.state.history())
        try:
            action = await self.ai.choose(
                table.game.name, table.params_json(), history, seat.agent, seed
            )
        except AIFailure as failure:
            log.warning("table %s: AI %s %s; playing at random", table.id, seat.agent,
                        failure.reason)
            if table.version != version:
                return
            action = fallback_action(table.state.legal_actions(), seed)
            table.notice(
                f"{table.seat_name(seat.seat)} {failure.reason} and played a random "
                "legal move instead"
            )
        reply = await self.submit(
            table, (seat.seat,), [action], f"ai:{version}", at=version, partial=True
        )
        if reply["type"] == "error" and reply["code"] == "illegal":
            log.error("table %s: AI %s chose an illegal action", table.id, seat.agent)
            action = fallback_action(table.state.legal_actions(), seed)
            table.notice(
                f"{table.seat_name(seat.seat)} chose a move the rules forbid and played a "
                "random legal move instead"
            )
            reply = await self.submit(
                table, (seat.seat,), [action], f"ai:{version}", at=version, partial=True
            )
        if reply["type"] == "error" and reply["code"] in ("storage", "conflict"):
            log.error("table %s: AI move not stored (%s); AI paused", table.id, reply["code"])

    # -- listeners --------------------------------------------------------------------------
    def can_join(self, table: Table, hand: HandData | None) -> bool:
        """Seat holders are always let in; spectators while the table has room."""
        return hand is not None or len(table.connections) < self.limits.listeners_per_table

    def join(self, table: Table, conn: Connection) -> None:
        """The newcomer gets its state; the others hear of it only if a seat came online
        (spectators coming and going change nothing anyone sees)."""
        before = table.presence()
        table.connections.add(conn)
        table.last_active = time.monotonic()
        conn.send(table.message(conn.hand))
        if table.presence() != before:
            self._presence_changed(table)

    def leave(self, table: Table, conn: Connection) -> None:
        before = table.presence()
        table.connections.discard(conn)
        conn.close()
        table.last_active = time.monotonic()
        if table.presence() != before:
            self._presence_changed(table)
        self._maybe_unload(table)

    def _presence_changed(self, table: Table) -> None:
        """Gather presence changes over ``presence_delay`` into one broadcast: a client that
        connects and disconnects in a loop costs the table one update per interval."""
        if table.presence_task is not None and not table.presence_task.done():
            return
        table.presence_task = asyncio.create_task(self._broadcast_presence(table))

    async def _broadcast_presence(self, table: Table) -> None:
        await asyncio.sleep(self.limits.presence_delay)
        if table.connections:
            table.broadcast()

    def _unloadable(self, table: Table) -> bool:
        return (
            not table.connections
            and (table.ai_task is None or table.ai_task.done())
            and not table.lock.locked()
            and self.tables.get(table.id) is table
        )

    def _unload(self, table: Table) -> None:
        del self.tables[table.id]
        self._loading.pop(table.id, None)
        for hand in table.hands:
            self.tokens.pop(hand.token, None)

    def _maybe_unload(self, table: Table) -> None:
        """Forget at once a finished table nobody is looking at (unfinished idle ones go by
        :meth:`sweep`): memory stays bounded by the games in play, and the database has it all
        should anyone come back."""
        if table.over and self._unloadable(table):
            self._unload(table)


async def cancel_quietly(task: asyncio.Task[Any] | None) -> None:
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
