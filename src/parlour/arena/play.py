"""Playing one tournament game, as a plain function a worker process or a Ray task can run.

The result is one JSON line that *is* a parlour game record (``GameRecord.from_json`` reads it
and replays the game), with the tournament's facts in its metadata: the agents by seat, the
seeds, the returns and scores, and (apart, since it varies from run to run) the time each seat
spent thinking.
"""

from __future__ import annotations

import random
import time
from typing import Any

from parlour.agents import make_agent
from parlour.arena.schedule import Match
from parlour.core import GameRecord, load_game, pick_chance_outcome
from parlour.core.record import FORMAT, VERSION

TIMING_KEY = "timing"
"""Metadata that depends on the machine, left out when results are compared."""


def play_match(game_name: str, params: dict[str, Any], match: Match) -> dict[str, Any]:
    """Play ``match`` and return its result line (a game record with metadata)."""
    game = load_game(game_name, **params)
    if len(match.seats) != game.num_players():
        raise ValueError(f"{len(match.seats)} agents for a {game.num_players()}-player game")
    agents = [
        make_agent(spec, game, seed)
        for spec, seed in zip(match.seats, match.agent_seeds, strict=True)
    ]
    chance = random.Random(match.chance_seed)
    thinking = [0.0] * len(agents)
    moves = [0] * len(agents)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(pick_chance_outcome(state.chance_outcomes(), chance.random()))
            continue
        player = state.current_player()
        start = time.perf_counter()
        action = agents[player].step(state)
        thinking[player] += time.perf_counter() - start
        moves[player] += 1
        state.apply_action(action)
    metadata: dict[str, Any] = {
        "match": match.index,
        "table": match.table,
        "round": match.round,
        "agents": list(match.seats),
        "seeds": {"chance": match.chance_seed, "agents": list(match.agent_seeds)},
        "returns": list(state.returns()),
        "scores": list(state.scores()),
        "plies": len(state.history()),
        TIMING_KEY: {"seconds": [round(t, 4) for t in thinking], "moves": moves},
    }
    record = GameRecord.from_state(state, **metadata)
    return record_line(record)


def record_line(record: GameRecord) -> dict[str, Any]:
    """A record as the JSON object of one results line (readable by ``GameRecord.from_json``)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": record.game,
        "params": record.params,
        "actions": list(record.actions),
        "metadata": record.metadata,
    }


def without_timing(line: dict[str, Any]) -> dict[str, Any]:
    """A results line minus what depends on the machine: for comparing two runs."""
    metadata = {k: v for k, v in line["metadata"].items() if k != TIMING_KEY}
    return {**line, "metadata": metadata}


def match_from_line(line: dict[str, Any]) -> Match:
    """The match a results line came from (to replay it with the same agents and seeds)."""
    meta = line["metadata"]
    return Match(
        index=meta["match"],
        table=meta["table"],
        round=meta["round"],
        seats=tuple(meta["agents"]),
        chance_seed=meta["seeds"]["chance"],
        agent_seeds=tuple(meta["seeds"]["agents"]),
    )


__all__ = ["TIMING_KEY", "match_from_line", "play_match", "record_line", "without_timing"]
