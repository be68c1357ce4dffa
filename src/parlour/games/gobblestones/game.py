"""GobbleStones: cover coloured stone squares with matching tiles, in straight gapless plays.

Rulings B1-B9 decide what the rulebook leaves open; ``docs/rules/gobblestones.md`` explains the
game, the action encoding, the notation, the board and position texts and the tensor planes.

**Actions.** A play of several tiles is several actions of the same player, so the action range
is small and fixed (RL masks, search trees):

* normal game: ``square`` (0-224, ``row * 15 + column``, row 0 = rank 15) places the rack tile
  matching that square's colour; ``225`` = ``pass`` (place no tile); ``226`` = ``end`` (finish
  the play);
* bluffing variant (B9): ``colour * 225 + square`` places a tile of that colour (R Y G B P =
  0-4) face down, whatever the square's colour; ``1125`` = ``pass``, ``1126`` = ``end``,
  ``1127`` = ``challenge``, ``1128`` = ``trust``.

A play's tiles are entered in board order (top to bottom, left to right), so each play is one
action sequence. At every step the legal actions are exactly those that can still complete a
legal play (B3, B4, B5); ``end`` is legal once the tiles placed form a legal play.

**Chance** (G-1). Chance actions are at most 120: while building the board, one action per stone
square picks its colour (probability by the colours left in that board square, five of each),
then one action per board square picks its value permutation (0-119, uniform over those no
earlier board square has); each tile drawn from the bag is one action picking its colour,
with probability proportional to the tiles of that colour left. The bag therefore has no
order at all, hidden or not.

**Modules.** This one holds the rules (turns, chance, legal actions and why an action is
refused, scores, world sampling). The board's geometry and texts are in ``board.py``, the legal
plays in ``plays.py``, the move notation in ``notation.py``; ``position.py`` (the position text)
and ``views.py`` (what a player sees) read a frozen :class:`Snapshot` of the state
(``snapshot.py``, with the :class:`Phase` enum) and never the state itself.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from parlour.core import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    ChanceMode,
    Game,
    GameInfo,
    GameType,
    IllegalActionError,
    Information,
    InvalidParameterError,
    NotationError,
    Param,
    State,
    Utility,
    View,
    parse_position_error,
    pick_chance_outcome,
    register_game,
)
from parlour.games.gobblestones.board import (
    BOARD_STEPS,
    COLOUR_NAMES,
    COLOURS,
    MAX_PLAY,
    NUM_COLOURS,
    PANEL,
    PANEL_CELLS,
    PANEL_STEPS,
    PERMUTATIONS,
    RACK_DRAW,
    SIZE,
    SQUARES,
    TILES_PER_COLOUR,
    colour_index,
    panel_permutation,
    parse_board_text,
    parse_square,
    square_name,
)
from parlour.games.gobblestones.notation import (
    WORDS,
    parse_permutation,
    parse_tile,
    parse_token,
    permutation_text,
)
from parlour.games.gobblestones.plays import (
    ColourLimits,
    TurnPlays,
    colour_limits,
    play_problem,
)
from parlour.games.gobblestones.position import format_position, parse_position
from parlour.games.gobblestones.snapshot import Phase, Snapshot
from parlour.games.gobblestones.views import NUM_PLANES, build_view, render_text, tensor

_ROW_BITS = tuple(tuple(i for i in range(8) if (v >> i) & 1) for v in range(256))


def squares_of(bits: int) -> list[int]:
    """The squares of a bitboard, ascending (eight squares per table look-up)."""
    out: list[int] = []
    base = 0
    while bits:
        chunk = bits & 255
        if chunk:
            out.extend([base + i for i in _ROW_BITS[chunk]])
        bits >>= 8
        base += 8
    return out


@functools.lru_cache(maxsize=1024)
def _first_squares(plays: TurnPlays) -> tuple[int, ...]:
    """Where a play's first tile may go (the squares of ``plays.starts``), remembered for the
    plays a search meets again."""
    return tuple(squares_of(plays.starts))


def select_square(bits: int, k: int) -> int:
    """The ``k``-th lowest square of a bitboard (``k`` from 0): ``squares_of(bits)[k]``."""
    base = 0
    chunk = bits & 0xFFFFFFFF
    count = chunk.bit_count()
    while k >= count:
        k -= count
        bits >>= 32
        base += 32
        chunk = bits & 0xFFFFFFFF
        count = chunk.bit_count()
    for _ in range(k):
        chunk &= chunk - 1
    return base + (chunk & -chunk).bit_length() - 1


try:
    from parlour.games.gobblestones import _cplayout  # type: ignore[attr-defined]
except ImportError:  # built by `pip install` when a C compiler is present; optional
    _cplayout = None

COMPILED_PLAYOUTS = [True]
"""``COMPILED_PLAYOUTS[0] = False`` makes ``random_playout`` run in Python even where the
compiled playouts were built (the tests compare the two)."""
COMPILED_SEARCH = [True]
"""``COMPILED_SEARCH[0] = False``: :meth:`GobbleStonesState.compiled_search` offers nothing, so
the information-set search runs in Python even where it was built (the tests compare the two)."""
_PHASE_CODE = {Phase.DEAL: 0, Phase.PLAY: 1, Phase.DRAW: 2, Phase.CHALLENGE: 4}
_CODE_PHASE = (Phase.DEAL, Phase.PLAY, Phase.DRAW, Phase.END)
_END_CODE = (None, "bag", "no-tiles", "passes", "max-turns")


def _players_check(value: int) -> str | None:
    return None if 2 <= value <= 4 else "GobbleStones is for 2 to 4 players (B2)"


def _board_check(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        parse_board_text(value)
    except NotationError as exc:
        return str(exc)
    return None


@register_game
class GobbleStonesGame(Game):
    """GobbleStones for 2-4 players (B1-B8), optionally with the bluffing variant (B9)."""

    game_type = GameType(
        short_name="gobblestones",
        long_name="GobbleStones",
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.IMPERFECT,
        utility=Utility.GENERAL_SUM,
        min_num_players=2,
        max_num_players=4,
    )
    parameters = {
        "players": Param(2, int, "number of players, 2-4; seat 0 starts (B2)",
                         check=_players_check),
        "bluff": Param(False, bool, "the bluffing variant: tiles face down, challenges (B9)"),
        "board": Param(None, str, "a board text (15 rows of colour+value cells) instead of a "
                       "board drawn by chance (B1)", check=_board_check),
        "max_turns": Param(500, int, "the game ends (scored as usual) after this many turns; a "
                           "project cap so every bluffing game ends; a normal game never "
                           "reaches 500", check=lambda v: None if v >= 1 else "at least 1"),
        "position": Param(None, str, "start from this position text (docs/rules/gobblestones.md)"),
    }

    def _check_parameters(self) -> None:
        p = self._params
        self.bluff: bool = p["bluff"]
        self.players: int = p["players"]
        self.max_turns: int = p["max_turns"]
        self.place_actions = SQUARES * (NUM_COLOURS if self.bluff else 1)
        self.PASS = self.place_actions
        self.END = self.place_actions + 1
        self.CHALLENGE = self.place_actions + 2
        self.TRUST = self.place_actions + 3
        self.typed_board = parse_board_text(p["board"]) if p["board"] is not None else None
        if p["board"] is not None and p["position"] is not None:
            raise InvalidParameterError(
                self.name, "a position text already holds its board: give 'board' or 'position'"
            )
        self._start: GobbleStonesState | None = None
        if p["position"] is not None:
            try:
                self._start = self.state_from_position(p["position"])
            except NotationError as exc:
                raise InvalidParameterError(self.name, f"parameter 'position': {exc}") from None

    def _info(self) -> GameInfo:
        n = self.players
        per_turn = MAX_PLAY + 1 + ((n - 1) if self.bluff else 0)
        return GameInfo(
            num_distinct_actions=self.place_actions + (4 if self.bluff else 2),
            max_chance_outcomes=len(PERMUTATIONS),
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.max_turns * per_turn,
            observation_tensor_shape=(NUM_PLANES, SIZE, SIZE),
        )

    def new_initial_state(self) -> GobbleStonesState:
        if self._start is not None:
            return self._start.clone()
        return GobbleStonesState(self, board=self.typed_board)

    def state_from_position(self, text: str) -> GobbleStonesState:
        snap = parse_position(text, self.players, self.bluff)
        state = GobbleStonesState.from_snapshot(self, snap)
        if snap.phase == Phase.PLAY and snap.pending and not state._legal_actions():
            raise parse_position_error(self.name, None, "the pending play cannot be finished")
        state._info_root = state.clone()  # where its history (and information states) start
        return state

    def max_history_length(self) -> int:
        """Player actions, plus the board's chance events and one draw per tile (G-1)."""
        return self._game_info.max_game_length + BOARD_STEPS + NUM_COLOURS * TILES_PER_COLOUR

    def information_step_width(self) -> int:
        from parlour.games.gobblestones.infostate import STEP_WIDTH

        return STEP_WIDTH


class GobbleStonesState(State[GobbleStonesGame]):
    """The board, the tiles on it, racks, bag counts, points and where the turn stands.

    The legal plays of a turn are computed once, when first needed, from the board and the
    mover's rack at the start of the turn (``_plays``, bitboards: ``plays.turn_plays``); each
    step of the play is then a bit test. What the board's colouring says about segments is
    computed once per board (``_limits``) and shared by every copy of the state. While chance
    draws the board, its colours and values are lists (written in place); they become tuples,
    shared by copies, once it is drawn.
    """

    def __init__(
        self, game: GobbleStonesGame, board: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    ) -> None:
        """A new game: the board drawn by chance, or ``board`` (colours, values) as given."""
        super().__init__(game)
        n = game.players
        self._n = n
        self._bluff = game.bluff
        self._colour: Sequence[int] = [-1] * SQUARES
        self._value: Sequence[int] = [0] * SQUARES
        self._gen = 0
        self._drawn = [0] * NUM_COLOURS  # colours drawn so far in the board square being built
        self._used: list[int] | None = []  # permutations of the board squares built (B1)
        self._limits: ColourLimits | None = None
        self._cboard: bytes | None = None  # colours and values for _cplayout, once drawn
        self._tile: list[int] = [-1] * SQUARES
        self._owner: dict[int, int] = {}
        self._occ = 0
        self._racks: list[list[int]] = [[0] * NUM_COLOURS for _ in range(n)]
        self._bag: list[int] = [TILES_PER_COLOUR] * NUM_COLOURS
        self._points: list[int] = [0] * n
        self._phase = Phase.BOARD
        self._turn = 0
        self._pending: list[tuple[int, int]] = []
        self._decider = -1
        self._drawer = -1
        self._to_draw = 0
        self._passes = 0
        self._turns = 0
        self._last: tuple[int, int, bool, tuple[tuple[int, int], ...]] | None = None
        self._end: str | None = None
        self._plays: TurnPlays | None = None
        self._legal: list[int] | None = None
        self._legal_set: frozenset[int] | None = None
        if board is not None:
            self._colour, self._value = board
            self._gen = BOARD_STEPS
            self._used = None
            self._start_deal()

    @classmethod
    def from_snapshot(cls, game: GobbleStonesGame, snap: Snapshot) -> GobbleStonesState:
        """The state ``snap`` describes (the inverse of :meth:`snapshot`)."""
        state = cls(game)
        state._colour, state._value, state._gen = snap.colour, snap.value, snap.board_steps
        if state._gen < BOARD_STEPS:
            state._colour, state._value = list(snap.colour), list(snap.value)
            panel, step = divmod(state._gen, PANEL_STEPS)
            for square in PANEL_CELLS[panel][:step]:
                state._drawn[snap.colour[square]] += 1
        state._used = None  # worked out from the board when needed
        state._tile = list(snap.tile)
        state._occ = sum(1 << s for s, colour in enumerate(snap.tile) if colour >= 0)
        state._owner = dict(snap.owner)
        state._racks = [list(r) for r in snap.racks]
        state._bag = list(snap.bag)
        state._points = list(snap.points)
        state._phase = snap.phase
        state._turn = snap.turn
        state._pending = list(snap.pending)
        state._decider, state._drawer, state._to_draw = snap.decider, snap.drawer, snap.to_draw
        state._passes, state._turns = snap.passes, snap.turns
        state._last, state._end = snap.last, snap.end
        return state

    def snapshot(self) -> Snapshot:
        """Everything in this state, hidden parts included, as frozen data."""
        return Snapshot(
            players=self._n,
            bluff=self._bluff,
            colour=tuple(self._colour),
            value=tuple(self._value),
            board_steps=self._gen,
            tile=tuple(self._tile),
            owner=dict(self._owner),
            racks=tuple(tuple(r) for r in self._racks),
            bag=tuple(self._bag),
            points=tuple(self._points),
            phase=self._phase,
            turn=self._turn,
            pending=tuple(self._pending),
            decider=self._decider,
            drawer=self._drawer,
            to_draw=self._to_draw,
            passes=self._passes,
            turns=self._turns,
            last=self._last,
            end=self._end,
        )

    # -- turn structure -------------------------------------------------------------------
    def current_player(self) -> int:
        phase = self._phase
        if phase == Phase.PLAY:
            return self._turn
        if phase == Phase.CHALLENGE:
            return self._decider
        if phase == Phase.END:
            return TERMINAL_PLAYER
        return CHANCE_PLAYER

    def is_terminal(self) -> bool:
        return self._phase == Phase.END

    def turn_in_progress(self) -> bool:
        """A play is being laid: tiles placed, the play not yet ended (B4)."""
        return self._phase == Phase.PLAY and bool(self._pending)

    def _start_deal(self) -> None:
        self._colour, self._value = tuple(self._colour), tuple(self._value)
        self._phase = Phase.DEAL
        self._drawer = 0
        self._to_draw = min(RACK_DRAW, sum(self._bag))
        if not self._to_draw:
            self._next_drawer()

    def _next_drawer(self) -> None:
        """The deal goes round the seats in order, five tiles each (B2); then seat 0 starts."""
        while True:
            if self._drawer >= self._n - 1:
                self._drawer, self._to_draw = -1, 0
                self._begin_turn(0)
                return
            self._drawer += 1
            self._to_draw = min(RACK_DRAW, sum(self._bag))
            if self._to_draw:
                return

    def _begin_turn(self, player: int) -> None:
        self._turn = player
        self._plays = None
        if self._turns >= self._game.max_turns:
            self._finish("max-turns")
        elif not any(self._racks[player]):
            self._finish("no-tiles")  # B7: the turn of a player with no tiles
        else:
            self._phase = Phase.PLAY

    def _finish(self, reason: str) -> None:
        self._phase = Phase.END
        self._end = reason
        self._decider = -1
        self._drawer, self._to_draw = -1, 0

    def _after_play(self, placed: int, draw: bool = True) -> None:
        """Close a turn that left ``placed`` new tiles on the board (B6, B7)."""
        bag = sum(self._bag)
        self._passes = self._passes + 1 if placed == 0 and bag == 0 else 0
        self._turns += 1
        self._pending = []
        self._decider = -1
        self._plays = None
        player = self._turn
        need = RACK_DRAW - placed if draw else 0
        if bag < need and not any(self._racks[player]):
            self._finish("bag")  # B7: must draw, cannot, and has no tile: the game ends at once
        elif self._passes >= self._n:
            self._finish("passes")  # B7: every player in turn placed no tile, bag empty
        elif (count := min(need, bag)) > 0:
            self._phase, self._drawer, self._to_draw = Phase.DRAW, player, count
        else:
            self._begin_turn((player + 1) % self._n)

    def _commit(self, face_down: bool, challenger: int | None = None) -> None:
        """The pending tiles stay on the board; the mover scores them (B6, B9)."""
        earned = 0
        for square, colour in self._pending:
            self._tile[square] = colour
            self._occ |= 1 << square
            earned += self._value[square]
            if face_down:
                self._owner[square] = self._turn
        self._points[self._turn] += earned
        if challenger is not None:
            self._points[challenger] -= earned  # B9: a wrong challenge costs what the play earned
        self._after_play(len(self._pending))

    # -- chance -----------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self._phase
        if phase in (Phase.DEAL, Phase.DRAW):
            total = sum(self._bag)
            return [(c, k / total) for c, k in enumerate(self._bag) if k]
        if phase != Phase.BOARD:
            return []
        panel, step = divmod(self._gen, PANEL_STEPS)
        cells = PANEL_CELLS[panel]
        if step < len(cells):
            per = len(cells) // NUM_COLOURS
            left = len(cells) - step
            return [(c, (per - k) / left) for c, k in enumerate(self._drawn) if k < per]
        used = self._used_permutations(panel)
        p = 1.0 / (len(PERMUTATIONS) - len(used))
        return [(i, p) for i in range(len(PERMUTATIONS)) if i not in used]

    def _used_permutations(self, panel: int) -> list[int]:
        """B1: board squares differ, so a board square's values avoid earlier ones' permutations."""
        if self._used is None:
            used = []
            for k in range(panel):
                index = panel_permutation(self._colour, self._value, k)
                if index is not None:
                    used.append(index)
            self._used = used
        return self._used

    def _apply_chance(self, action: int) -> None:
        if self._phase == Phase.BOARD:
            panel, step = divmod(self._gen, PANEL_STEPS)
            cells = PANEL_CELLS[panel]
            if step < len(cells):
                self._colour[cells[step]] = action  # type: ignore[index]  # a list while drawn
                self._drawn[action] += 1
            else:
                values, colours, permutation = self._value, self._colour, PERMUTATIONS[action]
                for s in cells:
                    values[s] = permutation[colours[s]]  # type: ignore[index]
                self._used = [*self._used_permutations(panel), action]
                self._drawn = [0] * NUM_COLOURS
            self._gen += 1
            if self._gen == BOARD_STEPS:
                self._start_deal()
            return
        self._bag[action] -= 1
        self._racks[self._drawer][action] += 1
        self._to_draw -= 1
        if self._to_draw:
            return
        if self._phase == Phase.DEAL:
            self._next_drawer()
        else:
            self._drawer = -1
            self._begin_turn((self._turn + 1) % self._n)

    # -- legal actions -----------------------------------------------------------------------
    def _rack_at_turn_start(self) -> list[int]:
        rack = list(self._racks[self._turn])
        for _square, colour in self._pending:
            rack[colour] += 1
        return rack

    def plays(self) -> TurnPlays:
        """The legal plays of this turn, as bitboards (see ``plays.TurnPlays``)."""
        if self._plays is None:
            rack = self._rack_at_turn_start()
            limits = self._limits
            if limits is None:
                limits = self._limits = colour_limits(tuple(self._colour))
            self._plays = limits.plays(self._occ, None if self._bluff else rack, sum(rack))
        return self._plays

    def _next_bits(self) -> tuple[int, bool]:
        """Squares (a bitboard) that may take the next tile of the play, and whether ``end``
        is legal."""
        plays = self.plays()
        pending = self._pending
        if not pending:
            return plays.starts, False
        p0 = pending[0][0]
        if len(pending) == 1:
            bits = 0
            if (plays.right_any >> p0) & 1:
                bits = 1 << (p0 + 1)
            if (plays.down_any >> p0) & 1:
                bits |= 1 << (p0 + SIZE)
            return bits, bool((plays.single >> p0) & 1)
        step = pending[1][0] - p0
        table = plays.right if step == 1 else plays.down
        k = len(pending)
        more = False
        for length in range(k + 1, MAX_PLAY + 1):
            if (table[length] >> p0) & 1:
                more = True
                break
        return (1 << (pending[-1][0] + step)) if more else 0, bool((table[k] >> p0) & 1)

    def _next_squares(self) -> tuple[list[int], bool]:
        """Squares that may take the next tile of the play, and whether ``end`` is legal."""
        if not self._pending:
            return list(_first_squares(self.plays())), False
        bits, can_end = self._next_bits()
        return squares_of(bits), can_end

    def _legal_actions(self) -> list[int]:
        if self._legal is None:
            game = self._game
            if self._phase == Phase.CHALLENGE:
                legal = [game.CHALLENGE, game.TRUST]
            else:
                squares, can_end = self._next_squares()
                if self._bluff:
                    rack = self._racks[self._turn]
                    legal = [
                        c * SQUARES + s for c in range(NUM_COLOURS) if rack[c] for s in squares
                    ]
                else:
                    legal = squares
                if not self._pending:
                    legal.append(game.PASS)
                elif can_end:
                    legal.append(game.END)
            self._legal = legal
            self._legal_set = frozenset(legal)
        return self._legal

    def random_playout(self, random: Callable[[], float], limit: int | None = None) -> int:
        """``State.random_playout`` (the same actions for the same numbers), fast.

        The deal, the plays and the draws run in the compiled ``_cplayout`` when it was built
        (``compiled_playouts``); otherwise, and for the board's chance steps, in Python without
        building a list of legal actions or of chance outcomes at each step (the next tile's
        square is picked straight from the turn's bitboards). The bluffing variant takes the
        general loop.
        """
        if self._bluff:
            return super().random_playout(random, limit)
        if _cplayout is None or not COMPILED_PLAYOUTS[0]:
            return self._python_playout(random, limit)
        done = 0
        if self._phase == Phase.BOARD:
            actions, self._colour, self._value, self._gen, self._used = _cplayout.board(
                list(self._colour), list(self._value), self._gen,
                self._used_permutations(self._gen // PANEL_STEPS), random,
                -1 if limit is None else limit,
            )
            self._history.extend(actions)
            done = len(actions)
            panel, step = divmod(self._gen, PANEL_STEPS)
            self._drawn = [0] * NUM_COLOURS
            for square in PANEL_CELLS[panel][:step] if panel < len(PANEL_CELLS) else ():
                self._drawn[self._colour[square]] += 1
            if self._gen == BOARD_STEPS:
                self._start_deal()
        if self._phase == Phase.END or done == limit:
            return done
        return done + self._compiled_playout(random, -1 if limit is None else limit - done)

    def _board_bytes(self) -> bytes:
        """The drawn board for ``_cplayout``: 225 colours, then 225 values."""
        board = self._cboard
        if board is None:
            board = self._cboard = bytes(self._colour) + bytes(self._value)
        return board

    def _compiled_playout(self, random: Callable[[], float], budget: int) -> int:
        board = self._board_bytes()
        (actions, self._tile, occupied, self._racks, self._bag, self._points, phase, self._turn,
         self._drawer, self._to_draw, self._passes, self._turns, end, pending) = (
            _cplayout.playout(
                board, self._tile, self._racks, self._bag, self._points,
                _PHASE_CODE[self._phase], self._turn, self._drawer, self._to_draw,
                self._passes, self._turns, self._game.max_turns,
                [square for square, _c in self._pending], random, budget,
            )
        )
        self._occ = int.from_bytes(occupied, "little")
        self._phase = _CODE_PHASE[phase]
        colours = self._colour
        self._pending = [(square, colours[square]) for square in pending]
        self._plays = None
        self._legal = self._legal_set = None
        if end:
            self._end = _END_CODE[end]
            self._decider = -1
        self._history.extend(actions)
        return len(actions)

    def compiled_search(
        self, observer: int, *, c: float, rollout_depth: int, scale: float
    ) -> CompiledSearch | None:
        """The compiled information-set search from this decision (``_cplayout``), or None
        where there is none: no C compiler at install, not ``observer``'s decision, playouts
        in the bluffing variant (the compiled playouts are the normal game's),
        ``COMPILED_SEARCH[0]`` false.

        It runs ``MCTSAgent``'s information-set iterations on worlds handed to it, judging a
        leaf after ``rollout_depth`` random actions by the returns or, before the end, by the
        lead evaluation of ``agents/knowledge/gobblestones.py`` with that ``scale`` (a play
        being laid counted for its mover, except in the bluffing variant). Only the rules'
        mechanics are compiled; which world to search stays the caller's. See
        :class:`CompiledSearch`.
        """
        if (
            _cplayout is None or not COMPILED_SEARCH[0]
            or (self._bluff and rollout_depth != 0)
            or self._phase not in (Phase.PLAY, Phase.CHALLENGE)
            or observer != self.current_player()
        ):
            return None
        return CompiledSearch(_cplayout.search_new(
            observer, c, rollout_depth, scale, not self._bluff, self._bluff
        ))

    def _search_fields(self) -> tuple[Any, ...]:
        """This state for ``_cplayout.search_add_world`` (the arguments ``playout`` reads, then
        the colours of the play being laid and who decides on it, B9)."""
        return (
            self._board_bytes(), self._tile, self._racks, self._bag, self._points,
            _PHASE_CODE[self._phase], self._turn, self._drawer, self._to_draw, self._passes,
            self._turns, self._game.max_turns, [square for square, _c in self._pending],
            [colour for _s, colour in self._pending], self._decider,
        )

    def _python_playout(self, random: Callable[[], float], limit: int | None) -> int:
        self._legal = self._legal_set = None
        history = self._history
        pass_action, end_action = self._game.PASS, self._game.END
        PLAY, DEAL, DRAW, BOARD = Phase.PLAY, Phase.DEAL, Phase.DRAW, Phase.BOARD
        done = 0
        budget = -1 if limit is None else limit
        while done != budget:
            phase = self._phase
            if phase is PLAY:  # the whole play, tile by tile, as far as the budget goes
                pending = self._pending
                rack = self._racks[self._turn]
                colours = self._colour
                while done != budget:
                    bits, can_end = self._next_bits()
                    count = bits.bit_count()
                    k = int(random() * (count + (can_end if pending else 1)))
                    done += 1
                    if k < count:
                        square = select_square(bits, k) if count > 1 else bits.bit_length() - 1
                        colour = colours[square]
                        rack[colour] -= 1
                        pending.append((square, colour))
                        history.append(square)
                        continue
                    if pending:
                        self._commit(face_down=False)
                        history.append(end_action)
                    else:
                        self._after_play(0)
                        history.append(pass_action)
                    break
                continue
            elif phase is DRAW or phase is DEAL:
                bag = self._bag
                total = sum(bag)
                r = random()
                colour = -1
                for c in range(NUM_COLOURS):
                    k = bag[c]
                    if k:
                        colour = c
                        r -= k / total
                        if r < 0:
                            break
                bag[colour] -= 1
                self._racks[self._drawer][colour] += 1
                history.append(colour)
                self._to_draw -= 1
                if not self._to_draw:
                    if phase is DEAL:
                        self._next_drawer()
                    else:
                        self._drawer = -1
                        self._begin_turn((self._turn + 1) % self._n)
            elif phase is BOARD:
                panel, step = divmod(self._gen, PANEL_STEPS)
                if step < PANEL * PANEL:  # a colour, by the colours left (B1)
                    drawn = self._drawn
                    left = PANEL * PANEL - step
                    r = random()
                    colour = -1
                    for c in range(NUM_COLOURS):
                        k = drawn[c]
                        if k < PANEL:
                            colour = c
                            r -= (PANEL - k) / left
                            if r < 0:
                                break
                    self._colour[PANEL_CELLS[panel][step]] = colour  # type: ignore[index]
                    drawn[colour] += 1
                    self._gen += 1
                    history.append(colour)
                else:
                    action = pick_chance_outcome(self.chance_outcomes(), random())
                    self._apply_chance(action)
                    history.append(action)
            else:
                break
            done += 1
        return done

    def _is_legal(self, action: int) -> bool:
        if self._legal_set is None:
            self._legal_actions()
        assert self._legal_set is not None
        return action in self._legal_set

    def _apply_action(self, action: int) -> None:
        self._legal = self._legal_set = None
        if self._phase in (Phase.BOARD, Phase.DEAL, Phase.DRAW):
            self._apply_chance(action)
            return
        game = self._game
        if self._phase == Phase.CHALLENGE:
            self._apply_decision(action == game.CHALLENGE)
        elif action == game.PASS:
            self._after_play(0)
        elif action == game.END:
            if self._bluff:
                self._phase = Phase.CHALLENGE
                self._decider = (self._turn + 1) % self._n
            else:
                self._commit(face_down=False)
        else:
            colour, square = divmod(action, SQUARES)
            if not self._bluff:
                colour = self._colour[square]
            self._racks[self._turn][colour] -= 1
            self._pending.append((square, colour))

    def _apply_decision(self, challenge: bool) -> None:
        """B9: the others decide in turn from the mover's left; the first to challenge does."""
        if not challenge:
            self._decider = (self._decider + 1) % self._n
            if self._decider == self._turn:
                self._commit(face_down=True)
            return
        challenger = self._decider
        correct = all(self._colour[s] == c for s, c in self._pending)
        self._last = (self._turn, challenger, correct, tuple(self._pending))
        if correct:
            self._commit(face_down=False, challenger=challenger)
            return
        rack = self._racks[self._turn]
        for _square, colour in self._pending:
            rack[colour] += 1  # B9: a wrong play goes back to the rack, unscored, with no draw
        self._after_play(0, draw=False)

    # -- why an action is refused (G-2) ----------------------------------------------------------
    def _illegal_reason(self, action: int) -> tuple[str, str]:
        game = self._game
        if self._phase == Phase.CHALLENGE:
            return "B9", (
                f"player {self._decider} must first decide to challenge or trust "
                f"player {self._turn}'s play"
            )
        if action in (game.CHALLENGE, game.TRUST):
            return "B9", "there is no play to challenge now"
        pending = self._pending
        squares = [s for s, _c in pending]
        rack = self._rack_at_turn_start()
        if action == game.PASS:
            return "B4", "you have placed tiles this turn: finish the play with 'end'"
        if action == game.END:
            if not pending:
                return "B4", "no tile is placed yet: to place none, 'pass'"
            problem = play_problem(squares, self._occ, self._colour, self._tiles_of(squares),
                                   rack)
            return problem or ("B4", "these tiles do not form a legal play")
        colour, square = divmod(action, SQUARES)
        if len(pending) >= MAX_PLAY:
            return "B4", f"a play places at most {MAX_PLAY} tiles: finish it with 'end'"
        if self._bluff and not self._racks[self._turn][colour]:
            return "B4", f"your rack has no {COLOUR_NAMES[colour]} tile left to place"
        squares.append(square)
        problem = play_problem(squares, self._occ, self._colour, self._tiles_of(squares), rack,
                               complete=False)
        if problem:
            return problem
        if pending and square < max(squares[:-1]):
            return "B4", (
                "enter a play's tiles in board order (top to bottom, left to right); "
                "type the whole play, e.g. 'h8-h11', to have it ordered for you"
            )
        if self._occ == 0:
            return "B3", (
                "no legal play through these squares covers the centre of a board square, "
                "as the game's first play must"
            )
        return "B4", (
            "no legal play through these squares can touch a tile already on the board with "
            "the tiles in your rack"
        )

    def _tiles_of(self, squares: list[int]) -> list[int] | None:
        """The colours of tiles on ``squares`` for matching (B4); none in the bluffing variant."""
        return None if self._bluff else [self._colour[s] for s in squares]

    # -- results -----------------------------------------------------------------------------
    def scores(self) -> list[float]:
        """Points; at the end each player also has 1 per tile left in their rack (B8)."""
        if self._phase != Phase.END:
            return [float(p) for p in self._points]
        return [float(p + sum(r)) for p, r in zip(self._points, self._racks, strict=True)]

    def returns(self) -> list[float]:
        """G-4: +1 for every player with the most points (ties share the win), -1 for the rest."""
        if self._phase != Phase.END:
            return [0.0] * self._n
        scores = self.scores()
        best = max(scores)
        return [1.0 if s == best else -1.0 for s in scores]

    def winners(self) -> list[int]:
        return [p for p, r in enumerate(self.returns()) if r > 0]

    # -- notation ------------------------------------------------------------------------------
    def action_to_string(self, action: int, player: int | None = None) -> str:
        game = self._game
        phase = self._phase
        if phase == Phase.BOARD:
            panel, step = divmod(self._gen, PANEL_STEPS)
            if step < len(PANEL_CELLS[panel]):
                return f"{square_name(PANEL_CELLS[panel][step])}={COLOURS[action]}"
            return permutation_text(action)
        if phase in (Phase.DEAL, Phase.DRAW):
            return f"draw {COLOURS[action]}"
        if action == game.PASS:
            return "pass"
        if action == game.END:
            return "end"
        if self._bluff and action == game.CHALLENGE:
            return "challenge"
        if self._bluff and action == game.TRUST:
            return "trust"
        if not 0 <= action < game.place_actions:
            raise ValueError(f"no GobbleStones action {action}")
        colour, square = divmod(action, SQUARES)
        if self._bluff:
            return f"{square_name(square)}:{COLOURS[colour].lower()}"
        return square_name(square)

    def public_action_string(self, action: int) -> str:
        """The action as every player may see it: a face-down tile's colour (B9) and a drawn
        tile's colour (B2) are hidden. Use this, not :meth:`action_to_string`, to announce
        another player's move."""
        phase = self._phase
        if phase in (Phase.DEAL, Phase.DRAW):
            return "draw"
        if phase in (Phase.PLAY,) and self._bluff and 0 <= action < self._game.place_actions:
            return f"{square_name(action % SQUARES)}:?"
        return self.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        game = self._game
        word = text.strip().lower()
        phase = self._phase
        if phase == Phase.BOARD:
            panel, step = divmod(self._gen, PANEL_STEPS)
            if step < len(PANEL_CELLS[panel]):
                return colour_index(word.split("=")[-1])
            return parse_permutation(word)
        if phase in (Phase.DEAL, Phase.DRAW):
            return colour_index(word.removeprefix("draw").strip())
        if word == "pass":
            return game.PASS
        if word in ("end", "done"):
            return game.END
        if self._bluff and word == "challenge":
            return game.CHALLENGE
        if self._bluff and word == "trust":
            return game.TRUST
        square, colour = parse_tile(word)
        return self._place_action(square, colour, text)

    def _place_action(self, square: int, colour: int | None, text: str) -> int:
        if self._bluff:
            return (self._colour[square] if colour is None else colour) * SQUARES + square
        if colour is not None and colour != self._colour[square]:
            raise IllegalActionError(text, "B4", (
                f"{square_name(square)} is {COLOUR_NAMES[self._colour[square]]}: a tile must "
                f"match the colour of its square, and this one is {COLOUR_NAMES[colour]}"
            ))
        return square

    def string_to_actions(self, text: str) -> list[int]:
        """A whole play: ``h8-h11``, ``h8 h9 h10``, ``pass``; bluffing: ``h8:r h9:g`` or
        ``h8-h9:rg`` (a square without a colour gets a tile of its own colour).

        The squares may be written in any order; they are entered in board order and followed
        by ``end``. The play is checked as a whole first, so an error names the rule it breaks.
        """
        word = text.strip().lower()
        if self._phase != Phase.PLAY or word in WORDS:
            return [self.string_to_action(text)]
        tiles: list[tuple[int, int | None]] = []
        for token in re.split(r"[\s,;]+", word):
            if token:
                tiles.extend(parse_token(token))
        if not tiles:
            raise NotationError("write a play like h8-h11 or h8 h9 h10, or 'pass'")
        if len({s for s, _c in tiles}) != len(tiles):
            raise IllegalActionError(text, "B4", "a play covers each square once")
        placed = {s for s, _c in self._pending}
        new = sorted(((s, c) for s, c in tiles if s not in placed), key=lambda tile: tile[0])
        actions = [self._place_action(s, c, text) for s, c in new]
        squares = sorted(placed | {s for s, _c in new})
        if self._bluff:
            colours = [a // SQUARES for a in actions]
            rack = self._racks[self._turn]
            for c in range(NUM_COLOURS):
                if colours.count(c) > rack[c]:
                    raise IllegalActionError(text, "B4", (
                        f"your rack holds {rack[c]} {COLOUR_NAMES[c]} tiles, not {colours.count(c)}"
                    ))
        problem = play_problem(squares, self._occ, self._colour, self._tiles_of(squares),
                               self._rack_at_turn_start())
        if problem:
            raise IllegalActionError(text, *problem)
        trial = self.clone()
        for action in actions:
            trial.apply_action(action)
        return [*actions, self._game.END]

    # -- position and views ----------------------------------------------------------------------
    def position(self) -> str:
        return format_position(self.snapshot())

    def _view(self, player: int | None) -> View:
        return build_view(
            self.snapshot(),
            player,
            scores=self.scores(),
            returns=self.returns(),
            to_act=self.current_player(),
            max_turns=self._game.max_turns,
        )

    def _render_view(self, view: View) -> str:
        return render_text(view)

    def _tensor_from_view(self, view: View) -> np.ndarray:
        return tensor(view)

    # -- hidden information (G-3) -------------------------------------------------------------
    def chance_seen_by(self, player: int) -> bool:
        """The board is drawn face up (B1); a tile drawn from the bag is seen by its drawer
        only (G-3), unless the bag holds a single colour (one outcome: nothing to tell)."""
        if self._phase in (Phase.DEAL, Phase.DRAW):
            return self._drawer == player or sum(1 for k in self._bag if k) < 2
        return True

    def sample_world(self, player: int, rng: random.Random) -> GobbleStonesState:
        """A whole game ``player`` cannot tell from this one: the other racks, the bag and
        the face-down colours that are not theirs redrawn, with the history to match (see
        :mod:`parlour.games.gobblestones.worlds`). Raises ``WorldSamplingError`` rather than
        ever returning the true state; once the game is over nothing is hidden (G-5) and the
        world is a copy."""
        from parlour.games.gobblestones.worlds import sample_world

        return sample_world(self, player, rng)

    def _information_step_row(
        self, player: int, actor: int, seen: str, before: View, after: View
    ) -> np.ndarray:
        from parlour.games.gobblestones.infostate import step_row

        return step_row(player, actor, seen, before, after)

    # -- copies and accessors ----------------------------------------------------------------------
    def _take_world(
        self,
        racks: list[list[int]],
        bag: list[int],
        tiles: dict[int, int],
        pending: list[tuple[int, int]] | None,
        info_root: State[Any] | None,
    ) -> None:
        """Give this copy another world's hidden content: racks, bag, the colours of face-down
        tiles, the tiles of a play being laid. ``worlds.py`` decides the content; the fields
        are written here, by the state that owns them, and the caches they feed are cleared."""
        self._racks = [list(r) for r in racks]
        self._bag = list(bag)
        for square, colour in tiles.items():
            self._tile[square] = colour
        if pending is not None:
            self._pending = pending
        self._plays = None
        self._legal = self._legal_set = None
        self._info_records = None
        self._info_root = info_root

    def clone(self) -> GobbleStonesState:
        twin = GobbleStonesState.__new__(GobbleStonesState)
        twin.__dict__.update(self.__dict__)
        twin._history = self._history.copy()
        twin._tile = self._tile.copy()
        twin._owner = self._owner.copy()
        twin._racks = [r.copy() for r in self._racks]
        twin._bag = self._bag.copy()
        twin._points = self._points.copy()
        twin._pending = self._pending.copy()
        if self._phase == Phase.BOARD:  # the board being drawn is written in place
            twin._colour, twin._value = list(self._colour), list(self._value)
            twin._drawn = self._drawn.copy()
        return twin

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def end_reason(self) -> str | None:
        return self._end

    def play_points(self) -> int:
        """What the play being laid would score if it ended now (B6): the values of its squares
        (the full state: in the bluffing variant others cannot see these tiles)."""
        return sum(self._value[square] for square, _c in self._pending)

    def rack(self, player: int) -> dict[str, int]:
        """``player``'s tiles by colour letter (the full state: not a view)."""
        return dict(zip(COLOURS, self._racks[player], strict=True))

    def bag(self) -> dict[str, int]:
        return dict(zip(COLOURS, self._bag, strict=True))

    def square(self, name: str) -> tuple[str, int]:
        """The colour letter and value of a stone square, e.g. ``('R', 4)``."""
        s = parse_square(name)
        return (COLOURS[self._colour[s]] if self._colour[s] >= 0 else "?", self._value[s])


class CompiledSearch:
    """A compiled information-set search (``_cplayout``'s ``search_*``), for ``MCTSAgent``.

    The tree lives in C; so do the worlds it is given (:meth:`add_world`, each copied once),
    and each iteration (:attr:`iterate`) searches a fresh copy of one of them. Iterations are
    ``MCTSAgent._iterate_information_set`` step for step: the same ``random()`` calls in the
    same order and the same arithmetic, so a seeded search chooses what the Python loop
    chooses (the tests compare them action for action).
    """

    __slots__ = ("_handle", "iterate")

    def __init__(self, handle: Any) -> None:
        self._handle = handle
        self.iterate: Callable[[int, Callable[[], float]], None] = functools.partial(
            _cplayout.search_iterate, handle
        )
        """``iterate(world, random)``: one iteration on a copy of world number ``world``."""

    def add_world(self, world: GobbleStonesState) -> int:
        """Keep a copy of ``world`` (a state at the search's decision); its number."""
        number: int = _cplayout.search_add_world(self._handle, *world._search_fields())
        return number

    def root(self) -> tuple[list[int], list[int], list[float], int]:
        """The root's children: actions, visits, summed returns of the mover; the root's
        visits."""
        actions, visits, wins, total = _cplayout.search_root(self._handle)
        return actions, visits, wins, total
