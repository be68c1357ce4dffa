"""Stomp the Plank: draw treasures onto the pontoon, stop in time, and load the others' planks.

Rulings P1-P8 make the rulebook exact (see ``docs/rules/stomp-the-plank.md``). A turn is:

- ``start``: the active player must draw (P3), so ``draw`` is their only legal action;
- ``card``: a chance node; the outcome is the treasure revealed, drawn with probability
  ``count / cards left`` over the draw pile (P1, G-1);
- then, if the treasure is already on the pontoon, the turn ends and the elephant steps (P4);
  if it lands on the last spot, the active player wins (P2); otherwise ``choose``: ``draw``
  again or ``stop``, which gives every other player the crates of the spot reached (P3, P5).

Nothing in the state is hidden: the draw pile is kept as seven counts, never as an order (see
:mod:`~parlour.games.stomp_the_plank.deck` for why that is exactly the physical shuffle), the
pontoon, discards, planks and supply are public, so every player's view is the whole state.
"""

from __future__ import annotations

import dataclasses
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
    State,
    Utility,
    View,
    parse_position_error,
    register_game,
)
from parlour.games.stomp_the_plank.deck import COPIES, DECK_SIZE, TREASURES
from parlour.games.stomp_the_plank.plank import PlankModel
from parlour.games.stomp_the_plank.position import Position
from parlour.i18n import Message, text_of

DRAW = 0
"""Draw the next card: one of the two player actions, whose ids never change."""
STOP = 1
"""Stop: the others load the crates printed above your last card's spot (P3)."""
ACTION_NAMES = ("draw", "stop")
_ACTION_WORDS = {"draw": DRAW, "d": DRAW, "stop": STOP, "s": STOP}

START, CHOOSE, CARD, OVER = "start", "choose", "card", "over"
TIP_STOP, TIP_STEP, LAST_SPOT, TURN_LIMIT = "tip-stop", "tip-step", "last-spot", "turn-limit"

DEFAULT_CRATES = (0, 1, 2, 3, 5)
MAX_SPOTS = len(TREASURES)
"""With seven treasures at most seven distinct cards fit on a pontoon before a match."""


def parse_crates(text: str) -> tuple[int, ...]:
    """The crates of spots 1..k from text like ``"0,1,2,3,5"`` (P2)."""
    parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
    if not parts or not all(p.isascii() and p.isdigit() for p in parts):
        raise ValueError(Message(
            "write crates as whole numbers joined by commas, like 0,1,2,3,5; got {text}",
            text=repr(text)))
    crates = tuple(int(p) for p in parts)
    if len(crates) > MAX_SPOTS - 1:
        raise ValueError(Message(
            "at most {spots} crate spots: with {treasures} treasures a longer pontoon could "
            "never be filled", spots=MAX_SPOTS - 1, treasures=len(TREASURES)))
    return crates


def _crates_check(value: str) -> str | None:
    try:
        parse_crates(value)
    except ValueError as exc:
        return text_of(exc)
    return None


def _at_least(low: int) -> Callable[[int], str | None]:
    return lambda v: None if v >= low else Message("must be at least {low}", low=low)


@register_game
class StompThePlankGame(Game):
    """Stomp the Plank for 2-4 players (P1-P8)."""

    game_type = GameType(
        short_name="stomp-the-plank",
        long_name="Stomp the Plank",
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.PERFECT,
        utility=Utility.ZERO_SUM,  # 2 players; a game with more declares itself general-sum
        min_num_players=2,
        max_num_players=4,
    )
    parameters = {
        "players": Param(2, int, "number of players, 2-4; seat 0 starts (P8)",
                         check=lambda v: None if 2 <= v <= 4 else Message("2 to 4 players (P8)")),
        "crates": Param(",".join(map(str, DEFAULT_CRATES)), str,
                        "crates given for a stop on spots 1, 2, ...; a card on the spot after "
                        "the last wins (P2)", check=_crates_check),
        # P5 rules tip_at=15, step_weight=3 (the first defaults, 20/4, let four planks hold
        # 76 crates > the 60 in the supply, so play went on with an empty supply and stalled:
        # docs/reports/stomp-the-plank-tuning.md).
        "tip_at": Param(15, int, "a plank tips when crates + step_weight * step reaches this (P5)",
                        check=_at_least(1)),
        "step_weight": Param(3, int, "how many crates one step of the elephant weighs (P5)",
                             check=_at_least(0)),
        "supply": Param(60, int, "crates in the supply; none are given once it is empty (P5)",
                        check=_at_least(0)),
        "max_turns": Param(1000, int,
                           "the game ends with no loser after this many turns (a project "
                           "addition: stops on spot 1 give no crates, so play could go on "
                           "forever; like OpenSpiel Pig's horizon)", check=_at_least(1)),
        "position": Param(None, str, "start from this position text "
                          "(docs/rules/stomp-the-plank.md); sets the number of players"),
    }

    crates: tuple[int, ...]
    spots: int
    plank: PlankModel

    def __init__(self, **params: Any) -> None:
        self._given = frozenset(params)  # to tell an explicit players=2 from the default
        super().__init__(**params)

    def _check_parameters(self) -> None:
        self.crates = parse_crates(self._params["crates"])
        self._params["crates"] = ",".join(map(str, self.crates))  # canonical text
        self.spots = len(self.crates) + 1
        self.plank = PlankModel(self._params["tip_at"], self._params["step_weight"])
        self._start: Position | None = None
        if self._params["position"] is not None:
            text = self._params["position"]
            try:
                start = Position.parse(text)
                players = self._params["players"]
                if "players" in self._given and players != len(start.planks):
                    raise NotationError(f"it has {len(start.planks)} planks, not {players}")
                if not 2 <= len(start.planks) <= 4:
                    raise NotationError("2 to 4 players (P8)")
                self._params["players"] = len(start.planks)
                self._check_position(text, start)
            except NotationError as exc:
                raise InvalidParameterError.about(self.name, "position", text_of(exc)) from None
            self._start = start

    def get_type(self) -> GameType:
        """Two-player games are zero-sum (G-4); with more players, general-sum."""
        if self._params["players"] != 2:
            return dataclasses.replace(self.game_type, utility=Utility.GENERAL_SUM)
        return self.game_type

    def _info(self) -> GameInfo:
        players = self._params["players"]
        return GameInfo(
            num_distinct_actions=2,
            max_chance_outcomes=len(TREASURES),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if players == 2 else None,
            # A turn is at most one draw and one reveal per spot (the last one ends it).
            max_game_length=self._params["max_turns"] * 2 * self.spots,
            observation_tensor_shape=(tensor_size(self.spots, players),),
        )

    def new_initial_state(self) -> StompThePlankState:
        if self._start is not None:
            return StompThePlankState(self, self._start)
        n = self._params["players"]
        start = Position(
            turn=1, active=0, phase=START, end=None, pontoon=(),
            discards=(0,) * len(TREASURES), supply=self._params["supply"],
            planks=((0, 0),) * n,
        )
        return StompThePlankState(self, start)

    def state_from_position(self, text: str) -> StompThePlankState:
        position = Position.parse(text)
        self._check_position(text, position)
        return StompThePlankState(self, position)

    def _check_position(self, text: str, pos: Position) -> None:
        """Refuse a position that no game of this configuration can reach."""

        def bad(why: str) -> NotationError:
            return parse_position_error(self.name, text, f"no game reaches it: {why}")

        n, max_turns = self._params["players"], self._params["max_turns"]
        if len(pos.planks) != n:
            raise bad(f"{len(pos.planks)} planks for {n} players")
        if not pos.active < n:
            raise bad(f"no seat {pos.active} among {n} players")
        last_turn = max_turns + 1 if pos.end == TURN_LIMIT else max_turns
        if not 1 <= pos.turn <= last_turn or (pos.end == TURN_LIMIT and pos.turn != last_turn):
            raise bad(f"turn {pos.turn} out of range: a game lasts at most {max_turns} turns")
        if len(pos.pontoon) > self.spots:
            raise bad(f"the pontoon has {self.spots} spots (P2)")
        for t, name in enumerate(TREASURES):
            if pos.pontoon.count(t) + pos.discards[t] > COPIES:
                raise bad(f"more than {COPIES} {name} cards on the pontoon and discards (P1)")
        given = sum(c for c, _ in pos.planks)
        if given + pos.supply != self._params["supply"]:
            raise bad(
                f"crates on planks ({given}) plus the supply ({pos.supply}) must make "
                f"{self._params['supply']} (P5)"
            )
        pile = sum(COPIES - pos.pontoon.count(t) - pos.discards[t] for t in range(len(TREASURES)))
        tipped = [self.plank.tips(c, s) for c, s in pos.planks]
        distinct = len(set(pos.pontoon)) == len(pos.pontoon)
        size = len(pos.pontoon)
        if pos.phase != OVER and any(tipped):
            raise bad("a tipped plank ends the game (P6)")
        if pos.phase == START and size:
            raise bad("the pontoon is empty at the start of a turn (P7)")
        if pos.phase in (CHOOSE, CARD):
            low = 1 if pos.phase == CHOOSE else 0
            if not (low <= size < self.spots and distinct):
                raise bad(f"in phase {pos.phase} the pontoon holds {low} to {self.spots - 1} "
                          "different treasures (P2, P4)")
        if pos.phase == CARD and pile == 0:
            raise bad("an empty draw pile is reshuffled as the card is drawn (P7): give "
                      "phase=choose or start")
        others_tipped = any(t for i, t in enumerate(tipped) if i != pos.active)
        if pos.end == TIP_STOP and not (
            0 < size < self.spots and distinct and others_tipped and not tipped[pos.active]
        ):
            raise bad("end=tip-stop needs a pontoon of different treasures after which "
                      "another player's plank tipped, not the active player's (P6)")
        if pos.end == TIP_STEP and not (
            size >= 2 and pos.pontoon[-1] in pos.pontoon[:-1]
            and len(set(pos.pontoon)) == size - 1
            and tipped[pos.active] and not others_tipped
        ):
            raise bad("end=tip-step needs a pontoon whose last card matches an earlier one and "
                      "only the active player's plank tipped (P4, P6)")
        if pos.end == LAST_SPOT and not (size == self.spots and distinct and not any(tipped)):
            raise bad(f"end=last-spot needs {self.spots} different treasures on the pontoon (P2)")
        if pos.end == TURN_LIMIT and (size or any(tipped)):
            raise bad("end=turn-limit comes between turns, with no plank tipped")


def tensor_size(spots: int, players: int) -> int:
    """Length of the observation vector; the layout is documented in ``_tensor_from_view``."""
    return spots * len(TREASURES) + 2 * len(TREASURES) + 4 * players + 1 + 4 + 1


class StompThePlankState(State[StompThePlankGame]):
    """The whole state: seven pile counts, never a pile order, so nothing in it is hidden."""

    def __init__(self, game: StompThePlankGame, pos: Position) -> None:
        super().__init__(game)
        self._n = len(pos.planks)
        self._crate_table = game.crates
        self._spots = game.spots
        self._plank = game.plank
        self._turn = pos.turn
        self._active = pos.active
        self._phase = pos.phase
        self._end = pos.end
        self._pontoon = list(pos.pontoon)
        self._discards = list(pos.discards)
        self._pile = [
            COPIES - pos.pontoon.count(t) - pos.discards[t] for t in range(len(TREASURES))
        ]
        self._crates = [c for c, _ in pos.planks]
        self._steps = [s for _, s in pos.planks]
        self._supply = pos.supply

    # -- whose turn -------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._phase == OVER:
            return TERMINAL_PLAYER
        if self._phase == CARD:
            return CHANCE_PLAYER
        return self._active

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def turn_in_progress(self) -> bool:
        """Cards drawn this turn, none matched: the player draws again or stops (P3)."""
        return self._phase == CHOOSE

    # -- rules ------------------------------------------------------------------------------
    def _legal_actions(self) -> list[int]:
        return [DRAW] if self._phase == START else [DRAW, STOP]

    def _is_legal(self, action: int) -> bool:
        return action == DRAW or (action == STOP and self._phase == CHOOSE)

    def _illegal_reason(self, action: int) -> tuple[str, str]:
        if action == STOP and self._phase == START:
            return "P3", Message("you must draw at least one card before you may stop")
        return super()._illegal_reason(action)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """P1: the treasure revealed, with probability ``count / cards left in the pile``."""
        if self._phase != CARD:
            return []
        total = sum(self._pile)
        return [(t, count / total) for t, count in enumerate(self._pile) if count]

    def _apply_action(self, action: int) -> None:
        if self._phase == CARD:
            self._reveal(action)
        elif action == DRAW:
            if not any(self._pile):
                self._reshuffle()  # P7, mid-turn: the pontoon's cards stay on the pontoon
            self._phase = CARD
        else:
            self._stop()

    def _reveal(self, treasure: int) -> None:
        self._pile[treasure] -= 1
        matched = treasure in self._pontoon
        self._pontoon.append(treasure)
        if matched:  # P4: caught by the Captain; the elephant steps toward the water
            self._steps[self._active] += 1
            if self._plank.tips(self._crates[self._active], self._steps[self._active]):
                self._finish(TIP_STEP)  # P6
            else:
                self._end_turn()
        elif len(self._pontoon) == self._spots:
            self._finish(LAST_SPOT)  # P2: a card on the last spot wins at once
        else:
            self._phase = CHOOSE

    def _stop(self) -> None:
        # P3, P5: every other player, clockwise from the active player's left, takes the
        # crates of the spot reached, while the supply lasts.
        give = self._crate_table[len(self._pontoon) - 1]
        tipped = False
        for offset in range(1, self._n):
            seat = (self._active + offset) % self._n
            taken = min(give, self._supply)
            self._supply -= taken
            self._crates[seat] += taken
            tipped = tipped or self._plank.tips(self._crates[seat], self._steps[seat])
        if tipped:
            self._finish(TIP_STOP)  # P6: every plank that tipped loses
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        for t in self._pontoon:  # P7: the turn's cards are discarded
            self._discards[t] += 1
        self._pontoon.clear()
        if not any(self._pile):
            self._reshuffle()
        self._active = (self._active + 1) % self._n
        self._turn += 1
        if self._turn > self._game.params["max_turns"]:
            self._finish(TURN_LIMIT)
        else:
            self._phase = START

    def _reshuffle(self) -> None:
        """P7: the discards become the new draw pile.

        No chance event is needed here: the shuffle's randomness is spent card by card as
        each draw is a uniform choice over the pile's counts (see the ``deck`` module).
        """
        self._pile, self._discards = self._discards, [0] * len(TREASURES)

    def _finish(self, end: str) -> None:
        self._phase = OVER
        self._end = end

    # -- results ----------------------------------------------------------------------------
    def losers(self) -> list[int]:
        """The seats that lost (P6): tipped planks, or everyone but a last-spot winner (P2)."""
        if self._end in (TIP_STOP, TIP_STEP):
            return [
                i for i in range(self._n) if self._plank.tips(self._crates[i], self._steps[i])
            ]
        if self._end == LAST_SPOT:
            return [i for i in range(self._n) if i != self._active]
        return []

    def winners(self) -> list[int]:
        """Everyone who did not lose (P6); nobody before the end or at the turn limit."""
        if self._end in (None, TURN_LIMIT):
            return []
        lost = self.losers()
        return [i for i in range(self._n) if i not in lost]

    def returns(self) -> list[float]:
        """G-4: +1 per winner, -1 per loser; all 0 before the end and at the turn limit."""
        result = [0.0] * self._n
        if self._end in (None, TURN_LIMIT):
            return result
        lost = set(self.losers())
        return [-1.0 if i in lost else 1.0 for i in range(self._n)]

    # -- accessors --------------------------------------------------------------------------
    @property
    def active_player(self) -> int:
        """The seat whose turn it is (or was, once the game is over)."""
        return self._active

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def end(self) -> str | None:
        """How the game ended: ``tip-stop``, ``tip-step``, ``last-spot``, ``turn-limit``."""
        return self._end

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def supply(self) -> int:
        return self._supply

    def pontoon(self) -> list[str]:
        return [TREASURES[t] for t in self._pontoon]

    def pile_counts(self) -> list[int]:
        """Cards of each treasure in the draw pile: the cards no one has seen."""
        return list(self._pile)

    def discard_counts(self) -> list[int]:
        return list(self._discards)

    def plank(self, player: int) -> tuple[int, int]:
        """``(crates, step)`` of ``player``'s plank."""
        return self._crates[player], self._steps[player]

    def balance(self, player: int) -> int:
        """How far ``player``'s plank is from tipping (P5)."""
        return self._plank.balance(self._crates[player], self._steps[player])

    def to_position(self) -> Position:
        return Position(
            turn=self._turn, active=self._active, phase=self._phase, end=self._end,
            pontoon=tuple(self._pontoon), discards=tuple(self._discards),
            supply=self._supply, planks=tuple(zip(self._crates, self._steps, strict=True)),
        )

    def position(self) -> str:
        return self.to_position().text()

    # -- notation ---------------------------------------------------------------------------
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """``draw``/``stop`` for a player; the treasure's name for a chance outcome."""
        chance = player == CHANCE_PLAYER or (player is None and self._phase == CARD)
        names = TREASURES if chance else ACTION_NAMES
        if not 0 <= action < len(names):
            raise ValueError(f"no {'chance outcome' if chance else 'action'} {action}")
        return names[action]

    def string_to_action(self, text: str) -> int:
        word = text.strip().lower()
        if self._phase == CARD:
            if word in TREASURES:
                return TREASURES.index(word)
            raise NotationError(
                f"cannot read card {text!r}: a revealed card is a treasure: "
                f"{', '.join(TREASURES)} (P1)"
            )
        if word in _ACTION_WORDS:
            return _ACTION_WORDS[word]
        raise NotationError(Message(
            "cannot read move {text!r}: write draw (or d) or stop (or s) (P3)", text=text))

    # -- views: everything is public --------------------------------------------------------
    def sample_world(self, player: int, rng: random.Random) -> StompThePlankState:
        """A copy: nothing in the state is hidden from any player.

        The draw pile's order is not part of the state (draws are chance events over its
        counts, which every player can work out from the discards and pontoon), so the only
        state consistent with a player's view is this one. The view and tensor accordingly
        carry no hidden information.
        """
        return self.clone()

    def _view(self, player: int | None) -> View:
        game = self._game
        to_move = self.current_player()
        return {
            "game": "stomp-the-plank",
            "player": player,
            "players": self._n,
            "turn": self._turn,
            "max_turns": game.params["max_turns"],
            "active": self._active,
            "to_move": to_move if to_move >= 0 else None,
            "phase": self._phase,
            "terminal": self._phase == OVER,
            "end": self._end,
            "pontoon": self.pontoon(),
            "crates": list(self._crate_table),
            "spots": self._spots,
            "unseen": dict(zip(TREASURES, self._pile, strict=True)),
            "draw_pile": sum(self._pile),
            "discards": dict(zip(TREASURES, self._discards, strict=True)),
            "supply": self._supply,
            "supply_total": game.params["supply"],
            "tip_at": self._plank.tip_at,
            "step_weight": self._plank.step_weight,
            "planks": [
                {
                    "player": i,
                    "crates": self._crates[i],
                    "step": self._steps[i],
                    "balance": self.balance(i),
                }
                for i in range(self._n)
            ],
            "winners": self.winners(),
            "losers": self.losers(),
            "returns": self.returns(),
            "position": self.position(),
        }

    def _render_view(self, view: View) -> str:
        crates = view["crates"]
        pontoon = view["pontoon"]
        spots = []
        for i in range(view["spots"]):
            prize = f"{crates[i]}c" if i < len(crates) else "WIN"
            card = pontoon[i] if i < len(pontoon) else "."
            spots.append(f"{i + 1}[{prize}]:{card}")
        lines = [f"Stomp the Plank, turn {view['turn']}: {_status(view)}"]
        lines.append("pontoon  " + "  ".join(spots))
        for plank in view["planks"]:
            mark = ">" if plank["player"] == view["active"] else " "
            lines.append(
                f"{mark} player {plank['player']}: crates {plank['crates']:>2}  "
                f"step {plank['step']}  balance {plank['balance']:>3}"
            )
        unseen = " ".join(f"{t} {c}" for t, c in view["unseen"].items())
        discards = " ".join(f"{t} {c}" for t, c in view["discards"].items())
        lines.append(f"supply {view['supply']}/{view['supply_total']}  "
                     f"draw pile {view['draw_pile']}")
        lines.append(f"unseen   {unseen}")
        lines.append(f"discards {discards}")
        return "\n".join(lines) + "\n"

    def _tensor_from_view(self, view: View) -> np.ndarray:
        """A flat float32 vector, built from the view alone. In order:

        1. pontoon: ``spots`` blocks of 7, block ``i`` one-hot on the treasure on spot
           ``i + 1`` (all zero when the spot is empty);
        2. unseen: 7 values, cards of each treasure left in the draw pile / 7;
        3. discards: 7 values, cards of each treasure in the discard pile / 7;
        4. planks: 4 values per player, seats taken clockwise starting with the viewer
           (seat 0 for a spectator): is-active (1/0), crates / tip_at,
           step_weight * step / tip_at, balance / tip_at;
        5. supply: crates left / supply at the start (0 when the supply started empty);
        6. phase: one-hot over start, choose, card, over;
        7. turn: turn / max_turns.

        Treasures run coins, ruby, map, compass, sword, hook, spyglass.
        """
        k = len(TREASURES)
        spots, n = view["spots"], view["players"]
        vec = np.zeros(tensor_size(spots, n), dtype=np.float32)
        for i, name in enumerate(view["pontoon"][:spots]):
            vec[i * k + TREASURES.index(name)] = 1.0
        at = spots * k
        vec[at:at + k] = [view["unseen"][t] / COPIES for t in TREASURES]
        at += k
        vec[at:at + k] = [view["discards"][t] / COPIES for t in TREASURES]
        at += k
        tip = view["tip_at"]
        me = view["player"] or 0
        for j in range(n):
            plank = view["planks"][(me + j) % n]
            vec[at:at + 4] = (
                1.0 if plank["player"] == view["active"] else 0.0,
                plank["crates"] / tip,
                view["step_weight"] * plank["step"] / tip,
                plank["balance"] / tip,
            )
            at += 4
        vec[at] = view["supply"] / view["supply_total"] if view["supply_total"] else 0.0
        at += 1
        vec[at + (START, CHOOSE, CARD, OVER).index(view["phase"])] = 1.0
        at += 4
        vec[at] = view["turn"] / view["max_turns"]
        return vec

    def clone(self) -> StompThePlankState:
        twin = StompThePlankState.__new__(StompThePlankState)
        twin.__dict__.update(self.__dict__)
        twin._history = self._history.copy()
        twin._pontoon = self._pontoon.copy()
        twin._discards = self._discards.copy()
        twin._pile = self._pile.copy()
        twin._crates = self._crates.copy()
        twin._steps = self._steps.copy()
        return twin


def _status(view: View) -> str:
    if view["terminal"]:
        end = view["end"]
        if end == TURN_LIMIT:
            return "over: the turn limit was reached, no one lost"
        if end == LAST_SPOT:
            return f"over: player {view['active']} filled the pontoon and wins"
        lost = " and ".join(f"player {p}" for p in view["losers"])
        how = "tipped under the crates" if end == TIP_STOP else "stepped into the water"
        return f"over: {lost} {how} and lost"
    who = f"player {view['active']}"
    if view["phase"] == START:
        return f"{who} to play (must draw)"
    if view["phase"] == CARD:
        return f"{who} draws a card"
    return f"{who}: draw or stop"


__all__ = [
    "ACTION_NAMES",
    "DECK_SIZE",
    "DEFAULT_CRATES",
    "DRAW",
    "STOP",
    "StompThePlankGame",
    "StompThePlankState",
    "parse_crates",
]
