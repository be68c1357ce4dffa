"""parlour.gymnasium: every game is a single-agent Gymnasium env that passes Gymnasium's checker."""

from __future__ import annotations

import inspect
import random
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import parlour
import parlour.gymnasium as pg
import parlour.pettingzoo
from parlour.agents import agent_names
from parlour.games.clobber import ClobberGame

from .cases import CASES, IDS

# What the checker says of an unbounded observation space (a game that declares no tensor
# bounds) and of an env built without gymnasium.make (no spec to remake it from).
EXPECTED_WARNINGS = ("A Box observation space m", "Not able to test alternative render modes")


def _check(env) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    unexpected = [str(w.message) for w in caught if not any(
        text in str(w.message) for text in EXPECTED_WARNINGS
    )]
    assert unexpected == []


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_gymnasium_check_env_passes(name: str, config: dict) -> None:
    _check(pg.env(name, opponent="random", **config))


@pytest.mark.parametrize("name", parlour.list_games())
def test_registered_ids_pass_check_env_with_their_render_modes(name: str) -> None:
    """gymnasium.make works for every game; with a spec, the checker also remakes each mode."""
    made = gymnasium.make(pg.ENV_IDS[name], opponent="random", render_mode="ansi")
    assert made.unwrapped.game == parlour.load_game(name)
    _check(made.unwrapped)


def test_the_default_opponent_is_medium() -> None:
    assert inspect.signature(pg.env).parameters["opponent"].default == "medium"
    if "medium" in agent_names():
        e = pg.env("clobber", rows=3, columns=4)
        assert e.opponent == "medium"
        _check(e)
    else:  # until the agents land, the default names itself among the known agents
        with pytest.raises(ValueError, match="medium"):
            pg.env("clobber", rows=3, columns=4)


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_an_episode_pays_the_learners_return(name: str, config: dict) -> None:
    """Observations are the learner's tensor, masks its legal actions, rewards sum to its return,
    and the whole game (opponents and chance included) replays from its actions (G-1)."""
    e = pg.env(name, opponent="random", player=None, **config)
    obs, info = e.reset(seed=8)
    rng = random.Random(8)
    total = info.get("reward_before_first_turn", 0.0)
    terminated = e.state.is_terminal()
    while not terminated:
        seat = info["player"]
        assert e.state.current_player() == seat
        np.testing.assert_array_equal(obs, e.state.observation_tensor(seat))
        assert np.flatnonzero(info["action_mask"]).tolist() == e.state.legal_actions()
        np.testing.assert_array_equal(e.action_masks(), info["action_mask"])
        obs, reward, terminated, truncated, info = e.step(rng.choice(e.state.legal_actions()))
        assert not truncated
        total += reward
    assert total == e.state.returns()[e.player] == info["returns"][e.player]
    replayed = parlour.load_game(name, **config).new_state_from_actions(e.state.history())
    assert replayed.position() == e.state.position()


def test_the_learner_may_sit_in_any_seat() -> None:
    e = pg.env("clobber", opponent="random", player=None, rows=3, columns=4)
    seats = {e.reset(seed=s)[1]["player"] for s in range(12)}
    assert seats == {0, 1}
    e = pg.env("clobber", opponent="random", player=1, rows=3, columns=4)
    _obs, info = e.reset(seed=0)
    assert info["player"] == 1 and len(e.state.history()) == 1  # the opponent opened
    with pytest.raises(ValueError, match="seat"):
        pg.env("clobber", opponent="random", player=2)


def test_an_illegal_action_loses_or_raises() -> None:
    """G-2: by default an illegal action ends the episode as a loss, naming the rule."""
    e = pg.env("clobber", opponent="random", rows=3, columns=4)
    _obs, info = e.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = e.state.position()
    _obs, reward, terminated, _truncated, info = e.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert info["rule"] and not info["action_mask"].any()
    assert e.state.position() == before
    with pytest.raises(RuntimeError, match="reset"):
        e.step(illegal)
    strict = pg.env("clobber", opponent="random", illegal="raise", rows=3, columns=4)
    strict.reset(seed=0)
    with pytest.raises(parlour.IllegalActionError):
        strict.step(illegal)


def test_unknown_opponents_are_named() -> None:
    with pytest.raises(ValueError, match="random"):
        pg.env("clobber", opponent="no-such-agent")


def test_parlour_gymnasium_does_not_shadow_gymnasium() -> None:
    assert sys.modules["gymnasium"] is gymnasium
    assert gymnasium.__name__ == "gymnasium" and hasattr(gymnasium, "Env")
    assert pg.__name__ == "parlour.gymnasium"
    assert pg.ParlourEnv.__mro__[1] is gymnasium.Env


class _BoundedClobber(ClobberGame):
    """Clobber declaring the range of its tensor values, as any game may."""

    observation_tensor_bounds = (0.0, 1.0)


def test_declared_tensor_bounds_bound_the_spaces() -> None:
    game = _BoundedClobber(rows=3, columns=4)
    e = pg.env(game, opponent="random")
    assert (e.observation_space.low.min(), e.observation_space.high.max()) == (0.0, 1.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(e)
    assert not [w for w in caught if "infinity" in str(w.message)]
    space = parlour.pettingzoo.env(game).observation_space("player_0")["observation"]
    assert (space.low.min(), space.high.max()) == (0.0, 1.0)
