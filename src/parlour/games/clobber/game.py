"""Clobber: move one of your stones onto an orthogonally adjacent enemy stone, capturing it.

Rulings C1-C8 decide what the rulebook leaves open. Player 0 always plays White (``o``) and
player 1 Black (``x``), as in OpenSpiel, so action ids, move strings and returns carry over
unchanged; ``first="black"`` (C3) only changes who moves first.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from parlour.core import (
    TERMINAL_PLAYER,
    ChanceMode,
    Game,
    GameInfo,
    GameType,
    Information,
    InvalidParameterError,
    NotationError,
    Param,
    State,
    Utility,
    View,
    parse_position_error,
    register_game,
)
from parlour.games.clobber.board import Graph, Grid, Topology
from parlour.i18n import N_, Message, text_of

WHITE = 0
"""White (``o``), player 0."""
BLACK = 1
"""Black (``x``), player 1."""
SYMBOLS = "ox"
COLOUR_NAMES = (N_("White"), N_("Black"))
PRESETS = {"5x6": (5, 6), "6x7": (6, 7), "10x10": (10, 10)}
MAX_ROWS, MAX_COLUMNS = 99, 26
MOVE_RULE = "rulebook: Moving"


def _size_check(value: str | None) -> str | None:
    if value is None or value in PRESETS or re.fullmatch(r"\d+x\d+", value):
        return None
    return Message("write a size as ROWSxCOLUMNS (like 6x7) or a preset: {presets}",
                   presets=", ".join(PRESETS))


def _dimensions(rows: int, columns: int) -> str:
    return f"{rows}x{columns}"


@register_game
class ClobberGame(Game):
    """Clobber on a grid (C1-C6), on any graph (C7), or as Cannibal Clobber (C8)."""

    game_type = GameType(
        short_name="clobber",
        long_name="Clobber",
        chance_mode=ChanceMode.DETERMINISTIC,
        information=Information.PERFECT,
        utility=Utility.ZERO_SUM,
        min_num_players=2,
        max_num_players=2,
    )
    parameters = {
        "rows": Param(5, int, "board rows, 1-99 (C1)"),
        "columns": Param(6, int, "board columns, 1-26 (C1)"),
        "size": Param(
            None, str, "ROWSxCOLUMNS or a preset name: 5x6, 6x7, 10x10 (C1)", check=_size_check
        ),
        "first": Param(
            "white", str, "who moves first from the start position (C3)", choices=("white", "black")
        ),
        "position": Param(None, str, "start from this position text (C6)"),
        "graph": Param(None, str, "play on this graph instead of a grid: edges 'a-b b-c' (C7)"),
        "cannibal": Param(False, bool, "a move may also capture one's own stone (C8)"),
    }

    topology: Topology

    def _check_parameters(self) -> None:
        p = self._params
        name = self.name
        if p["graph"] is not None:
            if (
                p["size"] is not None
                or "rows" in self.non_default_parameters()
                or ("columns" in self.non_default_parameters())
            ):
                raise InvalidParameterError(
                    name, Message("'graph' replaces the grid: drop rows, columns, size"),
                    parameter="graph",
                )
            try:
                self.topology = Graph(p["graph"])
            except NotationError as exc:
                raise InvalidParameterError.about(name, "graph", text_of(exc)) from None
            self.grid = None
        else:
            rows, columns = p["rows"], p["columns"]
            if p["size"] is not None:
                size = PRESETS.get(p["size"]) or tuple(map(int, p["size"].split("x")))
                given = self.non_default_parameters()
                if ("rows" in given and given["rows"] != size[0]) or (
                    "columns" in given and given["columns"] != size[1]
                ):
                    raise InvalidParameterError(
                        name, Message("size {size} disagrees with rows/columns", size=p["size"]),
                        parameter="size",
                    )
                rows, columns = size
            if p["position"] is not None:
                ranks = p["position"].split()[0].split("/") if p["position"].split() else []
                shape = (len(ranks), len(ranks[0]) if ranks else 0)
                given = self.non_default_parameters()
                if ("rows" in given or "columns" in given or p["size"] is not None) and shape != (
                    rows,
                    columns,
                ):
                    raise InvalidParameterError(
                        name, Message("the position is {shape}, not {size}",
                                      shape=_dimensions(*shape), size=_dimensions(rows, columns)),
                        parameter="position",
                    )
                rows, columns = shape
            if not (1 <= rows <= MAX_ROWS and 1 <= columns <= MAX_COLUMNS and rows * columns >= 2):
                raise InvalidParameterError(
                    name,
                    Message("a board is 1x2 up to {largest}, not {size} (C1)",
                            largest=_dimensions(MAX_ROWS, MAX_COLUMNS),
                            size=_dimensions(rows, columns)),
                )  # rows, columns, size or a position's: the board itself
            self.grid = Grid(rows, columns)
            self.topology = self.grid
        if p["position"] is not None:
            try:
                self._start = self._parse_position(p["position"])
            except NotationError as exc:
                raise InvalidParameterError.about(name, "position", text_of(exc)) from None
            if "first" in self.non_default_parameters() and self._start[2] != (
                WHITE if p["first"] == "white" else BLACK
            ):
                raise InvalidParameterError(
                    name, Message("'first' disagrees with the position's side to move"),
                    parameter="first",
                )
        else:
            white = sum(1 << i for i in range(self.topology.size) if self._default_colour(i) == 0)
            black = self.topology.full & ~white
            self._start = (white, black, WHITE if p["first"] == "white" else BLACK)

    def _default_colour(self, node: int) -> int:
        """The start colour of a node: a checkerboard with a1 White (C2).

        On a graph (C7) the colours alternate o, x, o... in node order.
        """
        if self.grid is None:
            return node % 2
        row, col = divmod(node, self.grid.columns)
        return (self.grid.rows - 1 - row + col) % 2

    def _info(self) -> GameInfo:
        topo = self.topology
        shape = (3, self.grid.rows, self.grid.columns) if self.grid else (3, topo.size)
        return GameInfo(
            num_distinct_actions=topo.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=topo.size - 1,
            observation_tensor_shape=shape,
        )

    # -- position text (C6) ---------------------------------------------------------------
    def _parse_position(self, text: str) -> tuple[int, int, int]:
        parts = text.split()
        if len(parts) != 2 or parts[1] not in ("o", "x"):
            raise parse_position_error(
                self.name, text, "write the board, a space, then o or x for the side to move (C6)"
            )
        board, side = parts
        cells = board.replace("/", "") if self.grid else board
        if self.grid:
            ranks = board.split("/")
            if len(ranks) != self.grid.rows or any(len(r) != self.grid.columns for r in ranks):
                raise parse_position_error(
                    self.name,
                    text,
                    f"expected {self.grid.rows} ranks of {self.grid.columns} squares joined "
                    "by / (C6)",
                )
        elif len(cells) != self.topology.size:
            raise parse_position_error(
                self.name,
                text,
                f"expected {self.topology.size} cells, one per node in graph order (C7)",
            )
        if bad := set(cells) - set("ox."):
            raise parse_position_error(self.name, text, f"unknown square marks {sorted(bad)} (C6)")
        white = sum(1 << i for i, ch in enumerate(cells) if ch == "o")
        black = sum(1 << i for i, ch in enumerate(cells) if ch == "x")
        return white, black, SYMBOLS.index(side)

    def state_from_position(self, text: str) -> ClobberState:
        white, black, to_move = self._parse_position(text)
        return ClobberState(self, white, black, to_move)

    def new_initial_state(self) -> ClobberState:
        return ClobberState(self, *self._start)


class ClobberState(State[ClobberGame]):
    """Two bitboards and the side to move; legal moves are computed once per position."""

    def __init__(self, game: ClobberGame, white: int, black: int, to_move: int) -> None:
        super().__init__(game)
        self._stones = [white, black]
        self._to_move = to_move
        self._moves: list[int] | None = None
        self._topo = game.topology
        self._cannibal = game.params["cannibal"]

    # -- rules ----------------------------------------------------------------------------
    def _legal_actions(self) -> list[int]:
        if self._moves is None:
            own, other = self._stones[self._to_move], self._stones[1 - self._to_move]
            targets = own | other if self._cannibal else other
            self._moves = self._topo.moves(own, targets)
        return self._moves

    def current_player(self) -> int:
        # C5: normal play, a player with no legal move on their turn has lost.
        return self._to_move if self._legal_actions() else TERMINAL_PLAYER

    def is_terminal(self) -> bool:
        return not self._legal_actions()

    def _is_legal(self, action: int) -> bool:
        return action in self._legal_actions()

    def _apply_action(self, action: int) -> None:
        origin = 1 << (action // self._topo.slots)
        dest = 1 << self._topo.target(action)
        mover = self._to_move
        self._stones[mover] = (self._stones[mover] & ~origin) | dest
        self._stones[1 - mover] &= ~dest
        self._to_move = 1 - mover
        self._moves = None

    def _illegal_reason(self, action: int) -> tuple[str, str]:
        topo = self._topo
        node = action // topo.slots
        dest = topo.target(action)
        mover = COLOUR_NAMES[self._to_move]
        name = topo.names[node]
        if dest < 0:
            return "C4", Message("that action moves from {square} off the board", square=name)
        if not (self._stones[self._to_move] >> node) & 1:
            if mover == "White":
                return MOVE_RULE, Message(
                    "{square} holds no White stone: you move one of your own stones", square=name)
            return MOVE_RULE, Message(
                "{square} holds no Black stone: you move one of your own stones", square=name)
        dest_name = topo.names[dest]
        if (self._stones[self._to_move] >> dest) & 1:
            return "C8", Message(
                "{square} holds your own stone; only Cannibal Clobber captures those",
                square=dest_name)
        if self._cannibal:
            return "C8", Message("{square} is empty: even a cannibal move must capture a stone",
                                 square=dest_name)
        return MOVE_RULE, Message("{square} is empty: a move must capture an enemy stone",
                                  square=dest_name)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        result = [1.0, 1.0]
        result[self._to_move] = -1.0  # C5: the player to move, with no move, loses
        return result

    def winner(self) -> int | None:
        return 1 - self._to_move if self.is_terminal() else None

    def clone(self) -> ClobberState:
        twin = ClobberState.__new__(ClobberState)
        twin._game = self._game
        twin._history = self._history.copy()
        twin._stones = self._stones.copy()
        twin._to_move = self._to_move
        twin._moves = self._moves
        twin._topo = self._topo
        twin._cannibal = self._cannibal
        return twin

    # -- notation -------------------------------------------------------------------------
    def action_to_string(self, action: int, player: int | None = None) -> str:
        return self._topo.move_string(action)

    def string_to_action(self, text: str) -> int:
        return self._topo.parse_move(text)

    def cells(self) -> str:
        """One mark per node (``o``, ``x`` or ``.``), in node order."""
        white, black = self._stones
        return "".join(
            "o" if (white >> i) & 1 else "x" if (black >> i) & 1 else "."
            for i in range(self._topo.size)
        )

    def position(self) -> str:
        cells = self.cells()
        grid = self._game.grid
        if grid is not None:
            c = grid.columns
            cells = "/".join(cells[r * c : (r + 1) * c] for r in range(grid.rows))
        return f"{cells} {SYMBOLS[self._to_move]}"

    @property
    def to_move(self) -> int:
        """The colour whose turn it is (0 White, 1 Black), also once the game has ended."""
        return self._to_move

    def stones(self, player: int) -> int:
        """The bitboard of ``player``'s stones."""
        return self._stones[player]

    # -- views: everything is public in Clobber -------------------------------------------
    def _view(self, player: int | None) -> View:
        view: dict[str, Any] = {
            "game": "clobber",
            "player": player,
            "position": self.position(),
            "to_move": SYMBOLS[self._to_move],
            "terminal": self.is_terminal(),
        }
        topo = self._topo
        if isinstance(topo, Graph):
            view["nodes"] = list(topo.names)
            view["edges"] = [[topo.names[a], topo.names[b]] for a, b in topo.edges]
        elif isinstance(topo, Grid):
            view["rows"], view["columns"] = topo.rows, topo.columns
        return view

    def _render_view(self, view: View) -> str:
        board, _side = view["position"].split()
        if "rows" not in view:
            marks = dict(zip(view["nodes"], board, strict=True))
            return " ".join(f"{n}:{marks[n]}" for n in view["nodes"]) + "\n"
        ranks = board.split("/")
        width = len(str(len(ranks)))
        lines = [f"{len(ranks) - r:>{width}}{rank}" for r, rank in enumerate(ranks)]
        lines.append(" " * width + "abcdefghijklmnopqrstuvwxyz"[: len(ranks[0])])
        return "\n".join(lines) + "\n"

    def _tensor_from_view(self, view: View) -> np.ndarray:
        """Planes: the viewer's stones, the other player's stones, empty squares (as OpenSpiel)."""
        board, _side = view["position"].split()
        cells = board.replace("/", "")
        player = view["player"]
        own = SYMBOLS[player if player is not None else self._to_move]
        other = SYMBOLS[1 - SYMBOLS.index(own)]
        tensor = np.zeros((3, len(cells)), dtype=np.float32)
        for i, ch in enumerate(cells):
            tensor[0 if ch == own else 1 if ch == other else 2, i] = 1.0
        return tensor.reshape(self._game.observation_tensor_shape())
