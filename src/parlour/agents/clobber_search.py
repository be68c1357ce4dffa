"""Clobber's strongest player: exact proofs first, then a compiled MCTS (the ``hard`` agent).

Each turn, within one time budget (``time`` seconds, never exceeded):

1. **Prove.** The exact solver (:class:`parlour.analysis.ClobberSolver`, the compiled
   region-sum engine) gets a share of the budget (``proof``, a fraction). Once a Clobber position
   splits into small independent regions, their outcome classes settle it in milliseconds; a
   proven winning move is played at once, so ``hard`` never lets a position the solver can prove
   slip away. The solver's tables are shared per board and grow as the game goes on.
2. **Search.** Otherwise (unproven, or proven lost) the rest of the budget goes to UCT with
   MCTS-Solver proofs over bitboards in C (``parlour.agents._cclobber_search``), with random
   playouts and the tree kept between turns. In a lost position that search picks the move it
   found hardest to refute, which gives the opponent the most chances to go wrong.
3. **Check the favourites.** When the position was not proven, a share of the time
   (``candidates``) is kept to prove the search's moves one by one, most visited first: proving
   one move is far easier than proving the whole position, so a winning move is often found a
   turn or two before the position itself can be proven, and a move proven to lose is passed
   over for the next.

Boards of more than 64 squares, graph boards (C7) and installs without a C compiler fall back to
:class:`~parlour.agents.mcts.MCTSAgent` for the search (the proof step still runs on grids).

``iterations=N`` (``hard:iterations=300``) is a budget that reproduces exactly from the seed:
it searches N iterations and skips the proof step, whose reach depends on the machine's speed.
"""

from __future__ import annotations

import time as _time
from typing import Any

from parlour.agents.base import Agent, register_agent, register_strength
from parlour.agents.mcts import MCTSAgent
from parlour.agents.playerview import PlayerView
from parlour.analysis import SolverTimeout, solver_for
from parlour.core import compiled_module
from parlour.games.clobber import ClobberGame, ClobberState

_cclobber_search = compiled_module("parlour.agents._cclobber_search")  # None: no C compiler

PROOF_SHARE = 0.15
"""The share of each turn's time budget the exact solver may spend before the search starts
(0.15 won 93/100 games against OpenSpiel's C++ MCTSBot on 6x6 at 0.1 s where 0.3 won 84/100,
with c 0.4 and 0.7: bench/agents_strength.py)."""

CANDIDATE_SHARE = 0.4
"""The share of the time left after the proof attempt kept for proving the search's favourite
moves one by one (when the position itself was not proven)."""

UCT_C = 0.4
"""UCT exploration constant for rewards in [0, 1]: 0.25, 0.4 and 0.7 measured within noise of
each other (87-93 of 100 games); 0.4 kept."""

MARGIN = 0.002
"""Seconds kept back from each step for the bookkeeping around it (the budget is a ceiling)."""

SAFETY = 0.05
"""Share of the budget (at most 10 ms) never planned for: the solver reads its clock every few
thousand nodes, so a step may overrun its own limit by a millisecond or two."""

MAX_NODES = 1 << 22
"""Nodes in the compiled search's pool (20 bytes each: 80 MB)."""


def compiled() -> bool:
    """Whether the compiled search was built (``pip install`` with a C compiler present)."""
    return _cclobber_search is not None


class ClobberSearchAgent(Agent):
    """Exact proofs within a share of the budget, then compiled UCT with MCTS-Solver (Clobber)."""

    name = "clobber-search"

    def __init__(
        self,
        game: ClobberGame,
        seed: int | None = None,
        time: float | None = None,
        iterations: int | None = None,
        proof: float = PROOF_SHARE,
        candidates: float = CANDIDATE_SHARE,
        c: float = UCT_C,
        reuse: bool = True,
        max_nodes: int = MAX_NODES,
    ) -> None:
        if not isinstance(game, ClobberGame):
            raise ValueError(f"clobber-search plays Clobber only, not {game.name}")
        if time is None and iterations is None:
            time = 1.0
        if (time is not None and time <= 0) or (iterations is not None and iterations < 1):
            raise ValueError("clobber-search: time must be > 0 seconds and iterations >= 1")
        if not (0 <= proof <= 1 and 0 <= candidates < 1):
            raise ValueError("clobber-search: proof and candidates are shares of the budget, 0-1")
        super().__init__(game, seed)
        self.clobber = game  # the game, typed as Clobber's
        self.time = time
        self.iterations = iterations
        self.proof = float(proof)
        self.candidates = float(candidates)
        self.c = float(c)
        self.reuse = bool(reuse)
        grid = game.grid
        self._fast = compiled() and grid is not None and grid.rows * grid.columns <= 64
        self._options = {"c": self.c, "max_nodes": int(max_nodes)}
        self._search: Any = None
        self._fallback: MCTSAgent | None = None
        if not self._fast:
            self._fallback = MCTSAgent(game, seed, time=time, iterations=iterations, reuse=reuse)
        self.last_search: dict[str, Any] = {}

    def restart(self) -> None:
        self._search = None
        if self._fallback is not None:
            self._fallback.restart()

    def _searcher(self) -> Any:
        if self._search is None:
            grid = self.clobber.grid
            assert grid is not None and _cclobber_search is not None
            self._search = _cclobber_search.Search(
                grid.rows,
                grid.columns,
                seed=self.rng.getrandbits(63),
                cannibal=bool(self.game.params["cannibal"]),
                **self._options,
            )
        return self._search

    def act(self, view: PlayerView) -> int:
        start = _time.perf_counter()
        deadline = None if self.time is None else start + self.time - min(0.01, SAFETY * self.time)
        state = view.sample_world(self.rng)  # Clobber hides nothing: this is the position
        assert isinstance(state, ClobberState)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_search = {"iterations": 0, "seconds": 0.0, "proven": None, "by": "only"}
            return legal[0]
        proven = None
        if self.time is not None and self.proof > 0 and self.clobber.grid is not None:
            try:
                solution = solver_for(self.clobber).solve(state, time_limit=self.proof * self.time)
            except SolverTimeout:
                pass
            else:
                if solution.winning_actions:
                    self.last_search = {
                        "iterations": 0,
                        "seconds": _time.perf_counter() - start,
                        "proven": 1,
                        "by": "solver",
                    }
                    return solution.winning_actions[0]
                proven = -1
        if self._fallback is not None:
            if deadline is not None:
                self._fallback.time = max(deadline - _time.perf_counter() - MARGIN, 1e-3)
            action = self._fallback.step(view)
            self.last_search = {**self._fallback.last_search, "by": "mcts"}
            return action
        searcher = self._searcher()
        if deadline is None:
            result = searcher.search(
                state.stones(0),
                state.stones(1),
                state.to_move,
                iterations=self.iterations or 0,
                reuse=self.reuse,
            )
            self.last_search = {
                "iterations": result["iterations"],
                "seconds": _time.perf_counter() - start,
                "proven": result["proven"] or None,
                "by": "search",
            }
            return int(result["action"])
        left = deadline - _time.perf_counter()
        check = proven is None and self.proof > 0
        share = 1 - self.candidates if check else 1.0
        result = searcher.search(
            state.stones(0),
            state.stones(1),
            state.to_move,
            time_limit=max(left * share - MARGIN, 1e-4),
            reuse=self.reuse,
        )
        action, by = int(result["action"]), "search"
        if check and not result["proven"]:
            action, by = self._check_candidates(state, result["children"], deadline, action)
        self.last_search = {
            "iterations": result["iterations"],
            "seconds": _time.perf_counter() - start,
            "proven": proven if proven is not None else (result["proven"] or None),
            "by": by,
        }
        return action

    def _check_candidates(
        self,
        state: ClobberState,
        children: list[tuple[int, int, float, int]],
        deadline: float,
        action: int,
    ) -> tuple[int, str]:
        """Prove the search's favourite moves one by one, most visited first, until time is up.

        A move proven to win is played at once; moves proven to lose are passed over for the
        most visited move not proven lost. Each try gets half the time left, so one hard
        position cannot take it all.
        """
        solver = solver_for(self.clobber)
        ranked = sorted(children, key=lambda kid: -kid[1])
        lost: set[int] = {kid[0] for kid in ranked if kid[3] < 0}
        for move, _visits, _wins, known in ranked:
            if known:
                continue
            left = deadline - _time.perf_counter() - MARGIN
            if left < 1e-3:
                break
            try:
                opponent_wins = solver.mover_wins(state.child(move), time_limit=left / 2)
            except SolverTimeout:
                continue
            if not opponent_wins:
                return move, "solver"
            lost.add(move)
        if action not in lost:
            return action, "search"
        fallback = [kid[0] for kid in ranked if kid[0] not in lost]
        return (fallback[0], "search") if fallback else (action, "search")


def clobber_search(game: ClobberGame, seed: int | None = None, **options: Any) -> Agent:
    """Build a :class:`ClobberSearchAgent`."""
    return ClobberSearchAgent(game, seed, **options)


HARD_SECONDS = 1.0
"""``hard``'s time a move in Clobber (the other games' ``hard`` searches iterations)."""


def clobber_hard(game: ClobberGame, seed: int | None = None, **options: Any) -> Agent:
    """``hard`` for Clobber: exact proofs, then compiled MCTS, ``HARD_SECONDS`` a move."""
    if "iterations" not in options:
        options.setdefault("time", HARD_SECONDS)
    return ClobberSearchAgent(game, seed, **options)


register_strength("clobber", "hard", clobber_hard)


register_agent(
    "clobber-search",
    clobber_search,
    "Clobber: exact proofs within part of the budget, then compiled MCTS (time=1 s a move)",
    games=("clobber",),
)


ESTIMATE_MAX_SQUARES = 64
"""The largest board :func:`estimate` searches (the compiled search's bitboards)."""


def estimate(state: ClobberState, seconds: float, seed: int = 0) -> dict[str, Any] | None:
    """The ``hard`` agent's search's opinion of ``state``, for a position the exact solver
    has not decided yet: ``seconds`` of its compiled MCTS (no proof step), and the move it
    prefers with the share of that move's playouts the side to move won (``win_chance``,
    0 to 1), its visits and iterations, and ``proven`` (1 won, -1 lost, 0 not proven by the
    search itself). ``None`` where that search does not run (graphs, boards of more than
    :data:`ESTIMATE_MAX_SQUARES` squares, no C compiler) or the game is over."""
    game = state.get_game()
    assert isinstance(game, ClobberGame)
    grid = game.grid
    if (_cclobber_search is None or grid is None or grid.rows * grid.columns
            > ESTIMATE_MAX_SQUARES or state.is_terminal()):
        return None
    search = _cclobber_search.Search(grid.rows, grid.columns, seed=seed,
                                     cannibal=bool(game.params["cannibal"]), c=UCT_C)
    result = search.search(state.stones(0), state.stones(1), state.to_move,
                           time_limit=max(seconds, 1e-3), reuse=False)
    action = int(result["action"])
    chosen = next(kid for kid in result["children"] if kid[0] == action)
    _, visits, wins, known = chosen
    chance = 1.0 if known > 0 else 0.0 if known < 0 else wins / visits if visits else 0.5
    return {
        "action": action,
        "move": state.action_to_string(action),
        "win_chance": round(min(max(chance, 0.0), 1.0), 3),
        "visits": int(visits),
        "iterations": int(result["iterations"]),
        "seconds": round(float(result["seconds"]), 3),
        "proven": int(result["proven"]),
    }
