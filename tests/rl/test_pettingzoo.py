"""parlour.pettingzoo: every game is a PettingZoo AEC environment passing PettingZoo's checks."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import parlour
from parlour.pettingzoo import env

from .cases import CASES, IDS

# PettingZoo's checker says these of every classic environment (dict observations with masks).
EXPECTED_WARNINGS = (
    "Observation space for each agent probably should be",
    "Observation is not a NumPy array",
)


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_pettingzoo_api_test_passes(name: str, config: dict) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(name, **config), num_cycles=60)
    messages = [str(w.message) for w in caught]
    unexpected = [m for m in messages if not m.startswith(EXPECTED_WARNINGS)]
    assert unexpected == []


@pytest.mark.parametrize("name", parlour.list_games())
def test_pettingzoo_seed_test_passes(name: str) -> None:
    """Same seed, same chance events and observations (chance is resolved from the env's seed)."""
    seed_test(lambda: env(name), num_cycles=30)


def _play(e, rng: random.Random) -> list[int]:
    """Play a whole game with random legal actions; returns the actions the agents chose."""
    chosen = []
    for agent in e.agent_iter():
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        chosen.append(action)
        e.step(action)
        assert agent in e.possible_agents
    return chosen


@pytest.mark.parametrize("config", [{"rows": 3, "columns": 4}, {"size": "5x6"},
                                    {"cannibal": True, "rows": 4, "columns": 4}], ids=str)
def test_clobber_env_follows_the_reference_game_step_by_step(config: dict) -> None:
    """Agents, masks, observations and rewards are those of a parlour state fed the same moves."""
    e = env("clobber", **config)
    e.reset(seed=1)
    reference = parlour.load_game("clobber", **config).new_initial_state()
    rng = random.Random(9)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    while not reference.is_terminal():
        agent = e.agent_selection
        seat = reference.current_player()
        assert agent == f"player_{seat}"
        obs, reward, terminated, _truncated, _info = e.last()
        assert not terminated
        totals[agent] += reward
        assert np.flatnonzero(obs["action_mask"]).tolist() == reference.legal_actions()
        np.testing.assert_array_equal(obs["observation"], reference.observation_tensor(seat))
        other = e.observe(f"player_{1 - seat}")
        assert not other["action_mask"].any()  # not their turn
        action = rng.choice(reference.legal_actions())
        e.step(action)
        reference.apply_action(action)
    for _agent in list(e.agents):
        _obs, reward, terminated, _truncated, _info = e.last()
        assert terminated
        totals[e.agent_selection] += reward
        e.step(None)
    assert e.agents == []
    assert [totals[a] for a in e.possible_agents] == reference.returns()


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_env_games_replay_exactly_from_their_actions(name: str, config: dict) -> None:
    """G-1: the env's history (chance draws included) replays to the same end and returns."""
    e = env(name, **config)
    e.reset(seed=3)
    _play(e, random.Random(3))
    replayed = parlour.load_game(name, **config).new_state_from_actions(e.state.history())
    assert replayed.is_terminal()
    assert replayed.position() == e.state.position()
    assert replayed.returns() == e.state.returns()


def test_chance_is_drawn_from_the_seed() -> None:
    """Different seeds deal differently, the same seed deals the same (every game with chance)."""
    chancy = [n for n in parlour.list_games()
              if parlour.load_game(n).new_initial_state().is_chance_node()]
    assert chancy, "some game should start with a chance event"
    for name in chancy:
        positions = []
        for seed in (0, 0, 1):
            e = env(name)
            e.reset(seed=seed)
            positions.append(e.state.position())
        assert positions[0] == positions[1] != positions[2]


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    """G-2: the game's error, naming its rule; the environment is unchanged."""
    e = env("clobber", rows=3, columns=4)
    e.reset(seed=0)
    before = e.state.position()
    illegal = int(np.flatnonzero(e.observe("player_0")["action_mask"] == 0)[0])
    with pytest.raises(parlour.IllegalActionError) as info:
        e.step(illegal)
    assert info.value.rule
    assert e.state.position() == before
    assert e.agent_selection == "player_0"


def test_render_shows_the_spectator_view() -> None:
    e = env("clobber", render_mode="ansi", rows=3, columns=4)
    e.reset(seed=0)
    assert e.render() == e.state.observation_string(None)
    with pytest.raises(ValueError, match="render_mode"):
        env("clobber", render_mode="rgb_array")
