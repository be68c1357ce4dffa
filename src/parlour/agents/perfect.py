"""The ``perfect`` agent: exact play in Clobber wherever the solver finishes in time.

On each turn it asks :class:`parlour.analysis.ClobberSolver` for a winning move within its time
budget (``perfect:time=2``). When it finds one it plays it, and then it cannot lose. When the
position is lost anyway (every move loses against perfect play), or too large to solve in the
budget, it hands the turn to the strongest search agent (``hard``; ``random`` only while no
``hard`` agent is registered), which gives an imperfect opponent the most chances to go wrong.
The solver's tables persist across turns, so later turns of a game are solved faster.
"""

from __future__ import annotations

from parlour.agents.base import Agent, agent_names, make_agent, register_agent
from parlour.agents.playerview import PlayerView
from parlour.analysis import ClobberSolver, SolverTimeout
from parlour.core import Game
from parlour.games.clobber import ClobberGame, ClobberState

FALLBACKS = ("hard", "random")


class PerfectAgent(Agent):
    """Solved moves within a time budget; the strongest search agent otherwise (Clobber only)."""

    name = "perfect"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        time: float = 2.0,
        fallback: str | None = None,
        max_stones: int = 36,
    ) -> None:
        if not isinstance(game, ClobberGame):
            raise ValueError(f"the perfect agent plays Clobber only, not {game.name}")
        super().__init__(game, seed)
        self.time = float(time)
        self.max_stones = int(max_stones)
        self.solver = ClobberSolver(game, disk_cache=True)
        choice = fallback or next(n for n in FALLBACKS if n in agent_names())
        self.fallback = make_agent(choice, game, seed)
        self.solved_turns = 0
        self.fallback_turns = 0

    def act(self, view: PlayerView) -> int:
        state = view.sample_world(self.rng)  # Clobber hides nothing: this is the position
        assert isinstance(state, ClobberState)
        live = sum(self.solver.py_engine.space.stones(r) for r in self.solver.regions(state))
        if live <= self.max_stones:
            try:
                solution = self.solver.solve(state, time_limit=self.time)
            except SolverTimeout:
                pass
            else:
                if solution.winning_actions:
                    self.solved_turns += 1
                    return solution.winning_actions[0]
        self.fallback_turns += 1
        return self.fallback.step(view)

    def restart(self) -> None:
        self.fallback.restart()


register_agent(
    "perfect",
    PerfectAgent,
    "Clobber: exact winning moves within a time budget (perfect:time=2), else the hard agent",
    games=("clobber",),
)
