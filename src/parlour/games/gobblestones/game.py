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
refused, scores). The state's contents are declared once, in ``fields.py`` (:class:`Fields`:
copies, snapshots, worlds and the compiled engine's arguments are derived from it). The board's
geometry and texts are in ``board.py``, the legal plays in ``plays.py``, the move notation in
``notation.py``; ``position.py`` (the position text) and ``views.py`` (what a player sees) read
a frozen :class:`Snapshot` of the state (``snapshot.py``, with the :class:`Phase` enum) and
never the state itself; ``worlds.py`` samples worlds through the state's public API; the
compiled twin of these rules (``_cplayout.c``) is reached through ``compiled.py`` alone.
"""

from __future__ import annotations

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
    SeatMemory,
    State,
    Utility,
    View,
    parse_position_error,
    pick_chance_outcome,
    register_game,
)
from parlour.games.gobblestones import compiled, rebuild, worlds
from parlour.games.gobblestones.board import (
    BOARD_STEPS,
    COLOURS,
    MAX_PLAY,
    NUM_COLOURS,
    PANEL,
    PANEL_CELLS,
    PANEL_STEPS,
    PERMUTATIONS,
    RACK_DRAW,
    SIZE,
    SQUARE_COLOURS,
    SQUARES,
    TILE_COLOURS,
    TILES_PER_COLOUR,
    colour_index,
    panel_permutation,
    parse_board_text,
    parse_square,
    square_name,
)
from parlour.games.gobblestones.compiled import CompiledSearch
from parlour.games.gobblestones.fields import Fields
from parlour.games.gobblestones.infostate import STEP_WIDTH, step_row
from parlour.games.gobblestones.notation import (
    WORDS,
    parse_permutation,
    parse_tile,
    parse_token,
    permutation_text,
)
from parlour.games.gobblestones.plays import (
    TurnPlays,
    colour_limits,
    first_squares,
    play_problem,
    select_square,
    squares_of,
)
from parlour.games.gobblestones.position import format_position, parse_position
from parlour.games.gobblestones.snapshot import Phase, Snapshot, Tiles
from parlour.games.gobblestones.views import NUM_PLANES, build_view, render_text, tensor
from parlour.i18n import Message, Seat, text_of

_COLOURED = tuple(
    cells[step] if step < len(cells) else -1 for cells in PANEL_CELLS for step in range(PANEL_STEPS)
)
"""The stone square each chance step of the board colours (-1: a step that gives a board
square its values), by the step's number (B1)."""


def _players_check(value: int) -> str | None:
    return None if 2 <= value <= 4 else Message("GobbleStones is for 2 to 4 players (B2)")


def _board_check(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        parse_board_text(value)
    except NotationError as exc:
        return text_of(exc)
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
                           "reaches 500",
                           check=lambda v: None if v >= 1 else Message("at least 1")),
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
                self.name,
                Message("a position text already holds its board: give 'board' or 'position'"),
                parameter="board",
            )
        self._start: GobbleStonesState | None = None
        if p["position"] is not None:
            try:
                self._start = self.state_from_position(p["position"])
            except NotationError as exc:
                raise InvalidParameterError.about(self.name, "position", text_of(exc)) from None

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
        if snap.phase == Phase.PLAY and snap.pending and not state.legal_actions():
            raise parse_position_error(self.name, None, "the pending play cannot be finished")
        state._begin_history(state.clone())
        return state

    def rebuilds_from_view(self) -> bool:
        return True

    def seat_memory(self, player: int) -> SeatMemory:
        return rebuild.GobbleStonesMemory()

    def state_from_view(self, view: View, player: int, memory: SeatMemory | None = None,
                        rng: random.Random | None = None) -> GobbleStonesState:
        """The position ``view`` shows, with the tiles ``player`` has not seen dealt at random
        among those their view and memory allow (:mod:`.rebuild`)."""
        deal = rebuild.deal_for(self, view, player, memory)
        state = deal.state(rng or random.Random())
        state._rebuild = deal
        return state

    def max_history_length(self) -> int:
        """Player actions, plus the board's chance events and one draw per tile (G-1)."""
        return self._game_info.max_game_length + BOARD_STEPS + NUM_COLOURS * TILES_PER_COLOUR

    def information_step_width(self) -> int:
        return STEP_WIDTH


class GobbleStonesState(State[GobbleStonesGame]):
    """The board, the tiles on it, racks, bag counts, points and where the turn stands.

    The contents are one :class:`~parlour.games.gobblestones.fields.Fields` (``self._f``),
    written by the rules below. The legal plays of a turn are computed once, when first needed,
    from the board and the mover's rack at the start of the turn (``plays``, bitboards:
    ``plays.turn_plays``); each step of the play is then a bit test. What the board's colouring
    says about segments is computed once per board (``limits``) and shared by every copy of the
    state. While chance draws the board, its colours and values are lists (written in place);
    they become tuples, shared by copies, once it is drawn.
    """

    _rebuild: rebuild.Deal[GobbleStonesState] | None = None
    """Set on a state rebuilt from a seat's view (``state_from_view``): how to deal it again."""

    def __init__(
        self, game: GobbleStonesGame, board: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    ) -> None:
        """A new game: the board drawn by chance, or ``board`` (colours, values) as given."""
        super().__init__(game)
        self._f = f = Fields.start(game.players, game.bluff)
        if board is not None:
            f.colour, f.value = board
            f.board_steps = BOARD_STEPS
            f.used = None
            self._start_deal()

    @classmethod
    def from_snapshot(cls, game: GobbleStonesGame, snap: Snapshot) -> GobbleStonesState:
        """The state ``snap`` describes (the inverse of :meth:`snapshot`), without a history."""
        state = cls.__new__(cls)
        State.__init__(state, game)
        state._f = Fields.from_snapshot(snap)
        return state

    def snapshot(self) -> Snapshot:
        """Everything in this state, hidden parts included, as frozen data."""
        return self._f.snapshot()

    # -- turn structure -------------------------------------------------------------------
    def current_player(self) -> int:
        f = self._f
        phase = f.phase
        if phase == Phase.PLAY:
            return f.turn
        if phase == Phase.CHALLENGE:
            return f.decider
        if phase == Phase.END:
            return TERMINAL_PLAYER
        return CHANCE_PLAYER

    def is_terminal(self) -> bool:
        return self._f.phase == Phase.END

    def turn_in_progress(self) -> bool:
        """A play is being laid: tiles placed, the play not yet ended (B4)."""
        return self._f.phase == Phase.PLAY and bool(self._f.pending)

    def _start_deal(self) -> None:
        f = self._f
        f.colour, f.value = tuple(f.colour), tuple(f.value)
        f.phase = Phase.DEAL
        f.drawer = 0
        f.to_draw = min(RACK_DRAW, sum(f.bag))
        if not f.to_draw:
            self._next_drawer()

    def _next_drawer(self) -> None:
        """The deal goes round the seats in order, five tiles each (B2); then seat 0 starts."""
        f = self._f
        while True:
            if f.drawer >= f.players - 1:
                f.drawer, f.to_draw = -1, 0
                self._begin_turn(0)
                return
            f.drawer += 1
            f.to_draw = min(RACK_DRAW, sum(f.bag))
            if f.to_draw:
                return

    def _begin_turn(self, player: int) -> None:
        f = self._f
        f.turn = player
        f.plays = None
        if f.turns >= self._game.max_turns:
            self._finish("max-turns")
        elif not any(f.racks[player]):
            self._finish("no-tiles")  # B7: the turn of a player with no tiles
        else:
            f.phase = Phase.PLAY

    def _finish(self, reason: str) -> None:
        f = self._f
        f.phase = Phase.END
        f.end = reason
        f.decider = -1
        f.drawer, f.to_draw = -1, 0

    def _place(self, square: int, colour: int) -> None:
        """A tile of ``colour`` from the mover's rack onto ``square``, in the play being laid
        (B4; face down in the bluffing variant, B9)."""
        f = self._f
        f.racks[f.turn][colour] -= 1
        f.pending.append((square, colour))

    def _after_play(self, placed: int, draw: bool = True) -> None:
        """Close a turn that left ``placed`` new tiles on the board (B6, B7)."""
        f = self._f
        bag = sum(f.bag)
        f.passes = f.passes + 1 if placed == 0 and bag == 0 else 0
        f.turns += 1
        f.pending = []
        f.decider = -1
        f.plays = None
        player = f.turn
        need = RACK_DRAW - placed if draw else 0
        if bag < need and not any(f.racks[player]):
            self._finish("bag")  # B7: must draw, cannot, and has no tile: the game ends at once
        elif f.passes >= f.players:
            self._finish("passes")  # B7: every player in turn placed no tile, bag empty
        elif (count := min(need, bag)) > 0:
            f.phase, f.drawer, f.to_draw = Phase.DRAW, player, count
        else:
            self._begin_turn((player + 1) % f.players)

    def _commit(self, face_down: bool, challenger: int | None = None) -> None:
        """The pending tiles stay on the board; the mover scores them (B6, B9)."""
        f = self._f
        earned = 0
        for square, colour in f.pending:
            f.tile[square] = colour
            f.occupied |= 1 << square
            earned += f.value[square]
            if face_down:
                f.owner[square] = f.turn
        f.points[f.turn] += earned
        if challenger is not None:
            f.points[challenger] -= earned  # B9: a wrong challenge costs what the play earned
        self._after_play(len(f.pending))

    # -- chance -----------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        f = self._f
        phase = f.phase
        if phase == Phase.BOARD and f.board_steps % PANEL_STEPS == PANEL * PANEL:
            used = self._used_permutations(f.board_steps // PANEL_STEPS)
            p = 1.0 / (len(PERMUTATIONS) - len(used))
            return [(i, p) for i in range(len(PERMUTATIONS)) if i not in used]
        if phase not in (Phase.BOARD, Phase.DEAL, Phase.DRAW):
            return []
        counts, total = self._colour_counts()
        return [(c, k / total) for c, k in enumerate(counts) if k]

    def _colour_counts(self) -> tuple[Sequence[int], int]:
        """The law of the colour chance draws now, as counts: how many of each colour are left
        to draw, and how many in all. While the board is drawn, the colours left in the board
        square being built, five of each (B1); else the tiles in the bag (B2, B6)."""
        f = self._f
        if f.phase is Phase.BOARD:
            return f.left, PANEL * PANEL - f.board_steps % PANEL_STEPS
        return f.bag, sum(f.bag)

    def _used_permutations(self, panel: int) -> list[int]:
        """B1: board squares differ, so a board square's values avoid earlier ones' permutations."""
        f = self._f
        if f.used is None:
            used = []
            for k in range(panel):
                index = panel_permutation(f.colour, f.value, k)
                if index is not None:
                    used.append(index)
            f.used = used
        return f.used

    def _colour_square(self, colour: int) -> None:
        """The next stone square of the board square being built gets ``colour`` (B1)."""
        f = self._f
        colours = f.colour
        assert isinstance(colours, list)  # a list while the board is drawn
        colours[_COLOURED[f.board_steps]] = colour
        f.left[colour] -= 1
        f.board_steps += 1

    def _value_board_square(self, permutation: int) -> None:
        """The board square just coloured gets its values: value permutation ``permutation``
        of its colours, one no earlier board square has (B1)."""
        f = self._f
        panel = f.board_steps // PANEL_STEPS
        colours, values, by_colour = f.colour, f.value, PERMUTATIONS[permutation]
        assert isinstance(values, list)  # a list while the board is drawn
        for s in PANEL_CELLS[panel]:
            values[s] = by_colour[colours[s]]
        f.used = [*self._used_permutations(panel), permutation]
        f.left = [PANEL] * NUM_COLOURS
        f.board_steps += 1
        if f.board_steps == BOARD_STEPS:
            self._start_deal()

    def _draw_tile(self, colour: int) -> None:
        """The drawer takes a tile of ``colour`` from the bag (B2, B6); once they have all
        they draw, the deal goes on round the seats, or the next player's turn begins."""
        f = self._f
        f.bag[colour] -= 1
        f.racks[f.drawer][colour] += 1
        f.to_draw -= 1
        if f.to_draw:
            return
        if f.phase is Phase.DEAL:
            self._next_drawer()
        else:
            f.drawer = -1
            self._begin_turn((f.turn + 1) % f.players)

    # -- legal actions -----------------------------------------------------------------------
    def _rack_at_turn_start(self) -> list[int]:
        f = self._f
        rack = list(f.racks[f.turn])
        for _square, colour in f.pending:
            rack[colour] += 1
        return rack

    def plays(self) -> TurnPlays:
        """The legal plays of this turn, as bitboards (see ``plays.TurnPlays``)."""
        f = self._f
        if f.plays is None:
            rack = self._rack_at_turn_start()
            limits = f.limits
            if limits is None:
                limits = f.limits = colour_limits(tuple(f.colour))
            f.plays = limits.plays(f.occupied, None if f.bluff else rack, sum(rack))
        return f.plays

    def _next_bits(self) -> tuple[int, bool]:
        """Squares (a bitboard) that may take the next tile of the play, and whether ``end``
        is legal."""
        plays = self.plays()
        pending = self._f.pending
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
        if not self._f.pending:
            return list(first_squares(self.plays())), False
        bits, can_end = self._next_bits()
        return squares_of(bits), can_end

    def _legal_actions(self) -> list[int]:
        f = self._f
        if f.legal is None:
            game = self._game
            if f.phase == Phase.CHALLENGE:
                legal = [game.CHALLENGE, game.TRUST]
            else:
                squares, can_end = self._next_squares()
                if f.bluff:
                    rack = f.racks[f.turn]
                    legal = [
                        c * SQUARES + s for c in range(NUM_COLOURS) if rack[c] for s in squares
                    ]
                else:
                    legal = squares
                if not f.pending:
                    legal.append(game.PASS)
                elif can_end:
                    legal.append(game.END)
            f.legal = legal
            f.legal_set = frozenset(legal)
        return f.legal

    def _is_legal(self, action: int) -> bool:
        f = self._f
        if f.legal_set is None:
            self._legal_actions()
        assert f.legal_set is not None
        return action in f.legal_set

    def _apply_action(self, action: int) -> None:
        f = self._f
        f.legal = f.legal_set = None
        phase = f.phase
        if phase is Phase.DEAL or phase is Phase.DRAW:
            self._draw_tile(action)
            return
        if phase is Phase.BOARD:
            if f.board_steps % PANEL_STEPS < PANEL * PANEL:
                self._colour_square(action)
            else:
                self._value_board_square(action)
            return
        game = self._game
        if phase == Phase.CHALLENGE:
            self._apply_decision(action == game.CHALLENGE)
        elif action == game.PASS:
            self._after_play(0)
        elif action == game.END:
            if f.bluff:
                f.phase = Phase.CHALLENGE
                f.decider = (f.turn + 1) % f.players
            else:
                self._commit(face_down=False)
        else:
            colour, square = divmod(action, SQUARES)
            self._place(square, colour if f.bluff else f.colour[square])

    def _apply_decision(self, challenge: bool) -> None:
        """B9: the others decide in turn from the mover's left; the first to challenge does."""
        f = self._f
        if not challenge:
            f.decider = (f.decider + 1) % f.players
            if f.decider == f.turn:
                self._commit(face_down=True)
            return
        challenger = f.decider
        correct = all(f.colour[s] == c for s, c in f.pending)
        f.last = (f.turn, challenger, correct, tuple(f.pending))
        if correct:
            self._commit(face_down=False, challenger=challenger)
            return
        rack = f.racks[f.turn]
        for _square, colour in f.pending:
            rack[colour] += 1  # B9: a wrong play goes back to the rack, unscored, with no draw
        self._after_play(0, draw=False)

    # -- random playouts -------------------------------------------------------------------------
    def random_playout(self, random: Callable[[], float], limit: int | None = None) -> int:
        """``State.random_playout`` (the same actions for the same numbers), fast.

        The board's chance steps, the deal, the plays and the draws run in the compiled twin of
        these rules when it was built (``compiled.py``); otherwise in Python by the rules above,
        without building a list of legal actions at each step (the next tile's square is picked
        straight from the turn's bitboards). The bluffing variant takes the general loop.
        """
        f = self._f
        if f.bluff:
            return super().random_playout(random, limit)
        if not compiled.playouts():
            return self._python_playout(random, limit)
        budget = -1 if limit is None else limit
        done = 0
        if f.phase == Phase.BOARD:
            used = self._used_permutations(f.board_steps // PANEL_STEPS)
            actions = compiled.draw_board(f, used, random, budget)
            self._history.extend(actions)
            done = len(actions)
            if f.board_steps == BOARD_STEPS:
                self._start_deal()
        if f.phase == Phase.END or done == limit:
            return done
        actions = compiled.play_out(f, self._game.max_turns, random, budget - done)
        self._history.extend(actions)
        return done + len(actions)

    def _python_playout(self, random: Callable[[], float], limit: int | None) -> int:
        """:meth:`random_playout` by the rules of this class, one ``random()`` per action: a
        player's action is ``legal[int(r * len(legal))]`` with ``legal`` the squares the next
        tile may take (ascending) then ``pass`` or ``end``, read off the turn's bitboards; a
        colour by chance is picked from the counts its law is made of (``_colour_counts``: the
        bag, or the colours left in the board square being built)."""
        f = self._f
        f.legal = f.legal_set = None
        history = self._history
        next_bits, place, colour_counts = self._next_bits, self._place, self._colour_counts
        draw_tile, colour_square = self._draw_tile, self._colour_square
        pass_action, end_action = self._game.PASS, self._game.END
        done = 0
        budget = -1 if limit is None else limit
        while done != budget:
            phase = f.phase
            if phase is Phase.PLAY:  # the whole play, tile by tile, as far as the budget goes
                colours = f.colour
                while done != budget:
                    bits, can_end = next_bits()
                    count = bits.bit_count()
                    k = int(random() * (count + (can_end if f.pending else 1)))
                    done += 1
                    if k < count:
                        square = select_square(bits, k) if count > 1 else bits.bit_length() - 1
                        place(square, colours[square])
                        history.append(square)
                        continue
                    if f.pending:
                        self._commit(face_down=False)
                        history.append(end_action)
                    else:
                        self._after_play(0)
                        history.append(pass_action)
                    break
                continue
            if phase is Phase.END:
                break
            if phase is not Phase.BOARD:  # the deal, or a draw after a play
                take = draw_tile
            elif f.board_steps % PANEL_STEPS < PANEL * PANEL:  # a square's colour (B1)
                take = colour_square
            else:  # a board square's values
                action = pick_chance_outcome(self.chance_outcomes(), random())
                self._value_board_square(action)
                history.append(action)
                done += 1
                continue
            # pick_chance_outcome on the law chance_outcomes gives (the same arithmetic on the
            # same numbers), without building the list of outcomes
            counts, total = colour_counts()
            r = random()
            action = -1
            for c, k in enumerate(counts):
                if k:
                    action = c
                    r -= k / total
                    if r < 0:
                        break
            take(action)
            history.append(action)
            done += 1
        return done

    def compiled_search(
        self, observer: int, *, c: float, rollout_depth: int, scale: float
    ) -> CompiledSearch[GobbleStonesState] | None:
        """The compiled information-set search from this decision (``compiled.py``), or None
        where there is none: no C compiler at install, not ``observer``'s decision, playouts
        in the bluffing variant (the compiled playouts are the normal game's),
        ``COMPILED_SEARCH[0]`` false.

        It runs ``MCTSAgent``'s information-set iterations on worlds handed to it, judging a
        leaf after ``rollout_depth`` random actions by the returns or, before the end, by the
        lead evaluation of ``agents/knowledge/gobblestones.py`` with that ``scale`` (a play
        being laid counted for its mover, except in the bluffing variant). Only the rules'
        mechanics are compiled; which world to search stays the caller's. See
        :class:`~parlour.games.gobblestones.compiled.CompiledSearch`.
        """
        f = self._f
        if (
            not compiled.searches()
            or (f.bluff and rollout_depth != 0)
            or f.phase not in (Phase.PLAY, Phase.CHALLENGE)
            or observer != self.current_player()
        ):
            return None
        return CompiledSearch(observer, c=c, rollout_depth=rollout_depth, scale=scale,
                              bluff=f.bluff, max_turns=self._game.max_turns,
                              fields_of=_fields_of)

    # -- why an action is refused (G-2) ----------------------------------------------------------
    def _illegal_reason(self, action: int) -> tuple[str, str]:
        f = self._f
        game = self._game
        if f.phase == Phase.CHALLENGE:
            return "B9", Message("{decider} must first decide to challenge or trust {mover}'s play",
                                 decider=Seat(f.decider), mover=Seat(f.turn))
        if action in (game.CHALLENGE, game.TRUST):
            return "B9", Message("there is no play to challenge now")
        pending = f.pending
        squares = [s for s, _c in pending]
        rack = self._rack_at_turn_start()
        if action == game.PASS:
            return "B4", Message("you have placed tiles this turn: finish the play with 'end'")
        if action == game.END:
            if not pending:
                return "B4", Message("no tile is placed yet: to place none, 'pass'")
            problem = play_problem(squares, f.occupied, f.colour, self._tiles_of(squares),
                                   rack)
            return problem or ("B4", Message("these tiles do not form a legal play"))
        colour, square = divmod(action, SQUARES)
        if len(pending) >= MAX_PLAY:
            return "B4", Message("a play places at most {n} tiles: finish it with 'end'",
                                 n=MAX_PLAY)
        if f.bluff and not f.racks[f.turn][colour]:
            return "B4", Message("your rack has no {colour} tile left to place",
                                 colour=TILE_COLOURS[colour])
        squares.append(square)
        problem = play_problem(squares, f.occupied, f.colour, self._tiles_of(squares), rack,
                               complete=False)
        if problem:
            return problem
        if pending and square < max(squares[:-1]):
            return "B4", Message(
                "enter a play's tiles in board order (top to bottom, left to right); "
                "type the whole play, e.g. 'h8-h11', to have it ordered for you"
            )
        if f.occupied == 0:
            return "B3", Message(
                "no legal play through these squares covers the centre of a board square, "
                "as the game's first play must"
            )
        return "B4", Message(
            "no legal play through these squares can touch a tile already on the board with "
            "the tiles in your rack"
        )

    def _tiles_of(self, squares: list[int]) -> list[int] | None:
        """The colours of tiles on ``squares`` for matching (B4); none in the bluffing variant."""
        f = self._f
        return None if f.bluff else [f.colour[s] for s in squares]

    # -- results -----------------------------------------------------------------------------
    def scores(self) -> list[float]:
        """Points; at the end each player also has 1 per tile left in their rack (B8)."""
        f = self._f
        if f.phase != Phase.END:
            return [float(p) for p in f.points]
        return [float(p + sum(r)) for p, r in zip(f.points, f.racks, strict=True)]

    def returns(self) -> list[float]:
        """G-4: +1 for every player with the most points (ties share the win), -1 for the rest."""
        f = self._f
        if f.phase != Phase.END:
            return [0.0] * f.players
        scores = self.scores()
        best = max(scores)
        return [1.0 if s == best else -1.0 for s in scores]

    def winners(self) -> list[int]:
        return [p for p, r in enumerate(self.returns()) if r > 0]

    # -- notation ------------------------------------------------------------------------------
    def action_to_string(self, action: int, player: int | None = None) -> str:
        f = self._f
        game = self._game
        phase = f.phase
        if phase == Phase.BOARD:
            panel, step = divmod(f.board_steps, PANEL_STEPS)
            if step < len(PANEL_CELLS[panel]):
                return f"{square_name(PANEL_CELLS[panel][step])}={COLOURS[action]}"
            return permutation_text(action)
        if phase in (Phase.DEAL, Phase.DRAW):
            return f"draw {COLOURS[action]}"
        if action == game.PASS:
            return "pass"
        if action == game.END:
            return "end"
        if f.bluff and action == game.CHALLENGE:
            return "challenge"
        if f.bluff and action == game.TRUST:
            return "trust"
        if not 0 <= action < game.place_actions:
            raise ValueError(f"no GobbleStones action {action}")
        colour, square = divmod(action, SQUARES)
        if f.bluff:
            return f"{square_name(square)}:{COLOURS[colour].lower()}"
        return square_name(square)

    def public_action_string(self, action: int) -> str:
        """The action as every player may see it: a face-down tile's colour (B9) and a drawn
        tile's colour (B2) are hidden. Use this, not :meth:`action_to_string`, to announce
        another player's move."""
        f = self._f
        phase = f.phase
        if phase in (Phase.DEAL, Phase.DRAW):
            return "draw"
        if phase in (Phase.PLAY,) and f.bluff and 0 <= action < self._game.place_actions:
            return f"{square_name(action % SQUARES)}:?"
        return self.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        f = self._f
        game = self._game
        word = text.strip().lower()
        phase = f.phase
        if phase == Phase.BOARD:
            panel, step = divmod(f.board_steps, PANEL_STEPS)
            if step < len(PANEL_CELLS[panel]):
                return colour_index(word.split("=")[-1])
            return parse_permutation(word)
        if phase in (Phase.DEAL, Phase.DRAW):
            return colour_index(word.removeprefix("draw").strip())
        if word == "pass":
            return game.PASS
        if word in ("end", "done"):
            return game.END
        if f.bluff and word == "challenge":
            return game.CHALLENGE
        if f.bluff and word == "trust":
            return game.TRUST
        square, colour = parse_tile(word)
        return self._place_action(square, colour, text)

    def _place_action(self, square: int, colour: int | None, text: str) -> int:
        f = self._f
        if f.bluff:
            return (f.colour[square] if colour is None else colour) * SQUARES + square
        if colour is not None and colour != f.colour[square]:
            raise IllegalActionError(text, "B4", Message(
                "{square} is {colour}: a tile must match the colour of its square, and this "
                "one is {tile}", square=square_name(square),
                colour=SQUARE_COLOURS[f.colour[square]], tile=TILE_COLOURS[colour]
            ))
        return square

    def string_to_actions(self, text: str) -> list[int]:
        """A whole play: ``h8-h11``, ``h8 h9 h10``, ``pass``; bluffing: ``h8:r h9:g`` or
        ``h8-h9:rg`` (a square without a colour gets a tile of its own colour).

        The squares may be written in any order; they are entered in board order and followed
        by ``end``. The play is checked as a whole first, so an error names the rule it breaks.
        """
        f = self._f
        word = text.strip().lower()
        if f.phase != Phase.PLAY or word in WORDS:
            return [self.string_to_action(text)]
        tiles: list[tuple[int, int | None]] = []
        for token in re.split(r"[\s,;]+", word):
            if token:
                tiles.extend(parse_token(token))
        if not tiles:
            raise NotationError(Message("write a play like h8-h11 or h8 h9 h10, or 'pass'"))
        if len({s for s, _c in tiles}) != len(tiles):
            raise IllegalActionError(text, "B4", Message("a play covers each square once"))
        placed = {s for s, _c in f.pending}
        new = sorted(((s, c) for s, c in tiles if s not in placed), key=lambda tile: tile[0])
        actions = [self._place_action(s, c, text) for s, c in new]
        squares = sorted(placed | {s for s, _c in new})
        if f.bluff:
            colours = [a // SQUARES for a in actions]
            rack = f.racks[f.turn]
            for c in range(NUM_COLOURS):
                if colours.count(c) > rack[c]:
                    raise IllegalActionError(text, "B4", Message(
                        "your rack holds {n} {colour} tiles, not {asked}", n=rack[c],
                        colour=TILE_COLOURS[c], asked=colours.count(c)))
        problem = play_problem(squares, f.occupied, f.colour, self._tiles_of(squares),
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
        f = self._f
        if f.phase in (Phase.DEAL, Phase.DRAW):
            return f.drawer == player or sum(1 for k in f.bag if k) < 2
        return True

    def sample_world(self, player: int, rng: random.Random) -> GobbleStonesState:
        """A whole game ``player`` cannot tell from this one: the other racks, the bag and
        the face-down colours that are not theirs redrawn, with the history to match (see
        :mod:`parlour.games.gobblestones.worlds`). Raises ``WorldSamplingError`` rather than
        ever returning the true state; once the game is over nothing is hidden (G-5) and the
        world is a copy. A state rebuilt from ``player``'s view (``state_from_view``) and not
        played on since deals that view again, keeping what the seat remembers."""
        if self._rebuild is not None and self._rebuild.player == player and not self._history:
            return self._rebuild.state(rng)
        return worlds.sample_world(self, player, rng)

    def _information_step_row(
        self, player: int, actor: int, seen: str, before: View, after: View
    ) -> np.ndarray:
        return step_row(player, actor, seen, before, after)

    # -- copies and accessors ----------------------------------------------------------------------
    def clone(self) -> GobbleStonesState:
        twin = GobbleStonesState.__new__(GobbleStonesState)
        twin.__dict__.update(self.__dict__)
        twin._history = self._history.copy()
        twin._f = self._f.copy()
        return twin

    def other_world(
        self,
        *,
        history: list[int] | None = None,
        start: GobbleStonesState | None = None,
        **hidden: Any,
    ) -> GobbleStonesState:
        """A copy of this state as another world the players' views allow would hold it.

        ``hidden`` gives new values for some of the contents the rules hide
        (:data:`~parlour.games.gobblestones.fields.HIDDEN`: ``racks``, ``bag``, ``tile``,
        ``pending``, in snapshot form), ``history`` the actions that reach that world and
        ``start`` the state its history starts from (default: this state's). Nothing is
        checked here: :func:`~parlour.games.gobblestones.worlds.sample_world` decides the
        content, and this state fills in a copy of itself.
        """
        twin = GobbleStonesState.__new__(GobbleStonesState)
        twin.__dict__.update(self.__dict__)
        twin._history = list(self._history if history is None else history)
        twin._f = self._f.with_hidden(hidden)
        twin._begin_history(self._info_root if start is None else start)
        return twin

    def _begin_history(self, start: State[Any] | None) -> None:
        """This state's history starts from ``start`` (None: from the game's initial state):
        its information states are recorded from there (``parlour.core.infostate``)."""
        self._info_root = start
        self._info_records = None

    @property
    def phase(self) -> Phase:
        return self._f.phase

    @property
    def end_reason(self) -> str | None:
        return self._f.end

    @property
    def turn(self) -> int:
        """The seat whose turn it is (also while the others decide on its play, B9, and while
        it draws after it)."""
        return self._f.turn

    @property
    def drawer(self) -> int:
        """The seat drawing tiles (the deal and the draw after a play, B2, B6), else -1."""
        return self._f.drawer

    @property
    def pending(self) -> Tiles:
        """The play being laid, ``(square, colour)`` in board order, with the tiles' true
        colours (the full state: in the bluffing variant others cannot see them)."""
        return tuple(self._f.pending)

    @property
    def last_challenge(self) -> tuple[int, int, bool, Tiles] | None:
        """The last challenge (B9): the mover, the challenger, whether the play was right, its
        tiles; None before the first."""
        return self._f.last

    def play_points(self) -> int:
        """What the play being laid would score if it ended now (B6): the values of its squares
        (the full state: in the bluffing variant others cannot see these tiles)."""
        f = self._f
        return sum(f.value[square] for square, _c in f.pending)

    def rack(self, player: int) -> dict[str, int]:
        """``player``'s tiles by colour letter (the full state: not a view)."""
        return dict(zip(COLOURS, self._f.racks[player], strict=True))

    def bag(self) -> dict[str, int]:
        return dict(zip(COLOURS, self._f.bag, strict=True))

    def square(self, name: str) -> tuple[str, int]:
        """The colour letter and value of a stone square, e.g. ``('R', 4)``."""
        s = parse_square(name)
        f = self._f
        return (COLOURS[f.colour[s]] if f.colour[s] >= 0 else "?", f.value[s])


def _fields_of(state: GobbleStonesState) -> Fields:
    """A state's fields, for the compiled search (which copies them into C)."""
    return state._f
