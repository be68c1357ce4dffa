"""Who plays whom, in which seat, with which seeds: the tournament's fixed plan.

The plan is a pure function of the agent list, the player count, the games per table and the
master seed, so a tournament run twice (or once on local processes and once on Ray) plays the
same games. Every table (a pairing, or for more players a set of agents) plays ``games`` games,
its agents rotating one seat each game so that each sits in each seat equally often.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Match:
    """One game of the tournament: its number, the agent in each seat, and its seeds."""

    index: int
    table: int
    round: int
    seats: tuple[str, ...]
    chance_seed: int
    agent_seeds: tuple[int, ...]


def tables(agents: list[str], players: int) -> list[tuple[str, ...]]:
    """The line-ups that play: every pairing, or every set of ``players`` agents.

    With fewer distinct agents than seats, agents repeat (every multiset of ``players`` agents
    with at least two different ones).
    """
    if len(agents) < 2:
        raise ValueError("a tournament needs at least two agents")
    if len(set(agents)) != len(agents):
        raise ValueError(f"each agent is listed once: {agents}")
    if players < 2:
        raise ValueError("a game has at least two players")
    if len(agents) >= players:
        return list(itertools.combinations(agents, players))
    return [
        line_up
        for line_up in itertools.combinations_with_replacement(agents, players)
        if len(set(line_up)) > 1
    ]


def schedule(agents: list[str], players: int, games: int, seed: int) -> list[Match]:
    """Every game: each table ``games`` times, seats rotated, seeds drawn from ``seed``."""
    if games < 1:
        raise ValueError("play at least one game per table")
    matches: list[Match] = []
    for t, line_up in enumerate(tables(agents, players)):
        for r in range(games):
            shift = r % players
            seats = line_up[shift:] + line_up[:shift]
            index = len(matches)
            words = np.random.SeedSequence([seed, index]).generate_state(players + 1)
            matches.append(
                Match(
                    index=index,
                    table=t,
                    round=r,
                    seats=tuple(seats),
                    chance_seed=int(words[0]),
                    agent_seeds=tuple(int(w) for w in words[1:]),
                )
            )
    return matches
