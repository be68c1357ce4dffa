"""What a Stomple player sees, as text and as a tensor, built from their view dict only (G-3).

Everything on a Stomple table is public once the marbles are dealt, so every view holds the
whole board; what varies by viewer is the point of view: the tensor puts the viewer's own seat
first, the others following clockwise.

Observation tensor planes (each 7 x 7, row 0 = rank 7, column 0 = file a):

* 0-6: a marble of that kind in the hole: white, yellow, red, blue, green, black, cat's eye;
* 7: an empty hole (no marble, no stomper); 8: a hole the deal has not reached;
* 9-15: all ones in the plane of the kind being stomped as a string (S7), else all zeros;
* then 11 planes per seat, seat ``(viewer + j) % players`` for j = 0, 1, ... (a spectator sees
  from seat 0): its stomper's hole; all ones if its first turn is still to come; all ones if it
  is out; all ones if it is to move; six planes one-hot of its stomper colour (all zero before
  the draw); its score divided by the target (capped at 1) in every cell.
"""

from __future__ import annotations

import numpy as np

from parlour.core import View
from parlour.games.stomple.board import FILES, KIND_LETTERS, KIND_NAMES, KINDS, SIZE

NUM_GLOBAL_PLANES = 16
PLANES_PER_SEAT = 11
EMPTY_PLANE, UNDEALT_PLANE, STRING_PLANES = 7, 8, 9
STATUS_WORDS = {"first": "first turn to take", "on": "on the board", "out": "out"}


def tensor(view: View) -> np.ndarray:
    """The observation tensor of a view: shape ``(16 + 11 * players, 7, 7)``."""
    n = view["players"]
    planes = np.zeros((NUM_GLOBAL_PLANES + PLANES_PER_SEAT * n, SIZE, SIZE), dtype=np.float32)
    viewer = view["player"] if view["player"] is not None else 0
    seat_of_digit = {str(p): (p - viewer) % n for p in range(n)}
    for row, rank in enumerate(view["board"]):
        for col, ch in enumerate(rank):
            if ch in KIND_LETTERS:
                planes[KIND_LETTERS.index(ch), row, col] = 1.0
            elif ch == ".":
                planes[EMPTY_PLANE, row, col] = 1.0
            elif ch == "?":
                planes[UNDEALT_PLANE, row, col] = 1.0
            else:
                planes[NUM_GLOBAL_PLANES + PLANES_PER_SEAT * seat_of_digit[ch], row, col] = 1.0
    if view["string"] is not None:
        planes[STRING_PLANES + KIND_NAMES.index(view["string"])] = 1.0
    target = view["target"]
    for p in range(n):
        base = NUM_GLOBAL_PLANES + PLANES_PER_SEAT * ((p - viewer) % n)
        status = view["status"][p]
        if status == "first":
            planes[base + 1] = 1.0
        elif status == "out":
            planes[base + 2] = 1.0
        if view["to_move"] == p:
            planes[base + 3] = 1.0
        colour = view["colours"][p]
        if colour is not None:
            planes[base + 4 + KIND_NAMES.index(colour)] = 1.0
        planes[base + 10] = min(1.0, view["scores"][p] / target)
    return planes


def describe_player(view: View, p: int) -> str:
    colour = view["colours"][p] or "no stomper yet"
    return f"player {p} ({colour}): {view['scores'][p]} points, {STATUS_WORDS[view['status'][p]]}"


def render_text(view: View) -> str:
    """A plain-text drawing: the board with coordinates, then one line per player."""
    head = f"Stomple, round {view['round']}"
    head += ", a single round" if view["single_round"] else f", playing to {view['target']} points"
    if view["phase"] == "deal":
        head += " - dealing the marbles"
    elif view["phase"] == "draw":
        head += " - drawing stompers"
    elif view["phase"] == "over":
        won = ", ".join(map(str, view["winners"]))
        head += f" - game over, won by player {won}"
    else:
        head += f" - player {view['to_move']} to stomp"
        if view["string"] is not None:
            head += f" (keep stomping the {view['string']} string)"
    lines = [head]
    for row, rank in enumerate(view["board"]):
        lines.append(f"{SIZE - row} " + " ".join(rank))
    lines.append("  " + " ".join(FILES))
    key = ", ".join(f"{KIND_LETTERS[k]} {KIND_NAMES[k]}" for k in range(KINDS))
    lines.append(f"marbles: {key}; digits are stompers")
    for p in range(view["players"]):
        mark = ">" if view["to_move"] == p else " "
        you = " (you)" if view["player"] == p else ""
        lines.append(f"{mark} {describe_player(view, p)}{you}")
    return "\n".join(lines) + "\n"
