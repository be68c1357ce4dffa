"""Hand-made GobbleStones positions on the example board, for the rule tests.

The example board (``EXAMPLE_BOARD``) around the middle, as ``<colour><value>``::

    10  Y4 G3 Y4 G3 G3 B6 R2 R2 R2 P5 B2 G3 B2 R5 Y6
     9  P6 R5 R5 Y4 R5 P5 G3 R2 G3 Y4 R5 Y6 Y6 P4 B2
     8  B2 Y4 R5 G3 G3 B6 B6 Y4 Y4 Y4 P4 P4 R5 G3 G3
     7  B2 B2 Y4 B2 P6 P5 B6 P5 G3 G3 G3 B2 P4 R5 Y6
     6  P6 P6 P6 B2 R5 G3 B6 R2 Y4 P5 B2 Y6 P4 R5 G3
        a  b  c  d  e  f  g  h  i  j  k  l  m  n  o

Centre squares (B3): c13 h13 m13 c8 h8 m8 c3 h3 m3.
"""

from __future__ import annotations

import parlour
from parlour.games.gobblestones import EXAMPLE_BOARD
from parlour.games.gobblestones.board import COLOURS, SIZE, parse_board_text, parse_square

COLOUR_OF, VALUE_OF = parse_board_text(EXAMPLE_BOARD)


def colour(name: str) -> str:
    return COLOURS[COLOUR_OF[parse_square(name)]]


def value(name: str) -> int:
    return VALUE_OF[parse_square(name)]


def letters(*names: str) -> str:
    """The tiles that match these squares, e.g. a rack for playing exactly them."""
    return "".join(colour(n) for n in names)


def game(players: int = 2, bluff: bool = False, **params):
    return parlour.load_game("gobblestones", players=players, bluff=bluff, **params)


def position(
    *,
    players: int = 2,
    tiles: dict[str, str] | None = None,
    owners: dict[str, int] | None = None,
    racks: tuple[str, ...] | None = None,
    bag: dict[str, int] | None = None,
    spare: int | None = None,
    points: tuple[int, ...] | None = None,
    phase: str = "play 0",
    play: list[tuple[str, str]] | None = None,
    passes: int = 0,
    turns: int = 0,
    last: str = "-",
) -> str:
    """A position text on the example board.

    ``tiles`` maps squares to tile letters (upper case face up, lower case face down; ``"*"``
    means a face-up tile matching the square). Without ``bag``, the bag holds every tile not
    placed elsewhere; with ``bag``, the tiles left over go to the rack of seat ``spare``.
    """
    tiles = {k: (colour(k) if v == "*" else v) for k, v in (tiles or {}).items()}
    racks = list(racks if racks is not None else ("-",) * players)
    play = play or []
    used = {c: 0 for c in COLOURS}
    for letter in tiles.values():
        used[letter.upper()] += 1
    for rack in racks:
        for letter in rack.replace("-", ""):
            used[letter] += 1
    for _square, letter in play:
        used[letter] += 1
    if bag is None:
        bag = {c: 20 - used[c] for c in COLOURS}
    else:
        extra = "".join(c * (20 - used[c] - bag.get(c, 0)) for c in COLOURS)
        if extra:
            assert spare is not None, "say which rack takes the spare tiles"
            racks[spare] = "".join(sorted(racks[spare].replace("-", "") + extra,
                                          key=COLOURS.index))
    rows = [["."] * SIZE for _ in range(SIZE)]
    for name, letter in tiles.items():
        s = parse_square(name)
        rows[s // SIZE][s % SIZE] = letter
    owner_text = " ".join(f"{k}={v}" for k, v in (owners or {}).items()) or "-"
    lines = [
        "board " + EXAMPLE_BOARD,
        "tiles " + "/".join("".join(r) for r in rows),
        "owners " + owner_text,
        "racks " + "/".join(r or "-" for r in racks),
        "bag " + " ".join(f"{c}{bag.get(c, 0)}" for c in COLOURS),
        "points " + " ".join(str(p) for p in (points or (0,) * players)),
        "phase " + phase,
        "play " + (" ".join(f"{s}={c}" for s, c in play) or "-"),
        f"passes {passes}",
        f"turns {turns}",
        f"last {last}",
    ]
    return "\n".join(lines)


def state(players: int = 2, bluff: bool = False, **kwargs):
    return game(players, bluff).state_from_position(position(players=players, **kwargs))


def play(state, text: str):
    """Apply a whole play written in notation; returns the state for chaining."""
    for action in state.string_to_actions(text):
        state.apply_action(action)
    return state


def draw(state, letters_: str):
    """Resolve chance draws with the given tile colours."""
    for letter in letters_:
        assert state.is_chance_node()
        state.apply_action(COLOURS.index(letter))
    return state
