"""Tournaments between agents: ``parlour arena`` and its library form.

>>> from parlour.arena import plan, run
>>> t = run(plan("clobber", ["mcts:iterations=50", "random"], games=4), workers=1)
>>> [r.agent for r in sorted(t.standings.ratings, key=lambda r: -r.elo)]
['mcts:iterations=50', 'random']

Every results line is a game record (``parlour.GameRecord.from_json``) whose metadata holds the
agents by seat, the seeds, returns and scores.
"""

from parlour.arena.play import match_from_line, play_match, without_timing
from parlour.arena.ratings import Rating, Standings, fit_elo, standings, wilson
from parlour.arena.report import read_lines
from parlour.arena.run import Tournament, plan, run
from parlour.arena.schedule import Match, schedule, tables

__all__ = [
    "Match",
    "Rating",
    "Standings",
    "Tournament",
    "fit_elo",
    "match_from_line",
    "plan",
    "play_match",
    "read_lines",
    "run",
    "schedule",
    "standings",
    "tables",
    "wilson",
    "without_timing",
]
