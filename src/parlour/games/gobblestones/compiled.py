"""The compiled GobbleStones engine (``_cplayout.c``), and how a state's fields reach it.

``_cplayout`` is built by ``pip install`` where a C compiler is present; without it every
caller falls back on the Python rules (``game.py`` and the modules it names). It is the
rules' twin, not a second source of them: the tests play it action for action against the
Python definitions (the random playouts, ``State.random_playout``) and search for search
against ``MCTSAgent``'s Python loop.

This module is the only one that talks to it. It hands over the :data:`~parlour.games.
gobblestones.fields.COMPILED` fields of a state's :class:`~parlour.games.gobblestones.fields.
Fields` (in the order the C takes them, derived from their declaration) and writes back what
the C returns; it knows nothing of the rules.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from parlour.core import compiled_module
from parlour.games.gobblestones.board import NUM_COLOURS, PANEL, PANEL_CELLS, PANEL_STEPS
from parlour.games.gobblestones.fields import COMPILED, Fields
from parlour.games.gobblestones.snapshot import Phase

_cplayout = compiled_module("parlour.games.gobblestones._cplayout")

COMPILED_PLAYOUTS = [True]
"""``COMPILED_PLAYOUTS[0] = False`` makes ``random_playout`` run in Python even where the
compiled playouts were built (the tests compare the two)."""
COMPILED_SEARCH = [True]
"""``COMPILED_SEARCH[0] = False``: :meth:`GobbleStonesState.compiled_search` offers nothing, so
the information-set search runs in Python even where it was built (the tests compare the two)."""

_PHASE_CODE = {Phase.DEAL: 0, Phase.PLAY: 1, Phase.DRAW: 2, Phase.CHALLENGE: 4}
_CODE_PHASE = (Phase.DEAL, Phase.PLAY, Phase.DRAW, Phase.END)
_END_CODE = (None, "bag", "no-tiles", "passes", "max-turns")
_TO_C: dict[str, Callable[[Any], Any]] = {"phase": _PHASE_CODE.__getitem__}
"""How a field is coded for the C where it is not the same value (the phase is a number)."""
_FROM_C: dict[str, Callable[[Any], Any]] = {"phase": _CODE_PHASE.__getitem__}


def _same(value: Any) -> Any:
    return value


def playouts() -> bool:
    """Whether random playouts run compiled (built, and :data:`COMPILED_PLAYOUTS` on)."""
    return _cplayout is not None and COMPILED_PLAYOUTS[0]


def searches() -> bool:
    """Whether the information-set search may run compiled (built, :data:`COMPILED_SEARCH`)."""
    return _cplayout is not None and COMPILED_SEARCH[0]


def draw_board(fields: Fields, used: list[int], random: Callable[[], float],
               budget: int) -> list[int]:
    """Chance draws (the rest of) the board, one ``random()`` per step, as the rules'
    ``chance_outcomes`` say (B1), at most ``budget`` steps (-1: to the end); ``used``: the
    value permutations of the board squares already built. The fields are written back (the
    board as lists, the caller turns a finished one into tuples); returns the actions."""
    assert _cplayout is not None
    actions: list[int]
    actions, fields.colour, fields.value, fields.board_steps, fields.used = _cplayout.board(
        list(fields.colour), list(fields.value), fields.board_steps, used, random, budget
    )
    panel, step = divmod(fields.board_steps, PANEL_STEPS)
    fields.left = [PANEL] * NUM_COLOURS
    for square in PANEL_CELLS[panel][:step] if panel < len(PANEL_CELLS) else ():
        fields.left[fields.colour[square]] -= 1
    return actions


def _arguments(fields: Fields, max_turns: int) -> list[Any]:
    """What ``_cplayout`` reads of a state: the board as bytes (kept with the fields once the
    board is drawn), the compiled fields in their order, the turn cap, the squares of the play
    being laid."""
    board = fields.board_bytes
    if board is None:
        board = fields.board_bytes = bytes(fields.colour) + bytes(fields.value)
    return [board, *(_TO_C.get(name, _same)(getattr(fields, name)) for name in COMPILED),
            max_turns, [square for square, _c in fields.pending]]


def play_out(fields: Fields, max_turns: int, random: Callable[[], float],
             budget: int) -> list[int]:
    """The deal, the plays and the draws of the normal game played out at random in C, one
    ``random()`` per action, at most ``budget`` actions (-1: to the end), the fields written
    back; returns the actions."""
    assert _cplayout is not None
    actions, *values, occupied, end, pending = _cplayout.playout(
        *_arguments(fields, max_turns), random, budget
    )
    for name, value in zip(COMPILED, values, strict=True):
        setattr(fields, name, _FROM_C.get(name, _same)(value))
    fields.occupied = int.from_bytes(occupied, "little")
    colours = fields.colour
    fields.pending = [(square, colours[square]) for square in pending]
    fields.clear_turn()
    if end:
        fields.end = _END_CODE[end]
        fields.decider = -1
    played: list[int] = actions
    return played


W = TypeVar("W")


class CompiledSearch(Generic[W]):
    """A compiled information-set search (``_cplayout``'s ``search_*``), for ``MCTSAgent``.

    The tree lives in C; so do the worlds it is given (:meth:`add_world`, each copied once),
    and each iteration (:attr:`iterate`) searches a fresh copy of one of them. Iterations are
    ``MCTSAgent._iterate_information_set`` step for step: the same ``random()`` calls in the
    same order and the same arithmetic, so a seeded search chooses what the Python loop
    chooses (the tests compare them action for action). ``fields_of`` reads a world's fields.
    """

    __slots__ = ("_fields_of", "_handle", "_max_turns", "iterate")

    def __init__(self, observer: int, *, c: float, rollout_depth: int, scale: float,
                 bluff: bool, max_turns: int, fields_of: Callable[[W], Fields]) -> None:
        assert _cplayout is not None
        self._handle = _cplayout.search_new(observer, c, rollout_depth, scale, not bluff, bluff)
        self._fields_of = fields_of
        self._max_turns = max_turns
        self.iterate: Callable[[int, Callable[[], float]], None] = functools.partial(
            _cplayout.search_iterate, self._handle
        )
        """``iterate(world, random)``: one iteration on a copy of world number ``world``."""

    def add_world(self, world: W) -> int:
        """Keep a copy of ``world`` (a state at the search's decision); its number. The
        arguments of a playout, then the colours of the play being laid and who decides on it
        (B9)."""
        assert _cplayout is not None
        fields = self._fields_of(world)
        number: int = _cplayout.search_add_world(
            self._handle, *_arguments(fields, self._max_turns),
            [colour for _s, colour in fields.pending], fields.decider,
        )
        return number

    def root(self) -> tuple[list[int], list[int], list[float], int]:
        """The root's children: actions, visits, summed returns of the mover; the root's
        visits."""
        assert _cplayout is not None
        actions, visits, wins, total = _cplayout.search_root(self._handle)
        return actions, visits, wins, total
