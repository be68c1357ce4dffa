"""Standings: points, and the tiebreak of the format, from the rounds played.

- **Points**: a win 1, a draw 0.5, a loss 0; at a table of more players, the share of the
  others a player placed above (a tie with one counts half). A Swiss bye scores 1 (FIDE's
  pairing-allocated bye); in a round robin with an odd count everyone has one bye and it
  scores nothing.
- **Buchholz** (Swiss): the sum of the final points of each opponent met (at a table of more
  players, their mean per game). A bye adds nothing.
- **Sonneborn-Berger** (round robin): the sum, over the games, of the points scored against
  each opponent times that opponent's final points (at a table of more players, per opponent:
  1 placed above them, 0.5 level, 0 below, over the number of opponents).

Players are ranked by points, then the tiebreak, then games won, then seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from parlour.server.tournaments.pairing import Round

ROUND_ROBIN = "round-robin"
SWISS = "swiss"
FORMATS = (ROUND_ROBIN, SWISS)
TIEBREAK = {ROUND_ROBIN: "sonneborn_berger", SWISS: "buchholz"}


def bye_points(format: str) -> float:
    return 1.0 if format == SWISS else 0.0


@dataclass(frozen=True)
class Standing:
    player: int
    points: float
    tiebreak: float
    games: int
    wins: int
    draws: int
    losses: int
    byes: int


def _against(points: tuple[float, ...], me: int, other: int) -> float:
    """What seat ``me`` scored against seat ``other`` in one game."""
    if len(points) == 2:
        return points[me]
    if points[me] == points[other]:
        return 0.5
    return 1.0 if points[me] > points[other] else 0.0


def standings(players: Sequence[int], rounds: Sequence[Round], format: str) -> list[Standing]:
    """Every player's standing, best first."""
    rank = {p: i for i, p in enumerate(players)}
    total = dict.fromkeys(players, 0.0)
    counts = {p: [0, 0, 0, 0, 0] for p in players}  # games, wins, draws, losses, byes
    for played in rounds:
        for bye in played.byes:
            total[bye] += bye_points(format)
            counts[bye][4] += 1
        for game in played.games:
            if game.points is None:
                continue
            best = max(game.points)
            for seat, p in enumerate(game.players):
                total[p] += game.points[seat]
                c = counts[p]
                c[0] += 1
                if len(set(game.points)) == 1:
                    c[2] += 1
                elif game.points[seat] == best:
                    c[1] += 1
                else:
                    c[3] += 1
    tiebreak = dict.fromkeys(players, 0.0)
    for played in rounds:
        for game in played.games:
            if game.points is None:
                continue
            others = len(game.players) - 1
            for seat, p in enumerate(game.players):
                for o_seat, o in enumerate(game.players):
                    if o_seat == seat:
                        continue
                    weight = total[o] / others
                    if format == SWISS:
                        tiebreak[p] += weight
                    else:
                        tiebreak[p] += _against(game.points, seat, o_seat) * weight
    table = [Standing(p, total[p], tiebreak[p], *counts[p]) for p in players]
    table.sort(key=lambda s: (-s.points, -s.tiebreak, -s.wins, rank[s.player]))
    return table
