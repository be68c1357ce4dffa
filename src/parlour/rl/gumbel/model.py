"""The policy-value network in PyTorch, the twin of :class:`parlour.agents.learned.network.Network`.

The architecture is described by the same ``spec`` dictionary, and the module's parameter names
are the names of the network file (:func:`parlour.agents.learned.network.parameter_shapes`), so
:func:`export` is a copy of the ``state_dict`` and the numpy player computes the same function.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from parlour.agents.learned.network import any_board, parameter_shapes


class Block(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(x + self.conv2(F.relu(self.conv1(x))))


class PolicyValueNet(nn.Module):
    """``forward(obs) -> (logits, value)``; see :mod:`parlour.agents.learned.network`."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        super().__init__()
        self.spec = dict(spec)
        planes, *board = (int(x) for x in spec["input_shape"])
        self.pooled = any_board(spec)
        if spec["trunk"] == "mlp":
            width = planes * int(np.prod(board, dtype=np.int64))
        else:
            c = int(spec["channels"])
            self.stem = nn.Conv2d(planes, c, 3, padding=1)
            self.blocks = nn.ModuleList(Block(c) for _ in range(int(spec["blocks"])))
            width = 2 * c if self.pooled else c * board[0] * board[1]
        layers = []
        for size in spec.get("hidden", []):
            layers.append(nn.Linear(width, int(size)))
            width = int(size)
        self.hidden = nn.ModuleList(layers)
        self.conv_policy = spec.get("policy", "linear") == "conv"
        if self.conv_policy:
            c = int(spec["channels"])
            self.policy_conv = nn.Conv2d(c, int(spec["per_square"]), 1)
            extra = int(spec.get("extra_actions", 0))
            self.policy_extra = nn.Linear(c, extra) if extra else None
        else:
            self.policy = nn.Linear(width, int(spec["actions"]))
        self.value_hidden = nn.Linear(width, int(spec["value_hidden"]))
        self.value_out = nn.Linear(int(spec["value_hidden"]), 1)
        expected = parameter_shapes(spec)
        mine = {name: tuple(p.shape) for name, p in self.named_parameters()}
        assert mine == expected, (mine, expected)  # the file format's names and shapes

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        if self.spec["trunk"] == "mlp":
            h = obs.flatten(1)
        else:
            planes = F.relu(self.stem(obs))
            for block in self.blocks:
                planes = block(planes)
            if self.pooled:  # any board: each channel's mean, then its maximum
                h = torch.cat([planes.mean(dim=(2, 3)), planes.amax(dim=(2, 3))], dim=1)
            else:
                h = planes.flatten(1)
        for layer in self.hidden:
            h = F.relu(layer(h))
        value = torch.tanh(self.value_out(F.relu(self.value_hidden(h)))).squeeze(-1)
        if not self.conv_policy:
            return self.policy(h), value
        # square-major: (n, k, H, W) -> (n, H, W, k) -> flat, then the extra actions
        logits = self.policy_conv(planes).permute(0, 2, 3, 1).flatten(1)
        if self.policy_extra is not None:
            logits = torch.cat([logits, self.policy_extra(planes.mean(dim=(2, 3)))], dim=1)
        return logits, value


def export(net: PolicyValueNet) -> dict[str, np.ndarray]:
    """The weights as float32 numpy arrays under their file names (exact copies)."""
    return {name: p.detach().cpu().numpy().astype(np.float32, copy=True)
            for name, p in net.state_dict().items()}


def evaluator(net: PolicyValueNet):
    """``evaluate(obs) -> (logits, values)`` in numpy, for the search (no gradients)."""

    def evaluate(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with torch.inference_mode():
            logits, value = net(torch.from_numpy(np.ascontiguousarray(obs, dtype=np.float32)))
        return logits.numpy(), value.numpy()

    return evaluate
