"""What a GobbleStones player sees (G-3), and the text and tensor built from that view only.

The view holds the board, every tile on it (a face-down tile's colour only for its owner, B9),
the play being made (its colours hidden in the bluffing variant from everyone but the mover),
the viewer's own rack, every rack's *size*, the bag's size, scores, and the turn. Until the game
ends it never holds another player's rack, the bag's colours, or a face-down colour that is not
the viewer's. When the game ends (G-5) everyone turns their tiles up, as at the table: every
view, the spectator's included, shows every rack (``racks``) and every face-down tile's colour.
The bag stays unknown: its tiles were never drawn.

Observation tensor: shape ``(53, 15, 15)``, row 0 = rank 15, column 0 = file a. "Seat j" means
seat ``(viewer + j) % players`` (a spectator sees from seat 0); a *constant plane* holds one
number in every cell.

* 0-4: the square's colour is R, Y, G, B, P (all zero where chance has not drawn it yet);
* 5: the square's value / 6; 6: the centre square of a board square (B3);
* 7-11: a tile of colour R, Y, G, B, P whose colour the viewer knows (face up, the viewer's own
  face-down tiles, every face-down tile once the game is over (G-5), and the play being made
  when its colours are shown to the viewer);
* 12: a tile on the board (any, pending play included); 13: a face-down tile;
  14: a tile whose colour the viewer does not know; 15: a face-down tile the viewer placed;
  16: a tile of the play being made (not yet scored or challenged);
* 17-21: constant planes, the viewer's rack count of R, Y, G, B, P / 10 (a spectator's: seat
  0's, once the game is over);
* 22-25: constant planes, the rack size of seat j / 20 (zero for seats the game lacks);
* 26-29: constant planes, the points of seat j / 100;
* 30: constant plane, tiles in the bag / 100;
* 31: all ones in the play phase; 32: all ones in the challenge phase (B9);
* 33: all ones when the viewer is to act;
* 34-37: all ones in the plane of seat j whose turn it is;
* 38-52: constant planes, the rack count of seat j (j = 1, 2, 3) of R, Y, G, B, P / 10, plane
  ``38 + 5 * (j - 1) + colour``: all zero until the game is over, when every rack is turned
  up (G-5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from parlour.core import View
from parlour.games.gobblestones.board import (
    CENTRES,
    COLOURS,
    FILES,
    NUM_COLOURS,
    SIZE,
    SQUARES,
    board_text,
    square_name,
    tile_rows,
)
from parlour.games.gobblestones.snapshot import Phase, Snapshot

NUM_PLANES = 53
OTHER_RACK_PLANES = 38
HIDDEN = "?"


def _rack_text(rack: Sequence[int]) -> str:
    return "".join(COLOURS[c] * k for c, k in enumerate(rack))


def build_view(
    snap: Snapshot,
    player: int | None,
    *,
    scores: Sequence[float],
    returns: Sequence[float],
    to_act: int,
    max_turns: int,
    ended: bool = False,
) -> dict[str, Any]:
    """``player``'s view of the state ``snap`` (``None``: a spectator's); the rules supply
    the scores and returns (B8, G-4), who is to act and the turn cap. ``ended``: the game was
    ended before its end (a resignation, a loss on time), which turns everything up too."""
    phase = snap.phase
    terminal = phase == Phase.END
    revealed = terminal or ended  # G-5: at the end every rack and face-down tile is turned up
    rows = tile_rows(
        snap.tile,
        snap.owner,
        lambda square, colour: COLOURS[colour].lower()
        if revealed or snap.owner[square] == player else HIDDEN,
    )
    shown = not snap.bluff or snap.turn == player or revealed
    last = None
    if snap.last is not None:
        mover, challenger, correct, tiles = snap.last
        last = {
            "player": mover,
            "challenger": challenger,
            "correct": correct,
            "tiles": [[square_name(s), COLOURS[c]] for s, c in tiles],
        }
    return {
        "game": "gobblestones",
        "player": player,
        "players": snap.players,
        "bluff": snap.bluff,
        "board": board_text(snap.colour, snap.value).split("/"),
        "tiles": rows,
        "owners": {square_name(s): p for s, p in sorted(snap.owner.items())},
        "play": [[square_name(s), COLOURS[c] if shown else HIDDEN] for s, c in snap.pending],
        "rack": None if player is None else _rack_text(snap.racks[player]),
        "racks": [_rack_text(r) for r in snap.racks] if revealed else None,
        "rack_sizes": [sum(r) for r in snap.racks],
        "bag": sum(snap.bag),
        "scores": [int(s) for s in scores],
        "phase": phase.value,
        "turn": snap.turn if phase in (Phase.PLAY, Phase.CHALLENGE, Phase.DRAW) else None,
        "to_act": to_act if to_act >= 0 else None,
        "decider": snap.decider if phase == Phase.CHALLENGE else None,
        "drawer": snap.drawer if phase in (Phase.DEAL, Phase.DRAW) else None,
        "to_draw": snap.to_draw,
        "passes": snap.passes,
        "turns": snap.turns,
        "max_turns": max_turns,
        "last_challenge": last,
        "terminal": terminal,
        "end": snap.end,
        "returns": list(returns) if terminal else None,
    }


def _cells(view: View) -> list[tuple[int, int]]:
    """(colour index or -1, value or 0) per square, from the view's board rows."""
    out = []
    for row in view["board"]:
        for i in range(0, len(row), 2):
            letter, value = row[i], row[i + 1]
            out.append((COLOURS.find(letter) if letter != "?" else -1,
                        int(value) if value != "?" else 0))
    return out


def render_text(view: View) -> str:
    """The board as text: each square ``<colour><value>`` in lower case while empty; a tile
    shows as ``##`` (face up), ``<seat>?`` (face down, colour hidden) or ``<seat><colour>``
    (face down, yours); the play being made as ``+<colour>``."""
    cells = _cells(view)
    pending = {name: colour for name, colour in view["play"]}
    lines = []
    for r in range(SIZE):
        out = [f"{SIZE - r:>2} "]
        for c in range(SIZE):
            s = r * SIZE + c
            name = square_name(s)
            mark = view["tiles"][r][c]
            colour, value = cells[s]
            if name in pending:
                out.append("+" + pending[name])
            elif mark == ".":
                out.append((COLOURS[colour].lower() if colour >= 0 else "?")
                           + (str(value) if value else "?"))
            elif mark == HIDDEN or mark.islower():
                owner = view["owners"].get(name, "?")
                out.append(f"{owner}{mark.upper() if mark != HIDDEN else HIDDEN}")
            else:
                out.append("##")
        lines.append(" ".join(out))
    lines.append("    " + "  ".join(FILES))
    lines.append(_status(view))
    return "\n".join(lines) + "\n"


def _status(view: View) -> str:
    parts = [f"scores {view['scores']}", f"racks {view['rack_sizes']}", f"bag {view['bag']}"]
    if view["rack"] is not None:
        parts.append(f"your rack {view['rack'] or '-'}")
    if view.get("racks") is not None:
        parts.append("racks turned up " + "/".join(r or "-" for r in view["racks"]))
    phase = view["phase"]
    if phase == "play":
        parts.append(f"player {view['turn']} to play")
    elif phase == "challenge":
        parts.append(f"player {view['decider']}: challenge or trust player {view['turn']}'s play")
    elif phase in ("deal", "draw"):
        parts.append(f"player {view['drawer']} draws {view['to_draw']}")
    elif phase == "board":
        parts.append("drawing the board")
    else:
        parts.append(f"game over ({view['end']}), returns {view['returns']}")
    last = view["last_challenge"]
    if last is not None:
        verdict = "right" if last["correct"] else "wrong"
        tiles = " ".join(f"{sq}={c}" for sq, c in last["tiles"])
        parts.append(
            f"last challenge: {last['challenger']} on {last['player']} ({verdict}: {tiles})"
        )
    return "; ".join(parts)


def tensor(view: View) -> np.ndarray:
    planes = np.zeros((NUM_PLANES, SIZE, SIZE), dtype=np.float32)
    flat = planes.reshape(NUM_PLANES, SQUARES)
    n = view["players"]
    viewer = view["player"] if view["player"] is not None else 0
    for s, (colour, value) in enumerate(_cells(view)):
        if colour >= 0:
            flat[colour, s] = 1.0
        flat[5, s] = value / 6.0
    for s in CENTRES:
        flat[6, s] = 1.0
    for r, row in enumerate(view["tiles"]):
        for c, mark in enumerate(row):
            if mark == ".":
                continue
            s = r * SIZE + c
            flat[12, s] = 1.0
            if mark == HIDDEN:
                flat[13, s] = flat[14, s] = 1.0
                continue
            flat[7 + COLOURS.index(mark.upper()), s] = 1.0
            if mark.islower():
                flat[13, s] = 1.0
                if view["owners"].get(square_name(s)) == view["player"]:
                    flat[15, s] = 1.0
    for name, colour in view["play"]:
        file, rank = name[0], int(name[1:])
        s = (SIZE - rank) * SIZE + FILES.index(file)
        flat[12, s] = flat[16, s] = 1.0
        if colour == HIDDEN:
            flat[14, s] = 1.0
        else:
            flat[7 + COLOURS.index(colour), s] = 1.0
    racks: list[str] = view.get("racks") or []  # every rack, once the game is over (G-5)
    own = racks[viewer] if racks else view["rack"]
    if own:
        for c in range(NUM_COLOURS):
            planes[17 + c] = own.count(COLOURS[c]) / 10.0
    for j in range(1, n if racks else 1):
        for c in range(NUM_COLOURS):
            planes[OTHER_RACK_PLANES + 5 * (j - 1) + c] = (
                racks[(viewer + j) % n].count(COLOURS[c]) / 10.0
            )
    for j in range(n):
        seat = (viewer + j) % n
        planes[22 + j] = view["rack_sizes"][seat] / 20.0
        planes[26 + j] = view["scores"][seat] / 100.0
    planes[30] = view["bag"] / 100.0
    if view["phase"] == "play":
        planes[31] = 1.0
    if view["phase"] == "challenge":
        planes[32] = 1.0
    if view["to_act"] is not None and view["to_act"] == view["player"]:
        planes[33] = 1.0
    if view["turn"] is not None and view["phase"] in ("play", "challenge"):
        planes[34 + (view["turn"] - viewer) % n] = 1.0
    return planes
