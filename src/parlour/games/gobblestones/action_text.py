"""GobbleStones actions as text and back, by where the game stands (the state's Fields).

The same number is a square's colour, a board square's values or a drawn tile's colour while
chance acts, and a tile, ``pass``, ``end``, ``challenge`` or ``trust`` at a player's
decision; this module writes and reads each by the phase. The words themselves are read by
``notation.py``; a whole play typed at once (``h8-h11``) is checked here as a whole first,
so that an error names the rule it breaks (``plays.play_problem``).
"""

from __future__ import annotations

import re

from parlour.core import IllegalActionError, NotationError
from parlour.games.gobblestones.board import (
    COLOURS,
    NUM_COLOURS,
    PANEL_CELLS,
    PANEL_STEPS,
    SQUARE_COLOURS,
    SQUARES,
    TILE_COLOURS,
    colour_index,
    square_name,
)
from parlour.games.gobblestones.fields import Fields
from parlour.games.gobblestones.legal import ActionCodes, rack_at_turn_start, tiles_of
from parlour.games.gobblestones.notation import (
    parse_permutation,
    parse_tile,
    parse_token,
    permutation_text,
)
from parlour.games.gobblestones.plays import play_problem
from parlour.games.gobblestones.snapshot import Phase
from parlour.i18n import Message


def action_to_string(f: Fields, codes: ActionCodes, action: int) -> str:
    """``action`` as its text now, hidden colours included (``State.action_to_string``)."""
    phase = f.phase
    if phase == Phase.BOARD:
        panel, step = divmod(f.board_steps, PANEL_STEPS)
        if step < len(PANEL_CELLS[panel]):
            return f"{square_name(PANEL_CELLS[panel][step])}={COLOURS[action]}"
        return permutation_text(action)
    if phase in (Phase.DEAL, Phase.DRAW):
        return f"draw {COLOURS[action]}"
    if action == codes.PASS:
        return "pass"
    if action == codes.END:
        return "end"
    if f.bluff and action == codes.CHALLENGE:
        return "challenge"
    if f.bluff and action == codes.TRUST:
        return "trust"
    if not 0 <= action < codes.place_actions:
        raise ValueError(f"no GobbleStones action {action}")
    colour, square = divmod(action, SQUARES)
    if f.bluff:
        return f"{square_name(square)}:{COLOURS[colour].lower()}"
    return square_name(square)


def public_action_string(f: Fields, codes: ActionCodes, action: int) -> str:
    """The action as every player may see it: a drawn tile's colour (B2) and a face-down
    tile's (B9) hidden, else :func:`action_to_string`."""
    phase = f.phase
    if phase in (Phase.DEAL, Phase.DRAW):
        return "draw"
    if phase in (Phase.PLAY,) and f.bluff and 0 <= action < codes.place_actions:
        return f"{square_name(action % SQUARES)}:?"
    return action_to_string(f, codes, action)


def string_to_action(f: Fields, codes: ActionCodes, text: str) -> int:
    """One action read from ``text`` now (``State.string_to_action``)."""
    word = text.strip().lower()
    phase = f.phase
    if phase == Phase.BOARD:
        panel, step = divmod(f.board_steps, PANEL_STEPS)
        if step < len(PANEL_CELLS[panel]):
            return colour_index(word.split("=")[-1])
        return parse_permutation(word)
    if phase in (Phase.DEAL, Phase.DRAW):
        return colour_index(word.removeprefix("draw").strip())
    if word == "pass":
        return codes.PASS
    if word in ("end", "done"):
        return codes.END
    if f.bluff and word == "challenge":
        return codes.CHALLENGE
    if f.bluff and word == "trust":
        return codes.TRUST
    square, colour = parse_tile(word)
    return place_action(f, square, colour, text)


def place_action(f: Fields, square: int, colour: int | None, text: str) -> int:
    """The action placing a tile (of ``colour``, else of the square's own) on ``square``."""
    if f.bluff:
        return (f.colour[square] if colour is None else colour) * SQUARES + square
    if colour is not None and colour != f.colour[square]:
        raise IllegalActionError(text, "B4", Message(
            "{square} is {colour}: a tile must match the colour of its square, and this "
            "one is {tile}", square=square_name(square),
            colour=SQUARE_COLOURS[f.colour[square]], tile=TILE_COLOURS[colour]
        ))
    return square


def play_actions(f: Fields, text: str) -> list[int]:
    """The tiles of a whole play typed at once (``h8-h11``, ``h8 h9 h10``, bluffing
    ``h8:r h9:g``), the ones not laid yet, in board order; the play checked as a whole."""
    word = text.strip().lower()
    tiles: list[tuple[int, int | None]] = []
    for token in re.split(r"[\s,;]+", word):
        if token:
            tiles.extend(parse_token(token))
    if not tiles:
        raise NotationError(Message("write a play like h8-h11 or h8 h9 h10, or 'pass'"))
    if len({s for s, _c in tiles}) != len(tiles):
        raise IllegalActionError(text, "B4", Message("a play covers each square once"))
    placed = {s for s, _c in f.pending}
    new = sorted(((s, c) for s, c in tiles if s not in placed), key=lambda tile: tile[0])
    actions = [place_action(f, s, c, text) for s, c in new]
    squares = sorted(placed | {s for s, _c in new})
    if f.bluff:
        colours = [a // SQUARES for a in actions]
        rack = f.racks[f.turn]
        for c in range(NUM_COLOURS):
            if colours.count(c) > rack[c]:
                raise IllegalActionError(text, "B4", Message(
                    "your rack holds {n} {colour} tiles, not {asked}", n=rack[c],
                    colour=TILE_COLOURS[c], asked=colours.count(c)))
    problem = play_problem(squares, f.occupied, f.colour, tiles_of(f, squares),
                           rack_at_turn_start(f))
    if problem:
        raise IllegalActionError(text, *problem)
    return actions
