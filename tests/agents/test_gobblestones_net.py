"""The learned GobbleStones player on numpy alone: what its network reads (the player's view
and nothing else), the batched encoder against the view's, and the ``net`` agent playing whole
games from a network file, at the table of the arena too.

No PyTorch here (the PyTorch-to-numpy comparison and a training run that resumes are in
tests/rl/test_gumbel_training.py).
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import parlour
from parlour.agents import make_agent
from parlour.agents.learned.games import adapter_for
from parlour.agents.learned.gobblestones import PLANES, UNSEEN_PLANES, view_planes
from parlour.agents.learned.network import Network, save
from parlour.cli import app
from parlour.games.gobblestones import GobbleStonesState

VARIANTS = [{}, {"bluff": True}]


def _decisions(game, games: int, seed: int):
    """Every decision of ``games`` random games: ``(state, player to act)``."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance_outcome(rng))
                continue
            yield state, state.current_player()
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("params", VARIANTS, ids=["plain", "bluff"])
def test_the_batched_encoder_computes_the_view_encoder(params):
    """The arrays the search encodes give, at every decision, the planes built from the
    player's view (the game's tensor, then the tiles of each colour not seen)."""
    game = parlour.load_game("gobblestones", **params)
    adapter = adapter_for(game)
    assert adapter.observation_shape == (PLANES, 15, 15)
    checked = 0
    for state, player in _decisions(game, 2, seed=4):
        want = view_planes(state.view(player))
        np.testing.assert_array_equal(adapter.observe(adapter.from_state(state))[0], want)
        np.testing.assert_array_equal(want[:UNSEEN_PLANES], state.observation_tensor(player))
        checked += 1
    assert checked > 40


@pytest.mark.parametrize("params", VARIANTS, ids=["plain", "bluff"])
def test_the_observation_reads_the_view_only(params):
    """Worlds the player cannot tell apart give the same observation; and moving a tile
    between the other rack and the bag (what the player cannot see) never changes it."""
    game = parlour.load_game("gobblestones", **params)
    adapter = adapter_for(game)
    rng = random.Random(9)
    differed = swapped = 0
    for k, (state, player) in enumerate(_decisions(game, 1, seed=11)):
        if k % 5:
            continue
        mine = adapter.observe(adapter.from_state(state))[0]
        for _ in range(3):
            world = state.sample_world(player, rng)
            assert world.view(player) == state.view(player)
            differed += world.snapshot().racks != state.snapshot().racks
            np.testing.assert_array_equal(adapter.observe(adapter.from_state(world))[0], mine)
        snap = state.snapshot()
        other = 1 - player
        rack, bag = list(snap.racks[other]), list(snap.bag)
        give = next((c for c in range(5) if rack[c]), None)
        take = next((c for c in range(5) if bag[c] and c != give), None)
        if give is None or take is None:
            continue
        rack[give] -= 1
        rack[take] += 1
        bag[take] -= 1
        bag[give] += 1
        racks = tuple(tuple(rack) if seat == other else r for seat, r in enumerate(snap.racks))
        changed = GobbleStonesState.from_snapshot(
            game, dataclasses.replace(snap, racks=racks, bag=tuple(bag)))
        assert changed.snapshot().racks != snap.racks
        np.testing.assert_array_equal(adapter.observe(adapter.from_state(changed))[0], mine)
        swapped += 1
    assert differed > 0 and swapped > 5  # the hidden tiles really were different


def _random_network(tmp_path: Path, game) -> Path:
    adapter = adapter_for(game)
    spec = {"trunk": "resnet", "channels": 4, "blocks": 1, "value_hidden": 8,
            "game": "gobblestones", "config": adapter.config,
            "input_shape": list(adapter.observation_shape), "actions": adapter.num_actions}
    if adapter.square_policy is not None:
        spec.update(policy="conv", per_square=1, extra_actions=adapter.square_policy[1])
    net = Network.random(spec, np.random.default_rng(0))
    return save(tmp_path / "net.npz", spec, net.weights)


@pytest.mark.parametrize("params", VARIANTS, ids=["plain", "bluff"])
def test_net_plays_gobblestones_legal_moves_to_the_end(tmp_path: Path, params):
    game = parlour.load_game("gobblestones", **params)
    path = _random_network(tmp_path, game)
    net = make_agent(f"net:path={path}:simulations=4:worlds=2", game, seed=1)
    rng = random.Random(2)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        elif state.current_player() == 0:
            action = net.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.is_terminal() and moves > 5


def test_net_plays_gobblestones_in_the_arena(tmp_path: Path):
    game = parlour.load_game("gobblestones")
    path = _random_network(tmp_path, game)
    agent = f"net:path={path}:simulations=2:worlds=1"
    arena = CliRunner().invoke(app, ["arena", "gobblestones", "--agents", f"{agent},random",
                                     "--games", "2", "--workers", "1",
                                     "--out", str(tmp_path / "a")])
    assert arena.exit_code == 0, arena.output
    lines = [json.loads(line) for line in (tmp_path / "a" / "results.jsonl").read_text()
             .splitlines()]
    assert len(lines) == 2 and {tuple(line["metadata"]["agents"]) for line in lines} == {
        (agent, "random"), ("random", agent)}
