"""Everything a GobbleStones state holds, declared once: :class:`Fields`.

The state (``game.py``) keeps its contents in one slotted :class:`Fields` and its rules
(``turns.py``, ``chance.py``, ``legal.py``) write them there. Each field says, in its
metadata, what kind of value it is, and every way of handing the contents over is derived
from that one declaration instead of listing the fields again:

* **copies** (``State.clone``): :meth:`Fields.copy` copies each field by its kind: lists and
  racks are copied, plain values and the caches are shared (they are never written in place),
  and the board is copied only while chance draws it (it is written in place then, and a tuple
  shared by every copy once drawn);
* **snapshots** (``State.snapshot`` and ``from_snapshot``, which ``position.py``, ``views.py``
  and the batched engine read): :meth:`Fields.snapshot` and :meth:`Fields.from_snapshot`
  freeze and thaw the fields a :class:`~parlour.games.gobblestones.snapshot.Snapshot` has (the
  same names), and work out the derived ones;
* **worlds** (``State.sample_world``, ``worlds.py``): :data:`HIDDEN` are the fields another
  world may hold differently (racks, bag, the colours of face-down tiles, the play being laid),
  which :meth:`Fields.with_hidden` replaces;
* **the compiled engine** (``compiled.py``): :data:`COMPILED` are the fields ``_cplayout.c``
  reads and writes back, in the order it takes them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.games.gobblestones.board import (
    BOARD_STEPS,
    NUM_COLOURS,
    PANEL,
    PANEL_CELLS,
    PANEL_STEPS,
    SQUARES,
    TILES_PER_COLOUR,
)
from parlour.games.gobblestones.plays import ColourLimits, TurnPlays
from parlour.games.gobblestones.snapshot import Phase, Snapshot, Tiles

VALUE = "value"
"""Never written in place (numbers, text, tuples): shared by copies, as they are."""
LIST = "list"
"""A list written in place: copied; frozen as a tuple."""
RACKS = "racks"
"""A list of lists written in place: each copied; frozen as a tuple of tuples."""
MAPPING = "mapping"
"""A dict written in place: copied."""
BOARD = "board"
"""The board's colours or values: a list while chance draws the board (written in place, so
copied), then a tuple shared by every copy."""
CACHE = "cache"
"""Worked out from other fields when first needed, never written in place: shared by copies;
``turn`` caches are cleared whenever the content of a turn changes."""


def _kind(kind: str, *, hidden: bool = False, compiled: bool = False,
          turn: bool = False) -> dict[str, Any]:
    return {"kind": kind, "hidden": hidden, "compiled": compiled, "turn": turn}


_COPY = {
    LIST: "{0}.copy()", RACKS: "[rack.copy() for rack in {0}]", MAPPING: "{0}.copy()",
    BOARD: "({0}.copy() if type({0}) is list else {0})",
}
"""How :meth:`Fields.copy` copies a field of each kind (the others are shared)."""
_FREEZE = {LIST: "tuple({0})", RACKS: "tuple(map(tuple, {0}))", MAPPING: "dict({0})",
           BOARD: "tuple({0})"}
"""How :meth:`Fields.snapshot` freezes a field of each kind (the others are as they are)."""
_THAW = {LIST: "list({0})", RACKS: "list(map(list, {0}))", MAPPING: "dict({0})"}
"""How a snapshot's value becomes a field of each kind (the others, the board included, are
taken as they are)."""


@dataclass(slots=True, eq=False)
class Fields:
    """The contents of one GobbleStones state, hidden parts included (see the module).

    The first fields are a :class:`~parlour.games.gobblestones.snapshot.Snapshot`'s, with the
    same names and meanings (documented there); then what is derived from them and kept for
    speed, then caches.
    """

    players: int = field(metadata=_kind(VALUE))
    bluff: bool = field(metadata=_kind(VALUE))
    colour: Sequence[int] = field(default_factory=lambda: [-1] * SQUARES,
                                  metadata=_kind(BOARD))
    value: Sequence[int] = field(default_factory=lambda: [0] * SQUARES, metadata=_kind(BOARD))
    board_steps: int = field(default=0, metadata=_kind(VALUE))
    tile: list[int] = field(default_factory=lambda: [-1] * SQUARES,
                            metadata=_kind(LIST, hidden=True, compiled=True))
    owner: dict[int, int] = field(default_factory=dict, metadata=_kind(MAPPING))
    racks: list[list[int]] = field(default_factory=list,
                                   metadata=_kind(RACKS, hidden=True, compiled=True))
    bag: list[int] = field(default_factory=lambda: [TILES_PER_COLOUR] * NUM_COLOURS,
                           metadata=_kind(LIST, hidden=True, compiled=True))
    points: list[int] = field(default_factory=list, metadata=_kind(LIST, compiled=True))
    phase: Phase = field(default=Phase.BOARD, metadata=_kind(VALUE, compiled=True))
    turn: int = field(default=0, metadata=_kind(VALUE, compiled=True))
    pending: list[tuple[int, int]] = field(default_factory=list,
                                           metadata=_kind(LIST, hidden=True))
    decider: int = field(default=-1, metadata=_kind(VALUE))
    drawer: int = field(default=-1, metadata=_kind(VALUE, compiled=True))
    to_draw: int = field(default=0, metadata=_kind(VALUE, compiled=True))
    passes: int = field(default=0, metadata=_kind(VALUE, compiled=True))
    turns: int = field(default=0, metadata=_kind(VALUE, compiled=True))
    last: tuple[int, int, bool, Tiles] | None = field(default=None, metadata=_kind(VALUE))
    end: str | None = field(default=None, metadata=_kind(VALUE))
    # -- derived, kept for speed --------------------------------------------------------
    occupied: int = field(default=0, metadata=_kind(VALUE))
    """The covered squares as a bitboard (``tile`` >= 0)."""
    left: list[int] = field(default_factory=lambda: [PANEL] * NUM_COLOURS,
                            metadata=_kind(LIST))
    """The stone squares of each colour still to be drawn in the board square being built,
    five of each to begin with (B1)."""
    used: list[int] | None = field(default_factory=list, metadata=_kind(VALUE))
    """The value permutations of the board squares built (B1), a new list each time it
    grows; None: work it out from the board when needed."""
    # -- caches -------------------------------------------------------------------------
    limits: ColourLimits | None = field(default=None, metadata=_kind(CACHE))
    """What the board's colouring says about segments (``plays.colour_limits``), per board."""
    board_bytes: bytes | None = field(default=None, metadata=_kind(CACHE))
    """The drawn board for ``_cplayout``: 225 colours, then 225 values."""
    plays: TurnPlays | None = field(default=None, metadata=_kind(CACHE, turn=True))
    """The legal plays of this turn (``plays.turn_plays``)."""
    legal: list[int] | None = field(default=None, metadata=_kind(CACHE, turn=True))
    legal_set: frozenset[int] | None = field(default=None, metadata=_kind(CACHE, turn=True))

    @classmethod
    def start(cls, players: int, bluff: bool) -> Fields:
        """A new game's contents: the board still to be drawn, every tile in the bag."""
        return cls(players, bluff, racks=[[0] * NUM_COLOURS for _ in range(players)],
                   points=[0] * players)

    def copy(self) -> Fields:
        """An independent copy (each field copied as its kind says)."""
        return _copy(self)

    def snapshot(self) -> Snapshot:
        """The contents as frozen data (the fields a snapshot has)."""
        return _snapshot(self)

    @classmethod
    def from_snapshot(cls, snap: Snapshot) -> Fields:
        """The contents ``snap`` describes (the inverse of :meth:`snapshot`), the derived
        fields worked out."""
        fields = _thawed(snap)
        fields.occupied = sum(1 << s for s, colour in enumerate(snap.tile) if colour >= 0)
        fields.used = None  # worked out from the board when needed
        if fields.board_steps < BOARD_STEPS:  # chance is drawing the board: lists, and counts
            fields.colour, fields.value = list(snap.colour), list(snap.value)
            panel, step = divmod(fields.board_steps, PANEL_STEPS)
            for square in PANEL_CELLS[panel][:step]:
                fields.left[snap.colour[square]] -= 1
        return fields

    def with_hidden(self, values: Mapping[str, Any]) -> Fields:
        """A copy holding ``values`` (snapshot form: tuples) for some of the :data:`HIDDEN`
        fields, as another world the players' views allow would; the turn's caches cleared."""
        unknown = set(values) - set(HIDDEN)
        if unknown:
            raise ValueError(f"not hidden fields of a GobbleStones state: {sorted(unknown)}")
        twin = self.copy()
        for name, value in values.items():
            setattr(twin, name, _THAW_HIDDEN[name](value))
        twin.clear_turn()
        return twin

    def clear_turn(self) -> None:
        """Forget what was worked out about the turn (its plays, its legal actions)."""
        for name in _TURN_CACHES:
            setattr(self, name, None)


_DECLARED = dataclasses.fields(Fields)
_KINDS = {f.name: f.metadata["kind"] for f in _DECLARED}
_SNAPSHOT = tuple(f.name for f in dataclasses.fields(Snapshot))
_TURN_CACHES = tuple(f.name for f in _DECLARED if f.metadata["turn"])


def _written_out(source: list[str], name: str) -> Any:
    """The function ``name`` that ``source`` defines, compiled here. The copy, the snapshot and
    its inverse are written out from the declaration, one expression per field, the way
    :mod:`dataclasses` writes ``__init__``: a loop over the fields made every ``clone`` half as
    slow again and every view a tenth, and a search clones and views by the thousand."""
    namespace: dict[str, Any] = {"new": object.__new__, "Fields": Fields, "Snapshot": Snapshot}
    exec("\n".join(source), namespace)
    return namespace[name]


def _expression(templates: dict[str, str], name: str, value: str) -> str:
    return templates.get(_KINDS[name], "{0}").format(value)


_copy: Callable[[Fields], Fields] = _written_out([
    "def copy(self):", "    twin = new(Fields)",
    *(f"    twin.{f.name} = {_expression(_COPY, f.name, f'self.{f.name}')}" for f in _DECLARED),
    "    return twin",
], "copy")
_snapshot: Callable[[Fields], Snapshot] = _written_out([
    "def snapshot(self):", "    return Snapshot(",
    *(f"        {n}={_expression(_FREEZE, n, f'self.{n}')}," for n in _SNAPSHOT), "    )",
], "snapshot")
_thawed: Callable[[Snapshot], Fields] = _written_out([
    "def thawed(snap):", "    return Fields(",
    *(f"        {n}={_expression(_THAW, n, f'snap.{n}')}," for n in _SNAPSHOT), "    )",
], "thawed")
HIDDEN = tuple(f.name for f in _DECLARED if f.metadata["hidden"])
"""The fields another world may hold differently: what the rules hide (B2, B6, B9)."""
COMPILED = tuple(f.name for f in _DECLARED if f.metadata["compiled"])
"""The fields ``_cplayout.c`` takes and gives back, in its order."""
_THAW_HIDDEN: dict[str, Callable[[Any], Any]] = {
    name: _written_out([f"def thaw(value): return {_expression(_THAW, name, 'value')}"], "thaw")
    for name in HIDDEN
}
