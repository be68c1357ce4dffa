"""Playing at a table: checking a seat's steps, storing them with the chance they cause, and
answering the player.

Inside a unit of work (:mod:`~parlour.server.tables.unit`) an action is checked on a copy of the
state, written to the database with the chance events it leads to and committed, and only then
does the copy become the table's state and the acknowledgement and the new views go out. Two
submissions for the same turn therefore meet one after the other, and the second finds the
turn taken (refused, with the reason); a resent submission finds its client id already stored
(acknowledged again, applied once).
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.core import IllegalActionError, State
from parlour.games.wording import illegal_message, notation_message
from parlour.i18n import N_, Message, text_of
from parlour.server import metrics
from parlour.server.messages.outgoing import Connection
from parlour.server.messages.protocol import error
from parlour.server.messages.schemas import Ack, ErrorMessage, MoveReply, Ref
from parlour.server.messages.views import Note, state_payload
from parlour.server.persistence.records import ActionData, ConflictError
from parlour.server.persistence.store import Store
from parlour.server.tables.replay import is_table_move, note_for, resolve_chance
from parlour.server.tables.results import game_end
from parlour.server.tables.table import ARCHIVED, Table, deciding, to_act
from parlour.server.tables.unit import Changes, Unit

log = logging.getLogger("parlour.server")
STALE = N_("the table has moved on to move {now}; your move was for move {asked}: look again "
           "and choose anew")
"""A move sent for a position the table has left (the page shows the new one)."""

Claim = Callable[[Table, int], Any]


def turn_goes_on(state: State, actor: int) -> bool:
    """Whether the next action is still part of ``actor``'s turn (the game says so)."""
    return state.current_player() == actor and state.turn_in_progress()


@dataclass(frozen=True)
class Submission:
    """What a seat asks for: ``steps`` (action ids or notation) for one of ``seats``.

    ``at`` is the move number the sender saw (a stale one is refused); ``partial`` stores a
    part of a turn, ``preview`` stores nothing; ``client_key`` makes a resend idempotent.
    """

    seats: Sequence[int]
    steps: Sequence[int | str]
    client_key: str
    client_id: str | None = None
    at: int | None = None
    partial: bool = False
    preview: bool = False


@dataclass
class _Composed:
    """Steps checked on a copy of the state, not yet stored."""

    work: State
    actor: int
    notes: list[Note]
    rows: list[ActionData]
    applied: list[int]


class Mover:
    """Applies players' (and the computer's) moves and the chance they lead to."""

    def __init__(self, store: Store, changes: Changes) -> None:
        self.store = store
        self.changes = changes

    async def submit(
        self, table: Table, submission: Submission, origin: Connection | None = None
    ) -> MoveReply:
        """Check the steps for the seat to act, store them, then show them.

        Returns the reply (also sent to ``origin``, before the new views): ``ack``,
        ``partial`` (a preview, nothing stored) or ``error`` (nothing changed).
        """
        async with self.changes.at(table) as unit:
            reply = await self.play(unit, submission)
            if origin is not None:
                origin.send(reply)
        return reply

    async def play(self, unit: Unit, submission: Submission) -> MoveReply:
        """:meth:`submit` inside a unit of work already open on the table."""
        table = unit.table
        ref: Ref = {"client_id": submission.client_id}
        if submission.client_key in table.acks:
            return self._ack(table, ref, table.acks[submission.client_key], duplicate=True)
        refused = self._refusal(table, submission, ref)
        if refused is not None:
            return refused
        composed = self._compose(table, submission, ref)
        if not isinstance(composed, _Composed):
            return composed
        complete = not turn_goes_on(composed.work, composed.actor)
        if submission.preview and complete:
            # A preview shows a turn being composed, never the outcome of a finished one
            # (a challenge's reveal, a draw): that is seen only once it is stored.
            return error(
                "preview_refused",
                Message("that move ends your turn: send it without preview to play it"),
                **ref,
            )
        if submission.preview or not (complete or submission.partial):
            last = composed.notes[-1] if composed.notes else None
            return {
                "type": "partial",
                "client_id": submission.client_id,
                "steps": composed.applied,
                "at": table.version,
                "complete": complete,
                **state_payload(composed.work, composed.actor, last, preview=True),
            }
        return await self._commit(table, submission, composed, ref)

    @staticmethod
    def _ack(table: Table, ref: Ref, seq: int, *, duplicate: bool) -> Ack:
        return {"type": "ack", "client_id": ref["client_id"], "seq": seq, "version": table.version,
                "duplicate": duplicate}

    @staticmethod
    def _refusal(
        table: Table, submission: Submission, ref: Ref
    ) -> ErrorMessage | None:
        """Why the table takes no move from this submission now, if it takes none."""
        if table.archived:
            return error("archived", ARCHIVED, **ref)
        if table.over:
            return error("game_over", Message("the game is over: no more moves"), **ref)
        if table.awaited:
            return error("waiting", Message(
                "the game has not started: it waits for {name} to open their invitation link",
                name=table.seat_name(min(table.awaited))), **ref)
        if not table.started:
            return error("waiting", Message("the table waits for its free seats to be taken"),
                         **ref)
        if submission.at is not None and submission.at != table.version:
            return error(
                "stale",
                Message(STALE, now=table.version, asked=submission.at),
                **ref,
            )
        actor = table.state.current_player()
        if actor not in submission.seats:
            return error(
                "not_your_turn",
                Message("it is not your turn: {name} is to act", name=table.seat_name(actor))
                if actor >= 0 else Message("it is not your turn"),
                to_act=actor,
                **ref,
            )
        return None

    @staticmethod
    def _compose(
        table: Table, submission: Submission, ref: Ref
    ) -> _Composed | ErrorMessage:
        """The steps applied one by one to a copy of the state, or the error of the first
        step that cannot be."""
        actor = table.state.current_player()
        composed = _Composed(table.state.clone(), actor, [], [], [])
        work = composed.work
        for index, step in enumerate(submission.steps, 1):
            if index > 1 and not turn_goes_on(work, actor):
                return error(
                    "turn_over", Message("step {n}: your turn had already ended before it",
                                         n=index), **ref
                )
            try:
                actions = [step] if isinstance(step, int) else work.string_to_actions(step)
                for position, action in enumerate(actions):
                    if position and not turn_goes_on(work, actor):
                        raise IllegalActionError(step, "G-2", Message("your turn ended part-way"))
                    note = note_for(work, work.move_number(), actor, action)
                    work.apply_action(action)
                    composed.notes.append(note)
                    composed.rows.append(ActionData(note.seq, action, actor, None))
                    composed.applied.append(action)
            except IllegalActionError as exc:
                text = illegal_message(table.title, exc, table.seat_names())
                return error("illegal", text, rule=exc.rule, step=index, **ref)
            except ValueError as exc:  # NotationError and other bad input
                text = notation_message(table.title, text_of(exc), table.seat_names())
                return error("notation", text, step=index, **ref)
        if not composed.rows:
            return error("notation", Message("those steps name no action"), **ref)
        return composed

    async def _commit(
        self, table: Table, submission: Submission, composed: _Composed, ref: Ref
    ) -> Ack | ErrorMessage:
        """Store a composed turn with the chance it leads to; then it becomes the table's."""
        work, actor, notes = composed.work, composed.actor, composed.notes
        now = time.time()
        rows = [ActionData(r.seq, r.action, r.player, None, now) for r in composed.rows]
        rows[0] = ActionData(rows[0].seq, rows[0].action, actor, submission.client_key, now)
        resolve_chance(work, table.seed, rows, notes, now)
        clock = copy.deepcopy(table.clock)
        running = None if work.is_terminal() or work.current_player() < 0 else (
            work.current_player())
        deadline = None
        if clock is not None:
            clock.advance(now, running, deciding(work))
            deadline = clock.deadline()
        try:
            await self.store.append_grouped(
                table.id, rows, work.is_terminal(), to_act(work), deadline,
                game_end(table, work),
            )
        except ConflictError:
            # another process stored this move number (or this very submission) first
            return await self._after_conflict(table, submission, ref)
        except Exception:  # the database is unreachable or full: nothing was applied
            log.exception("table %s: storing an action failed", table.id)
            return error("storage", Message("the action could not be stored; nothing was applied"),
                         **ref)
        table.state = work
        table.clock = clock
        table.covered &= {running} if running is not None else set()
        if not is_table_move(submission.client_key):
            table.timeouts.pop(actor, None)  # the player moved: no time-outs in a row
        table.notes.extend(notes)
        table.acks[submission.client_key] = rows[0].seq
        table.last_active = time.monotonic()
        log.info("table %s: seat %d stored moves %d-%d", table.id, actor, rows[0].seq, rows[-1].seq)
        metrics.move_stored(table.game.name, not is_table_move(submission.client_key))
        return self._ack(table, ref, rows[0].seq, duplicate=False)

    async def _after_conflict(
        self, table: Table, submission: Submission, ref: Ref
    ) -> Ack | ErrorMessage:
        asked_at = table.version
        await self.changes.catch_up(table)
        if submission.client_key in table.acks:
            return self._ack(table, ref, table.acks[submission.client_key], duplicate=True)
        return error(
            "stale",
            Message(STALE, now=table.version, asked=asked_at),
            **ref,
        )

    async def store_default(self, unit: Unit, seat: int, action: int, key: str) -> None:
        """Store one action for ``seat`` on the table's behalf (a time-out's default)."""
        table = unit.table
        reply = await self.play(
            unit, Submission((seat,), [action], key, None, table.version, partial=True)
        )
        if reply["type"] != "ack":
            log.error("table %s: the default action was refused: %s", table.id, reply)

    async def draw_pending_chance(self, table: Table, claim: Claim) -> None:
        """Draw a chance event a resumed table waits for (claimed, so that only one process
        draws it; the outcome comes from the seed, so a second draw would be the same)."""
        if not (table.state.is_chance_node() and await claim(table, table.version)):
            return
        async with self.changes.at(table) as unit:
            if not table.state.is_chance_node() or table.archived:
                return
            rows: list[ActionData] = []
            notes: list[Note] = []
            work = table.state.clone()
            now = time.time()
            resolve_chance(work, table.seed, rows, notes, now)
            try:
                await self.store.run(
                    self.store.append, table.id, rows, work.is_terminal(), to_act(work), None,
                    game_end(table, work),
                )
            except ConflictError:  # another process drew it (the same outcome)
                await self.changes.catch_up(table)
            else:
                table.state, table.notes = work, table.notes + notes
                table.tick(now)
                await unit.save_deadline()
            unit.show()
