"""parlour.gymnasium.vector_env: self-play vector environments on the batched engines.

Checked against Gymnasium's own space utilities and vector wrappers, and against the reference
engines: observations lie in the declared spaces, masks are the reference's legal actions,
rewards are the returns of the player who acted, seeds replay, finished games restart on the
next step (NEXT_STEP autoreset).
"""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from parlour.core import IllegalActionError
from parlour.games import conformance_configs
from parlour.gymnasium import ParlourVectorEnv, vector_env
from parlour.rl.vector_env import ENGINES

CASES = [
    (name, config)
    for name in sorted(ENGINES)
    for config in [c for _n, c in conformance_configs(name)][:3]
    if not (name == "clobber" and "graph" in config)
]
IDS = [f"{name}-{i}" for i, (name, _c) in enumerate(CASES)]


def _masked_actions(info: dict, rng: np.random.Generator) -> np.ndarray:
    mask = info["action_mask"]
    out = np.zeros(mask.shape[0], dtype=np.int64)
    for i, row in enumerate(mask):
        legal = np.flatnonzero(row)
        out[i] = rng.choice(legal) if legal.size else 0
    return out


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_vector_env_follows_the_gymnasium_api_and_the_rules(name: str, config: dict) -> None:
    envs = vector_env(name, num_envs=6, **config)
    assert isinstance(envs, VectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs, info = envs.reset(seed=3)
    assert obs.dtype == np.float32 and envs.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    finished = 0
    restarting = np.zeros(6, dtype=bool)
    for _ in range(400):
        for i in range(6):  # the masks are the reference engine's legal actions
            state = envs.batch.state(i)
            if state.is_player_node():
                assert list(np.flatnonzero(info["action_mask"][i])) == state.legal_actions()
                assert info["player"][i] == state.current_player()
        actions = _masked_actions(info, rng)
        assert envs.action_space.contains(actions)
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert envs.observation_space.contains(obs)
        assert reward.shape == (6,) and reward.dtype == np.float32
        assert not truncated.any()
        assert not (terminated & restarting).any()
        assert (reward[restarting] == 0).all()  # NEXT_STEP: the restart step pays nothing
        for i in np.flatnonzero(terminated):
            mover = info["mover"][i]
            assert reward[i] == info["rewards"][i][mover]
            assert not info["action_mask"][i].any()
            finished += 1
        restarting = terminated
    assert finished > 0


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_seeds_replay_and_wrappers_work(name: str) -> None:
    runs = []
    for _ in range(2):
        envs = RecordEpisodeStatistics(vector_env(name, num_envs=4))
        obs, info = envs.reset(seed=11)
        rng = np.random.default_rng(1)
        trace = [obs.copy()]
        for _ in range(60):
            obs, reward, terminated, truncated, info = envs.step(_masked_actions(info, rng))
            trace += [obs.copy(), reward.copy(), terminated | truncated]
        runs.append(trace)
    for a, b in zip(*runs, strict=True):
        np.testing.assert_array_equal(a, b)


def test_illegal_action_names_its_rule() -> None:
    envs = ParlourVectorEnv("stomp-the-plank", num_envs=2)
    _obs, info = envs.reset(seed=0)
    assert (info["action_mask"][:, 1] == 0).all()  # no stop before the first card (P3)
    with pytest.raises(IllegalActionError) as err:
        envs.step(np.array([1, 0]))
    assert err.value.rule == "P3"


def test_every_game_has_a_vector_environment() -> None:
    import parlour

    assert set(ENGINES) == set(parlour.list_games())
    with pytest.raises(ValueError, match="num_envs"):
        vector_env("gobblestones", num_envs=0)
