"""GobbleStones position text: the whole state, hidden parts included, one field per line.

```
board   R6G3B4.../...        the board text (B1); '?' marks what chance has not drawn yet
tiles   ......./..R..../...  15 rows: '.' empty, R Y G B P a face-up tile, r y g b p face down
owners  h8=0 h9=0            who placed each face-down tile ('-' when none)
racks   RRYBP/GGPPY          each seat's tiles, seat 0 first ('-' for an empty rack)
bag     R18 Y20 G19 B17 P16  tiles left in the bag by colour (the bag has no order)
points  12 -3                points so far (the end bonus, B8, is added by scores())
phase   play 0               board | deal SEAT LEFT | play SEAT | challenge SEAT DECIDER |
                             draw SEAT LEFT | end REASON
play    h8=R h9=Y            the play being made, tiles in board order, true colours ('-')
passes  0                    turns in a row that placed no tile while the bag was empty
turns   12                   turns completed
last    0 1 right h8=R       the last challenge: mover, challenger, right|wrong, tiles ('-')
```

:func:`format_position` and :func:`parse_position` are inverses; the parser checks that the
text describes a reachable kind of state (20 tiles of each colour, sizes, phases) and raises
:class:`NotationError` naming what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING

from parlour.core import parse_position_error
from parlour.games.gobblestones.board import (
    BOARD_STEPS,
    COLOURS,
    NUM_COLOURS,
    PANEL_CELLS,
    PANEL_STEPS,
    SIZE,
    TILES_PER_COLOUR,
    board_text,
    parse_board_text,
    parse_square,
    square_name,
)
from parlour.games.gobblestones.plays import play_problem

if TYPE_CHECKING:
    from parlour.games.gobblestones.game import GobbleStonesGame, GobbleStonesState

FIELDS = ("board", "tiles", "owners", "racks", "bag", "points", "phase", "play", "passes",
          "turns", "last")


def tile_rows(state: GobbleStonesState, face_down: Callable[[int, int], str]) -> list[str]:
    """The board's tiles, one text per row: ``.`` empty, the colour letter of a face-up tile,
    and ``face_down(square, colour)`` for a face-down one (the position shows its colour in
    lower case; a view hides it from everyone but its owner)."""
    rows = []
    for r in range(SIZE):
        row = []
        for s in range(r * SIZE, (r + 1) * SIZE):
            colour = state._tile[s]
            if colour < 0:
                row.append(".")
            elif s in state._owner:
                row.append(face_down(s, colour))
            else:
                row.append(COLOURS[colour])
        rows.append("".join(row))
    return rows


def _tiles_text(state: GobbleStonesState) -> str:
    return "/".join(tile_rows(state, lambda _square, colour: COLOURS[colour].lower()))


def _rack_text(rack: list[int]) -> str:
    return "".join(COLOURS[c] * k for c, k in enumerate(rack)) or "-"


def _tiles_list(tiles: Iterable[tuple[int, int]]) -> str:
    return " ".join(f"{square_name(s)}={COLOURS[c]}" for s, c in tiles) or "-"


def format_position(state: GobbleStonesState) -> str:
    phase = state._phase
    if phase in ("deal", "draw"):
        phase_text = f"{phase} {state._drawer} {state._to_draw}"
    elif phase == "play":
        phase_text = f"play {state._turn}"
    elif phase == "challenge":
        phase_text = f"challenge {state._turn} {state._decider}"
    elif phase == "end":
        phase_text = f"end {state._end}"
    else:
        phase_text = "board"
    last = "-"
    if state._last is not None:
        mover, challenger, correct, tiles = state._last
        last = f"{mover} {challenger} {'right' if correct else 'wrong'} {_tiles_list(tiles)}"
    owners = " ".join(f"{square_name(s)}={p}" for s, p in sorted(state._owner.items()))
    lines = {
        "board": board_text(state._colour, state._value),
        "tiles": _tiles_text(state),
        "owners": owners or "-",
        "racks": "/".join(_rack_text(r) for r in state._racks),
        "bag": " ".join(f"{COLOURS[c]}{k}" for c, k in enumerate(state._bag)),
        "points": " ".join(str(p) for p in state._points),
        "phase": phase_text,
        "play": _tiles_list(state._pending),
        "passes": str(state._passes),
        "turns": str(state._turns),
        "last": last,
    }
    return "\n".join(f"{key} {lines[key]}" for key in FIELDS)


_fail = partial(parse_position_error, "gobblestones", None)


def _int(text: str, what: str, low: int = 0, high: int | None = None) -> int:
    if not re.fullmatch(r"-?\d+", text):
        raise _fail(f"{what} must be a whole number, not {text!r}")
    value = int(text)
    if value < low or (high is not None and value > high):
        raise _fail(f"{what} {value} is out of range")
    return value


def _parse_tile_list(text: str, what: str) -> list[tuple[int, int]]:
    if text.strip() == "-":
        return []
    out = []
    for item in text.split():
        square, eq, colour = item.partition("=")
        if not eq or len(colour) != 1 or colour.upper() not in COLOURS:
            raise _fail(f"{what}: write tiles as h8=R, not {item!r}")
        out.append((parse_square(square), COLOURS.index(colour.upper())))
    return out


def _board_progress(colours: tuple[int, ...], values: tuple[int, ...]) -> int:
    """How many chance steps built this (possibly partial) board; checks the build order."""
    gen = 0
    for panel, cells in enumerate(PANEL_CELLS):
        known = [colours[s] >= 0 for s in cells]
        valued = [values[s] > 0 for s in cells]
        count = sum(known)
        if count < len(cells) or not all(valued):
            if known != [True] * count + [False] * (len(cells) - count) or any(valued):
                raise _fail(f"board square {panel + 1} is drawn out of order (B1)")
            for later in PANEL_CELLS[panel + 1:]:
                if any(colours[s] >= 0 or values[s] for s in later):
                    raise _fail("the board is drawn one board square at a time (B1)")
            drawn = [colours[s] for s in cells[:count]]
            if any(drawn.count(c) > len(cells) // NUM_COLOURS for c in range(NUM_COLOURS)):
                raise _fail(f"board square {panel + 1} has more than 5 squares of a colour (B1)")
            return gen + count
        gen += PANEL_STEPS
    return gen


def parse_position(game: GobbleStonesGame, text: str) -> GobbleStonesState:
    from parlour.games.gobblestones.game import END_REASONS, GobbleStonesState

    n = game.players
    fields: dict[str, str] = {}
    for line in text.strip().splitlines():
        key, _, value = line.strip().partition(" ")
        if not key:
            continue
        if key not in FIELDS:
            raise _fail(f"unknown field {key!r}; the fields are {', '.join(FIELDS)}")
        if key in fields:
            raise _fail(f"field {key!r} is given twice")
        fields[key] = value.strip()
    missing = [k for k in FIELDS if k not in fields]
    if missing:
        raise _fail(f"missing field(s) {', '.join(missing)}")
    state = GobbleStonesState(game)

    colours, values = parse_board_text(fields["board"], partial=True)
    state._colour, state._value = colours, values
    state._gen = gen = _board_progress(colours, values)

    rows = fields["tiles"].split("/")
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise _fail("tiles are 15 rows of 15 marks joined by '/'")
    down: set[int] = set()
    for s, mark in enumerate("".join(rows)):
        if mark == ".":
            continue
        if mark.upper() not in COLOURS:
            raise _fail(f"unknown tile mark {mark!r} on {square_name(s)}")
        if colours[s] < 0:
            raise _fail(f"a tile on {square_name(s)}, whose colour is not drawn yet")
        state._tile[s] = COLOURS.index(mark.upper())
        state._occ |= 1 << s
        if mark.islower():
            down.add(s)
        elif state._tile[s] != colours[s]:
            raise _fail(f"the face-up tile on {square_name(s)} does not match its square (B4)")
    if down and not game.bluff:
        raise _fail("face-down tiles exist only in the bluffing variant (B9)")
    if fields["owners"] != "-":
        for item in fields["owners"].split():
            square, eq, owner = item.partition("=")
            s = parse_square(square)
            if not eq or s not in down or s in state._owner:
                raise _fail(f"owners: {item!r} does not name a face-down tile once")
            state._owner[s] = _int(owner, "owner", 0, n - 1)
    if set(state._owner) != down:
        raise _fail("every face-down tile needs its owner in 'owners'")

    racks = fields["racks"].split("/")
    if len(racks) != n:
        raise _fail(f"racks lists {len(racks)} seats, the game has {n}")
    for seat, rack in enumerate(racks):
        if rack != "-":
            if any(ch.upper() not in COLOURS for ch in rack):
                raise _fail(f"rack {rack!r} holds an unknown colour")
            for ch in rack:
                state._racks[seat][COLOURS.index(ch.upper())] += 1

    bag = fields["bag"].split()
    if len(bag) != NUM_COLOURS or [b[:1].upper() for b in bag] != list(COLOURS):
        raise _fail("bag is written R<n> Y<n> G<n> B<n> P<n>")
    state._bag = [_int(b[1:], "bag count", 0, TILES_PER_COLOUR) for b in bag]

    points = fields["points"].split()
    if len(points) != n:
        raise _fail(f"points lists {len(points)} seats, the game has {n}")
    state._points = [_int(p, "points", -10**6) for p in points]

    pending = _parse_tile_list(fields["play"], "play")
    state._pending = pending
    for s, c in pending:
        if (state._occ >> s) & 1:
            raise _fail(f"the play covers {square_name(s)}, which already holds a tile")
        if colours[s] < 0:
            raise _fail("a play on a board still being drawn")
        if not game.bluff and c != colours[s]:
            raise _fail(f"the tile played on {square_name(s)} does not match its square (B4)")

    for c in range(NUM_COLOURS):
        total = (state._bag[c] + sum(r[c] for r in state._racks)
                 + state._tile.count(c) + sum(1 for _s, k in pending if k == c))
        if total != TILES_PER_COLOUR:
            raise _fail(f"there are {total} {COLOURS[c]} tiles, not {TILES_PER_COLOUR} (B2)")

    words = fields["phase"].split()
    phase = words[0] if words else ""
    args = words[1:]
    shape = {"board": 0, "deal": 2, "play": 1, "challenge": 2, "draw": 2, "end": 1}
    if phase not in shape or len(args) != shape[phase]:
        raise _fail("phase is one of: board | deal SEAT LEFT | play SEAT | "
                    "challenge SEAT DECIDER | draw SEAT LEFT | end REASON")
    state._phase = phase
    if (phase == "board") != (gen < BOARD_STEPS):
        raise _fail("the board is being drawn exactly while the phase is 'board'")
    if phase in ("deal", "draw"):
        state._drawer = _int(args[0], "drawing seat", 0, n - 1)
        state._to_draw = _int(args[1], "tiles left to draw", 1, min(5, sum(state._bag)))
        if phase == "draw":
            state._turn = state._drawer
    elif phase in ("play", "challenge"):
        state._turn = _int(args[0], "seat", 0, n - 1)
        if phase == "challenge":
            if not game.bluff:
                raise _fail("challenges belong to the bluffing variant (B9)")
            state._decider = _int(args[1], "deciding seat", 0, n - 1)
            if state._decider == state._turn or not pending:
                raise _fail("a challenge decision needs a play by another seat")
    elif phase == "end":
        if args[0] not in END_REASONS:
            raise _fail(f"the end reason is one of {', '.join(END_REASONS)}")
        state._end = args[0]
    if pending:
        if phase not in ("play", "challenge"):
            raise _fail("a play is pending only in the play or challenge phase")
        squares = [s for s, _c in pending]
        before = [r + sum(1 for _s, k in pending if k == c)
                  for c, r in enumerate(state._racks[state._turn])]
        problem = play_problem(squares, state._occ, colours,
                               None if game.bluff else [c for _s, c in pending], before,
                               complete=phase == "challenge")
        if problem or squares != sorted(squares):
            raise _fail("the pending play is not the start of a legal play in board order "
                        f"({problem[1] if problem else 'order'})")
        if phase == "play" and not state._legal_actions():
            raise _fail("the pending play cannot be finished")

    state._passes = _int(fields["passes"], "passes", 0)
    state._turns = _int(fields["turns"], "turns", 0)
    last = fields["last"].split(maxsplit=3)
    if last != ["-"]:
        if len(last) != 4 or last[2] not in ("right", "wrong"):
            raise _fail("last is '-' or MOVER CHALLENGER right|wrong TILES")
        state._last = (
            _int(last[0], "mover", 0, n - 1), _int(last[1], "challenger", 0, n - 1),
            last[2] == "right", tuple(_parse_tile_list(last[3], "last")),
        )
    return state
