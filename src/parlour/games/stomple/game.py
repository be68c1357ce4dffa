"""Stomple: stomp marbles through a 7 x 7 board; the last stomper standing scores the rest.

Rulings S1-S12 decide what the rulebook leaves open. A game is a series of rounds (S11); each
round is a deal (49 chance events, one per hole in order a7 ... g1, each choosing the marble's
kind with probability proportional to the marbles still in the bag: a uniform shuffle, S1), a
stomper draw (one chance event per player in seat order, S2), then play. A player action is
the hole stomped (0-48), so a hop and an adjacent stomp onto the same hole are the same action,
as they are on the board. A string (S7) is several actions of the same player; knock-outs (S9),
the round's end and scoring (S10) and the next round's start (S11) happen by themselves after
the action that causes them, so every state a player sees is one where they must stomp.
"""

from __future__ import annotations

import dataclasses
import math
import re
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
    State,
    Utility,
    View,
    compiled_module,
    pick_chance_outcome,
    register_game,
)
from parlour.games.stomple.board import (
    ADJACENT,
    CATS_EYE,
    COLOURS,
    HOLES,
    KIND_LETTERS,
    KIND_NAMES,
    KINDS,
    MARBLE_COLOURS,
    MARBLES_COLOURS,
    NAMES,
    OUTER,
    PER_KIND,
    holes_of,
    parse_hole,
    parse_kind,
)
from parlour.games.stomple.position import (
    MAX_PLAYERS,
    ON_BOARD,
    OUT,
    WAITING,
    Snapshot,
    format_position,
    parse_position,
)
from parlour.games.stomple.views import NUM_GLOBAL_PLANES, PLANES_PER_SEAT, render_text, tensor
from parlour.i18n import Message, Seat, text_of

_cplayout = compiled_module("parlour.games.stomple._cplayout")

COMPILED_PLAYOUTS = [True]
"""``COMPILED_PLAYOUTS[0] = False`` makes ``random_playout`` run in Python even where the
compiled playouts were built (the tests compare the two)."""

DEFAULT_TARGETS = {2: 40, 3: 20, 4: 15, 5: 10, 6: 10}
"""Points that end the game, by number of players (S11)."""
ROUND_WIN_POINTS = 3
CATS_EYE_POINTS = 3
SOLID_POINTS = 1


def _players_check(value: int) -> str | None:
    if 2 <= value <= MAX_PLAYERS:
        return None
    return Message("Stomple is for 2 to {most} players (S2)", most=MAX_PLAYERS)


def _target_check(value: int | None) -> str | None:
    return None if value is None or value >= 1 else Message("the target is at least 1 point (S11)")


class _NoStomperLeft(Exception):
    """A hand-made position whose round would end with every stomper knocked out."""


@register_game
class StompleGame(Game):
    """Stomple for 2-6 players, played in rounds to a target score (S11) or one round (S12)."""

    game_type = GameType(
        short_name="stomple",
        long_name="Stomple",
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.PERFECT,
        utility=Utility.GENERAL_SUM,
        min_num_players=2,
        max_num_players=MAX_PLAYERS,
    )
    parameters = {
        "players": Param(2, int, "number of players, 2-6 (S2)", check=_players_check),
        "target": Param(
            None, int, "points that end the game; default 40, 20, 15, 10, 10 for 2-6 players (S11)",
            check=_target_check,
        ),
        "rounds": Param(
            0, int, "0: play rounds until someone reaches the target (S11); 1: one round (S12)",
            choices=(0, 1),
        ),
        "position": Param(None, str, "start from this position text (docs/rules/stomple.md)"),
    }

    target: int
    single_round: bool

    def _check_parameters(self) -> None:
        p = self._params
        self._start: Snapshot | None = None
        if p["position"] is not None:
            try:
                snap = parse_position(p["position"])
            except NotationError as exc:
                raise InvalidParameterError.about(self.name, "position", text_of(exc)) from None
            given = self.non_default_parameters()
            if "players" in given and given["players"] != len(snap.status):
                raise InvalidParameterError(
                    self.name, Message("the position has {n} players, not {players}",
                                       n=len(snap.status), players=p["players"]),
                    parameter="players",
                )
            p["players"] = len(snap.status)
            self._start = snap
        self.target = p["target"] if p["target"] is not None else DEFAULT_TARGETS[p["players"]]
        self.single_round = p["rounds"] == 1
        if self._start is not None:
            try:
                self.state_from_position(p["position"])
            except NotationError as exc:
                raise InvalidParameterError.about(self.name, "position", text_of(exc)) from None

    def max_rounds(self) -> int:
        """An upper bound on the rounds of a game: each round gives its winner 3 points or more."""
        if self.single_round:
            return 1
        n: int = self._params["players"]
        return n * (math.ceil(self.target / ROUND_WIN_POINTS) - 1) + 1

    def _info(self) -> GameInfo:
        n = self._params["players"]
        return GameInfo(
            num_distinct_actions=HOLES,
            max_chance_outcomes=KINDS,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if n == 2 else None,
            # Every stomp takes a marble off the board, so a round has at most 49 of them.
            max_game_length=self.max_rounds() * HOLES,
            observation_tensor_shape=(NUM_GLOBAL_PLANES + PLANES_PER_SEAT * n, 7, 7),
        )

    def max_history_length(self) -> int:
        """Stomps, plus each round's chance events: the layout (one per hole) and the stomper
        draw (one per player)."""
        return self.max_rounds() * (2 * HOLES + int(self._params["players"]))

    def get_type(self) -> GameType:
        """Two-player Stomple is zero-sum (G-4); with more players it is general-sum."""
        if self._params["players"] == 2:
            return dataclasses.replace(self.game_type, utility=Utility.ZERO_SUM)
        return self.game_type

    def new_initial_state(self) -> StompleState:
        if self._params["position"] is not None:
            return self.state_from_position(self._params["position"])
        n = self._params["players"]
        snap = Snapshot(
            masks=(0,) * KINDS,
            dealt=0,
            colours=(-1,) * n,
            stompers=(-1,) * n,
            status=(WAITING,) * n,
            to_move=0,  # S11: seat 0 starts round 1
            string=-1,
            scores=(0,) * n,
            round=1,
        )
        return StompleState(self, snap)

    def state_from_position(self, text: str) -> StompleState:
        """A state from position text, with any knock-out that is due applied (S9).

        A written position may leave the player to move without a stomp (or a string with
        nothing left to stomp); the state then moves on exactly as play would, so
        ``state_from_position(s.position())`` of a state reached in play is that state.
        """
        snap = parse_position(text, self._params["players"])
        state = StompleState(self, snap)
        try:
            state._settle(text)
        except _NoStomperLeft:
            raise NotationError(
                f"stomple: bad position text {text!r}: every stomper would be knocked out, "
                "so the round would have no winner (S10)"
            ) from None
        return state


class StompleState(State[StompleGame]):
    """Bitboards of marbles by kind plus a few small lists: cheap to copy and to apply."""

    def __init__(self, game: StompleGame, snap: Snapshot) -> None:
        super().__init__(game)
        self._n = len(snap.status)
        self._target = game.target
        self._single = game.single_round
        self._masks = list(snap.masks)
        self._marbles = 0
        for mask in snap.masks:
            self._marbles |= mask
        self._dealt = snap.dealt
        self._colour = list(snap.colours)
        self._drawn = sum(1 for c in snap.colours if c >= 0)
        self._pos = list(snap.stompers)
        self._status = list(snap.status)
        self._to_move = snap.to_move
        self._string = snap.string
        self._scores = list(snap.scores)
        self._round = snap.round
        self._over = False
        self._legal: int | None = None  # bitboard of legal holes, computed on demand
        self._outcomes: list[tuple[int, float]] | None = None  # chance outcomes, likewise

    # -- reading a written position -------------------------------------------------------
    def _settle(self, text: str) -> None:
        """Bring a freshly parsed position to where play would be (see state_from_position)."""
        if self._dealt < HOLES or self._drawn < self._n:
            self._check_scores_below_target(text)
            return
        waiting = self._status.count(WAITING)
        on_board = self._status.count(ON_BOARD)
        if waiting == 0 and on_board <= 1:
            if on_board == 0:
                raise _NoStomperLeft
            if not (self._single or max(self._scores) >= self._target):
                raise NotationError(
                    f"stomple: bad position text {text!r}: the round is over (S10) but no one has "
                    f"reached the target of {self._target} (S11); write the next round's deal"
                )
            self._over = True
            return
        self._check_scores_below_target(text)
        p = self._to_move
        if self._string >= 0:
            if not ADJACENT[self._pos[p]] & self._masks[self._string]:
                self._string = -1
                self._advance(p)
        elif not self._can_stomp(p):
            self._knock_out(p)
            self._advance(p)

    def _check_scores_below_target(self, text: str) -> None:
        if not self._single and max(self._scores) >= self._target:
            raise NotationError(
                f"stomple: bad position text {text!r}: a score has reached the target of "
                f"{self._target}, so the game ended with the last round (S11)"
            )

    # -- whose turn -----------------------------------------------------------------------
    def turn_in_progress(self) -> bool:
        """A string is being stomped (S7): the same player's turn goes on."""
        return not self._over and self._string >= 0

    def current_player(self) -> int:
        if self._over:
            return TERMINAL_PLAYER
        if self._dealt < HOLES or self._drawn < self._n:
            return CHANCE_PLAYER
        return self._to_move

    def is_terminal(self) -> bool:
        return self._over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self._outcomes
        if outcomes is None:
            outcomes = []
            if self._over:
                pass
            elif self._dealt < HOLES:
                left = HOLES - self._dealt
                for kind, mask in enumerate(self._masks):
                    remaining = PER_KIND - mask.bit_count()
                    if remaining > 0:
                        outcomes.append((kind, remaining / left))
            elif self._drawn < self._n:
                free = [c for c in range(COLOURS) if c not in self._colour]
                outcomes = [(c, 1.0 / len(free)) for c in free]
            self._outcomes = outcomes
        return list(outcomes)

    # -- rules ----------------------------------------------------------------------------
    def _legal_bits(self) -> int:
        bits = self._legal
        if bits is None:
            p = self._to_move
            if self._string >= 0:  # S7: keep stomping the string
                bits = ADJACENT[self._pos[p]] & self._masks[self._string]
            elif self._status[p] == WAITING:  # S4: first turn, any marble of the outer row
                bits = OUTER & self._marbles
            else:  # S5, S6: an adjacent marble, or a hop to a marble of one's colour
                bits = (ADJACENT[self._pos[p]] & self._marbles) | self._masks[self._colour[p]]
            self._legal = bits
        return bits

    def _legal_actions(self) -> list[int]:
        return holes_of(self._legal_bits())

    def _is_legal(self, action: int) -> bool:
        return 0 <= action < HOLES and bool((self._legal_bits() >> action) & 1)

    def random_playout(self, random: Callable[[], float], limit: int | None = None) -> int:
        """``State.random_playout`` (the same actions for the same numbers), fast: in the
        compiled ``_cplayout`` when it was built (``COMPILED_PLAYOUTS``), otherwise in Python
        without building lists (the deal draws straight from the marbles left, a stomp is the
        ``k``-th set bit of the legal bitboard)."""
        if _cplayout is None or not COMPILED_PLAYOUTS[0]:
            return self._python_playout(random, limit)
        if self._over:
            return 0
        (actions, self._masks, self._dealt, self._drawn, self._colour, self._pos, self._status,
         self._to_move, self._string, self._scores, self._round, over) = _cplayout.playout(
            self._masks, self._dealt, self._drawn, self._colour, self._pos, self._status,
            self._to_move, self._string, self._scores, self._round, int(self._over),
            self._target, int(self._single), random, -1 if limit is None else limit,
        )
        marbles = 0
        for mask in self._masks:
            marbles |= mask
        self._marbles = marbles
        self._over = bool(over)
        self._legal = None
        self._outcomes = None
        self._history.extend(actions)
        return len(actions)

    def _python_playout(self, random: Callable[[], float], limit: int | None) -> int:
        history = self._history
        self._outcomes = None
        done = 0
        budget = -1 if limit is None else limit
        while done != budget and not self._over:
            if self._dealt < HOLES:  # S1: the deal, hole by hole, by the marbles left
                masks = self._masks  # a new round has new masks
                remaining = [PER_KIND - mask.bit_count() for mask in masks]
                dealt, marbles = self._dealt, self._marbles
                while dealt < HOLES and done != budget:
                    left = HOLES - dealt
                    r = random()
                    kind = -1
                    for k in range(KINDS):
                        count = remaining[k]
                        if count > 0:
                            kind = k
                            r -= count / left
                            if r < 0:
                                break
                    remaining[kind] -= 1
                    bit = 1 << dealt
                    masks[kind] |= bit
                    marbles |= bit
                    dealt += 1
                    history.append(kind)
                    done += 1
                self._dealt, self._marbles = dealt, marbles
                continue
            elif self._drawn < self._n:  # S2: a stomper colour
                action = pick_chance_outcome(self.chance_outcomes(), random())
                self._apply_action(action)
                history.append(action)
            else:  # a stomp (S4-S8), then the string goes on (S7) or the turn passes
                bits = self._legal_bits()
                for _ in range(int(random() * bits.bit_count())):
                    bits &= bits - 1
                bit = bits & -bits
                hole = bit.bit_length() - 1
                history.append(hole)
                kind = self._string
                masks = self._masks
                if kind < 0:
                    kind = 0
                    while not masks[kind] & bit:
                        kind += 1
                masks[kind] ^= bit
                self._marbles ^= bit
                p = self._to_move
                self._pos[p] = hole
                self._status[p] = ON_BOARD
                more = ADJACENT[hole] & masks[kind]
                if more:
                    self._string = kind
                    self._legal = more
                else:
                    self._string = -1
                    self._advance(p)
            done += 1
        self._outcomes = None
        return done

    def stomps_for(self, player: int) -> int:
        """How many stomps ``player`` could choose from were it their turn now, with no string
        under way (S4-S6); 0 for a player out of the round (S9)."""
        status = self._status[player]
        if status == OUT:
            return 0
        if status == WAITING:
            return (OUTER & self._marbles).bit_count()
        bits = (ADJACENT[self._pos[player]] & self._marbles) | self._masks[self._colour[player]]
        return bits.bit_count()

    def _can_stomp(self, p: int) -> bool:
        if self._status[p] == WAITING:
            return bool(OUTER & self._marbles)
        return bool(ADJACENT[self._pos[p]] & self._marbles or self._masks[self._colour[p]])

    def _apply_action(self, action: int) -> None:
        self._outcomes = None
        if self._dealt < HOLES:  # S1: the next hole of the deal gets a marble of this kind
            bit = 1 << self._dealt
            self._masks[action] |= bit
            self._marbles |= bit
            self._dealt += 1
            return
        if self._drawn < self._n:  # S2: the next player draws this stomper colour
            self._colour[self._drawn] = action
            self._drawn += 1
            if self._drawn == self._n:
                starter = self._to_move
                if not self._can_stomp(starter):  # only on a hand-made board
                    self._knock_out(starter)
                    self._advance(starter)
            return
        self._stomp(action)

    def _stomp(self, hole: int) -> None:
        """S8: the stomper moves into the hole and its marble leaves the board; then S7."""
        p = self._to_move
        bit = 1 << hole
        masks = self._masks
        kind = 0
        while not masks[kind] & bit:
            kind += 1
        masks[kind] ^= bit
        self._marbles ^= bit
        self._pos[p] = hole
        self._status[p] = ON_BOARD
        self._legal = None
        if ADJACENT[hole] & masks[kind]:
            self._string = kind  # S7: the same player stomps on along the string
            return
        self._string = -1
        self._advance(p)

    def _knock_out(self, p: int) -> None:
        """S9: the stomper leaves the board (its hole stays empty); the player is out."""
        self._status[p] = OUT
        self._pos[p] = -1

    def _advance(self, p: int) -> None:
        """End ``p``'s turn: pass it clockwise, knocking out players who cannot stomp (S9),
        and end the round when one stomper is left after every first turn (S10)."""
        n = self._n
        status = self._status
        self._legal = None
        while True:
            if WAITING not in status and status.count(ON_BOARD) <= 1:
                self._end_round()
                return
            p = (p + 1) % n
            while status[p] == OUT:
                p = (p + 1) % n
            if self._can_stomp(p):
                self._to_move = p
                return
            self._knock_out(p)

    def round_points(self) -> int:
        """What the round's winner would score with the marbles now on the board (S10)."""
        cats = self._masks[CATS_EYE].bit_count()
        solids = self._marbles.bit_count() - cats
        return ROUND_WIN_POINTS + CATS_EYE_POINTS * cats + SOLID_POINTS * solids

    def _end_round(self) -> None:
        if ON_BOARD not in self._status:
            raise _NoStomperLeft
        winner = self._status.index(ON_BOARD)
        self._scores[winner] += self.round_points()
        self._to_move = winner  # S11: the round's winner starts the next round
        self._string = -1
        if self._single or max(self._scores) >= self._target:  # S12, S11
            self._over = True
            return
        n = self._n
        self._round += 1
        self._masks = [0] * KINDS
        self._marbles = 0
        self._dealt = 0
        self._colour = [-1] * n
        self._drawn = 0
        self._pos = [-1] * n
        self._status = [WAITING] * n

    def _illegal_reason(self, action: int) -> tuple[str, str]:
        name = NAMES[action]
        p = self._to_move
        bit = 1 << action
        if bit & ~self._marbles:
            if action in self._pos:
                owner = self._pos.index(action)
                return "S8", Message("{hole} holds {owner}'s stomper, so it has no marble to stomp",
                                     hole=name, owner=Seat(owner))
            return "S8", Message("{hole} is empty: its marble has already been stomped", hole=name)
        kind = next(k for k in range(KINDS) if self._masks[k] & bit)
        if self._string >= 0:
            colour = MARBLE_COLOURS[self._string]
            if kind != self._string:
                return "S7", Message(
                    "you are stomping a {colour} string: stomp a {colour} marble next to your "
                    "stomper, not the {other} marble on {hole}", colour=colour,
                    other=MARBLE_COLOURS[kind], hole=name)
            return "S7", Message(
                "{hole} is not next to your stomper: a {colour} string goes on only through "
                "adjacent holes", hole=name, colour=colour)
        if self._status[p] == WAITING:
            return "S4", Message(
                "your first turn of a round stomps a marble of the outer row; {hole} is inside",
                hole=name)
        return "S6", Message(
            "{hole} holds a {colour} marble that is not next to your stomper, and you can hop "
            "only to {own} marbles", hole=name, colour=MARBLE_COLOURS[kind],
            own=MARBLES_COLOURS[self._colour[p]])

    # -- results --------------------------------------------------------------------------
    def winners(self) -> list[int]:
        """The players who won the game (empty before the end); ties share the win (S11)."""
        if not self._over:
            return []
        if self._single:
            return [self._to_move]  # S12: the round's winner wins
        best = max(self._scores)
        return [p for p, s in enumerate(self._scores) if s == best]

    def returns(self) -> list[float]:
        if not self._over:
            return [0.0] * self._n
        won = set(self.winners())
        return [1.0 if p in won else -1.0 for p in range(self._n)]

    def scores(self) -> list[float]:
        return [float(s) for s in self._scores]

    # -- public read-outs -----------------------------------------------------------------
    @property
    def round_number(self) -> int:
        return self._round

    @property
    def string_kind(self) -> int | None:
        """The kind of marble being stomped as a string (S7), or ``None``."""
        return None if self._string < 0 else self._string

    @property
    def to_move(self) -> int:
        """The player whose turn it is; during a deal, the one who will start; at the end, the
        last round's winner."""
        return self._to_move

    def stomper_colours(self) -> list[int | None]:
        return [None if c < 0 else c for c in self._colour]

    def stomper_holes(self) -> list[int | None]:
        return [None if h < 0 else h for h in self._pos]

    def statuses(self) -> list[int]:
        """Per player: 0 first turn to take, 1 stomper on the board, 2 out."""
        return list(self._status)

    def marble_at(self, hole: int) -> int | None:
        """The kind of marble in ``hole`` (0-6), or ``None``."""
        bit = 1 << hole
        for kind, mask in enumerate(self._masks):
            if mask & bit:
                return kind
        return None

    def snapshot(self) -> Snapshot:
        return Snapshot(
            masks=tuple(self._masks),
            dealt=self._dealt,
            colours=tuple(self._colour),
            stompers=tuple(self._pos),
            status=tuple(self._status),
            to_move=self._to_move,
            string=self._string,
            scores=tuple(self._scores),
            round=self._round,
        )

    def position(self) -> str:
        return format_position(self.snapshot())

    def clone(self) -> StompleState:
        twin = StompleState.__new__(StompleState)
        twin._game = self._game
        twin._history = self._history.copy()
        twin._n = self._n
        twin._target = self._target
        twin._single = self._single
        twin._masks = self._masks.copy()
        twin._marbles = self._marbles
        twin._dealt = self._dealt
        twin._colour = self._colour.copy()
        twin._drawn = self._drawn
        twin._pos = self._pos.copy()
        twin._status = self._status.copy()
        twin._to_move = self._to_move
        twin._string = self._string
        twin._scores = self._scores.copy()
        twin._round = self._round
        twin._over = self._over
        twin._legal = self._legal
        twin._outcomes = self._outcomes
        return twin

    # -- notation -------------------------------------------------------------------------
    def action_to_string(self, action: int, player: int | None = None) -> str:
        chance = player == CHANCE_PLAYER or (player is None and self.is_chance_node())
        if chance:
            if not 0 <= action < KINDS:
                raise ValueError(f"chance action {action} is not a marble kind (0-6)")
            if self._dealt < HOLES:
                return f"deal {NAMES[self._dealt]} {KIND_NAMES[action]}"
            if action == CATS_EYE:
                raise ValueError("no stomper is a cat's eye (S2)")
            return f"player {self._drawn} draws {KIND_NAMES[action]}"
        if not 0 <= action < HOLES:
            raise ValueError(f"action {action} is not a hole: holes are 0-{HOLES - 1}")
        return NAMES[action]

    _CHANCE = re.compile(r"^\s*(?:deal\s+[a-g][1-7]\s+|player\s+\d\s+draws\s+)?(.+?)\s*$", re.I)

    def string_to_action(self, text: str) -> int:
        if self.is_chance_node():
            match = self._CHANCE.match(text)
            kind = parse_kind(match.group(1) if match else text)
            if self._dealt >= HOLES and kind == CATS_EYE:
                raise NotationError("no stomper is a cat's eye: draw one of the six colours (S2)")
            return kind
        return parse_hole(text)

    def string_to_actions(self, text: str) -> list[int]:
        """Several holes (``d4 e5 f6`` or ``d4-e5-f6``) name a string's stomps in order (S7)."""
        if self.is_chance_node():
            return [self.string_to_action(text)]
        parts = [t for t in re.split(r"[\s,;-]+", text.strip()) if t]
        if not parts:
            raise NotationError("name at least one hole, like d4")
        return [parse_hole(t) for t in parts]

    # -- views: everything on the table is public -----------------------------------------
    def _view(self, player: int | None) -> View:
        text = self.position()
        board = text.split()[0].split("/")
        current = self.current_player()
        if self._over:
            phase = "over"
        elif self._dealt < HOLES:
            phase = "deal"
        elif self._drawn < self._n:
            phase = "draw"
        else:
            phase = "play"
        colours = [None if c < 0 else KIND_NAMES[c] for c in self._colour]
        view: dict[str, Any] = {
            "game": "stomple",
            "player": player,
            "players": self._n,
            "position": text,
            "board": board,
            "phase": phase,
            "to_move": current if current >= 0 else None,
            "colours": colours,
            "your_colour": None if player is None else colours[player],
            "status": [("first", "on", "out")[s] for s in self._status],
            "string": None if self._string < 0 else KIND_NAMES[self._string],
            "scores": list(self._scores),
            "round": self._round,
            "target": self._target,
            "single_round": self._single,
            "legal": [NAMES[h] for h in self._legal_actions()] if current >= 0 else [],
            "round_points": self.round_points(),
            "terminal": self._over,
            "winners": self.winners(),
        }
        return view

    def _render_view(self, view: View) -> str:
        return render_text(view)

    def _tensor_from_view(self, view: View) -> np.ndarray:
        return tensor(view)


__all__ = [
    "DEFAULT_TARGETS",
    "KIND_LETTERS",
    "StompleGame",
    "StompleState",
]
