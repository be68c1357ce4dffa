"""The ``net`` agent on numpy alone: the shipped Clobber network, its file format and inference,
legal play through the agent, the arena and the terminal, and what it has learned.

No PyTorch here: this is what a plain ``pip install parlour`` runs. (Training and the
PyTorch-to-numpy comparison are in tests/rl/test_gumbel_training.py.)
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import parlour
from parlour.agents import make_agent
from parlour.agents.learned.games import adapter_for
from parlour.agents.learned.network import (
    SHIPPED,
    Network,
    NetworkFileError,
    parameter_shapes,
    save,
)
from parlour.agents.net import shipped_network
from parlour.analysis import ClobberSolver
from parlour.cli import app
from parlour.core import GameRecord

SHIPPED_CLOBBER = SHIPPED / "clobber-5x6.npz"


def test_the_clobber_network_ships_small_and_fits_the_default_board():
    assert SHIPPED_CLOBBER.stat().st_size <= 5 * 1024 * 1024
    game = parlour.load_game("clobber")
    assert shipped_network(game) == SHIPPED_CLOBBER
    net = Network.load(SHIPPED_CLOBBER)
    assert net.spec["game"] == "clobber" and net.spec["config"]["rows"] == 5
    assert "Gumbel" in net.spec["trained"]["method"]
    assert round(net.spec["trained"]["wall_minutes"], 1) <= 60  # the snapshot at 60 minutes
    adapter = adapter_for(game)
    net.fits("clobber", adapter.config, adapter.observation_shape, adapter.num_actions)
    # any start position on that board is the same network's (C6)
    custom = parlour.load_game("clobber", position="oxox../xoxo../oxoxox/xoxoxo/oxoxox x")
    make_agent("net", custom, seed=0)


def test_other_boards_and_bad_options_are_refused_with_what_to_do(tmp_path: Path):
    with pytest.raises(ValueError, match=r"no network ships for clobber.*parlour train clobber"):
        make_agent("net", parlour.load_game("clobber", size="4x5"), seed=0)
    with pytest.raises(ValueError, match="cannibal=True"):
        make_agent(f"net:path={SHIPPED_CLOBBER}", parlour.load_game("clobber", cannibal=True))
    with pytest.raises(ValueError, match="plays only clobber, gobblestones"):
        make_agent("net", parlour.load_game("stomple"), seed=0)
    with pytest.raises(ValueError, match="simulations"):
        make_agent("net:simulations=0", parlour.load_game("clobber"))
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a network")
    with pytest.raises(ValueError, match="not a parlour network file"):
        make_agent(f"net:path={bad}", parlour.load_game("clobber"))
    with pytest.raises(ValueError, match="cannot read"):
        make_agent(f"net:path={tmp_path / 'missing.npz'}", parlour.load_game("clobber"))


def _reference_forward(spec: dict, w: dict, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The network computed the slow, obvious way in float64 (loops over kernel offsets)."""
    x = x.astype(np.float64)

    def conv(h: np.ndarray, name: str) -> np.ndarray:
        kernel, bias = w[f"{name}.weight"].astype(np.float64), w[f"{name}.bias"]
        rows, columns = h.shape[2:]
        size = kernel.shape[-1]
        pad = size // 2
        padded = np.pad(h, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        out = np.zeros((h.shape[0], kernel.shape[0], rows, columns))
        for i in range(size):
            for j in range(size):
                out += np.einsum("ncij,oc->noij", padded[:, :, i:i + rows, j:j + columns],
                                 kernel[:, :, i, j])
        return out + bias[None, :, None, None]

    def dense(h: np.ndarray, name: str) -> np.ndarray:
        return h @ w[f"{name}.weight"].astype(np.float64).T + w[f"{name}.bias"]

    relu = lambda a: np.maximum(a, 0)  # noqa: E731
    if spec["trunk"] == "resnet":
        planes = relu(conv(x, "stem"))
        for i in range(spec["blocks"]):
            planes = relu(planes + conv(relu(conv(planes, f"blocks.{i}.conv1")),
                                        f"blocks.{i}.conv2"))
        if spec.get("value") == "pool":  # per channel: the mean over the board, the maximum
            h = np.concatenate([planes.mean(axis=(2, 3)), planes.max(axis=(2, 3))], axis=1)
        else:
            h = planes.reshape(len(x), -1)
    else:
        h = x.reshape(len(x), -1)
    for i in range(len(spec.get("hidden", []))):
        h = relu(dense(h, f"hidden.{i}"))
    if spec.get("policy") == "conv":
        logits = conv(planes, "policy_conv").transpose(0, 2, 3, 1).reshape(len(x), -1)
        if spec.get("extra_actions"):
            logits = np.concatenate([logits, dense(planes.mean(axis=(2, 3)), "policy_extra")], 1)
    else:
        logits = dense(h, "policy")
    value = np.tanh(dense(relu(dense(h, "value_hidden")), "value_out"))[:, 0]
    return logits, value


@pytest.mark.parametrize("spec", [
    {"trunk": "mlp", "hidden": [64, 32], "value_hidden": 16, "input_shape": [3, 5, 6],
     "actions": 120},
    {"trunk": "resnet", "channels": 8, "blocks": 2, "value_hidden": 16, "input_shape": [3, 5, 6],
     "actions": 120},
    {"trunk": "resnet", "channels": 6, "blocks": 1, "value_hidden": 8, "input_shape": [4, 7, 7],
     "actions": 51, "policy": "conv", "per_square": 1, "extra_actions": 2},
], ids=["mlp", "resnet", "resnet-conv-policy"])
def test_numpy_inference_computes_the_network(spec: dict, tmp_path: Path):
    rng = np.random.default_rng(3)
    net = Network.random(spec, rng)
    path = save(tmp_path / "n.npz", spec, net.weights)
    loaded = Network.load(path)
    for name, shape in parameter_shapes(spec).items():
        assert np.array_equal(loaded.weights[name], net.weights[name]) and (
            loaded.weights[name].shape == shape)
    x = (rng.random((20, *spec["input_shape"])) < 0.4).astype(np.float32)
    logits, value = loaded(x)
    want_logits, want_value = _reference_forward(spec, net.weights, x)
    np.testing.assert_allclose(logits, want_logits, atol=1e-5)
    np.testing.assert_allclose(value, want_value, atol=1e-6)


ANY_BOARD = {"trunk": "resnet", "channels": 8, "blocks": 2, "hidden": [12], "value_hidden": 6,
             "input_shape": [3], "policy": "conv", "per_square": 4, "value": "pool",
             "game": "clobber", "config": {"cannibal": False},
             "boards": [[4, 4], [4, 5], [5, 4], [5, 6], [6, 6], [5, 7], [7, 5]]}


def test_one_network_computes_every_board_as_the_reference_does(tmp_path: Path):
    """The same weights on boards of several sizes: policy logits square by square and the
    value from the pooled planes, against the float64 reference."""
    rng = np.random.default_rng(5)
    net = Network.load(save(tmp_path / "all.npz", ANY_BOARD,
                            Network.random(ANY_BOARD, rng).weights))
    assert net.pooled and all("x" not in name for name in net.weights)
    for rows, columns in ((4, 4), (4, 5), (6, 6), (5, 7), (7, 5)):
        x = (rng.random((16, 3, rows, columns)) < 0.4).astype(np.float32)
        logits, value = net(x)
        assert logits.shape == (16, rows * columns * 4)
        want_logits, want_value = _reference_forward(ANY_BOARD, net.weights, x)
        np.testing.assert_allclose(logits, want_logits, atol=1e-5)
        np.testing.assert_allclose(value, want_value, atol=1e-6)
    with pytest.raises(ValueError, match="expected"):
        net(np.zeros((1, 2, 4, 4), np.float32))
    with pytest.raises(NetworkFileError, match="boards"):
        Network.random({**ANY_BOARD, "boards": []}, rng)
    with pytest.raises(NetworkFileError, match="every board"):
        Network.random({**ANY_BOARD, "input_shape": [3, 5, 6]}, rng)


@pytest.fixture
def shipped_with_every_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A networks folder holding the shipped 5x6 network and a (random) network for every
    board, in place of the package's."""
    import parlour.agents.net as net_module

    folder = tmp_path / "networks"
    folder.mkdir()
    (folder / SHIPPED_CLOBBER.name).write_bytes(SHIPPED_CLOBBER.read_bytes())
    save(folder / "clobber-all.npz", ANY_BOARD,
         Network.random(ANY_BOARD, np.random.default_rng(6)).weights)
    monkeypatch.setattr(net_module, "SHIPPED", folder)
    return folder


def test_the_network_for_every_board_plays_where_no_board_network_ships(
        shipped_with_every_board: Path, tmp_path: Path):
    from parlour.agents import plays_configuration

    folder = shipped_with_every_board
    # the network made for 5x6 keeps 5x6; the one for every board takes the others
    assert shipped_network(parlour.load_game("clobber")) == folder / "clobber-5x6.npz"
    for size in ("4x4", "4x5", "6x6", "5x7", "7x5"):
        game = parlour.load_game("clobber", size=size)
        assert shipped_network(game) == folder / "clobber-all.npz"
        assert plays_configuration("net", game)
    for size in ("8x8", "4x6"):  # boards it was not trained on: refused, saying which it plays
        game = parlour.load_game("clobber", size=size)
        assert not plays_configuration("net", game)
        with pytest.raises(ValueError, match=r"no network ships .*boards 4x4, 4x5.*parlour "
                                             r"train clobber"):
            make_agent("net", game, seed=0)
    cannibal = parlour.load_game("clobber", cannibal=True)  # another game: no such network
    assert not plays_configuration("net", cannibal)
    with pytest.raises(ValueError, match=r"cannibal=True, columns=6, rows=5\): train one"):
        make_agent("net", cannibal, seed=0)
    runner = CliRunner()
    arena = runner.invoke(app, ["arena", "clobber", "--agents", "net:simulations=4,random",
                                "--param", "size=6x6", "--games", "2", "--workers", "1",
                                "--out", str(tmp_path / "a")])
    assert arena.exit_code == 0, arena.output
    lines = [json.loads(line) for line in (tmp_path / "a" / "results.jsonl").read_text()
             .splitlines()]
    assert len(lines) == 2 and all(len(line["actions"]) > 0 for line in lines)


def test_a_network_file_is_checked_before_it_is_trusted(tmp_path: Path):
    spec = {"trunk": "mlp", "hidden": [8], "value_hidden": 4, "input_shape": [3, 2, 2],
            "actions": 5}
    weights = Network.random(spec, np.random.default_rng(0)).weights
    wrong = dict(weights, **{"policy.weight": np.zeros((5, 9), np.float32)})
    with pytest.raises(NetworkFileError, match=r"policy\.weight"):
        save(tmp_path / "w.npz", spec, wrong)
    with pytest.raises(NetworkFileError, match="finite"):
        Network(spec, dict(weights, **{"value_out.bias": np.array([np.nan], np.float32)}))
    with pytest.raises(NetworkFileError, match="out of range"):
        Network.random({**spec, "hidden": [10**6]}, np.random.default_rng(0))
    later = save(tmp_path / "later.npz", {**spec, "version": 2}, weights)
    with pytest.raises(NetworkFileError, match="version 2"):
        Network.load(later)


def test_net_plays_legal_moves_to_the_end_and_its_search_stays_on_the_engine():
    game = parlour.load_game("clobber")
    net = make_agent("net:simulations=16", game, seed=3)
    rng = random.Random(1)
    for seat in (0, 1):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == seat:
                action = net.step(state)
                assert action in state.legal_actions()
                assert net.last_search["iterations"] in (0, 16)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)


def test_the_shipped_network_judges_positions_as_the_solver_does():
    """The value head alone (no search), on positions 10-18 plies into games the network plays
    itself (with Gumbel noise and one random move in five, for variety), against the exact
    outcome: it must beat the best constant guess ("the player to move wins", or loses) by a
    clear margin. The untrained network of the same run does not (its sign is constant)."""
    game = parlour.load_game("clobber")
    adapter = adapter_for(game)
    net = Network.load(SHIPPED_CLOBBER)
    player = make_agent("net:simulations=16:noise=1", game, seed=1)
    solver = ClobberSolver(game)
    rng = random.Random(3)
    agree = wins = total = 0
    while total < 150:
        state = game.new_initial_state()
        for _ in range(rng.randint(10, 18)):
            if state.is_terminal():
                break
            state.apply_action(player.step(state) if rng.random() < 0.8 else
                               rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        _logits, value = net(adapter.observe(adapter.from_state(state)))
        won = solver.mover_wins(state)
        agree += (value[0] > 0) == won
        wins += won
        total += 1
    constant = max(wins, total - wins) / total
    assert agree / total >= constant + 0.05, (agree, wins, total)


def test_net_in_the_arena_and_at_the_terminal(tmp_path: Path):
    runner = CliRunner()
    arena = runner.invoke(app, ["arena", "clobber", "--agents", "net:simulations=8,random",
                                "--games", "2", "--workers", "1", "--out", str(tmp_path / "a")])
    assert arena.exit_code == 0, arena.output
    lines = [json.loads(line) for line in (tmp_path / "a" / "results.jsonl").read_text()
             .splitlines()]
    assert {tuple(line["metadata"]["agents"]) for line in lines} == {
        ("net:simulations=8", "random"), ("random", "net:simulations=8")}
    record = tmp_path / "game.json"
    play = runner.invoke(app, ["play", "clobber", "--vs", "net", "--seat", "1", "--record",
                               str(record)], input="quit\n")
    assert play.exit_code == 0, play.output
    assert "Computer (learned" in " ".join(play.output.split())  # as players name it
    assert len(GameRecord.load(record).actions) == 1  # the network's first move, then quit
