"""Gumbel AlphaZero training (parlour.rl.gumbel): a short run, its files, resuming, and the
numpy player computing exactly what PyTorch computes.

Needs PyTorch (the ``train`` extra); without it the module is skipped and says so. The CI
venv (``.[test]``) has no PyTorch: the net agent's own tests (tests/agents/test_net_agent.py)
run there on numpy alone.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip(
    "torch", reason="training needs PyTorch, the 'train' extra (pip install 'parlour[train]')"
)

import parlour  # noqa: E402
from parlour.agents import make_agent  # noqa: E402
from parlour.agents.learned.games import adapter_for  # noqa: E402
from parlour.agents.learned.network import Network  # noqa: E402
from parlour.agents.learned.network import save as save_network  # noqa: E402
from parlour.rl.gumbel.model import PolicyValueNet, export  # noqa: E402
from parlour.rl.gumbel.train import TrainConfig, Trainer  # noqa: E402

SMALL = {"rows": 3, "columns": 4}


def small_config(**changes) -> TrainConfig:
    settings = dict(params=dict(SMALL), max_steps=14, games=16, simulations=8, considered=4,
                    hidden=[32, 32], value_hidden=16, minibatch=32, warmup=32, replay=5000,
                    log_seconds=1e9, checkpoint_minutes=1e9)
    settings.update(changes)
    return TrainConfig(**settings)


def positions_from_self_play(game, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations and legal masks of ``n`` positions of random games (every stage)."""
    adapter = adapter_for(game)
    rng = np.random.default_rng(seed)
    positions = adapter.initial(64, rng)
    obs, legal = [], []
    while sum(len(o) for o in obs) < n:
        described = adapter.describe(positions)
        live = ~described.terminal
        if not live.any():
            positions = adapter.initial(64, rng)
            continue
        obs.append(adapter.observe({k: v[live] for k, v in positions.items()}))
        legal.append(described.legal[live])
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0
                            for row in described.legal])
        positions = {k: v[live] for k, v in positions.items()}
        positions = adapter.children(positions, actions[live], rng)
    return np.concatenate(obs)[:n], np.concatenate(legal)[:n]


@pytest.mark.parametrize("spec", [
    {"trunk": "mlp", "hidden": [256, 256, 256], "value_hidden": 64},
    {"trunk": "resnet", "channels": 16, "blocks": 2, "value_hidden": 32},
    {"trunk": "resnet", "channels": 16, "blocks": 2, "value_hidden": 32, "policy": "conv",
     "per_square": 4},
], ids=["mlp", "resnet", "resnet-conv-policy"])
def test_a_pytorch_network_loads_into_the_numpy_player_bit_for_bit(tmp_path: Path, spec):
    game = parlour.load_game("clobber")
    adapter = adapter_for(game)
    spec = {**spec, "game": "clobber", "config": adapter.config,
            "input_shape": list(adapter.observation_shape), "actions": adapter.num_actions}
    torch.manual_seed(1)
    net = PolicyValueNet(spec)
    # a few training steps, so that the weights are not those of the initialisation
    optimiser = torch.optim.SGD(net.parameters(), lr=0.05)
    obs, legal = positions_from_self_play(game, 2000, seed=2)
    for _ in range(3):
        logits, value = net(torch.from_numpy(obs[:256]))
        loss = (value - 0.5).pow(2).mean() + logits.pow(2).mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    net.eval()
    path = save_network(tmp_path / "net.npz", spec, export(net))
    loaded = Network.load(path)
    for name, tensor in net.state_dict().items():  # the weights themselves, bit for bit
        assert np.array_equal(loaded.weights[name], tensor.numpy()), name
        assert loaded.weights[name].dtype == np.float32
    with torch.no_grad():
        logits, value = net(torch.from_numpy(obs))
    ours_logits, ours_value = loaded(obs)
    # both compute in float32, summing in their own order: equal to float32 rounding
    np.testing.assert_allclose(ours_logits, logits.numpy(), rtol=0, atol=2e-5)
    np.testing.assert_allclose(ours_value, value.numpy(), rtol=0, atol=2e-6)
    theirs = np.where(legal, logits.numpy(), -np.inf).argmax(axis=1)
    mine = np.where(legal, ours_logits, -np.inf).argmax(axis=1)
    assert (mine == theirs).mean() > 0.999  # the same favourite move (ties aside)


def test_a_short_run_writes_its_networks_and_resumes(tmp_path: Path):
    out = tmp_path / "run"
    trainer = Trainer(small_config(), out, log=lambda line: None)
    path = trainer.run()
    assert path == out / "net.npz"
    state = json.loads((out / "state.json").read_text())
    assert state["counters"]["steps"] == 14
    assert state["counters"]["positions"] > 0 and state["counters"]["updates"] > 0
    assert {"checkpoint.pt", "replay.npz", "net.npz", "net-m000.npz", "log.jsonl"} <= {
        p.name for p in out.iterdir()}
    log = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    assert set(log[-1]["seconds"]) >= {"search tree", "engine", "network", "training"}
    assert log[-1]["cpu_minutes"] > 0
    # the file plays as the net agent, on numpy
    game = parlour.load_game("clobber", **SMALL)
    agent = make_agent(f"net:path={path}:simulations=8", game, seed=0)
    state0 = game.new_initial_state()
    assert agent.step(state0) in state0.legal_actions()
    # a second session resumes the counters, the weights and the replay buffer
    before = Network.load(path).weights
    resumed = Trainer(small_config(max_steps=4), out, log=lambda line: None)
    np.testing.assert_array_equal(export(resumed.net)["policy.weight"], before["policy.weight"])
    assert resumed.replay.size == trainer.replay.size
    resumed.run()
    assert json.loads((out / "state.json").read_text())["counters"]["steps"] == 18
    with pytest.raises(ValueError, match="hidden"):
        Trainer(small_config(hidden=[16]), out, log=lambda line: None)


def test_a_run_carried_as_its_checkpoint_alone_resumes_and_refills_its_replay(tmp_path: Path):
    """A run's checkpoint and state, without its replay file (tens of MB, not carried between
    machines), resume the weights and the counters; the replay starts empty and fills again."""
    out = tmp_path / "run"
    Trainer(small_config(), out, log=lambda line: None).run()
    before = Network.load(out / "net.npz").weights
    (out / "replay.npz").unlink()
    said: list[str] = []
    resumed = Trainer(small_config(max_steps=14), out, log=said.append)
    np.testing.assert_array_equal(export(resumed.net)["policy.weight"], before["policy.weight"])
    assert resumed.replay.size == 0 and any("no replay.npz" in line for line in said)
    resumed.run()
    assert resumed.replay.size > 0
    assert json.loads((out / "state.json").read_text())["counters"]["steps"] == 28


def test_a_seeded_run_repeats_exactly(tmp_path: Path):
    first = Trainer(small_config(), tmp_path / "a", log=lambda line: None).run()
    second = Trainer(small_config(), tmp_path / "b", log=lambda line: None).run()
    a, b = Network.load(first).weights, Network.load(second).weights
    assert all(np.array_equal(a[name], b[name]) for name in a)
    third = Trainer(small_config(seed=1), tmp_path / "c", log=lambda line: None).run()
    assert not np.array_equal(Network.load(third).weights["policy.weight"], a["policy.weight"])


def test_self_play_in_worker_processes(tmp_path: Path):
    out = tmp_path / "workers"
    Trainer(small_config(workers=2, max_steps=30), out, log=lambda line: None).run()
    state = json.loads((out / "state.json").read_text())
    assert state["counters"]["steps"] >= 30 and state["counters"]["games"] > 0
    assert state["counters"]["cpu"] > 0
    assert not (out / "sync.npz").exists()


def test_gobblestones_trains_on_determinized_worlds_and_resumes(tmp_path: Path):
    config = small_config(game="gobblestones", params={}, max_steps=3, games=4, simulations=4,
                          trunk="resnet", channels=8, blocks=1, policy="conv", warmup=8,
                          minibatch=8, noisy_plies=0)
    out = Trainer(config, tmp_path / "gobble", log=lambda line: None).run()
    state = json.loads((out.parent / "state.json").read_text())
    assert state["counters"]["steps"] == 3
    # a second session resumes the weights and the counters
    before = Network.load(out).weights
    resumed = Trainer(dataclasses.replace(config, max_steps=2), out.parent,
                      log=lambda line: None)
    for name, weights in export(resumed.net).items():
        np.testing.assert_array_equal(weights, before[name])
    resumed.run()
    assert json.loads((out.parent / "state.json").read_text())["counters"]["steps"] == 5
    game = parlour.load_game("gobblestones")
    agent = make_agent(f"net:path={out}:simulations=4:worlds=2", game, seed=0)
    import random

    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        elif state.current_player() == 0:
            action = agent.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_a_gobblestones_network_computes_the_same_in_numpy(tmp_path: Path):
    """PyTorch's network and the numpy player's, on real observations of both variants."""
    for bluff in (False, True):
        game = parlour.load_game("gobblestones", bluff=bluff)
        adapter = adapter_for(game)
        spec = {"trunk": "resnet", "channels": 8, "blocks": 1, "value_hidden": 16,
                "hidden": [], "game": "gobblestones", "config": adapter.config,
                "input_shape": list(adapter.observation_shape), "actions": adapter.num_actions}
        if adapter.square_policy is not None:
            spec.update(policy="conv", per_square=1, extra_actions=adapter.square_policy[1])
        torch.manual_seed(2)
        net = PolicyValueNet(spec)
        obs, _legal = positions_from_self_play(game, 200, seed=3)
        optimiser = torch.optim.SGD(net.parameters(), lr=0.05)
        for _ in range(3):
            logits, value = net(torch.from_numpy(obs[:64]))
            loss = (value - 0.5).pow(2).mean() + logits.pow(2).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        net.eval()
        loaded = Network.load(save_network(tmp_path / f"g{bluff}.npz", spec, export(net)))
        with torch.no_grad():
            logits, value = net(torch.from_numpy(obs))
        ours_logits, ours_value = loaded(obs)
        np.testing.assert_allclose(ours_logits, logits.numpy(), rtol=0, atol=2e-5)
        np.testing.assert_allclose(ours_value, value.numpy(), rtol=0, atol=2e-6)


def test_the_train_command(tmp_path: Path):
    from typer.testing import CliRunner

    from parlour.cli import app

    out = tmp_path / "cli"
    result = CliRunner().invoke(app, [
        "train", "clobber", "--param", "rows=3", "--param", "columns=4", "--out", str(out),
        "--max-steps", "2", "--games", "8", "--simulations", "4", "--hidden", "16,16",
    ])
    assert result.exit_code == 0, result.output
    assert (out / "net.npz").exists() and "net:path=" in result.output
    refused = CliRunner().invoke(app, ["train", "stomple", "--out", str(tmp_path / "x"),
                                       "--max-steps", "1"])
    assert refused.exit_code == 2 and "does not play stomple" in refused.output


ANY_BOARD = {"trunk": "resnet", "channels": 12, "blocks": 2, "value_hidden": 16,
             "hidden": [24], "policy": "conv", "per_square": 4, "value": "pool",
             "game": "clobber", "config": {"cannibal": False}, "input_shape": [3],
             "boards": [[4, 4], [4, 5], [5, 4], [5, 6], [6, 6], [5, 7], [7, 5]]}


def test_one_network_for_every_board_computes_the_same_in_numpy_on_each_board(
        tmp_path: Path):
    """A size-independent PyTorch network, trained a few steps on two boards, exported to a
    file: numpy computes its policy and value on boards of five sizes as PyTorch does."""
    torch.manual_seed(4)
    net = PolicyValueNet(ANY_BOARD)
    optimiser = torch.optim.SGD(net.parameters(), lr=0.05)
    for size in ("4x5", "6x6"):
        obs, _legal = positions_from_self_play(parlour.load_game("clobber", size=size), 256, 5)
        logits, value = net(torch.from_numpy(obs))
        loss = (value - 0.3).pow(2).mean() + logits.pow(2).mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    net.eval()
    loaded = Network.load(save_network(tmp_path / "all.npz", ANY_BOARD, export(net)))
    for seed, size in enumerate(("4x4", "4x5", "5x6", "6x6", "5x7")):
        game = parlour.load_game("clobber", size=size)
        adapter = adapter_for(game)
        loaded.fits("clobber", adapter.config, adapter.observation_shape, adapter.num_actions)
        obs, _legal = positions_from_self_play(game, 400, seed)
        with torch.no_grad():
            logits, value = net(torch.from_numpy(obs))
        ours_logits, ours_value = loaded(obs)
        assert ours_logits.shape == (400, adapter.num_actions)
        np.testing.assert_allclose(ours_logits, logits.numpy(), rtol=0, atol=2e-5)
        np.testing.assert_allclose(ours_value, value.numpy(), rtol=0, atol=2e-6)
        assert np.std(ours_value) > 1e-4  # the positions are told apart, not one constant
    # a board it was not trained on is refused, naming those it plays
    with pytest.raises(Exception, match="boards 4x4, 4x5"):
        game = parlour.load_game("clobber", size="3x4")
        adapter = adapter_for(game)
        loaded.fits("clobber", adapter.config, adapter.observation_shape, adapter.num_actions)


def test_a_run_on_several_boards_trains_one_network_and_resumes(tmp_path: Path):
    out = tmp_path / "boards"
    config = small_config(trunk="resnet", channels=8, blocks=1, hidden=[16], policy="conv",
                          boards=[[3, 4], [4, 4]], games=8, max_steps=12, warmup=16,
                          minibatch=16)
    trainer = Trainer(config, out, log=lambda line: None)
    path = trainer.run()
    sizes = [b.replay.size for b in trainer.boards]
    assert all(size > 0 for size in sizes) and trainer.counters.updates > 0
    assert {"replay-3x4.npz", "replay-4x4.npz"} <= {p.name for p in out.iterdir()}
    net = Network.load(path)
    assert sorted(map(tuple, net.spec["boards"])) == [(3, 4), (4, 3), (4, 4)]
    for size in ("3x4", "4x3", "4x4"):  # the file plays every board it was trained on
        game = parlour.load_game("clobber", size=size)
        agent = make_agent(f"net:path={path}:simulations=4", game, seed=0)
        state = game.new_initial_state()
        assert agent.step(state) in state.legal_actions()
    with pytest.raises(ValueError, match="4x4"):
        make_agent(f"net:path={path}", parlour.load_game("clobber", size="5x6"))
    resumed = Trainer(small_config(**{**asdict_config(config), "max_steps": 2}), out,
                      log=lambda line: None)
    assert [b.replay.size for b in resumed.boards] == sizes
    resumed.run()
    assert json.loads((out / "state.json").read_text())["counters"]["steps"] == 14
    with pytest.raises(ValueError, match="boards"):
        Trainer(small_config(**{**asdict_config(config), "boards": [[4, 4]]}), out,
                log=lambda line: None)


def asdict_config(config: TrainConfig) -> dict:
    from dataclasses import asdict

    return asdict(config)


def test_the_train_command_on_several_boards(tmp_path: Path):
    from typer.testing import CliRunner

    from parlour.cli import app

    out = tmp_path / "cli"
    result = CliRunner().invoke(app, [
        "train", "clobber", "--boards", "3x4,4x4", "--out", str(out), "--max-steps", "2",
        "--games", "4", "--simulations", "4", "--channels", "8", "--blocks", "1",
        "--hidden", "16"])
    assert result.exit_code == 0, result.output
    assert Network.load(out / "net.npz").pooled
    bad = CliRunner().invoke(app, ["train", "clobber", "--boards", "4by4", "--out",
                                   str(tmp_path / "x"), "--max-steps", "1"])
    assert bad.exit_code == 2 and "--boards takes boards like" in bad.output
