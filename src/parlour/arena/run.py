"""Running a tournament: the plan, the games in parallel (local processes or Ray), the results.

Both back ends play the same :class:`~parlour.arena.schedule.Match` list with
:func:`~parlour.arena.play.play_match`, so for the same seeds they give the same games, as long
as every agent has an iteration budget (a time budget depends on the machine's load). Results
are kept in match order whatever order the games finish in.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from parlour.agents import make_agent
from parlour.arena.play import play_match
from parlour.arena.ratings import Standings, standings
from parlour.arena.schedule import Match, schedule
from parlour.core import Game, load_game

Progress = Callable[[dict[str, Any]], None]
"""Called with each result line as its game finishes."""


@dataclass
class Tournament:
    """A tournament's settings and, once run, its results."""

    game: Game
    agents: list[str]
    games: int
    seed: int = 0
    matches: list[Match] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)
    standings: Standings | None = None

    @property
    def players(self) -> int:
        return self.game.num_players()


def plan(
    game: str | Game,
    agents: list[str],
    games: int,
    params: dict[str, Any] | None = None,
    seed: int = 0,
) -> Tournament:
    """Check the agents and lay out every match (nothing is played yet)."""
    configured = game if isinstance(game, Game) else load_game(game, **(params or {}))
    for spec in agents:
        make_agent(spec, configured, 0)  # unknown names and bad options fail here, early
    matches = schedule(agents, configured.num_players(), games, seed)
    return Tournament(configured, list(agents), games, seed, matches)


def default_workers() -> int:
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def run(
    tournament: Tournament,
    *,
    workers: int | None = None,
    use_ray: bool = False,
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> Tournament:
    """Play every match of ``tournament`` and compute its standings."""
    game = tournament.game
    name, params = game.name, game.non_default_parameters()
    workers = workers or default_workers()
    results: dict[int, dict[str, Any]] = {}

    def collect(line: dict[str, Any]) -> None:
        results[line["metadata"]["match"]] = line
        if progress is not None:
            progress(line)

    if use_ray:
        _run_ray(name, params, tournament.matches, workers, ray_address, collect)
    elif workers == 1:
        for match in tournament.matches:
            collect(play_match(name, params, match))
    else:
        _run_processes(name, params, tournament.matches, workers, collect)
    tournament.lines = [results[m.index] for m in tournament.matches]
    tournament.standings = standings(tournament.lines, tournament.agents)
    return tournament


def _run_processes(
    name: str,
    params: dict[str, Any],
    matches: list[Match],
    workers: int,
    collect: Callable[[dict[str, Any]], None],
) -> None:
    # "spawn": a clean interpreter per worker (no threads inherited from the parent's
    # progress display); workers import parlour once and then play many games.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(play_match, name, params, match) for match in matches]
        for future in as_completed(futures):
            collect(future.result())


def _run_ray(
    name: str,
    params: dict[str, Any],
    matches: list[Match],
    workers: int,
    address: str | None,
    collect: Callable[[dict[str, Any]], None],
) -> None:
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'parlour[ray]'") from None
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        task = ray.remote(num_cpus=1)(play_match)
        pending = [task.remote(name, params, match) for match in matches]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                collect(ray.get(ref))
    finally:
        if started:
            ray.shutdown()
