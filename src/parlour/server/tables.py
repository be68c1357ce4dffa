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
import json
import logging
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.core import (
    CHANCE_PLAYER,
    Game,
    IllegalActionError,
    Information,
    ParlourError,
    State,
    load_game,
)
from parlour.server.ai import (
    WEB_AGENTS,
    AIFailure,
    AIRunner,
    fallback_action,
    is_web_agent,
    move_seed,
)
from parlour.server.limits import Limits, RateLimiter
from parlour.server.protocol import error
from parlour.server.store import ActionData, ConflictError, HandData, SeatData, Store, TableData
from parlour.server.views import (
    HIDDEN_PARAMS,
    Note,
    is_public,
    public_params,
    state_payload,
    visible_move,
)

log = logging.getLogger("parlour.server")

SEAT_CHOICES = ("me", "invite", "hotseat", "ai")
"""How the lobby fills a seat: the creator's own seat, a private link, another player at the
creator's screen, or a computer player (with an agent name)."""
LOG_LENGTH = 30
"""How many recent moves each state message carries."""
MAX_QUEUE = 512
"""Messages waiting for a slow client before it is disconnected."""
NOTICES = 5
"""How many of a table's recent notices (a computer player's move cut short...) each state
message carries."""


def action_text(state: State, action: int, player: int) -> str:
    try:
        return state.action_to_string(action, player)
    except (ValueError, IndexError, KeyError):
        return str(action)


def note_for(state: State, seq: int, player: int, action: int) -> Note:
    """The log entry of ``action`` about to be applied to ``state``: its full text (for the
    mover) and the text everyone may see (G-3, ``State.public_action_string``)."""
    try:
        public = state.public_action_string(action)
    except (ValueError, IndexError, KeyError):
        public = None
    return Note(seq, player, action_text(state, action, player), public)


def sample_chance(state: State, seed: int, seq: int) -> int:
    """The chance outcome at move ``seq``: drawn from the table's secret seed, so a table
    that is rebuilt after a crash before storing it draws the same outcome again."""
    outcomes = state.chance_outcomes()
    r = random.Random(f"chance:{seed}:{seq}").random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if r < total:
            return action
    return outcomes[-1][0]


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

    @property
    def version(self) -> int:
        return self.state.move_number()

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
        return f"Player {seat + 1}"

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
        log_notes = [n for n in self.notes if n.player != CHANCE_PLAYER][-LOG_LENGTH:]
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
                    "online": self.online(s.seat),
                }
                for s in self.seats
            ],
            "custom_start": self.custom_start,
            "notices": list(self.notices),
            "hand": None if hand is None else {"seats": list(hand.seats), "role": hand.role},
            "log": [visible_move(n, viewer, public) for n in log_notes],
            "watch": f"/watch/{self.id}",
            "rematch": None,
            **state_payload(self.state, viewer, self.last_player_note()),
        }
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

    # -- loading ----------------------------------------------------------------------------
    async def start(self) -> None:
        """Resume, in the background, the unfinished tables that wait for the server itself
        (a computer player or a chance event to act). Other tables stay in the database until
        someone opens them: a restart costs nothing per idle table."""
        self._spawn(self._resume())
        self._spawn(self._sweep())

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
        for task in list(self._background):
            task.cancel()
        for table in self.tables.values():
            for task in (table.ai_task, table.presence_task):
                if task is not None:
                    task.cancel()
            for conn in list(table.connections):
                conn.close()
        self.ai.close()

    async def table(self, table_id: str) -> Table | None:
        if table_id in self.tables:
            found = self.tables[table_id]
            found.last_active = time.monotonic()
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
        """Rebuild a table by replaying its stored actions (G-1: they reproduce the game)."""
        game = load_game(data.game, **data.params)
        state = game.new_initial_state()
        notes: list[Note] = []
        acks: dict[str, int] = {}
        for row in data.actions:
            notes.append(note_for(state, row.seq, row.player, row.action))
            state.apply_action(row.action)
            if row.client_key is not None:
                acks[row.client_key] = row.seq
        return Table(
            id=data.id,
            game=game,
            seed=data.seed,
            seats=data.seats,
            hands=data.hands,
            state=state,
            notes=notes,
            acks=acks,
            rematch_id=data.rematch_id,
            custom_start=any(k in data.params for k in HIDDEN_PARAMS),
        )

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
        return (table, hand) if hand is not None else None

    # -- creating ---------------------------------------------------------------------------
    def allows_agent(self, agent: str | None) -> bool:
        """Computer players the web offers (time-capped), plus any the app was built with."""
        return agent is not None and (is_web_agent(agent) or agent in self.extra_agents)

    def plan_seats(
        self, game: Game, seat_kinds: Sequence[tuple[str, str | None]] | None
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
                if not self.allows_agent(agent):
                    raise CreateError(
                        f"seat {seat + 1}: no computer player {agent!r} here; choose one of "
                        f"{', '.join(WEB_AGENTS)}"
                    )
                seats.append(SeatData(seat, "ai", agent))
            else:
                seats.append(SeatData(seat, "human", None))
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
    ) -> Table:
        """Create and store a table for the lobby's choices (``client``: the creator's
        address hash, for the per-client limits)."""
        if client is not None:
            self.check_quota(client)
        try:
            game = load_game(game_name, **params)
        except ParlourError as exc:
            raise CreateError(str(exc)) from None
        seats, hands = self.plan_seats(game, seat_kinds)
        hidden = [k for k in HIDDEN_PARAMS if k in params]
        invited = any(h.role == "invite" for h in hands)
        if hidden and invited and game.get_type().information != Information.PERFECT:
            raise CreateError(
                f"a {game.get_type().long_name} table that starts from a set-up position "
                "cannot have invited players: the position shows every player's hidden "
                "tiles or cards to whoever wrote it. Play it hot-seat or against the computer"
            )
        if client is not None:
            count = await self.store.run(self.store.open_tables_created_by, client)
            if count >= self.limits.open_tables_per_client:
                raise QuotaError(
                    f"you have {count} unfinished tables: finish or leave some before "
                    "starting more",
                    retry_after=60,
                )
        return await self._create(game, seats, hands, None, client)

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
    ) -> Table:
        table_id = secrets.token_urlsafe(9)
        seed = secrets.randbits(63)
        state = game.new_initial_state()
        rows: list[ActionData] = []
        notes: list[Note] = []
        self._resolve_chance(state, seed, rows, notes)
        await self.store.run(
            self.store.create_table,
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
        )
        table = Table(table_id, game, seed, tuple(seats), tuple(hands), state, notes, {})
        table.custom_start = any(k in game.non_default_parameters() for k in HIDDEN_PARAMS)
        self._remember(table)
        log.info("table %s created: %s", table_id, game)
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
                (SeatData((s.seat + 1) % n, s.kind, s.agent) for s in table.seats),
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
            new = await self._create(table.game, seats, hands, table.id)
            held = await self.store.run(self.store.set_rematch, table.id, new.id)
            await self._link_rematch(table, held)
            table.broadcast()
        return self.tables.get(held) or new

    # -- acting -----------------------------------------------------------------------------
    @staticmethod
    def _resolve_chance(state: State, seed: int, rows: list[ActionData], notes: list[Note]) -> None:
        while state.is_chance_node():
            seq = state.move_number()
            action = sample_chance(state, seed, seq)
            notes.append(note_for(state, seq, CHANCE_PLAYER, action))
            rows.append(ActionData(seq, action, CHANCE_PLAYER, None))
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
            reply = await self._submit_locked(
                table, seats, steps, client_key, client_id, at, partial, preview
            )
            if origin is not None:
                origin.send(reply)
            if reply["type"] == "ack" and not reply.get("duplicate"):
                table.broadcast()
        if reply["type"] == "ack":
            self.schedule_ai(table)
        return reply

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
        if state.is_terminal():
            return error("game_over", "the game is over: no more moves", **ref)
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
                return error("illegal", str(exc), rule=exc.rule, step=index, **ref)
            except ValueError as exc:  # NotationError and other bad input
                return error("notation", f"step {index}: {exc}", step=index, **ref)
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
        rows[0] = ActionData(rows[0].seq, rows[0].action, actor, client_key)
        self._resolve_chance(work, table.seed, rows, notes)
        try:
            await self.store.append_grouped(table.id, rows, work.is_terminal(), _to_act(work))
        except ConflictError:
            return error("conflict", "another action for this move was stored first", **ref)
        except Exception:  # the database is unreachable or full: nothing was applied
            log.exception("table %s: storing an action failed", table.id)
            return error("storage", "the action could not be stored; nothing was applied", **ref)
        table.state = work
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

    @staticmethod
    def _turn_goes_on(state: State, actor: int) -> bool:
        """Whether the next action is still part of ``actor``'s turn (the game says so)."""
        return state.current_player() == actor and state.turn_in_progress()

    # -- computer players -----------------------------------------------------------------------
    async def _settle(self, table: Table) -> None:
        """Make a resumed table move on: draw a pending chance event, wake an AI seat."""
        if table.state.is_chance_node():
            async with table.lock:
                rows: list[ActionData] = []
                notes: list[Note] = []
                work = table.state.clone()
                self._resolve_chance(work, table.seed, rows, notes)
                await self.store.run(
                    self.store.append, table.id, rows, work.is_terminal(), _to_act(work)
                )
                table.state, table.notes = work, table.notes + notes
        self.schedule_ai(table)

    def schedule_ai(self, table: Table) -> None:
        if table.ai_task is not None and not table.ai_task.done():
            return
        if self._ai_seat(table) is None:
            return
        table.ai_task = asyncio.create_task(self._ai_turns(table))

    @staticmethod
    def _ai_seat(table: Table) -> SeatData | None:
        player = table.state.current_player()
        if player < 0 or table.seats[player].kind != "ai":
            return None
        return table.seats[player]

    async def _ai_turns(self, table: Table) -> None:
        while (seat := self._ai_seat(table)) is not None:
            if self.ai_delay:
                await asyncio.sleep(self.ai_delay)
            version = table.version
            seed = move_seed(table.seed, version)
            history = tuple(table.state.history())
            try:
                action = await self.ai.choose(
                    table.game.name, table.params_json(), history, seat.agent, seed
                )
            except AIFailure as failure:
                log.warning("table %s: AI %s %s; playing at random", table.id, seat.agent,
                            failure.reason)
                if table.version != version:
                    continue
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
                return

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
        if table.state.is_terminal() and self._unloadable(table):
            self._unload(table)


async def cancel_quietly(task: asyncio.Task[Any] | None) -> None:
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
