"""Clobber puzzles: positions from real games where exactly one move wins.

A puzzle is a position and its *line*: the one winning move, the solver's most stubborn reply,
the next winning move (again the only one), and so on until the win is clear (the next position
has several winning moves, or the opponent has no move left). The player plays the line's
moves; any other move fails the puzzle. Every puzzle was proved by the solver when it was made
(:mod:`parlour.analysis.puzzle_maker`): the line's moves win and every other move at those
steps loses.

This module is what a front end needs, with no search: the puzzle set shipped with parlour
(:func:`shipped`), the next puzzle for a player's rating (:func:`next_puzzle`), checking a move
(:func:`check_move`, which also gives the solver's reply), and the Glicko-2 update of both the
player's and the puzzle's rating after an attempt (:func:`rate_attempt`).

    >>> puzzles = shipped()
    >>> puzzle = next_puzzle(puzzles, rating=1500, seed=1)
    >>> check_move(puzzle, [], puzzle.line[0]).correct
    True
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from parlour.ratings import NEW_VOLATILITY, glicko2_update

GAMES = ("clobber",)
"""The games that have puzzles (``parlour puzzles GAME`` and the web's puzzle pages ask).
"""
DATA = "clobber-puzzles.jsonl.gz"
"""The shipped set, in ``parlour/analysis/data/``: one JSON object a line, gzip-compressed."""
PUZZLE_RD = 80.0
"""The rating deviation a puzzle starts with: its rating comes from the solver's measure of its
difficulty, which is a good guess, not a measurement of people."""
NEAREST = 20
""":func:`next_puzzle` picks at random among this many unseen puzzles nearest the rating."""
MAX_LINE = 11
"""The longest line (plies) a puzzle file may hold."""
MAX_FILE_PUZZLES = 100_000
"""The most puzzles one file may hold."""


class PuzzleError(ValueError):
    """A puzzle file that cannot be read, or a move that does not belong to a puzzle."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle. ``line`` alternates the player's moves (even indices) and the solver's
    replies (odd indices), in C4 notation, and ends with the player's last move."""

    id: str
    position: str
    line: tuple[str, ...]
    rating: float
    rd: float = PUZZLE_RD
    volatility: float = NEW_VOLATILITY
    nodes: int = 0
    """Search nodes the solver needed to prove the line's first move and refute the others."""
    moves: int = 0
    """Legal moves in the position."""
    source: str = ""
    """Where the position comes from (the game and the ply)."""
    themes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def to_move(self) -> str:
        """``"o"`` or ``"x"``: the colour the player plays."""
        return self.position[-1]

    @property
    def player_moves(self) -> int:
        return (len(self.line) + 1) // 2

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["line"] = list(self.line)
        data["themes"] = list(self.themes)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        try:
            line = tuple(str(m) for m in data["line"])
            puzzle = cls(
                id=str(data["id"]), position=str(data["position"]), line=line,
                rating=float(data["rating"]), rd=float(data.get("rd", PUZZLE_RD)),
                volatility=float(data.get("volatility", NEW_VOLATILITY)),
                nodes=int(data.get("nodes", 0)), moves=int(data.get("moves", 0)),
                source=str(data.get("source", "")),
                themes=tuple(str(t) for t in data.get("themes", ())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise PuzzleError(f"not a puzzle: {exc}") from None
        if not line or len(line) % 2 == 0 or len(line) > MAX_LINE:
            raise PuzzleError(f"puzzle {puzzle.id}: a line is an odd number of moves, at most "
                              f"{MAX_LINE}")
        if puzzle.to_move not in ("o", "x"):
            raise PuzzleError(f"puzzle {puzzle.id}: the position must end with o or x")
        return puzzle


def puzzle_id(position: str) -> str:
    """A short stable id: the first 10 hex digits of the position text's SHA-256."""
    return hashlib.sha256(position.encode()).hexdigest()[:10]


# -- files ----------------------------------------------------------------------------------
def load(path: Path | str) -> list[Puzzle]:
    """The puzzles of a file (JSON lines, gzip-compressed when the name ends in ``.gz``)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise PuzzleError(f"cannot read {path}: {exc}") from None
    return _parse(gzip.decompress(raw) if path.suffix == ".gz" else raw, str(path))


def _parse(raw: bytes, where: str) -> list[Puzzle]:
    puzzles: list[Puzzle] = []
    for number, text in enumerate(raw.decode("utf-8").splitlines(), 1):
        if not text.strip():
            continue
        if len(puzzles) >= MAX_FILE_PUZZLES:
            raise PuzzleError(f"{where}: more than {MAX_FILE_PUZZLES:,} puzzles")
        try:
            puzzles.append(Puzzle.from_dict(json.loads(text)))
        except (json.JSONDecodeError, PuzzleError) as exc:
            raise PuzzleError(f"{where}, line {number}: {exc}") from None
    return puzzles


def save(puzzles: Iterable[Puzzle], path: Path | str) -> None:
    """Write puzzles as JSON lines (gzip-compressed when the name ends in ``.gz``)."""
    path = Path(path)
    text = "".join(json.dumps(p.as_dict(), separators=(",", ":")) + "\n" for p in puzzles)
    data = text.encode()
    path.write_bytes(gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)


@cache
def _shipped() -> tuple[Puzzle, ...]:
    raw = resources.files("parlour.analysis").joinpath("data", DATA).read_bytes()
    return tuple(_parse(gzip.decompress(raw), DATA))


def shipped() -> list[Puzzle]:
    """The puzzle set that comes with parlour, easiest first."""
    return list(_shipped())


def by_id(puzzles: Iterable[Puzzle], wanted: str) -> Puzzle:
    for puzzle in puzzles:
        if puzzle.id == wanted:
            return puzzle
    raise PuzzleError(f"no puzzle {wanted!r}")


# -- choosing and playing -------------------------------------------------------------------
def next_puzzle(
    puzzles: Sequence[Puzzle],
    rating: float,
    *,
    seen: Iterable[str] = (),
    seed: int | None = None,
) -> Puzzle:
    """A puzzle for a player of ``rating``: one of the :data:`NEAREST` unseen puzzles whose
    ratings are closest to it, at random (``seed`` makes the choice repeatable). When every
    puzzle has been seen, the seen ones are offered again."""
    if not puzzles:
        raise PuzzleError("there are no puzzles")
    done = set(seen)
    fresh = [p for p in puzzles if p.id not in done] or list(puzzles)
    fresh.sort(key=lambda p: (abs(p.rating - rating), p.id))
    return random.Random(seed).choice(fresh[:NEAREST])


@dataclass(frozen=True)
class MoveCheck:
    """What a move in a puzzle did. ``correct``: it is the line's move; ``reply``: the solver's
    answer to play next (``None`` when the puzzle is over); ``solved``: the whole line is
    found; ``position``: the position after the move and the reply."""

    correct: bool
    solved: bool
    reply: str | None
    position: str


def check_move(puzzle: Puzzle, played: Sequence[str], move: str) -> MoveCheck:
    """Check the player's next ``move`` after the line's first ``len(played)`` plies.

    ``played`` must be the line so far (the player's moves and the replies, as returned); a
    move that is not legal in the position raises the game's ``IllegalActionError`` (or
    ``NotationError``), and a ``played`` that is not the line so far a :class:`PuzzleError`:
    neither counts as an attempt."""
    import parlour

    if list(played) != list(puzzle.line[: len(played)]) or len(played) % 2:
        raise PuzzleError("the moves so far are not this puzzle's line")
    if len(played) >= len(puzzle.line):
        raise PuzzleError("this puzzle is over")
    state: Any = parlour.load_game("clobber", position=puzzle.position).new_initial_state()
    for earlier in played:
        state.apply_action(state.string_to_action(earlier))
    action = state.string_to_action(move)
    correct = action == state.string_to_action(puzzle.line[len(played)])
    state.apply_action(action)  # raises for an illegal move, before anything is decided
    if not correct:
        return MoveCheck(False, False, None, state.position())
    at = len(played) + 1
    if at >= len(puzzle.line):
        return MoveCheck(True, True, None, state.position())
    reply = puzzle.line[at]
    state.apply_action(state.string_to_action(reply))
    return MoveCheck(True, False, reply, state.position())


def rate_attempt(
    player: tuple[float, float, float],
    puzzle: Puzzle,
    solved: bool,
    tau: float = 0.5,
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Glicko-2 after one attempt, as a game between the player and the puzzle: the player's
    new ``(rating, rd, volatility)`` and the puzzle's."""
    rating, rd, volatility = player
    score = 1.0 if solved else 0.0
    new_player = glicko2_update(rating, rd, volatility,
                                [(puzzle.rating, puzzle.rd, score)], tau)
    new_puzzle = glicko2_update(puzzle.rating, puzzle.rd, puzzle.volatility,
                                [(rating, rd, 1.0 - score)], tau)
    return new_player, new_puzzle
