"""Who wins a Clobber position with perfect play, and with which moves.

:class:`ClobberSolver` splits a :class:`~parlour.games.clobber.ClobberState` into regions
(:mod:`parlour.analysis.regions`), hands the sum to a search engine
(:mod:`parlour.analysis.engine`, or the compiled ``_cclobber`` when it is built) and tries the
moves of the side to move one by one: a move wins when the position it leaves is lost for the
opponent. A time limit stops the search with :class:`SolverTimeout`; nothing half-searched is
ever reported as a result.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour.analysis import cengine, database
from parlour.analysis.checkpoint import Checkpoint
from parlour.analysis.engine import (
    GraphSpace,
    GridSpace,
    Progress,
    PythonEngine,
    SearchTimeout,
)
from parlour.analysis.regions import (
    MAX_CELLS,
    graph_adjacency,
    graph_regions,
    grid_regions,
)
from parlour.games.clobber import ClobberGame, ClobberState

SYMBOLS = "ox"
PROGRESS_EVERY = 0.25
"""Seconds between progress reports of a long solve (the compiled engine reports as often)."""


class SolverTimeout(TimeoutError):
    """The time limit ran out before the position was solved (no answer is guessed)."""

    def __init__(self, limit: float, nodes: int, seconds: float) -> None:
        self.limit, self.nodes, self.seconds = limit, nodes, seconds
        super().__init__(
            f"not solved within the time limit of {limit:g} s "
            f"({nodes:,} positions searched in {seconds:.1f} s); "
            "allow more time or try a smaller position"
        )


@dataclass(frozen=True)
class Solution:
    """The perfect-play result of one position.

    ``winning_moves`` lists winning moves of the side to move in move notation (C4): one
    move, or every winning move when ``all_moves`` was asked for; empty when the side to move
    loses. ``nodes`` counts search nodes of this call (positions visited by the engine).
    """

    position: str
    to_move: str
    winner: str
    winning_moves: tuple[str, ...]
    winning_actions: tuple[int, ...]
    all_moves: bool
    nodes: int
    seconds: float
    engine: str = field(default="python", compare=False)

    @property
    def mover_wins(self) -> bool:
        return self.winner == self.to_move

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of ``parlour solve --json``."""
        return {
            "winner": self.winner,
            "winning_moves": list(self.winning_moves),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


class ClobberSolver:
    """An exact solver for one Clobber configuration; its tables persist between calls.

    ``engine`` is ``"auto"`` (compiled when built, else Python), ``"c"`` or ``"python"``;
    ``engine_module`` may pass a compiled module explicitly (tests build one) and
    ``c_options`` extra settings of the compiled engine (``slow_path=True``: normal forms
    through permutation tables only, the reference for the 8x8 bit-trick path).
    ``tt_bits`` sizes the compiled engine's transposition table (2^bits entries of 16 bytes);
    regions of at most ``db_max_stones`` stones get their outcome class tabled.
    ``root_budget`` (nodes, compiled engine) makes :meth:`solve` try the moves in passes: each
    undecided move gets that many nodes, then four times as many in the next pass, so that a
    move with a small proof is decided before a costly one is searched to the end (progress on
    very long solves is then visible move by move).

    Cannibal Clobber (C8) and graphs (C7) are solved by the same sum search: every rule it
    uses (independent regions, ``G + -G = 0``, zero regions, outcome-class sums) holds for
    all games, not only for plain Clobber's all-small ones. Graphs use the Python engine,
    without symmetry reduction.
    """

    def __init__(
        self,
        game: ClobberGame,
        *,
        engine: str = "auto",
        engine_module: Any = None,
        tt_bits: int = 22,
        db_max_stones: int = 14,
        disk_cache: bool | Path = False,
        c_options: dict[str, Any] | None = None,
        root_budget: int | None = None,
    ) -> None:
        if engine not in ("auto", "c", "python"):
            raise ValueError(f"engine must be auto, c or python, not {engine!r}")
        self.game = game
        self.root_budget = root_budget
        self.cannibal = bool(game.params["cannibal"])
        self.grid = game.grid
        module = engine_module or (cengine.load() if engine != "python" else None)
        if engine == "c" and module is None:
            raise RuntimeError(
                "the compiled engine is not built (reinstall parlour with a C compiler present)"
            )
        if self.grid is None:
            self._adjacency = graph_adjacency(game.topology)
            module = None
        self.py_engine = PythonEngine(
            GridSpace(self.cannibal) if self.grid else GraphSpace(self._adjacency, self.cannibal),
            db_max_stones=db_max_stones,
        )
        self.c_engine = (
            module.Engine(
                cannibal=self.cannibal,
                tt_bits=tt_bits,
                db_max_stones=db_max_stones,
                **(c_options or {}),
            )
            if module is not None
            else None
        )
        self.engine_name = "c" if self.c_engine is not None else "python"
        self.disk_cache = bool(disk_cache) and self.grid is not None
        self._cache_dir = disk_cache if isinstance(disk_cache, Path) else None
        self._saved_size = 0
        if self.disk_cache:
            self._load_cache()

    # -- regions --------------------------------------------------------------------------
    def regions(self, state: ClobberState) -> list[Any]:
        """The live regions of ``state`` in normal form, seen by the side to move."""
        mover = state.stones(state.to_move)
        other = state.stones(1 - state.to_move)
        if self.grid is not None:
            return grid_regions(self.grid.rows, self.grid.columns, mover, other, self.cannibal)
        return graph_regions(self._adjacency, mover, other, self.cannibal)

    def _engine_win(
        self,
        regions: list[Any],
        time_limit: float | None,
        progress: Progress | None,
        node_limit: int | None = None,
    ) -> bool | None:
        """Whether the mover wins the sum; ``None`` when ``node_limit`` nodes did not decide."""
        if self.c_engine is not None and all(h * w <= MAX_CELLS for h, w, _a, _b in regions):
            limits = (node_limit,) if node_limit else ()  # older engines take no node limit
            result = self.c_engine.win(regions, time_limit or 0.0, progress, *limits)
            if result == -2:
                return None
            if result < 0:
                raise SearchTimeout
            return bool(result)
        return self.py_engine.win(regions, time_limit, progress)

    @property
    def nodes(self) -> int:
        """Search nodes visited by this solver so far (both engines)."""
        return self.py_engine.nodes + (self.c_engine.nodes if self.c_engine is not None else 0)

    # -- answers --------------------------------------------------------------------------
    def mover_wins(self, state: ClobberState, time_limit: float | None = None) -> bool:
        """Whether the side to move wins ``state`` with perfect play."""
        started = time.monotonic()
        nodes = self.nodes
        try:
            return bool(self._engine_win(self.regions(state), time_limit, None))
        except SearchTimeout:
            raise SolverTimeout(
                time_limit or 0.0, self.nodes - nodes, time.monotonic() - started
            ) from None

    def outcome(self, state: ClobberState, time_limit: float | None = None) -> str:
        """The outcome class of the board regardless of who moves first.

        ``"N"`` (the first player wins), ``"P"`` (the second player wins), or ``"o"`` / ``"x"``
        (that colour wins whoever starts).
        """
        deadline = time.monotonic() + time_limit if time_limit else None
        first = self.mover_wins(state, time_limit)
        flipped = self.game.state_from_position(
            state.position()[:-1] + SYMBOLS[1 - state.to_move]
        )
        remaining = max(deadline - time.monotonic(), 1e-3) if deadline else None
        second = self.mover_wins(flipped, remaining)
        if first and second:
            return "N"
        if not first and not second:
            return "P"
        return SYMBOLS[state.to_move] if first else SYMBOLS[1 - state.to_move]

    def solve(
        self,
        state: ClobberState,
        *,
        all_moves: bool = False,
        time_limit: float | None = None,
        progress: Callable[[int, float], Any] | None = None,
        checkpoint: Checkpoint | Path | str | None = None,
    ) -> Solution:
        """Solve ``state``: the winner, one winning move (or all with ``all_moves``).

        ``checkpoint`` (a file, or a :class:`~parlour.analysis.checkpoint.Checkpoint`) saves
        what was proved every few minutes, at the end and when the solve is stopped (time
        limit, Ctrl-C), and resumes from it when it exists.
        """
        if not isinstance(state, ClobberState):
            raise TypeError(f"expected a Clobber state, got {type(state).__name__}")
        started = time.monotonic()
        nodes_before = self.nodes
        deadline = started + time_limit if time_limit else None
        mover = state.to_move
        position = state.position()
        saver = (
            checkpoint
            if isinstance(checkpoint, Checkpoint) or checkpoint is None
            else Checkpoint(Path(checkpoint))
        )
        decided: dict[int, bool] = {}  # action -> the move wins
        if saver is not None:
            for move, wins in saver.load(self, position).items():
                decided[state.string_to_action(move)] = wins

        def record(action: int, wins: bool) -> None:
            decided[action] = wins
            if saver is not None:
                saver.decided[state.action_to_string(action)] = wins

        last_report = [started]

        def report(nodes: int, _seconds: float) -> None:
            last_report[0] = time.monotonic()
            if saver is not None and saver.due():
                saver.save(self, position)
            if progress is not None:
                progress(self.nodes - nodes_before, time.monotonic() - started)

        budget = self.root_budget
        try:
            moves = self._ordered_moves(state, deadline)
            while True:
                open_moves = [a for a in moves if a not in decided]
                if not open_moves or (not all_moves and any(decided.values())):
                    break
                for action in open_moves:
                    remaining = None
                    if deadline is not None:
                        remaining = deadline - time.monotonic()
                        if remaining <= 0:
                            raise SearchTimeout
                    child = state.child(action)
                    opponent_wins = self._engine_win(self.regions(child), remaining, report, budget)
                    if opponent_wins is None:
                        continue  # this pass's node budget did not decide it
                    record(action, not opponent_wins)
                    if time.monotonic() - last_report[0] >= PROGRESS_EVERY:
                        # many quick root moves: the engine's own reports (every
                        # PROGRESS_EVERY within one search) would never come
                        report(0, 0.0)
                    if not opponent_wins and not all_moves:
                        break
                    if saver is not None and saver.due():  # however quick the searches
                        saver.save(self, position)
                if budget is not None:
                    budget *= 4
        except SearchTimeout:
            raise SolverTimeout(
                time_limit or 0.0, self.nodes - nodes_before, time.monotonic() - started
            ) from None
        finally:
            if self.disk_cache:
                self._save_cache()
            if saver is not None:
                saver.save(self, position)
        winning = sorted(a for a, wins in decided.items() if wins)
        return Solution(
            position=state.position(),
            to_move=SYMBOLS[mover],
            winner=SYMBOLS[mover] if winning else SYMBOLS[1 - mover],
            winning_moves=tuple(state.action_to_string(a) for a in winning),
            winning_actions=tuple(winning),
            all_moves=all_moves,
            nodes=self.nodes - nodes_before,
            seconds=time.monotonic() - started,
            engine=self.engine_name,
        )

    def _ordered_moves(self, state: ClobberState, deadline: float | None = None) -> list[int]:
        """Legal moves, those leaving the opponent the fewest moves first (as the engines).

        Scoring a move splits its position into regions, which on the largest boards takes
        milliseconds a move: the time limit is checked here too (raises SearchTimeout)."""
        actions = state.legal_actions()
        space = self.py_engine.space

        def score(action: int) -> int:
            if deadline is not None and time.monotonic() > deadline:
                raise SearchTimeout
            return sum(space.score(region) for region in self.regions(state.child(action)))

        return sorted(actions, key=score)

    # -- on-disk region table ---------------------------------------------------------------
    def _load_cache(self) -> None:
        data = database.load(self.cannibal, self._cache_dir)
        if not data:
            return
        if self.c_engine is not None:
            self.c_engine.import_table(data)
        self.py_engine.import_outcomes(database.decode(data))
        self._saved_size = len(data) // database.RECORD_SIZE

    def _save_cache(self) -> None:
        # The smallest regions are the most reusable: keep the file below MAX_RECORDS.
        for max_stones in range(database.MAX_STONES, 0, -1):
            if self.c_engine is not None:
                data = self.c_engine.export_table(max_stones)
            else:
                data = database.encode(self.py_engine.export_outcomes(max_stones))
            if len(data) // database.RECORD_SIZE <= database.MAX_RECORDS:
                break
        if len(data) // database.RECORD_SIZE > self._saved_size:
            database.save(self.cannibal, data, self._cache_dir)
            self._saved_size = len(data) // database.RECORD_SIZE


_SOLVERS: dict[tuple[Any, ...], ClobberSolver] = {}
SHARED_SOLVERS = 4
"""How many game configurations keep a shared solver (each holds its tables in memory)."""


def solver_for(game: ClobberGame, **options: Any) -> ClobberSolver:
    """A shared solver per game configuration (its tables are reused between calls).

    With ``options`` a fresh solver is returned instead. Only the most recently used
    :data:`SHARED_SOLVERS` configurations keep theirs.
    """
    if options:
        return ClobberSolver(game, **options)
    # What the tables depend on: the board's shape (or graph) and the cannibal rule; not the
    # start position or who moves first.
    grid = game.grid
    key = (
        (grid.rows, grid.columns) if grid is not None else game.params["graph"],
        bool(game.params["cannibal"]),
    )
    solver = _SOLVERS.pop(key, None) or ClobberSolver(game)
    _SOLVERS[key] = solver  # most recently used last
    while len(_SOLVERS) > SHARED_SOLVERS:
        _SOLVERS.pop(next(iter(_SOLVERS)))
    return solver


def solve(
    state: ClobberState,
    *,
    all_moves: bool = False,
    time_limit: float | None = None,
    progress: Callable[[int, float], Any] | None = None,
    checkpoint: Checkpoint | Path | str | None = None,
) -> Solution:
    """Solve a Clobber state with the shared solver of its game (see :class:`ClobberSolver`)."""
    game = state.get_game()
    assert isinstance(game, ClobberGame)
    return solver_for(game).solve(
        state,
        all_moves=all_moves,
        time_limit=time_limit,
        progress=progress,
        checkpoint=checkpoint,
    )
