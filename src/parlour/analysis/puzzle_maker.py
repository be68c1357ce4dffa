"""Making Clobber puzzles from real games: the solver proves that exactly one move wins.

Every position of every game given is a candidate when the side to move has a few moves to
choose from and the position is small enough to solve at once. The solver lists every winning
move (``solve(..., all_moves=True)``); a position with exactly one becomes a puzzle. Its line
follows perfect play: after the winning move the opponent plays the most stubborn reply (the
one that leaves the fewest winning answers, then the most moves to choose from), and the line
goes on while the answer is again the only winning move and not a forced one; it stops when the
win is clear (several moves win, only one move is left, or the opponent cannot move).

Difficulty comes from two things: the solver's effort on the position (search nodes to prove
the winning move and refute every other, measured with a fresh solver so that it repeats) and
the number of moves the player must find. :func:`grade` turns the difficulties of a set into
ratings, 800 for the easiest to 2400 for the hardest, by rank.

The games come from anywhere: arena games between strong agents (``parlour puzzles clobber
--generate N`` plays them), or finished games from the server's records.
"""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from parlour.analysis.puzzles import MAX_LINE, Puzzle, puzzle_id
from parlour.analysis.solver import ClobberSolver, SolverTimeout
from parlour.games.clobber import ClobberGame, ClobberState

MIN_MOVES = 4
"""A position offers the player at least this many legal moves (fewer is hardly a puzzle)."""
MAX_STONES = 24
"""Candidates have at most this many stones (larger ones rarely solve within the limit)."""
SOLVE_SECONDS = 2.0
"""Time limit of each solve while making puzzles; a position not solved in time is skipped."""
EFFORT_TT_BITS = 20
"""The fresh solver that measures a puzzle's effort has 2^20 table entries."""
LOW_RATING, HIGH_RATING = 800.0, 2400.0


def positions(record: Any) -> Iterator[tuple[ClobberState, int]]:
    """``(state, ply)`` of every position of a game record (``GameRecord`` or a results line)
    where the side to move has a move."""
    import json

    from parlour.core import GameRecord

    if isinstance(record, dict):
        record = GameRecord.from_json(json.dumps(record))
    for ply, (state, _action) in enumerate(record.replay()):
        if not state.is_terminal():
            yield state, ply


class PuzzleMaker:
    """Finds puzzles in games; keeps one solver per board so its tables serve many positions.

    ``seen`` holds the positions already made into puzzles (up to symmetry and placement: the
    solver's normal forms), so a position met again, turned or mirrored, is not a new puzzle."""

    def __init__(self, *, solve_seconds: float = SOLVE_SECONDS, min_moves: int = MIN_MOVES,
                 max_stones: int = MAX_STONES, position_seconds: float | None = None) -> None:
        self.solve_seconds = solve_seconds
        self.position_seconds = position_seconds
        """All the solves of one candidate together (its winning moves, its line's replies,
        its effort) stop after this many seconds, and the position is skipped (none: each
        solve has its own limit only)."""
        self._until: float | None = None
        self.min_moves = min_moves
        self.max_stones = max_stones
        self.solvers: dict[tuple[int, int], ClobberSolver] = {}
        self.seen: set[Any] = set()
        self.tried = 0

    def solver(self, game: ClobberGame) -> ClobberSolver:
        assert game.grid is not None
        key = (game.grid.rows, game.grid.columns)
        if key not in self.solvers:
            self.solvers[key] = ClobberSolver(game, tt_bits=22)
        return self.solvers[key]

    def key(self, state: ClobberState) -> Any:
        solver = self.solver(state.get_game())
        return tuple(sorted(solver.regions(state)))

    def _limit(self, seconds: float) -> float | None:
        """``seconds``, or what is left of the candidate's time if less (``None``: none)."""
        if self._until is None:
            return seconds
        left = self._until - time.monotonic()
        return min(seconds, left) if left > 0.01 else None

    def winning(self, state: ClobberState) -> tuple[int, ...] | None:
        """Every winning move of ``state``, or ``None`` when it was not solved in time."""
        limit = self._limit(self.solve_seconds)
        if limit is None:
            return None
        try:
            solution = self.solver(state.get_game()).solve(
                state, all_moves=True, time_limit=limit)
        except SolverTimeout:
            return None
        return solution.winning_actions

    def make(self, state: ClobberState, source: str = "") -> Puzzle | None:
        """The puzzle of ``state``, or ``None`` when it is not one (or was made already)."""
        game = state.get_game()
        if game.grid is None or game.params["cannibal"]:
            return None
        legal = state.legal_actions()
        if len(legal) < self.min_moves:
            return None
        if (state.stones(0) | state.stones(1)).bit_count() > self.max_stones:
            return None
        key = self.key(state)
        if key in self.seen:
            return None
        self.tried += 1
        if self.position_seconds is not None:
            self._until = time.monotonic() + self.position_seconds
        try:
            return self._make(state, source, key, legal)
        finally:
            self._until = None

    def _make(self, state: ClobberState, source: str, key: Any, legal: list[int]
              ) -> Puzzle | None:
        winning = self.winning(state)
        if winning is None or len(winning) != 1:
            return None
        line = self.line(state, winning[0])
        if line is None:
            return None
        effort = self.effort(state)
        if effort is None:
            return None
        self.seen.add(key)
        after = state
        for move in line:  # the line's later positions are this puzzle's steps, not puzzles
            after = after.child(after.string_to_action(move))
            if not after.is_terminal():
                self.seen.add(self.key(after))
        position = state.position()
        return Puzzle(id=puzzle_id(position), position=position, line=tuple(line), rating=0.0,
                      nodes=effort, moves=len(legal), source=source)

    def line(self, state: ClobberState, first: int) -> list[str] | None:
        """The puzzle's line from ``state`` whose only winning move is ``first``."""
        line = [state.action_to_string(first)]
        current = state.child(first)
        while len(line) + 2 <= MAX_LINE and not current.is_terminal():
            ranked = []
            for reply in current.legal_actions():
                after = current.child(reply)
                answers = self.winning(after)
                if answers is None:
                    return None
                ranked.append((len(answers), -len(after.legal_actions()), reply, answers))
            count, _, reply, answers = min(ranked)
            after = current.child(reply)
            if count != 1 or len(after.legal_actions()) < 2:
                break  # the win is clear: several winning answers, or a forced one
            line += [current.action_to_string(reply), after.action_to_string(answers[0])]
            current = after.child(answers[0])
        return line

    def effort(self, state: ClobberState) -> int | None:
        """Nodes a fresh solver needs to prove the winning move and refute every other."""
        limit = self._limit(4 * self.solve_seconds)
        if limit is None:
            return None
        fresh = ClobberSolver(state.get_game(), tt_bits=EFFORT_TT_BITS)
        try:
            return fresh.solve(state, all_moves=True, time_limit=limit).nodes
        except SolverTimeout:
            return None

    def from_games(
        self,
        records: Iterable[Any],
        limit: int,
        *,
        per_game: int = 3,
        progress: Callable[[int, int], Any] | None = None,
        found_one: Callable[[Puzzle], Any] | None = None,
        deadline: float | None = None,
    ) -> list[Puzzle]:
        """Up to ``limit`` puzzles from ``records``, at most ``per_game`` from one game, its
        positions tried in the order played: a puzzle's line often goes on along the game, and
        the positions on it are not made puzzles again (they are its later steps)."""
        found: list[Puzzle] = []
        for games, record in enumerate(records, 1):
            label = _label(record)
            for _ply, puzzle in self.from_positions(positions(record), label, per_game,
                                                    deadline, limit - len(found)):
                found.append(puzzle)
                if found_one is not None:
                    found_one(puzzle)
            if progress is not None:
                progress(len(found), games)
            if len(found) >= limit or (deadline is not None and time.monotonic() > deadline):
                break
        return found

    def from_positions(
        self,
        states: Iterable[tuple[ClobberState, int]],
        label: str,
        per_game: int = 3,
        deadline: float | None = None,
        limit: int | None = None,
    ) -> Iterator[tuple[int, Puzzle]]:
        """``(ply, puzzle)`` for the puzzles among one game's positions (``(state, ply)`` in
        the order played), at most ``per_game`` (and ``limit``), until ``deadline``."""
        most = per_game if limit is None else min(per_game, limit)
        made = 0
        for state, ply in states:
            if made >= most or (deadline is not None and time.monotonic() > deadline):
                return
            puzzle = self.make(state, f"{label}, ply {ply}")
            if puzzle is not None:
                made += 1
                yield ply, puzzle


def _label(record: Any) -> str:
    metadata = record.get("metadata", {}) if isinstance(record, dict) else record.metadata
    params = record.get("params", {}) if isinstance(record, dict) else record.params
    size = params.get("size") or f"{params.get('rows', '?')}x{params.get('columns', '?')}"
    agents = metadata.get("agents")
    who = " vs ".join(agents) if agents else "a game"
    match = metadata.get("match")
    return f"{size} {who}" + (f" (game {match})" if match is not None else "")


def remember(maker: PuzzleMaker, position: str, line: Iterable[str]) -> None:
    """Make ``maker`` leave out a puzzle made before: its position and its line's steps."""
    import parlour

    state: Any = parlour.load_game("clobber", position=position).new_initial_state()
    maker.seen.add(maker.key(state))
    for move in line:
        state = state.child(state.string_to_action(move))
        if not state.is_terminal():
            maker.seen.add(maker.key(state))


def unique(puzzles: Iterable[Puzzle]) -> list[Puzzle]:
    """The puzzles without repeats: a position met again (turned, mirrored or elsewhere on
    the board) is dropped, the first kept, and so is a position further along another
    puzzle's line (it is one of that puzzle's steps)."""
    import parlour

    maker = PuzzleMaker()
    given = list(puzzles)
    steps: set[Any] = set()
    keys = []
    for puzzle in given:
        state: Any = parlour.load_game("clobber", position=puzzle.position).new_initial_state()
        keys.append(maker.key(state))
        for move in puzzle.line:
            state = state.child(state.string_to_action(move))
            if not state.is_terminal():
                steps.add(maker.key(state))
    kept = []
    for puzzle, key in zip(given, keys, strict=True):
        if key not in maker.seen and key not in steps:
            maker.seen.add(key)
            kept.append(puzzle)
    return kept


def difficulty(puzzle: Puzzle) -> float:
    """How hard a puzzle is: log2 of the solver's effort, plus 3 for each further move to
    find, plus log2 of the moves to choose from."""
    return (math.log2(1 + puzzle.nodes) + 3.0 * (puzzle.player_moves - 1)
            + math.log2(max(puzzle.moves, 1)))


def grade(puzzles: Iterable[Puzzle]) -> list[Puzzle]:
    """The puzzles with ratings by the rank of their difficulty (800 to 2400), easiest first."""
    ordered = sorted(puzzles, key=lambda p: (difficulty(p), p.id))
    last = max(len(ordered) - 1, 1)
    return [
        replace(p, rating=round(LOW_RATING + (HIGH_RATING - LOW_RATING) * i / last))
        for i, p in enumerate(ordered)
    ]


def place(puzzle: Puzzle, graded: Iterable[Puzzle]) -> Puzzle:
    """``puzzle`` rated on the scale of a graded set: the rating a puzzle of its difficulty
    has in ``graded`` (between the two nearest difficulties, in proportion; the ends of the
    set's scale beyond them). A puzzle added to a set later is rated as :func:`grade` would
    have rated it among the set, without moving the set's ratings."""
    scale = sorted((difficulty(p), p.rating) for p in graded)
    if not scale:
        return replace(puzzle, rating=(LOW_RATING + HIGH_RATING) / 2)
    hard = difficulty(puzzle)
    at = bisect.bisect_left(scale, (hard, -math.inf))
    if at == 0:
        rating = scale[0][1]
    elif at == len(scale):
        rating = scale[-1][1]
    else:
        (d0, r0), (d1, r1) = scale[at - 1], scale[at]
        rating = r0 if d1 == d0 else r0 + (r1 - r0) * (hard - d0) / (d1 - d0)
    return replace(puzzle, rating=float(round(rating)))
