"""How a game ended, as the table knows it: the game's own returns and points, or the result
the table decided (a loss on time or by resignation, ``Table.outcome``), and who resigned.

This is what is stored with a game's end (:class:`parlour.server.persistence.records.GameEnd`):
results and ratings are computed from it, for every game alike (nothing here knows a game's name).
"""

from __future__ import annotations

from parlour.core import State
from parlour.server.persistence.records import EventData, GameEnd
from parlour.server.tables.events import AfterTimeout, Ending, EventKind
from parlour.server.tables.replay import loss
from parlour.server.tables.table import Table


def _scores(state: State) -> tuple[float, ...]:
    try:
        return tuple(float(x) for x in state.scores())
    except (ValueError, NotImplementedError):
        return (0.0,) * state.game.num_players()


def game_end(table: Table, state: State) -> GameEnd | None:
    """How the game of ``table`` ends in ``state`` (``None`` while it goes on)."""
    if table.outcome is not None:
        returns = tuple(float(r) for r in table.outcome["returns"])
    elif state.is_terminal():
        returns = tuple(float(r) for r in state.returns())
    else:
        return None
    return GameEnd(returns, _scores(state), tuple(sorted(table.resigned)))


def end_by_event(table: Table, event: EventData) -> GameEnd | None:
    """How an event that decides the game ends it (a loss on time or a resignation); an
    invitation that expired ends a game that never started: nothing to store as a result."""
    if event.seat is None or event.kind == EventKind.EXPIRE:
        return None
    reason = Ending.TIME if event.kind == EventKind.TIMEOUT and (
        event.data.get("then") == AfterTimeout.LOST) else Ending.RESIGNATION
    decided = loss(table, event.seat, reason)
    resigned = set(table.resigned) | ({event.seat} if reason == Ending.RESIGNATION else set())
    return GameEnd(tuple(float(r) for r in decided["returns"]), _scores(table.state),
                   tuple(sorted(resigned)))
