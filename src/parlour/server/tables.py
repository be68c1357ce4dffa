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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.agents import agent_names
from parlour.core import (
    CHANCE_PLAYER,
    Game,
    IllegalActionError,
    ParlourError,
    State,
    load_game,
)
from parlour.server.ai import AIRunner, fallback_action, move_seed
from parlour.server.protocol import error
from parlour.server.store import ActionData, ConflictError, HandData, SeatData, Store, TableData
from parlour.server.views import Note, is_public, public_params, state_payload, visible_move

log = logging.getLogger("parlour.server")

SEAT_CHOICES = ("me", "invite", "hotseat", "ai")
"""How the lobby fills a seat: the creator's own seat, a private link, another player at the
creator's screen, or a computer player (with an agent name)."""
LOG_LENGTH = 30
"""How many recent moves each state message carries."""
MAX_QUEUE = 512
"""Messages waiting for a slow client before it is disconnected."""


def action_text(state: State, action: int, player: int) -> str:
    return state.safe_action_string(action, player)


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
    return state.sample_chance_outcome(random.Random(f"chance:{seed}:{seq}"))


class Connection:
    """One websocket: the hand it speaks for (``None``: a spectator) and its outgoing queue."""

    def __init__(self, hand: HandData | None) -> None:
        self.hand = hand
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.closed = False

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
                {"seat": s.seat, "kind": s.kind, "agent": s.agent, "online": self.online(s.seat)}
                for s in self.seats
            ],
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


class Hub:
    """Every loaded table, the database behind them, and the AI workers."""

    def __init__(self, store: Store, ai: AIRunner, *, ai_delay: float = 0.0) -> None:
        self.store = store
        self.ai = ai
        self.ai_delay = ai_delay
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, str] = {}  # token -> table id, for the tables in memory
        self._loading: dict[str, asyncio.Lock] = {}

    # -- loading ----------------------------------------------------------------------------
    async def start(self) -> int:
        """Resume every unfinished table from the database; returns how many."""
        ids = await self.store.run(self.store.open_table_ids)
        for table_id in ids:
            table = await self.table(table_id)
            if table is not None:
                await self._settle(table)
        return len(ids)

    async def close(self) -> None:
        for table in self.tables.values():
            if table.ai_task is not None:
                table.ai_task.cancel()
            for conn in list(table.connections):
                conn.close()
        self.ai.close()

    async def table(self, table_id: str) -> Table | None:
        if table_id in self.tables:
            return self.tables[table_id]
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
    @staticmethod
    def plan_seats(
        game: Game, seat_kinds: Sequence[tuple[str, str | None]] | None
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
                if agent not in agent_names():
                    raise CreateError(
                        f"seat {seat + 1}: unknown AI {agent!r}; choose one of "
                        f"{', '.join(agent_names())}"
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
    ) -> Table:
        """Create and store a table for the lobby's choices."""
        try:
            game = load_game(game_name, **params)
        except ParlourError as exc:
            raise CreateError(str(exc)) from None
        seats, hands = self.plan_seats(game, seat_kinds)
        return await self._create(game, seats, hands, None)

    async def _create(
        self,
        game: Game,
        seats: Sequence[SeatData],
        hands: Sequence[HandData],
        rematch_of: str | None,
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
        )
        table = Table(table_id, game, seed, tuple(seats), tuple(hands), state, notes, {})
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
                f"it is not your turn: seat {actor + 1} is to act" if actor >= 0
                else "it is not your turn",
                **ref,
            )
        work = state.clone()
        notes: list[Note] = []
        rows: list[ActionData] = []
        applied: list[int] = []
        for index, step in enumerate(steps, 1):
            if work.current_player() != actor:
                return error(
                    "turn_over", f"step {index}: your turn had already ended before it", **ref
                )
            try:
                actions = [step] if isinstance(step, int) else work.string_to_actions(step)
                for action in actions:
                    if work.current_player() != actor:
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
        complete = work.current_player() != actor
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
            await self.store.append_grouped(table.id, rows, work.is_terminal())
        except ConflictError:
            return error("conflict", "another action for this move was stored first", **ref)
        except Exception:  # the database is unreachable or full: nothing was applied
            log.exception("table %s: storing an action failed", table.id)
            return error("storage", "the action could not be stored; nothing was applied", **ref)
        table.state = work
        table.notes.extend(notes)
        table.acks[client_key] = rows[0].seq
        log.info("table %s: seat %d stored moves %d-%d", table.id, actor, rows[0].seq, rows[-1].seq)
        return {
            "type": "ack",
            **ref,
            "seq": rows[0].seq,
            "version": table.version,
            "duplicate": False,
        }

    # -- computer players -----------------------------------------------------------------------
    async def _settle(self, table: Table) -> None:
        """Make a resumed table move on: draw a pending chance event, wake an AI seat."""
        if table.state.is_chance_node():
            async with table.lock:
                rows: list[ActionData] = []
                notes: list[Note] = []
                work = table.state.clone()
                self._resolve_chance(work, table.seed, rows, notes)
                await self.store.run(self.store.append, table.id, rows, work.is_terminal())
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
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: AI %s failed; playing at random", table.id, seat.agent)
                action = fallback_action(table.state.legal_actions(), seed)
            reply = await self.submit(
                table, (seat.seat,), [action], f"ai:{version}", at=version, partial=True
            )
            if reply["type"] == "error" and reply["code"] == "illegal":
                log.error("table %s: AI %s chose an illegal action", table.id, seat.agent)
                action = fallback_action(table.state.legal_actions(), seed)
                reply = await self.submit(
                    table, (seat.seat,), [action], f"ai:{version}", at=version, partial=True
                )
            if reply["type"] == "error" and reply["code"] in ("storage", "conflict"):
                log.error("table %s: AI move not stored (%s); AI paused", table.id, reply["code"])
                return

    # -- listeners --------------------------------------------------------------------------
    def join(self, table: Table, conn: Connection) -> None:
        table.connections.add(conn)
        table.broadcast()  # the newcomer gets its state; the others see who is online

    def leave(self, table: Table, conn: Connection) -> None:
        table.connections.discard(conn)
        conn.close()
        table.broadcast()
        self._maybe_unload(table)

    def _maybe_unload(self, table: Table) -> None:
        """Forget a finished table nobody is looking at: memory stays bounded by the games
        in play, and the database has it all should anyone come back."""
        if (
            table.state.is_terminal()
            and not table.connections
            and (table.ai_task is None or table.ai_task.done())
            and not table.lock.locked()
            and self.tables.get(table.id) is table
        ):
            del self.tables[table.id]
            self._loading.pop(table.id, None)
            for hand in table.hands:
                self.tokens.pop(hand.token, None)


async def cancel_quietly(task: asyncio.Task[Any] | None) -> None:
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
