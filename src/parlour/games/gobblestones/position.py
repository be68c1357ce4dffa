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

:func:`format_position` and :func:`parse_position` are inverses, between the text and a
:class:`~parlour.games.gobblestones.snapshot.Snapshot`; the parser checks that the text
describes a reachable kind of state (20 tiles of each colour, sizes, phases) and raises
:class:`NotationError` naming what is wrong. Whether a pending play can still be finished is a
question for the rules: ``GobbleStonesGame.state_from_position`` asks it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import partial

from parlour.core import parse_position_error
from parlour.games.gobblestones.board import (
    BOARD_STEPS,
    COLOURS,
    NUM_COLOURS,
    PANEL_CELLS,
    PANEL_STEPS,
    SIZE,
    SQUARES,
    TILES_PER_COLOUR,
    board_text,
    parse_board_text,
    parse_square,
    square_name,
    tile_rows,
)
from parlour.games.gobblestones.plays import play_problem
from parlour.games.gobblestones.snapshot import END_REASONS, Phase, Snapshot, Tiles

FIELDS = ("board", "tiles", "owners", "racks", "bag", "points", "phase", "play", "passes",
          "turns", "last")


def _tiles_text(snap: Snapshot) -> str:
    rows = tile_rows(snap.tile, snap.owner, lambda _square, colour: COLOURS[colour].lower())
    return "/".join(rows)


def _rack_text(rack: Iterable[int]) -> str:
    return "".join(COLOURS[c] * k for c, k in enumerate(rack)) or "-"


def _tiles_list(tiles: Iterable[tuple[int, int]]) -> str:
    return " ".join(f"{square_name(s)}={COLOURS[c]}" for s, c in tiles) or "-"


def format_position(snap: Snapshot) -> str:
    phase = snap.phase
    if phase in (Phase.DEAL, Phase.DRAW):
        phase_text = f"{phase} {snap.drawer} {snap.to_draw}"
    elif phase == Phase.PLAY:
        phase_text = f"play {snap.turn}"
    elif phase == Phase.CHALLENGE:
        phase_text = f"challenge {snap.turn} {snap.decider}"
    elif phase == Phase.END:
        phase_text = f"end {snap.end}"
    else:
        phase_text = "board"
    last = "-"
    if snap.last is not None:
        mover, challenger, correct, tiles = snap.last
        last = f"{mover} {challenger} {'right' if correct else 'wrong'} {_tiles_list(tiles)}"
    owners = " ".join(f"{square_name(s)}={p}" for s, p in sorted(snap.owner.items()))
    lines = {
        "board": board_text(snap.colour, snap.value),
        "tiles": _tiles_text(snap),
        "owners": owners or "-",
        "racks": "/".join(_rack_text(r) for r in snap.racks),
        "bag": " ".join(f"{COLOURS[c]}{k}" for c, k in enumerate(snap.bag)),
        "points": " ".join(str(p) for p in snap.points),
        "phase": phase_text,
        "play": _tiles_list(snap.pending),
        "passes": str(snap.passes),
        "turns": str(snap.turns),
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


def parse_position(text: str, players: int, bluff: bool) -> Snapshot:
    """Read a position text of a game with ``players`` seats (``bluff``: the variant, B9)."""
    n = players
    fields = _fields(text)
    colours, values = parse_board_text(fields["board"], partial=True)
    gen = _board_progress(colours, values)
    tile, occ, owner = _tiles(fields, colours, n, bluff)
    racks, bag, points = _holdings(fields, n)
    pending = _parse_tile_list(fields["play"], "play")
    for s, c in pending:
        if (occ >> s) & 1:
            raise _fail(f"the play covers {square_name(s)}, which already holds a tile")
        if colours[s] < 0:
            raise _fail("a play on a board still being drawn")
        if not bluff and c != colours[s]:
            raise _fail(f"the tile played on {square_name(s)} does not match its square (B4)")
    for c in range(NUM_COLOURS):
        total = (bag[c] + sum(r[c] for r in racks)
                 + tile.count(c) + sum(1 for _s, k in pending if k == c))
        if total != TILES_PER_COLOUR:
            raise _fail(f"there are {total} {COLOURS[c]} tiles, not {TILES_PER_COLOUR} (B2)")
    phase, turn, decider, drawer, to_draw, end = _phase(fields, n, bluff, gen, sum(bag),
                                                        bool(pending))
    if pending:
        if phase not in (Phase.PLAY, Phase.CHALLENGE):
            raise _fail("a play is pending only in the play or challenge phase")
        squares = [s for s, _c in pending]
        before = [r + sum(1 for _s, k in pending if k == c) for c, r in enumerate(racks[turn])]
        problem = play_problem(squares, occ, colours,
                               None if bluff else [c for _s, c in pending], before,
                               complete=phase == Phase.CHALLENGE)
        if problem or squares != sorted(squares):
            raise _fail("the pending play is not the start of a legal play in board order "
                        f"({problem[1] if problem else 'order'})")
    return Snapshot(
        players=n,
        bluff=bluff,
        colour=colours,
        value=values,
        board_steps=gen,
        tile=tuple(tile),
        owner=owner,
        racks=tuple(tuple(r) for r in racks),
        bag=tuple(bag),
        points=tuple(points),
        phase=phase,
        turn=turn,
        pending=tuple(pending),
        decider=decider,
        drawer=drawer,
        to_draw=to_draw,
        passes=_int(fields["passes"], "passes", 0),
        turns=_int(fields["turns"], "turns", 0),
        last=_last(fields["last"], n),
        end=end,
    )


def _fields(text: str) -> dict[str, str]:
    """The text's fields by name, each given once, none missing."""
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
    return fields


def _tiles(fields: dict[str, str], colours: tuple[int, ...], n: int,
           bluff: bool) -> tuple[list[int], int, dict[int, int]]:
    """The tiles on the board (colour per square, -1 for none), the covered squares as a
    bitboard, and the owners of the face-down ones (B9)."""
    rows = fields["tiles"].split("/")
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise _fail("tiles are 15 rows of 15 marks joined by '/'")
    tile = [-1] * SQUARES
    occ = 0
    down: set[int] = set()
    for s, mark in enumerate("".join(rows)):
        if mark == ".":
            continue
        if mark.upper() not in COLOURS:
            raise _fail(f"unknown tile mark {mark!r} on {square_name(s)}")
        if colours[s] < 0:
            raise _fail(f"a tile on {square_name(s)}, whose colour is not drawn yet")
        tile[s] = COLOURS.index(mark.upper())
        occ |= 1 << s
        if mark.islower():
            down.add(s)
        elif tile[s] != colours[s]:
            raise _fail(f"the face-up tile on {square_name(s)} does not match its square (B4)")
    if down and not bluff:
        raise _fail("face-down tiles exist only in the bluffing variant (B9)")
    owner: dict[int, int] = {}
    if fields["owners"] != "-":
        for item in fields["owners"].split():
            square, eq, seat_text = item.partition("=")
            s = parse_square(square)
            if not eq or s not in down or s in owner:
                raise _fail(f"owners: {item!r} does not name a face-down tile once")
            owner[s] = _int(seat_text, "owner", 0, n - 1)
    if set(owner) != down:
        raise _fail("every face-down tile needs its owner in 'owners'")
    return tile, occ, owner


def _holdings(fields: dict[str, str], n: int) -> tuple[list[list[int]], list[int], list[int]]:
    """Each seat's rack by colour, the bag by colour, each seat's points."""
    rack_texts = fields["racks"].split("/")
    if len(rack_texts) != n:
        raise _fail(f"racks lists {len(rack_texts)} seats, the game has {n}")
    racks = [[0] * NUM_COLOURS for _ in range(n)]
    for seat, rack in enumerate(rack_texts):
        if rack != "-":
            if any(ch.upper() not in COLOURS for ch in rack):
                raise _fail(f"rack {rack!r} holds an unknown colour")
            for ch in rack:
                racks[seat][COLOURS.index(ch.upper())] += 1
    bag_texts = fields["bag"].split()
    if len(bag_texts) != NUM_COLOURS or [b[:1].upper() for b in bag_texts] != list(COLOURS):
        raise _fail("bag is written R<n> Y<n> G<n> B<n> P<n>")
    bag = [_int(b[1:], "bag count", 0, TILES_PER_COLOUR) for b in bag_texts]
    point_texts = fields["points"].split()
    if len(point_texts) != n:
        raise _fail(f"points lists {len(point_texts)} seats, the game has {n}")
    points = [_int(p, "points", -10**6) for p in point_texts]
    return racks, bag, points


def _phase(fields: dict[str, str], n: int, bluff: bool, gen: int, bag: int,
           pending: bool) -> tuple[Phase, int, int, int, int, str | None]:
    """The phase and who it concerns: ``(phase, turn, decider, drawer, to_draw, end)``."""
    words = fields["phase"].split()
    phase_word = words[0] if words else ""
    args = words[1:]
    shape = {"board": 0, "deal": 2, "play": 1, "challenge": 2, "draw": 2, "end": 1}
    if phase_word not in shape or len(args) != shape[phase_word]:
        raise _fail("phase is one of: board | deal SEAT LEFT | play SEAT | "
                    "challenge SEAT DECIDER | draw SEAT LEFT | end REASON")
    phase = Phase(phase_word)
    turn, decider, drawer, to_draw, end = 0, -1, -1, 0, None
    if (phase == Phase.BOARD) != (gen < BOARD_STEPS):
        raise _fail("the board is being drawn exactly while the phase is 'board'")
    if phase in (Phase.DEAL, Phase.DRAW):
        drawer = _int(args[0], "drawing seat", 0, n - 1)
        to_draw = _int(args[1], "tiles left to draw", 1, min(5, bag))
        if phase == Phase.DRAW:
            turn = drawer
    elif phase in (Phase.PLAY, Phase.CHALLENGE):
        turn = _int(args[0], "seat", 0, n - 1)
        if phase == Phase.CHALLENGE:
            if not bluff:
                raise _fail("challenges belong to the bluffing variant (B9)")
            decider = _int(args[1], "deciding seat", 0, n - 1)
            if decider == turn or not pending:
                raise _fail("a challenge decision needs a play by another seat")
    elif phase == Phase.END:
        if args[0] not in END_REASONS:
            raise _fail(f"the end reason is one of {', '.join(END_REASONS)}")
        end = args[0]
    return phase, turn, decider, drawer, to_draw, end


def _last(text: str, n: int) -> tuple[int, int, bool, Tiles] | None:
    """The last challenge (B9), or None."""
    words = text.split(maxsplit=3)
    if words == ["-"]:
        return None
    if len(words) != 4 or words[2] not in ("right", "wrong"):
        raise _fail("last is '-' or MOVER CHALLENGER right|wrong TILES")
    return (
        _int(words[0], "mover", 0, n - 1), _int(words[1], "challenger", 0, n - 1),
        words[2] == "right", tuple(_parse_tile_list(words[3], "last")),
    )
