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

**Modules.** This one holds the game (its parameters) and the state: what a player or chance
may do now, applying it, scores, copies, and the answers the engine asks for. The state's
contents are declared once, in ``fields.py`` (:class:`Fields`: copies, snapshots, worlds and
the compiled engine's arguments are derived from it), and the rules are functions over those
fields, one module per concern: the course of a turn in ``turns.py``, what chance draws in
``chance.py``, what may be played now in ``legal.py`` (the turn's plays from ``plays.py``),
why an action is refused in ``refusals.py``, actions as text in ``action_text.py`` (the words
read by ``notation.py``), and the Python playouts in ``playouts.py``. The board's geometry and
texts are in ``board.py``; ``position.py`` (the position text) and ``views.py`` (what a
player sees) read a frozen :class:`Snapshot` of the state (``snapshot.py``, with the
:class:`Phase` enum) and never the state itself; ``worlds.py`` samples worlds through the
state's public API; the compiled twin of these rules (``_cplayout.c``) is reached through
``compiled.py`` alone.
"""


from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from parlour.core import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    ChanceMode,
    Game,
    GameInfo,
    GameType,
    Information,
    InvalidParameterError,
    NotationError,
    Param,
    SeatMemory,
    State,
    Utility,
    View,
    parse_position_error,
    register_game,
)
from parlour.games.gobblestones import (
    action_text,
    chance,
    compiled,
    legal,
    rebuild,
    refusals,
    turns,
    worlds,
)
from parlour.games.gobblestones.board import (
    BOARD_STEPS,
    COLOURS,
    MAX_PLAY,
    NUM_COLOURS,
    PANEL,
    PANEL_STEPS,
    PERMUTATIONS,
    SIZE,
    SQUARES,
    TILES_PER_COLOUR,
    parse_board_text,
    parse_square,
)
from parlour.games.gobblestones.compiled import CompiledSearch
from parlour.games.gobblestones.fields import Fields
from parlour.games.gobblestones.infostate import STEP_WIDTH, step_row
from parlour.games.gobblestones.notation import WORDS
from parlour.games.gobblestones.playouts import python_playout
from parlour.games.gobblestones.plays import TurnPlays
from parlour.games.gobblestones.position import format_position, parse_position
from parlour.games.gobblestones.snapshot import Phase, Snapshot, Tiles
from parlour.games.gobblestones.views import NUM_PLANES, build_view, render_text, tensor
from parlour.i18n import Message, text_of


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
    written by the rules (``turns.py``, ``chance.py``; see the module). The legal plays of a
    turn are computed once, when first needed, from the board and the mover's rack at the
    start of the turn (``plays``, bitboards: ``plays.turn_plays``); each step of the play is
    then a bit test (``legal.py``). What the board's colouring
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
            turns.start_deal(f, game.max_turns)

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

    # -- turn structure (turns.py) ----------------------------------------------------------
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

    # -- chance (chance.py) -------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        return chance.chance_outcomes(self._f)

    # -- legal actions (legal.py) ------------------------------------------------------------
    def plays(self) -> TurnPlays:
        """The legal plays of this turn, as bitboards (see ``plays.TurnPlays``)."""
        return legal.turn_plays_of(self._f)

    def _legal_actions(self) -> list[int]:
        return legal.legal_actions(self._f, self._game)

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
        max_turns = self._game.max_turns
        if phase is Phase.DEAL or phase is Phase.DRAW:
            turns.draw_tile(f, max_turns, action)
            return
        if phase is Phase.BOARD:
            if f.board_steps % PANEL_STEPS < PANEL * PANEL:
                chance.colour_square(f, action)
            elif chance.value_board_square(f, action):
                turns.start_deal(f, max_turns)
            return
        game = self._game
        if phase == Phase.CHALLENGE:
            turns.decide(f, max_turns, action == game.CHALLENGE)
        elif action == game.PASS:
            turns.after_play(f, max_turns, 0)
        elif action == game.END:
            turns.end_play(f, max_turns)
        else:
            colour, square = divmod(action, SQUARES)
            turns.place(f, square, colour if f.bluff else f.colour[square])

    # -- random playouts -------------------------------------------------------------------------
    def random_playout(self, random: Callable[[], float], limit: int | None = None) -> int:
        """``State.random_playout`` (the same actions for the same numbers), fast.

        The board's chance steps, the deal, the plays and the draws run in the compiled twin of
        these rules when it was built (``compiled.py``); otherwise in Python by the same rules
        (``playouts.py``), without building a list of legal actions at each step (the next
        tile's square is picked straight from the turn's bitboards). The bluffing variant takes
        the general loop.
        """
        f = self._f
        if f.bluff:
            return super().random_playout(random, limit)
        max_turns = self._game.max_turns
        if not compiled.playouts():
            return python_playout(f, self._game, max_turns, self._history, random, limit)
        budget = -1 if limit is None else limit
        done = 0
        if f.phase == Phase.BOARD:
            used = chance.used_permutations(f, f.board_steps // PANEL_STEPS)
            actions = compiled.draw_board(f, used, random, budget)
            self._history.extend(actions)
            done = len(actions)
            if f.board_steps == BOARD_STEPS:
                turns.start_deal(f, max_turns)
        if f.phase == Phase.END or done == limit:
            return done
        actions = compiled.play_out(f, max_turns, random, budget - done)
        self._history.extend(actions)
        return done + len(actions)

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

    # -- why an action is refused (G-2, refusals.py) ------------------------------------------
    def _illegal_reason(self, action: int) -> tuple[str, str]:
        return refusals.illegal_reason(self._f, self._game, action)

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

    # -- notation (action_text.py) ------------------------------------------------------------
    def action_to_string(self, action: int, player: int | None = None) -> str:
        return action_text.action_to_string(self._f, self._game, action)

    def public_action_string(self, action: int) -> str:
        """The action as every player may see it: a face-down tile's colour (B9) and a drawn
        tile's colour (B2) are hidden. Use this, not :meth:`action_to_string`, to announce
        another player's move."""
        return action_text.public_action_string(self._f, self._game, action)

    def string_to_action(self, text: str) -> int:
        return action_text.string_to_action(self._f, self._game, text)

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
        actions = action_text.play_actions(f, text)
        trial = self.clone()
        for action in actions:
            trial.apply_action(action)
        return [*actions, self._game.END]

    # -- position and views ----------------------------------------------------------------------
    def position(self) -> str:
        return format_position(self.snapshot())

    def _view(self, player: int | None, ended: bool = False) -> View:
        return build_view(
            self.snapshot(),
            player,
            scores=self.scores(),
            returns=self.returns(),
            to_act=self.current_player(),
            max_turns=self._game.max_turns,
            ended=ended,
        )

    def _ended_view(self, player: int | None) -> View:
        """A resigned or timed-out game turns every rack and face-down tile up (G-5)."""
        return self._view(player, ended=True)

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
