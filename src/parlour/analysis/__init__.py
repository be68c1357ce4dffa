"""Exact analysis of Clobber: who wins with perfect play, winning moves, and CGT values.

    >>> import parlour
    >>> from parlour.analysis import solve
    >>> state = parlour.load_game("clobber", size="2x3").new_initial_state()
    >>> solve(state).winner        # 2x3 is a second-player win
    'x'

See ``docs/analysis.md`` for the method (sums of independent regions, outcome classes,
transposition tables over normalised regions) and measured speeds.
"""

from parlour.analysis.solver import ClobberSolver, Solution, SolverTimeout, solve, solver_for

GAMES = ("clobber",)
"""The games this package solves exactly (``parlour solve GAME`` asks it)."""

__all__ = ["GAMES", "ClobberSolver", "Solution", "SolverTimeout", "solve", "solver_for"]
