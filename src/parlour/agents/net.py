"""``net``: an agent that plays by a trained policy-value network (PyTorch, optional).

``make_agent("net:path=clobber_net.pt", game)`` loads a network saved by
``examples/train_clobber.py``. In Clobber it searches a few moves ahead through the batched
engine, scoring the positions it reaches by the network's value (see :class:`NetAgent`); in
other games it plays the legal action its policy rates highest, from the player's observation
tensor only (G-3). PyTorch is an optional extra: ``pip install
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
from parlour.games.clobber import ClobberGame

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


def expand(batch: Any) -> tuple[Any, np.ndarray, np.ndarray]:
    """Every legal move of every live game of a :class:`~parlour.batch.ClobberBatch`:
    ``(children, parent, action)``, ``children`` being a new batch holding one position per
    move (the opponent to move), ``parent[i]`` and ``action[i]`` where child ``i`` came from."""
    from parlour.batch import ClobberBatch

    mask = batch.legal_actions_mask() & ~batch.terminated()[:, None]
    parent, action = np.nonzero(mask)
    kids = ClobberBatch(batch.game, max(parent.size, 1), seed=0)
    if not parent.size:
        return kids, parent, action
    own, other = batch._own_other()
    square, direction = action // 4, action % 4
    word, bit = np.divmod(square, batch.layout.bits_per_word)
    nxt, moved = batch._mover.apply(own[:, parent], other[:, parent], word, bit, direction)
    black = batch.to_move[parent].astype(bool)  # the mover; the opponent moves next
    kids.stones[0] = np.where(black, nxt, moved)
    kids.stones[1] = np.where(black, moved, nxt)
    kids.to_move = (1 - batch.to_move[parent]).astype(np.int8)
    kids._masks = None
    return kids, parent, action


class NetAgent(Agent):
    """Plays by a trained policy-value network, from its own player's view only.

    In Clobber it searches ahead through the batched engine (minimax, every move of every
    position) as deep as ``depth`` moves while the deepest level holds at most ``max_leaves``
    positions, and scores the positions it stops at by the network's value (a side left
    without a move has lost, C5). So it looks two moves ahead in the opening (49 moves, about
    2,400 positions after the reply) and deeper as the board empties; ``max_leaves`` bounds
    the work per move. In other games it plays the legal action the policy rates highest.
    """

    name = "net"

    def __init__(self, game: Game, seed: int | None = None, path: str = "",
                 depth: int = 4, max_leaves: int = 8192) -> None:
        super().__init__(game, seed)
        if not path:
            raise ValueError("the 'net' agent needs a saved network: net:path=FILE")
        if not 1 <= int(depth) <= 8:
            raise ValueError("net: depth must be from 1 to 8")
        self.torch = require_torch()
        self.net = load_network(path, game)
        self.depth = int(depth)
        self.max_leaves = int(max_leaves)
        self.search = isinstance(game, ClobberGame) and game.grid is not None

    def _values(self, batch: Any) -> np.ndarray:
        """The network's value of each position of ``batch`` for its player to move; -1 where
        that player has no move."""
        with self.torch.no_grad():
            _logits, value = self.net(self.torch.from_numpy(batch.observation_tensor()))
        out = value.numpy().astype(np.float64)
        out[batch.num_legal_actions() == 0] = -1.0
        return out

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions()
        if self.search and len(legal) > 1:
            return self._search(view)
        torch = self.torch
        obs = torch.from_numpy(np.asarray(view.observation_tensor(), dtype=np.float32))
        with torch.no_grad():
            logits, _value = self.net(obs[None])
        scores = logits[0].numpy()[legal]
        return int(legal[int(np.argmax(scores))])

    def _search(self, view: PlayerView) -> int:
        from parlour.batch import ClobberBatch

        world = view.sample_world(self.rng)  # perfect information: the position itself
        root = ClobberBatch(self.game, 1, seed=0)
        root.set_state(0, world)  # type: ignore[arg-type]
        kids, _parent, actions = expand(root)
        levels, parents = [kids], [_parent]
        while len(levels) < self.depth:
            live = ~levels[-1].terminated()
            if not live.any() or int(levels[-1].num_legal_actions()[live].sum()) > (
                self.max_leaves
            ):
                break
            nxt, parent, _ = expand(levels[-1])
            levels.append(nxt)
            parents.append(parent)
        value = self._values(levels[-1])  # for the player to move at the deepest level
        for depth in range(len(levels) - 2, -1, -1):  # negamax back to the root's children
            backed = np.full(levels[depth].batch_size, -1.0)  # no move: lost (C5)
            np.maximum.at(backed, parents[depth + 1], -value)
            value = backed
        mine = -value  # the opponent moves in each child of the root
        best = np.flatnonzero(mine >= mine.max() - 1e-9)
        return int(actions[int(self.rng.choice(best)) if best.size > 1 else int(best[0])])


register_agent("net", NetAgent, "a trained policy network: net:path=FILE (needs parlour[train])")
