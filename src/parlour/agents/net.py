"""``net``: an agent that plays by a trained policy-value network (PyTorch, optional).

``make_agent("net:path=clobber_net.pt", game)`` loads a network saved by
``examples/train_clobber.py`` and plays the legal action its policy rates highest, from the
player's observation tensor only (G-3). PyTorch is an optional extra: ``pip install
'parlour[train]'``; without it the agent explains how to get it.

The saved file holds the network's weights and the configuration it was trained for (game and
parameters, layer sizes); a network trained for one board refuses another.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from parlour.agents.base import Agent, register_agent
from parlour.agents.playerview import PlayerView
from parlour.core import Game

if TYPE_CHECKING:
    import torch

CHANNELS = 32
HIDDEN = 256


def require_torch() -> Any:
    """The ``torch`` module, or an error that says how to install it."""
    try:
        import torch
    except ImportError:  # pragma: no cover - depends on the installation
        raise ImportError(
            "the 'net' agent needs PyTorch: pip install 'parlour[train]'"
        ) from None
    return torch


def build_network(shape: tuple[int, ...], actions: int, channels: int = CHANNELS,
                  hidden: int = HIDDEN) -> torch.nn.Module:
    """A small policy-value network over a ``(planes, rows, columns)`` observation tensor:
    two 3x3 convolutions, a hidden layer, then ``actions`` policy logits and a value in
    ``[-1, 1]``."""
    torch = require_torch()
    nn = torch.nn
    planes, rows, columns = shape

    class PolicyValueNet(nn.Module):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                nn.Conv2d(planes, channels, 3, padding=1), nn.ReLU(),
                nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
                nn.Flatten(), nn.Linear(channels * rows * columns, hidden), nn.ReLU(),
            )
            self.policy = nn.Linear(hidden, actions)
            self.value = nn.Linear(hidden, 1)

        def forward(self, x: Any) -> tuple[Any, Any]:
            h = self.body(x)
            return self.policy(h), torch.tanh(self.value(h)).squeeze(-1)

    return PolicyValueNet()


def save_network(path: str | Path, net: torch.nn.Module, game: Game, **extra: Any) -> None:
    """Save weights plus what they were trained for (see :func:`load_network`)."""
    torch = require_torch()
    torch.save({
        "game": game.name,
        "params": game.get_parameters(),
        "shape": list(game.observation_tensor_shape()),
        "actions": game.num_distinct_actions(),
        "state_dict": net.state_dict(),
        **extra,
    }, str(path))


def load_network(path: str | Path, game: Game) -> torch.nn.Module:
    """The network saved at ``path``, checked to fit ``game``."""
    torch = require_torch()
    saved = torch.load(str(path), map_location="cpu", weights_only=True)
    shape = tuple(saved["shape"])
    if saved["game"] != game.name or shape != tuple(game.observation_tensor_shape()) or (
        saved["actions"] != game.num_distinct_actions()
    ):
        raise ValueError(
            f"{path} holds a network for {saved['game']} {shape}, not for {game} "
            f"{game.observation_tensor_shape()}"
        )
    net = build_network(shape, saved["actions"])
    net.load_state_dict(saved["state_dict"])
    net.eval()
    return net


class NetAgent(Agent):
    """Plays by a trained policy-value network, from its own player's view only.

    In two-player games of perfect information without chance (Clobber) it looks one move
    ahead, as training does: it plays the move after which the opponent's position is worst by
    the network's value (a move that leaves the opponent without a move wins at once). In other
    games it plays the legal action the policy rates highest.
    """

    name = "net"

    def __init__(self, game: Game, seed: int | None = None, path: str = "") -> None:
        super().__init__(game, seed)
        if not path:
            raise ValueError("the 'net' agent needs a saved network: net:path=FILE")
        self.torch = require_torch()
        self.net = load_network(path, game)
        kind = game.get_type()
        self.lookahead = (
            game.num_players() == 2 and kind.chance_mode.value == "deterministic"
            and kind.information.value == "perfect"
        )

    def act(self, view: PlayerView) -> int:
        torch = self.torch
        legal = view.legal_actions()
        if self.lookahead and len(legal) > 1:
            world = view.sample_world(self.rng)  # perfect information: the position itself
            tensors: list[np.ndarray | None] = []
            for action in legal:
                child = world.child(action)
                if child.is_terminal():
                    if child.returns()[view.player] > 0:
                        return int(action)
                    tensors.append(None)
                    continue
                tensors.append(child.observation_tensor(child.current_player()))
            shape = self.game.observation_tensor_shape()
            batch = np.stack([np.zeros(shape, np.float32) if t is None else t for t in tensors])
            with torch.no_grad():
                _logits, value = self.net(torch.from_numpy(batch.astype(np.float32)))
            mine = -value.numpy()
            mine[[i for i, t in enumerate(tensors) if t is None]] = -2.0
            return int(legal[int(np.argmax(mine))])
        obs = torch.from_numpy(np.asarray(view.observation_tensor(), dtype=np.float32))
        with torch.no_grad():
            logits, _value = self.net(obs[None])
        scores = logits[0].numpy()[legal]
        return int(legal[int(np.argmax(scores))])


register_agent("net", NetAgent, "a trained policy network: net:path=FILE (needs parlour[train])")
