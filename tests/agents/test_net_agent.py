"""The ``net`` agent: a policy-value network saved by examples/train_clobber.py, as an agent.

Needs PyTorch (the optional ``train`` extra); the module is skipped, saying so, without it.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the net agent needs the 'train' extra (PyTorch)")

import parlour  # noqa: E402
from parlour.agents import make_agent  # noqa: E402
from parlour.agents.net import expand  # noqa: E402
from parlour.batch import ClobberBatch  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _train(tmp_path: Path, iterations: int) -> Path:
    sys.path.insert(0, str(EXAMPLES))
    try:
        import train_clobber
    finally:
        sys.path.remove(str(EXAMPLES))
    out = tmp_path / "net.pt"
    assert train_clobber.main([
        "--rows", "3", "--columns", "4", "--iterations", str(iterations), "--batch", "64",
        "--eval-every", "1000", "--eval-games", "200", "--out", str(out),
    ]) == 0
    return out


@pytest.mark.parametrize("depth", [1, 2, 4])
def test_a_trained_network_plays_legal_moves_as_an_agent(tmp_path: Path, depth: int) -> None:
    path = _train(tmp_path, 3)
    game = parlour.load_game("clobber", rows=3, columns=4)
    agent = make_agent(f"net:path={path}:depth={depth}", game, seed=1)
    rng = random.Random(0)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            action = agent.step(state) if state.current_player() == 0 else rng.choice(
                state.legal_actions())
            assert action in state.legal_actions()
            state.apply_action(action)


def test_the_network_refuses_another_board(tmp_path: Path) -> None:
    path = _train(tmp_path, 1)
    with pytest.raises(ValueError, match="network for clobber"):
        make_agent(f"net:path={path}", parlour.load_game("clobber"), seed=0)
    with pytest.raises(ValueError, match="net:path"):
        make_agent("net", parlour.load_game("clobber"), seed=0)
    with pytest.raises(ValueError, match="depth"):
        make_agent(f"net:path={path}:depth=0", parlour.load_game("clobber", rows=3, columns=4))


def test_the_search_expands_the_same_children_as_the_reference_engine() -> None:
    game = parlour.load_game("clobber", rows=5, columns=6)
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    root = ClobberBatch(game, 1, seed=0)
    root.set_state(0, state)
    kids, parent, actions = expand(root)
    assert list(actions) == list(state.legal_actions())
    assert set(parent) == {0}
    for i, action in enumerate(actions):
        child = state.child(int(action))
        assert str(kids.state(i)) == str(child)
        assert kids.current_player()[i] == child.current_player()
