"""A policy-value network as a file, and its inference in numpy alone.

A network file is an ``.npz`` archive: ``spec.json`` (the architecture, the game and parameters
it was trained for, and how it was trained) and one float32 array per weight, under the names
PyTorch's ``state_dict`` gives them in :mod:`parlour.rl.gumbel.model`. The trainer writes the
file; :class:`Network` reads it and computes the same function with numpy, so playing needs no
PyTorch (``tests/rl/test_gumbel_training.py`` compares the two on many positions).

Two trunks are understood, both followed by the same two heads:

- ``mlp``: the observation flattened, then ``hidden`` fully connected layers with ReLU;
- ``resnet``: a 3x3 convolution to ``channels`` planes, ``blocks`` residual blocks (two 3x3
  convolutions each), then flattened, then (if given) ``hidden`` fully connected layers.

The policy head is one linear layer to ``actions`` logits, or (``"policy": "conv"``, resnet
trunk only) a 1x1 convolution to ``per_square`` logits on every square, in square order (square
``r * columns + c``, then the channel: Clobber's ``square * 4 + direction``), followed by
``extra_actions`` logits of a linear layer on the planes' means (GobbleStones' pass and end).
The value head is a linear layer of ``value_hidden`` units with ReLU, then one unit through
``tanh``: the value, in [-1, 1], of the position for the player it is observed by (the player
to move).

**Any board** (``"value": "pool"``, a resnet trunk with the convolutional policy head): the
value head reads the trunk's planes pooled over the board, each channel's mean then each
channel's maximum (``2 * channels`` numbers), through the ``hidden`` layers. No weight then
depends on the board's size (the 3x3 convolutions are zero-padded), so one network plays every
board: ``input_shape`` is only ``[planes]``, ``actions`` is left out (it is ``rows * columns *
per_square + extra_actions`` on each board), and ``boards`` lists the ``[rows, columns]`` it
plays (those it was trained on); ``config`` holds the rest of what it depends on.

>>> import numpy as np
>>> spec = {"trunk": "mlp", "hidden": [8], "value_hidden": 4, "input_shape": [3, 2, 2],
...         "actions": 5}
>>> net = Network.random(spec, np.random.default_rng(0))
>>> logits, value = net(np.zeros((2, 3, 2, 2), dtype=np.float32))
>>> logits.shape, value.shape
((2, 5), (2,))
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

FORMAT = "parlour-network"
VERSION = 1
SPEC_KEY = "spec.json"
MAX_FILE_BYTES = 64 << 20
"""A network file larger than this is refused before it is read (the shipped one is far
smaller): a file named on a command line is input like any other."""
MAX_LAYERS = 64
MAX_WIDTH = 4096


class NetworkFileError(ValueError):
    """A network file that cannot be read, or that does not fit the game it is used for."""


def any_board(spec: Mapping[str, Any]) -> bool:
    """Whether ``spec`` is a network for every board (its value head pools the board)."""
    return spec.get("value", "flat") == "pool"


def parameter_shapes(spec: Mapping[str, Any]) -> dict[str, tuple[int, ...]]:
    """Every weight the architecture ``spec`` has, by its PyTorch name, with its shape."""
    planes, *board = (int(x) for x in spec["input_shape"])
    pooled = any_board(spec)
    if pooled and (spec["trunk"] != "resnet" or spec.get("policy") != "conv" or board):
        raise NetworkFileError("a network for every board has a resnet trunk, the "
                               "convolutional policy head and input_shape [planes]")
    actions = 0 if pooled else int(spec["actions"])
    shapes: dict[str, tuple[int, ...]] = {}
    if spec["trunk"] == "mlp":
        width = planes * int(np.prod(board, dtype=np.int64))
        for i, size in enumerate(spec["hidden"]):
            shapes[f"hidden.{i}.weight"] = (int(size), width)
            shapes[f"hidden.{i}.bias"] = (int(size),)
            width = int(size)
    elif spec["trunk"] == "resnet":
        if len(board) != 2 and not pooled:
            raise NetworkFileError("a resnet trunk needs (planes, rows, columns) observations")
        c = int(spec["channels"])
        shapes["stem.weight"], shapes["stem.bias"] = (c, planes, 3, 3), (c,)
        for i in range(int(spec["blocks"])):
            for conv in ("conv1", "conv2"):
                shapes[f"blocks.{i}.{conv}.weight"] = (c, c, 3, 3)
                shapes[f"blocks.{i}.{conv}.bias"] = (c,)
        width = 2 * c if pooled else c * board[0] * board[1]
        for i, size in enumerate(spec.get("hidden", [])):
            shapes[f"hidden.{i}.weight"] = (int(size), width)
            shapes[f"hidden.{i}.bias"] = (int(size),)
            width = int(size)
    else:
        raise NetworkFileError(f"unknown trunk {spec['trunk']!r} (mlp or resnet)")
    hidden = int(spec["value_hidden"])
    if spec.get("policy", "linear") == "conv":
        if spec["trunk"] != "resnet":
            raise NetworkFileError("a convolutional policy head needs a resnet trunk")
        k, extra = int(spec["per_square"]), int(spec.get("extra_actions", 0))
        if not pooled and board[0] * board[1] * k + extra != actions:
            raise NetworkFileError(f"{k} logits a square and {extra} more are not {actions} "
                                   "actions")
        c = int(spec["channels"])
        shapes["policy_conv.weight"], shapes["policy_conv.bias"] = (k, c, 1, 1), (k,)
        if extra:
            shapes["policy_extra.weight"], shapes["policy_extra.bias"] = (extra, c), (extra,)
    else:
        shapes["policy.weight"], shapes["policy.bias"] = (actions, width), (actions,)
    shapes["value_hidden.weight"], shapes["value_hidden.bias"] = (hidden, width), (hidden,)
    shapes["value_out.weight"], shapes["value_out.bias"] = (1, hidden), (1,)
    return shapes


def _check_spec(spec: Mapping[str, Any]) -> None:
    try:
        sizes = [int(x) for x in spec["input_shape"]] + [int(spec["value_hidden"])]
        if any_board(spec):
            boards = [tuple(int(x) for x in board) for board in spec["boards"]]
            if not boards or len(boards) > MAX_LAYERS or any(len(b) != 2 for b in boards):
                raise ValueError("boards: a list of [rows, columns]")
            sizes += [x for board in boards for x in board]
        else:
            sizes.append(int(spec["actions"]))
        sizes += [int(x) for x in spec.get("hidden", [])]
        if spec["trunk"] == "resnet":
            sizes += [int(spec["channels"]), int(spec["blocks"])]
        if spec.get("policy", "linear") == "conv":
            sizes += [int(spec["per_square"])]
    except (KeyError, TypeError, ValueError) as exc:
        raise NetworkFileError(f"not a network description: {exc}") from None
    if not 1 <= len(spec["input_shape"]) <= 3 or len(spec.get("hidden", [])) > MAX_LAYERS:
        raise NetworkFileError("a network description of an unsupported shape")
    if any(not 1 <= s <= MAX_WIDTH for s in sizes if s != int(spec.get("blocks", 1))) or (
        spec["trunk"] == "resnet" and not 0 <= int(spec["blocks"]) <= MAX_LAYERS
    ):
        raise NetworkFileError(f"a layer size out of range (1..{MAX_WIDTH})")


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, np.float32(0))


class Network:
    """A policy-value network computed with numpy (float32, as PyTorch computes it).

    ``net(obs)`` takes a batch of observation tensors, ``(n, *input_shape)``, and returns
    ``(logits, values)``: ``(n, actions)`` float32 policy logits and ``(n,)`` values for the
    observing player. :meth:`load` reads a file written by :func:`save`.
    """

    def __init__(self, spec: Mapping[str, Any], weights: Mapping[str, np.ndarray]) -> None:
        _check_spec(spec)
        self.spec = dict(spec)
        shapes = parameter_shapes(spec)
        missing = sorted(set(shapes) - set(weights))
        extra = sorted(set(weights) - set(shapes))
        if missing or extra:
            raise NetworkFileError(f"weights do not match the architecture: missing {missing}, "
                                   f"unexpected {extra}")
        self.weights: dict[str, np.ndarray] = {}
        for name, shape in shapes.items():
            array = np.asarray(weights[name])
            if array.shape != shape or array.dtype != np.float32:
                raise NetworkFileError(f"{name}: {array.dtype}{list(array.shape)}, expected "
                                       f"float32{list(shape)}")
            if not np.isfinite(array).all():
                raise NetworkFileError(f"{name} holds a value that is not a finite number")
            self.weights[name] = array
        self.input_shape = tuple(int(x) for x in spec["input_shape"])
        self.pooled = any_board(spec)
        self.actions = 0 if self.pooled else int(spec["actions"])
        """The number of actions (0: as many as the board has, :func:`any_board`)."""
        self.boards = ({(int(r), int(c)) for r, c in spec["boards"]} if self.pooled
                       else set())
        # matrices laid out for x @ W (computed once; the stored weights stay untouched)
        self._dense = {
            name[: -len(".weight")]: (np.ascontiguousarray(w.T), self.weights[name[:-6] + "bias"])
            for name, w in self.weights.items()
            if name.endswith(".weight") and w.ndim == 2
        }
        self._conv = {
            name[: -len(".weight")]: (
                np.ascontiguousarray(w.reshape(w.shape[0], -1).T),
                self.weights[name[:-6] + "bias"],
            )
            for name, w in self.weights.items()
            if name.endswith(".weight") and w.ndim == 4
        }

    # -- files ------------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> Network:
        """Read a network file (:func:`save`), checking its format before trusting it."""
        path = Path(path)
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise NetworkFileError(f"cannot read the network file {path}: {exc}") from None
        if size > MAX_FILE_BYTES:
            raise NetworkFileError(f"{path} is {size} bytes; network files are at most "
                                   f"{MAX_FILE_BYTES} bytes")
        try:
            with np.load(path, allow_pickle=False) as archive:
                if SPEC_KEY not in archive.files:
                    raise NetworkFileError(f"{path} is not a parlour network file (no spec)")
                spec = json.loads(bytes(archive[SPEC_KEY]).decode("utf-8"))
                arrays = {name: archive[name] for name in archive.files if name != SPEC_KEY}
        except (OSError, ValueError, zipfile.BadZipFile, UnicodeDecodeError) as exc:
            if isinstance(exc, NetworkFileError):
                raise
            raise NetworkFileError(f"{path} is not a parlour network file: {exc}") from None
        if not isinstance(spec, dict) or spec.get("format") != FORMAT:
            raise NetworkFileError(f"{path} is not a parlour network file")
        if spec.get("version") != VERSION:
            raise NetworkFileError(f"{path} is a network file of version {spec.get('version')}; "
                                   f"this parlour reads version {VERSION}")
        return cls(spec, arrays)

    @classmethod
    def random(cls, spec: Mapping[str, Any], rng: np.random.Generator) -> Network:
        """A network of architecture ``spec`` with small random weights (for tests)."""
        weights = {
            name: (rng.standard_normal(shape) * (0.5 if name.endswith("weight") else 0.1)
                   / np.sqrt(max(1, int(np.prod(shape[1:]))))).astype(np.float32)
            for name, shape in parameter_shapes(spec).items()
        }
        return cls(spec, weights)

    def fits(self, game_name: str, config: Mapping[str, Any], input_shape: tuple[int, ...],
             actions: int) -> None:
        """Raise :class:`NetworkFileError` unless this network was trained for that game and
        configuration (``config``: what the game's search adapter says a network depends on,
        such as Clobber's board size, not its start position)."""
        mine = (self.spec.get("game"), self.spec.get("config"))
        if self.pooled:
            board = (int(config.get("rows", 0)), int(config.get("columns", 0)))
            rest = {k: v for k, v in config.items() if k not in ("rows", "columns")}
            per_square, extra = int(self.spec["per_square"]), int(self.spec.get("extra_actions",
                                                                                0))
            if (mine[0] != game_name or mine[1] != rest or board not in self.boards
                    or tuple(input_shape) != (self.input_shape[0], *board)
                    or actions != board[0] * board[1] * per_square + extra):
                raise NetworkFileError(
                    f"this network plays {mine[0]} {describe_config(mine[1])} on the boards "
                    f"{describe_boards(self.boards)}, not {game_name} "
                    f"{describe_config(config)}")
            return
        if (mine[0] != game_name or mine[1] != dict(config) or self.input_shape !=
                tuple(input_shape) or self.actions != actions):
            raise NetworkFileError(
                f"this network plays {mine[0]} {describe_config(mine[1])}, not {game_name} "
                f"{describe_config(config)}"
            )

    # -- inference --------------------------------------------------------------------------
    def __call__(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = np.asarray(obs, dtype=np.float32)
        if self.pooled:
            if x.ndim != 4 or x.shape[1] != self.input_shape[0]:
                raise ValueError(f"observations of shape {x.shape[1:]}, expected "
                                 f"({self.input_shape[0]}, rows, columns)")
        elif x.shape[1:] != self.input_shape:
            raise ValueError(f"observations of shape {x.shape[1:]}, expected {self.input_shape}")
        n = x.shape[0]
        planes = None
        if self.spec["trunk"] == "resnet":
            planes = _relu(self._conv3x3("stem", x.transpose(0, 2, 3, 1)))  # NHWC inside
            for i in range(int(self.spec["blocks"])):
                inner = _relu(self._conv3x3(f"blocks.{i}.conv1", planes))
                planes = _relu(planes + self._conv3x3(f"blocks.{i}.conv2", inner))
            if self.pooled:  # each channel's mean, then each channel's maximum
                h = np.concatenate([planes.mean(axis=(1, 2), dtype=np.float32),
                                    planes.max(axis=(1, 2))], axis=1)
            else:
                h = planes.transpose(0, 3, 1, 2).reshape(n, -1)  # PyTorch's order (C,H,W)
        else:
            h = x.reshape(n, -1)
        for i in range(len(self.spec.get("hidden", []))):
            h = _relu(self._linear(f"hidden.{i}", h))
        if self.spec.get("policy", "linear") == "conv":
            assert planes is not None
            w, b = self._conv["policy_conv"]  # 1x1: a product over the channels
            logits = (planes.reshape(-1, planes.shape[-1]) @ w + b).reshape(n, -1)
            if "policy_extra" in self._dense:
                pooled = planes.mean(axis=(1, 2), dtype=np.float32)
                logits = np.concatenate([logits, self._linear("policy_extra", pooled)], axis=1)
        else:
            logits = self._linear("policy", h)
        value = np.tanh(self._linear("value_out", _relu(self._linear("value_hidden", h))))
        return logits, value[:, 0]

    def _linear(self, name: str, x: np.ndarray) -> np.ndarray:
        w, b = self._dense[name]
        out: np.ndarray = x @ w
        out += b
        return out

    def _conv3x3(self, name: str, x: np.ndarray) -> np.ndarray:
        """A 3x3 convolution with padding 1 over NHWC ``x``, as one matrix product."""
        w, b = self._conv[name]
        n, rows, columns, planes = x.shape
        padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        windows = sliding_window_view(padded, (3, 3), axis=(1, 2))  # (n, H, W, C, 3, 3)
        out: np.ndarray = windows.reshape(n * rows * columns, planes * 9) @ w
        out += b
        return out.reshape(n, rows, columns, -1)

    def __repr__(self) -> str:
        trunk = self.spec["trunk"]
        size = self.spec.get("hidden") if trunk == "mlp" else (
            f"{self.spec['channels']}x{self.spec['blocks']}")
        boards = f" boards {describe_boards(self.boards)}" if self.pooled else ""
        return (f"<Network {self.spec.get('game')} {describe_config(self.spec.get('config'))}"
                f"{boards} {trunk} {size}>")


def describe_boards(boards: Any) -> str:
    return ", ".join(f"{r}x{c}" for r, c in sorted(boards))


def describe_config(config: Any) -> str:
    if not config:
        return "(default parameters)"
    return "(" + ", ".join(f"{k}={v}" for k, v in sorted(dict(config).items())) + ")"


def save(path: str | Path, spec: Mapping[str, Any], weights: Mapping[str, np.ndarray]) -> Path:
    """Write a network file: ``spec`` (with the format's name and version added) and the
    float32 ``weights``, checked against the architecture first."""
    full = {"format": FORMAT, "version": VERSION, **spec}
    Network(full, weights)  # refuses a mismatch before anything is written
    path = Path(path)
    blob = np.frombuffer(json.dumps(full, sort_keys=True).encode("utf-8"), dtype=np.uint8)
    arrays: dict[str, Any] = {SPEC_KEY: blob}
    arrays.update({k: np.asarray(v, np.float32) for k, v in weights.items()})
    with path.open("wb") as handle:
        np.savez_compressed(handle, **arrays)
    return path


SHIPPED = Path(__file__).resolve().parent / "networks"
"""Where the networks that come with parlour live (package data)."""


@lru_cache(maxsize=8)
def _cached(path: str, mtime: float) -> Network:
    return Network.load(path)


def load_cached(path: str | Path) -> Network:
    """:meth:`Network.load`, remembered per file (a tournament builds an agent per game)."""
    path = Path(path)
    try:
        mtime = path.stat().st_mtime
    except OSError as exc:
        raise NetworkFileError(f"cannot read the network file {path}: {exc}") from None
    return _cached(str(path.resolve()), mtime)
