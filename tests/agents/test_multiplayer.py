"""Every agent plays every game at every player count it supports, to the end."""

from __future__ import annotations

import importlib

import pytest

import parlour
from parlour.core import game_class

from .helpers import case_id, configs, play

CASES = configs()
LINE_UP = ["mcts:iterations=12:rollout_depth=8", "greedy:budget=40", "easy", "random"]


@pytest.mark.parametrize(("name", "params"), CASES, ids=[case_id(c) for c in CASES])
def test_agents_play_whole_games_at_every_player_count(name: str, params: dict) -> None:
    if name == "stomple":
        params = {**params, "rounds": 1}  # one round keeps this quick; rounds are alike
    game = parlour.load_game(name, **params)
    n = game.num_players()
    specs = [LINE_UP[i % len(LINE_UP)] for i in range(n)]
    final = play(game, specs, seed=n)  # play() checks every action is legal
    assert final.is_terminal()
    assert max(final.returns()) == 1.0


def conformance_configs() -> list[tuple[str, dict]]:
    """The configurations each game lists for the conformance suite (variants included)."""
    cases = []
    for name in parlour.list_games():
        package = importlib.import_module(".".join(game_class(name).__module__.split(".")[:3]))
        cases += [(name, dict(c)) for c in getattr(package, "CONFORMANCE_CONFIGS", [{}])]
    return cases


VARIANTS = conformance_configs()


@pytest.mark.parametrize(("name", "params"), VARIANTS, ids=[case_id(c) for c in VARIANTS])
def test_cheap_agents_play_every_conformance_configuration(name: str, params: dict) -> None:
    game = parlour.load_game(name, **params)
    specs = ["mcts:iterations=4:rollout_depth=4", "greedy:budget=8:worlds=1"]
    specs = [specs[i % 2] for i in range(game.num_players())]
    final = play(game, specs, seed=1)
    assert final.is_terminal()
