"""Rebuilding a table from what the database holds, and what each stored row changes.

Everything a table is can be replayed: its actions (every game replays exactly from its
actions, G-1), drawn from the table's secret seed, and its events, applied in the order they
happened (an event at version ``v`` before action ``v``); the clock ticks at each commit time.
The same functions apply a row live and when a table is rebuilt, so the two cannot differ.
Nothing here does I/O.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from parlour.core import CHANCE_PLAYER, RulesVersionError, State, load_game
from parlour.i18n import Message, message_n
from parlour.server.limits import Limits
from parlour.server.messages.schemas import Result
from parlour.server.messages.views import HIDDEN_PARAMS, Note
from parlour.server.persistence.records import ActionData, EventData, SeatData, TableData
from parlour.server.tables.clocks import Clock, ClockConfig
from parlour.server.tables.events import AfterTimeout, Ending, EventKind
from parlour.server.tables.table import Table, invited_seats


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
    return Note(seq, player, state.safe_action_string(action, player), public, scores)


def sample_chance(state: State, seed: int, seq: int) -> int:
    """The chance outcome at move ``seq``: drawn from the table's secret seed, so a table
    that is rebuilt after a crash before storing it draws the same outcome again."""
    return state.sample_chance_outcome(random.Random(f"chance:{seed}:{seq}"))


def resolve_chance(
    state: State, seed: int, rows: list[ActionData], notes: list[Note], now: float
) -> None:
    """Draw every chance event ``state`` waits for, adding their rows and notes."""
    while state.is_chance_node():
        seq = state.move_number()
        action = sample_chance(state, seed, seq)
        notes.append(note_for(state, seq, CHANCE_PLAYER, action))
        rows.append(ActionData(seq, action, CHANCE_PLAYER, None, now))
        state.apply_action(action)


def is_table_move(client_key: str | None) -> bool:
    """Whether a stored action was made by the table itself (a computer player, a time-out's
    default) rather than by the seat's own player."""
    return (client_key or "").startswith(("ai:", "timeout:"))


# -- events ------------------------------------------------------------------------------------
def loss(table: Table, loser: int, reason: Ending) -> Result:
    """The result of a game the table decided: ``loser`` loses, everyone else wins."""
    n = table.game.num_players()
    returns = [1.0 if p != loser else -1.0 for p in range(n)]
    scores = list(table.state.scores()) if hasattr(table.state, "scores") else []
    return {"returns": returns, "scores": scores, "reason": reason.value, "loser": loser}


def ends_game(table: Table, event: EventData) -> bool:
    """Whether an event decides the game (a loss on time or by resignation, two players; an
    invitation nobody took)."""
    two = table.game.num_players() == 2
    if event.kind == EventKind.EXPIRE:
        return True
    return (event.kind == EventKind.TIMEOUT and event.data.get("then") == AfterTimeout.LOST) or (
        event.kind == EventKind.RESIGN and two
    )


def _seat_taken(table: Table, event: EventData) -> None:
    if event.seat is None:
        return
    seats = list(table.seats)
    kind = "ai" if event.kind == EventKind.FILL else "human"
    # a signed-in player takes the seat under their account's name
    seats[event.seat] = SeatData(event.seat, kind, event.data.get("agent"),
                                 event.data.get("name"), event.data.get("account"))
    table.seats = tuple(seats)
    if table.started:
        table.tick(event.created_at)  # the last seat taken: the clock starts


def _timed_out(table: Table, event: EventData) -> None:
    seat = event.seat
    if seat is None:
        return
    then = event.data.get("then")
    if then == AfterTimeout.LOST:
        table.outcome = loss(table, seat, Ending.TIME)
        table.notice(Message("{name} ran out of time and loses", name=table.seat_name(seat)))
    elif then == AfterTimeout.COMPUTER:
        table.covered.add(seat)
        table.timeouts[seat] = int(event.data.get("count", 1))
        table.notice(Message("{name} ran out of time: the computer plays this turn",
                             name=table.seat_name(seat)))
    elif then == AfterTimeout.TRUST:
        table.notice(Message("{name} ran out of time and trusts the play",
                             name=table.seat_name(seat)))


def _taken_over(table: Table, event: EventData) -> None:
    if event.seat is not None:
        table.taken_over.add(event.seat)
        table.notice(Message("The computer holds {name}'s seat until they come back",
                             name=table.seat_name(event.seat)))


def _reclaimed(table: Table, event: EventData) -> None:
    if event.seat is not None:
        table.taken_over.discard(event.seat)
        table.timeouts.pop(event.seat, None)
        table.notice(Message("{name} is back", name=table.seat_name(event.seat)))


def _resigned(table: Table, event: EventData) -> None:
    seat = event.seat
    if seat is None:
        return
    if table.game.num_players() == 2:
        table.outcome = loss(table, seat, Ending.RESIGNATION)
        table.notice(Message("{name} resigns", name=table.seat_name(seat)))
    else:
        table.resigned.add(seat)
        table.taken_over.add(seat)
        table.notice(Message("{name} resigns: the computer plays their seat",
                             name=table.seat_name(seat)))


def _arrived(table: Table, event: EventData) -> None:
    if event.seat is None or event.seat not in table.awaited:
        return
    table.awaited.discard(event.seat)
    if table.started:  # the last invited player came: the game and its clock start
        table.tick(event.created_at)
        # no name: the friend's page names them just after it connects
        table.notice(Message("Everyone is here: the game starts"))


def _expired(table: Table, event: EventData) -> None:
    n = table.game.num_players()
    table.outcome = {"returns": [0.0] * n, "scores": [], "reason": Ending.EXPIRED.value,
                     "loser": None, "seats": sorted(table.awaited)}
    table.notice(Message("Nobody took the invitation in time: the game did not start"))


def _undone(table: Table, event: EventData) -> None:
    table.notice(Message("A move was taken back"))


def _started(table: Table, event: EventData) -> None:
    table.notice(message_n("The game starts with {n} player", "The game starts with {n} players",
                           int(event.data.get("players") or 0)))
    table.tick(event.created_at)


_APPLY: dict[str, Callable[[Table, EventData], None]] = {
    EventKind.JOIN: _seat_taken,
    EventKind.FILL: _seat_taken,
    EventKind.TIMEOUT: _timed_out,
    EventKind.TAKEOVER: _taken_over,
    EventKind.RECLAIM: _reclaimed,
    EventKind.RESIGN: _resigned,
    EventKind.UNDO: _undone,
    EventKind.START: _started,
    EventKind.ARRIVE: _arrived,
    EventKind.EXPIRE: _expired,
}


def apply_event(table: Table, event: EventData) -> None:
    """What an event changes at a table; used live and when a table is rebuilt."""
    table.events.append(event)
    handler = _APPLY.get(event.kind)
    if handler is not None:
        handler(table, event)


# -- actions -----------------------------------------------------------------------------------
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
        if row.player >= 0 and not is_table_move(row.client_key):
            table.timeouts.pop(row.player, None)  # the player moved: no time-outs in a row
        if row.player >= 0:  # someone moved, so everyone had arrived (or the table was
            table.awaited.clear()  # stored before invitations waited for their players)
        if index + 1 == len(rows) or rows[index + 1].at != row.at:
            table.tick(row.at)
    for event in events[position:]:
        apply_event(table, event)


def build_table(data: TableData, invitation_seconds: float = Limits().invitation_seconds
                ) -> Table:
    """Rebuild a table by replaying its stored actions and events, in the order they
    happened; the clock is recomputed from the times at which they were stored. Its invited
    seats are awaited until their ``arrive`` events, at most ``invitation_seconds`` after
    the table was created.

    A table stored under another version of its game's rules is never replayed by these
    rules (the same actions could mean another game): :class:`RulesVersionError`."""
    game = load_game(data.game, **data.params)
    if data.rules_version != game.rules_version:
        raise RulesVersionError(game.name, data.rules_version, game.rules_version)
    config = ClockConfig.parse(data.clock) if data.clock else None
    starts = [i for i, e in enumerate(data.events) if e.kind == EventKind.START]
    # an early start renumbered the seats and dealt again: what came before it is in the
    # stored seats and hands already
    events = list(data.events[starts[-1]:]) if starts else list(data.events)
    joins = {e.seat for e in events if e.kind in (EventKind.JOIN, EventKind.FILL)}
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
        created_by=data.created_by,
        rated=data.rated,
        awaited=invited_seats(data.hands),
        expires_at=data.created_at + invitation_seconds,
    )
    table.events = list(data.events[: starts[-1]]) if starts else []
    table.tick(data.created_at)
    replay_into(table, list(data.actions), events)
    table.notices = []  # notices are news: a rebuilt table starts with none
    return table
