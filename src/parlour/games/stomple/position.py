"""Stomple's position text: one line that describes any moment of a game (docs/rules/stomple.md).

    <board> <to move> <stomper colours> <players' status> <string> <scores> <round>

``ywrb.0k/.../...  1 rb sf - 0,12 2`` reads: the seven ranks from rank 7 down, joined by ``/``
(a marble letter ``w y r b g k c``, ``.`` an empty hole, a digit the stomper of that player,
``?`` a hole the deal has not reached); player 1 to move (during the deal: the player who will
start the round); player 0 has drawn red and player 1 blue (``?``: not drawn yet); player 0 has a
stomper on the board (``s``), player 1 has a first turn still to take (``f``; ``x``: out); no
string is being stomped (else the colour letter of the string); scores 0 and 12; round 2.

This module only reads and writes the text and checks that it is well formed; what the
position *means* (knock-outs due, a round already over) is decided by the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from parlour.core import parse_position_error
from parlour.games.stomple.board import (
    HOLES,
    KIND_LETTERS,
    KIND_NAMES,
    KINDS,
    PER_KIND,
    SIZE,
)

WAITING, ON_BOARD, OUT = 0, 1, 2
STATUS_LETTERS = "fsx"
STATUS_NAMES = ("first turn to take", "on the board", "out")
MAX_PLAYERS = 6


@dataclass(frozen=True)
class Snapshot:
    """Everything a position text says, as plain immutable values.

    ``masks[k]`` is the bitboard of holes holding a marble of kind ``k``; holes from ``dealt`` on
    are not dealt yet (the deal fills holes in order a7, b7, ..., g1); ``colours[p]`` is -1
    before player ``p`` draws; ``stompers[p]`` is a hole or -1; ``string`` is the kind being
    stomped as a string, or -1.
    """

    masks: tuple[int, ...]
    dealt: int
    colours: tuple[int, ...]
    stompers: tuple[int, ...]
    status: tuple[int, ...]
    to_move: int
    string: int
    scores: tuple[int, ...]
    round: int


def format_position(snap: Snapshot) -> str:
    cells = []
    owner = {hole: p for p, hole in enumerate(snap.stompers) if hole >= 0}
    for hole in range(HOLES):
        if hole >= snap.dealt:
            cells.append("?")
        elif hole in owner:
            cells.append(str(owner[hole]))
        else:
            for kind, mask in enumerate(snap.masks):
                if (mask >> hole) & 1:
                    cells.append(KIND_LETTERS[kind])
                    break
            else:
                cells.append(".")
    board = "/".join("".join(cells[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE))
    colours = "".join("?" if c < 0 else KIND_LETTERS[c] for c in snap.colours)
    status = "".join(STATUS_LETTERS[s] for s in snap.status)
    string = "-" if snap.string < 0 else KIND_LETTERS[snap.string]
    scores = ",".join(map(str, snap.scores))
    return f"{board} {snap.to_move} {colours} {status} {string} {scores} {snap.round}"


_bad = partial(parse_position_error, "stomple")


def parse_position(text: str, players: int | None = None) -> Snapshot:
    """Read a position text; ``players`` (if given) is the number of players it must have."""
    fields = text.split()
    if len(fields) != 7:
        raise _bad(
            text,
            "expected 7 fields: board, player to move, stomper colours, status, string, "
            "scores, round",
        )
    board, to_move_text, colours_text, status_text, string_text, scores_text, round_text = fields
    n = len(status_text)
    if not 2 <= n <= MAX_PLAYERS:
        raise _bad(text, f"the status field needs one letter per player, 2 to {MAX_PLAYERS} (S2)")
    if players is not None and n != players:
        raise _bad(text, f"this game has {players} players, the position has {n}")

    ranks = board.split("/")
    if len(ranks) != SIZE or any(len(rank) != SIZE for rank in ranks):
        raise _bad(text, "the board is 7 ranks of 7 holes, joined by / (S1)")
    cells = "".join(ranks)
    masks = [0] * KINDS
    stompers = [-1] * n
    dealt = HOLES
    for hole, ch in enumerate(cells):
        if ch == "?":
            dealt = min(dealt, hole)
            continue
        if hole > dealt:
            raise _bad(text, "the deal fills holes in order from a7 to g1: '?' only at the end")
        if ch in KIND_LETTERS:
            masks[KIND_LETTERS.index(ch)] |= 1 << hole
        elif ch.isdigit():
            p = int(ch)
            if p >= n:
                raise _bad(text, f"stomper {p} on the board, but there are {n} players")
            if stompers[p] >= 0:
                raise _bad(text, f"player {p} has two stompers on the board")
            stompers[p] = hole
        elif ch != ".":
            raise _bad(text, f"unknown hole mark {ch!r}: use {KIND_LETTERS}, '.', '?' or 0-{n - 1}")
    for kind, mask in enumerate(masks):
        if mask.bit_count() > PER_KIND:
            raise _bad(text, f"more than {PER_KIND} {KIND_NAMES[kind]} marbles (S1)")

    if not (to_move_text.isdigit() and int(to_move_text) < n):
        raise _bad(text, f"the player to move is a number from 0 to {n - 1}")
    to_move = int(to_move_text)

    if len(colours_text) != n:
        raise _bad(text, "the colours field needs one letter per player ('?': not drawn yet)")
    colours = []
    for ch in colours_text:
        if ch == "?":
            colours.append(-1)
        elif ch in KIND_LETTERS[:6]:
            colours.append(KIND_LETTERS.index(ch))
        else:
            raise _bad(text, f"no stomper colour {ch!r}: stompers are one of {KIND_LETTERS[:6]}")
    drawn = [c for c in colours if c >= 0]
    if len(set(drawn)) != len(drawn):
        raise _bad(text, "two players hold stompers of the same colour (S2)")
    if -1 in colours and any(c >= 0 for c in colours[colours.index(-1):]):
        raise _bad(text, "stompers are drawn in seat order: '?' only at the end")

    if any(ch not in STATUS_LETTERS for ch in status_text):
        raise _bad(text, "status letters are f (first turn to take), s (on the board), x (out)")
    status = [STATUS_LETTERS.index(ch) for ch in status_text]
    for p in range(n):
        if (status[p] == ON_BOARD) != (stompers[p] >= 0):
            raise _bad(text, f"player {p} is {status_text[p]!r} but their stomper is "
                       f"{'not ' if stompers[p] < 0 else ''}on the board")
    if status[to_move] == OUT:
        raise _bad(text, f"player {to_move} is out, so cannot be the player to move")

    if string_text == "-":
        string = -1
    elif len(string_text) == 1 and string_text in KIND_LETTERS:
        string = KIND_LETTERS.index(string_text)
        if status[to_move] != ON_BOARD:
            raise _bad(text, "a string is being stomped, so the player to move is on the board")
    else:
        raise _bad(text, f"the string field is '-' or a marble letter of {KIND_LETTERS}")

    score_parts = scores_text.split(",")
    if len(score_parts) != n or not all(s.isdigit() for s in score_parts):
        raise _bad(text, "the scores are one whole number per player, joined by commas")
    scores = tuple(int(s) for s in score_parts)
    if not round_text.isdigit() or int(round_text) < 1:
        raise _bad(text, "the round is a whole number from 1")

    setting_up = dealt < HOLES or -1 in colours
    if setting_up and (
        any(s >= 0 for s in stompers)
        or any(s != WAITING for s in status)
        or string >= 0
        or (dealt < HOLES and (drawn or "." in cells))
    ):
        raise _bad(
            text,
            "while the marbles are dealt and stompers drawn, no marble is stomped yet, every "
            "player has a first turn to take, and the deal comes before the draw",
        )
    return Snapshot(
        masks=tuple(masks),
        dealt=dealt,
        colours=tuple(colours),
        stompers=tuple(stompers),
        status=tuple(status),
        to_move=to_move,
        string=string,
        scores=scores,
        round=int(round_text),
    )
