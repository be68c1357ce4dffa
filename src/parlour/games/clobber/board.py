"""Where Clobber is played: a rectangular grid (C1, C2) or any graph of named nodes (C7).

A topology numbers its nodes and gives each node a fixed number of neighbour *slots*; an action
id is ``node * slots + slot``. On a grid the slots are the directions N, E, S, W and the node of
a square is ``row * columns + col`` with row 0 the top rank, which is exactly OpenSpiel's action
id (C4). Stones are kept as bitboards (Python ints, bit ``i`` = node ``i``), so that move
generation on a grid is a handful of shifts.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterator

import numpy as np

from parlour.core.errors import NotationError
from parlour.i18n import Message

FILES = "abcdefghijklmnopqrstuvwxyz"
DIRECTIONS = ("N", "E", "S", "W")


def iter_bits(bits: int) -> Iterator[int]:
    """The indices of the set bits of ``bits``, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


class Topology(ABC):
    """Nodes, their names, and which node each neighbour slot leads to."""

    slots: int
    names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]  # neighbours[node][slot] -> node, or -1

    def __init__(self, names: tuple[str, ...], neighbours: tuple[tuple[int, ...], ...]) -> None:
        self.names = names
        self.index = {name: i for i, name in enumerate(names)}
        self.neighbours = neighbours
        self.size = len(names)
        self.full = (1 << self.size) - 1

    @property
    def num_actions(self) -> int:
        return self.size * self.slots

    def target(self, action: int) -> int:
        """The node an action moves onto, or -1 when that slot leads off the board."""
        return self.neighbours[action // self.slots][action % self.slots]

    def moves(self, own: int, targets: int) -> list[int]:
        """Ascending action ids moving a stone of ``own`` onto a node of ``targets``."""
        actions = []
        slots = self.slots
        for node in iter_bits(own):
            for slot, other in enumerate(self.neighbours[node]):
                if other >= 0 and (targets >> other) & 1:
                    actions.append(node * slots + slot)
        return actions

    @abstractmethod
    def move_string(self, action: int) -> str:
        """An action in move notation."""

    @abstractmethod
    def parse_move(self, text: str) -> int:
        """The action id written by ``text``; raises :class:`NotationError`."""

    def node(self, name: str) -> int:
        try:
            return self.index[name]
        except KeyError:
            raise NotationError(Message("no square or node named {name!r}", name=name)) from None


class Grid(Topology):
    """A ``rows`` x ``columns`` checkerboard; a1 at the bottom left (C2)."""

    slots = 4
    FEW_MOVES = 32
    """Up to this many moves a bit loop beats numpy's fixed cost (measured on 5x6 to 10x10)."""

    def __init__(self, rows: int, columns: int) -> None:
        self.rows, self.columns = rows, columns
        names = tuple(f"{FILES[c]}{rows - r}" for r in range(rows) for c in range(columns))
        deltas = ((-1, 0), (0, 1), (1, 0), (0, -1))
        neighbours = tuple(
            tuple(
                (r + dr) * columns + (c + dc)
                if 0 <= r + dr < rows and 0 <= c + dc < columns
                else -1
                for dr, dc in deltas
            )
            for r in range(rows)
            for c in range(columns)
        )
        super().__init__(names, neighbours)
        first_col = sum(1 << (r * columns) for r in range(rows))
        last_col = first_col << (columns - 1)
        self.not_first_col = self.full & ~first_col
        self.not_last_col = self.full & ~last_col
        self.delta = (-columns, 1, columns, -1)
        self._bytes = (self.size + 7) // 8

    def moves(self, own: int, targets: int) -> list[int]:
        # A stone at s may move in direction d when its neighbour that way is a target:
        # shift the targets back onto the squares they neighbour, and keep our own stones.
        c = self.columns
        by_dir = (
            own & (targets << c),
            own & (targets >> 1) & self.not_last_col,
            own & (targets >> c),
            own & (targets << 1) & self.not_first_col,
        )
        north, east, south, west = by_dir
        count = north.bit_count() + east.bit_count() + south.bit_count() + west.bit_count()
        if count <= self.FEW_MOVES:
            actions = []
            for d, sources in enumerate(by_dir):
                while sources:
                    low = sources & -sources
                    actions.append(((low.bit_length() - 1) << 2) | d)
                    sources ^= low
            actions.sort()
            return actions
        # Many moves: a Python loop per bit costs too much, so numpy unpacks the four
        # bitboards at once; read square by square, the set bits are the sorted action ids.
        width = self._bytes
        packed = b"".join([sources.to_bytes(width, "little") for sources in by_dir])
        bits = np.unpackbits(np.frombuffer(packed, np.uint8), bitorder="little")
        return np.flatnonzero(bits.reshape(4, width * 8).T[: self.size]).tolist()

    def move_string(self, action: int) -> str:
        node, direction = divmod(action, 4)
        if not 0 <= node < self.size:
            raise ValueError(f"action {action} is outside this board")
        other = self.neighbours[node][direction]
        if other < 0:
            raise ValueError(f"action {action} moves off the board")
        return self.names[node] + self.names[other]

    _MOVE = re.compile(r"^\s*([a-z])(\d+)\s*-?\s*([a-z])(\d+)\s*$")

    def parse_move(self, text: str) -> int:
        match = self._MOVE.match(text.lower())
        if not match:
            raise NotationError(Message(
                "cannot read move {text!r}: write the from-square then the to-square, "
                "like a1b1 (C4)", text=text))
        origin = self.node(match.group(1) + str(int(match.group(2))))
        dest = self.node(match.group(3) + str(int(match.group(4))))
        for direction, other in enumerate(self.neighbours[origin]):
            if other == dest:
                return origin * 4 + direction
        raise NotationError(Message(
            "{origin} and {dest} are not next to each other (rulebook: Moving)",
            origin=self.names[origin], dest=self.names[dest]))


_NODE = re.compile(r"^[A-Za-z0-9_]+$")


class Graph(Topology):
    """Any undirected graph of named nodes (C7).

    Written as edges ``"a-b b-c c-d"`` (commas or spaces between them); a lone name adds an
    isolated node. Nodes are numbered in order of first appearance; a node's slots list its
    neighbours in that order.
    """

    def __init__(self, spec: str) -> None:
        order: dict[str, int] = {}
        edges: set[tuple[int, int]] = set()
        tokens = [t for t in re.split(r"[\s,;]+", spec.strip()) if t]
        if not tokens:
            raise NotationError("a graph needs at least one node")
        for token in tokens:
            names = token.split("-")
            if len(names) > 2 or not all(_NODE.match(n) for n in names):
                raise NotationError(
                    f"cannot read graph item {token!r}: write edges as a-b, nodes as letters, "
                    "digits or _ (C7)"
                )
            ids = [order.setdefault(n, len(order)) for n in names]
            if len(ids) == 2:
                if ids[0] == ids[1]:
                    raise NotationError(f"edge {token!r} joins a node to itself (C7)")
                edges.add((min(ids), max(ids)))
        adjacent: list[list[int]] = [[] for _ in order]
        for a, b in sorted(edges):
            adjacent[a].append(b)
            adjacent[b].append(a)
        self.slots = max(1, max(len(a) for a in adjacent))
        neighbours = tuple(tuple(sorted(a)) + (-1,) * (self.slots - len(a)) for a in adjacent)
        self.edges = tuple(sorted(edges))
        super().__init__(tuple(order), neighbours)

    def spec(self) -> str:
        """Canonical text: edges in node order, then isolated nodes."""
        touched = {n for e in self.edges for n in e}
        parts = [f"{self.names[a]}-{self.names[b]}" for a, b in self.edges]
        parts += [self.names[n] for n in range(self.size) if n not in touched]
        return " ".join(parts)

    def move_string(self, action: int) -> str:
        node, slot = divmod(action, self.slots)
        if not 0 <= node < self.size or self.neighbours[node][slot] < 0:
            raise ValueError(f"action {action} is not a move along an edge of this graph")
        return f"{self.names[node]}-{self.names[self.neighbours[node][slot]]}"

    def parse_move(self, text: str) -> int:
        parts = text.strip().split("-")
        if len(parts) != 2:
            raise NotationError(f"cannot read move {text!r}: write from-node-to-node, like a-b")
        origin, dest = self.node(parts[0].strip()), self.node(parts[1].strip())
        if dest not in self.neighbours[origin]:
            raise NotationError(f"{parts[0]} and {parts[1]} are not joined by an edge (C7)")
        return origin * self.slots + self.neighbours[origin].index(dest)
