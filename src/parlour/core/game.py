"""The game and state base classes every parlour game is built on.

The names follow OpenSpiel (``new_initial_state``, ``current_player``, ``legal_actions``,
``apply_action``, ``chance_outcomes``, ``returns``...) so that its users feel at home and an
adapter is thin. As in pgx, the rules shared by every game (no action after the end, chance
actions only from the chance outcomes, an illegal action leaves the state untouched and names
its rule) are enforced once, here; a game fills in only its own transitions and views.

Hidden information is cut at the source: :meth:`State.view` is the *only* place where a game
decides what a player may see (ruling G-3). Observation strings and tensors are derived from
the view, never from the full state, so every outward path inherits the cut.
"""

from __future__ import annotations

import copy
import enum
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

import numpy as np

from parlour.core import infostate
from parlour.core.errors import IllegalActionError, InvalidParameterError, NotationError
from parlour.core.infostate import View
from parlour.core.memory import SeatMemory
from parlour.i18n import Message, message_n, text_of

CHANCE_PLAYER = -1
"""``current_player()`` at a chance node (OpenSpiel's ``kChancePlayerId``)."""
TERMINAL_PLAYER = -4
"""``current_player()`` once the game is over (OpenSpiel's ``kTerminalPlayerId``)."""


class SupportsRandom(Protocol):
    """A source of uniform floats in [0, 1): :class:`random.Random` or a numpy ``Generator``."""

    def random(self) -> float: ...


class ChanceMode(enum.Enum):
    DETERMINISTIC = "deterministic"
    EXPLICIT_STOCHASTIC = "explicit_stochastic"


class Information(enum.Enum):
    PERFECT = "perfect"
    IMPERFECT = "imperfect"


class Utility(enum.Enum):
    ZERO_SUM = "zero_sum"
    GENERAL_SUM = "general_sum"


@dataclass(frozen=True)
class Param:
    """One game parameter: its default, its type, and an optional range check.

    ``check`` returns an error message for a bad value, or ``None``. Values given as strings
    (from a command line or a URL) are converted to ``kind`` first.

    >>> Param(False, bool, "cannibal rules").convert("yes")
    True
    >>> Param(5, int, "rows").convert("7")
    7
    >>> Param(5, int, "rows").convert(2.5)
    Traceback (most recent call last):
    ...
    ValueError: expected a whole number, got 2.5
    """

    default: Any
    kind: type
    doc: str
    check: Callable[[Any], str | None] | None = None
    choices: tuple[Any, ...] | None = None

    def convert(self, value: Any) -> Any:
        if value is None and self.default is None:
            return None
        kind = self.kind
        if kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in {"true", "1", "yes", "on"}:
                return True
            if isinstance(value, str) and value.lower() in {"false", "0", "no", "off"}:
                return False
            raise ValueError(Message("expected true or false, got {value}", value=repr(value)))
        if kind is int:
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError(Message("expected a whole number, got {value}", value=repr(value)))
            try:
                return int(value)
            except (TypeError, ValueError):
                raise ValueError(Message("expected a whole number, got {value}",
                                         value=repr(value))) from None
        if kind is float:
            try:
                return float(value)
            except (TypeError, ValueError):
                raise ValueError(Message("expected a number, got {value}",
                                         value=repr(value))) from None
        if kind is str:
            if not isinstance(value, str):
                raise ValueError(Message("expected text, got {value}", value=repr(value)))
            return value
        raise TypeError(f"unsupported parameter kind {kind!r}")


@dataclass(frozen=True)
class GameType:
    """What kind of game this is, declared once per game (like OpenSpiel's ``GameType``)."""

    short_name: str
    long_name: str
    chance_mode: ChanceMode
    information: Information
    utility: Utility
    min_num_players: int
    max_num_players: int
    dynamics: str = "sequential"
    reward_model: str = "terminal"
    provides_observation_string: bool = True
    provides_observation_tensor: bool = True
    provides_information_state_string: bool = True
    provides_information_state_tensor: bool = True
    rules_version: int = 1
    """Which version of its rules the game plays: raised whenever a change to the rules (or
    to the meaning of an action) would replay a stored game differently, so that records and
    stored tables made under other rules are refused rather than replayed wrongly (pgx's
    ``Env.version``)."""


@dataclass(frozen=True)
class GameInfo:
    """The sizes of one configured game: RL code allocates masks and buffers from these."""

    num_distinct_actions: int
    max_chance_outcomes: int
    num_players: int
    min_utility: float
    max_utility: float
    utility_sum: float | None
    max_game_length: int
    observation_tensor_shape: tuple[int, ...] = field(default=())


class Game(ABC):
    """A configured game: a rule set plus its parameters. Immutable and hashable.

    Subclasses declare ``game_type`` and ``parameters`` and implement :meth:`_info`,
    :meth:`new_initial_state` and :meth:`state_from_position`.
    """

    game_type: ClassVar[GameType]
    parameters: ClassVar[Mapping[str, Param]]
    _hash: int | None = None

    def __init__(self, **params: Any) -> None:
        self._params = self._validate(params)
        self._check_parameters()
        self._game_info = self._info()

    # -- parameters -------------------------------------------------------------------
    @classmethod
    def _validate(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        name = cls.game_type.short_name
        unknown = sorted(set(given) - set(cls.parameters))
        if unknown:
            raise InvalidParameterError(
                name, message_n("unknown parameter {names}; the parameters are {valid}",
                                "unknown parameters {names}; the parameters are {valid}",
                                len(unknown), names=", ".join(map(repr, unknown)),
                                valid=", ".join(sorted(cls.parameters))),
                cls.parameters,
            )
        values: dict[str, Any] = {}
        for key, spec in cls.parameters.items():
            if key not in given:
                values[key] = spec.default
                continue
            try:
                value = spec.convert(given[key])
            except ValueError as exc:
                raise InvalidParameterError.about(name, key, text_of(exc)) from None
            if spec.choices is not None and value not in spec.choices:
                options = ", ".join(map(str, spec.choices))
                raise InvalidParameterError.about(name, key, Message(
                    "must be one of {options}, got {value}", options=options, value=repr(value)))
            if spec.check is not None and (message := spec.check(value)):
                raise InvalidParameterError.about(name, key, message)
            values[key] = value
        return values

    def _check_parameters(self) -> None:
        """Hook for checks that involve several parameters at once."""

    def get_parameters(self) -> dict[str, Any]:
        """Every parameter, defaults included."""
        return dict(self._params)

    def non_default_parameters(self) -> dict[str, Any]:
        return {k: v for k, v in self._params.items() if v != self.parameters[k].default}

    @property
    def params(self) -> Mapping[str, Any]:
        return self._params

    # -- declared information -----------------------------------------------------------
    @abstractmethod
    def _info(self) -> GameInfo:
        """Compute the sizes of this configuration (called once, at construction)."""

    def get_type(self) -> GameType:
        return self.game_type

    def info(self) -> GameInfo:
        return self._game_info

    @property
    def name(self) -> str:
        return self.game_type.short_name

    @property
    def rules_version(self) -> int:
        """The version of the rules this game plays (:attr:`GameType.rules_version`)."""
        return self.game_type.rules_version

    def num_players(self) -> int:
        return self._game_info.num_players

    def num_distinct_actions(self) -> int:
        return self._game_info.num_distinct_actions

    def max_chance_outcomes(self) -> int:
        return self._game_info.max_chance_outcomes

    def max_game_length(self) -> int:
        return self._game_info.max_game_length

    def min_utility(self) -> float:
        return self._game_info.min_utility

    def max_utility(self) -> float:
        return self._game_info.max_utility

    def utility_sum(self) -> float | None:
        return self._game_info.utility_sum

    def observation_tensor_shape(self) -> tuple[int, ...]:
        return self._game_info.observation_tensor_shape

    def observation_tensor_size(self) -> int:
        return int(np.prod(self.observation_tensor_shape()))

    def max_history_length(self) -> int:
        """The most actions, chance included, a history from the start can hold.

        Sizes the information-state tensor. The default suits games without chance (their
        ``max_game_length``); games with chance events override it.
        """
        return self._game_info.max_game_length

    def information_step_width(self) -> int:
        """Numbers per recorded step in the information-state tensor of a game with hidden
        information (``State._information_step_row``); 0 for games of perfect information,
        whose tensor codes the history one number per step."""
        return 0

    def information_state_tensor_shape(self) -> tuple[int, ...]:
        """Flat: the observation tensor, then ``max_history_length()`` steps of
        ``max(1, information_step_width())`` numbers (see :mod:`parlour.core.infostate`)."""
        steps = self.max_history_length() * max(1, self.information_step_width())
        return (self.observation_tensor_size() + steps,)

    # -- states -------------------------------------------------------------------------
    @abstractmethod
    def new_initial_state(self) -> State[Any]:
        """The state before the first action (a chance node for games that deal or shuffle)."""

    @abstractmethod
    def state_from_position(self, text: str) -> State[Any]:
        """A state from this game's documented position text (see ``docs/rules/``).

        The inverse of :meth:`State.position`. Raises :class:`NotationError` on bad text.
        """

    def rebuilds_from_view(self) -> bool:
        """Whether :meth:`state_from_view` can rebuild a state from a player's view (and their
        :meth:`seat_memory`): every game of perfect information can; a game with hidden
        information that implements :meth:`state_from_view` says so."""
        return self.get_type().information is Information.PERFECT

    def seat_memory(self, player: int) -> SeatMemory:
        """A new memory of ``player``'s views for :meth:`state_from_view` (see
        :mod:`parlour.core.memory`); a game whose views hide something it needs overrides it."""
        return SeatMemory()

    def state_from_view(self, view: View, player: int, memory: SeatMemory | None = None,
                        rng: random.Random | None = None) -> State[Any]:
        """A state for ``player``'s agent to decide from, rebuilt from their latest ``view``
        and their ``memory`` of the earlier ones (what a remote seat holds: a bot on a server
        has no state, only views). The state shows ``player`` exactly ``view`` and the same
        legal actions, and holds nothing else they were not shown.

        In a game of perfect information the view shows the whole position (its ``position``
        text), so the state is the real one, chance still to come aside. A game with hidden
        information overrides this: it samples what the view hides (with ``rng``) among the
        possibilities the view and the memory leave. Others raise ``NotImplementedError``.
        """
        if not self.rebuilds_from_view() or not isinstance(view.get("position"), str):
            raise NotImplementedError(
                f"{self.get_type().long_name}: a state cannot be rebuilt from a player's view "
                "(it hides information)"
            )
        return self.state_from_position(view["position"])

    def new_state_from_actions(self, actions: Sequence[int]) -> State[Any]:
        """Replay ``actions`` from the initial state (every game replays exactly, G-1)."""
        state = self.new_initial_state()
        for action in actions:
            state.apply_action(action)
        return state

    # -- identity -----------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.name == self.name and other._params == self._params

    def __hash__(self) -> int:
        # computed once: a configured game never changes, and servers and searches hash the
        # same game very often (a cache keyed by games, a presentation looked up per message)
        if self._hash is None:
            self._hash = hash(
                (self.name, tuple(sorted((k, repr(v)) for k, v in self._params.items())))
            )
        return self._hash

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.non_default_parameters().items())
        return f"parlour.load_game({self.name!r}{args})"

    def __str__(self) -> str:
        args = ",".join(f"{k}={v}" for k, v in self.non_default_parameters().items())
        return f"{self.name}({args})" if args else self.name


GameT = TypeVar("GameT", bound=Game, covariant=True)
"""The concrete game of a state: ``class ClobberState(State[ClobberGame])``."""


class State(ABC, Generic[GameT]):
    """A position in a game, plus the history of actions that reached it.

    Generic in its game, so that a game's state reads its own game's attributes with their
    types (``self._game.grid`` in Clobber); code for any game writes ``State[Any]`` or ``State``.

    Subclasses implement ``current_player``, ``_legal_actions``, ``_apply_action``,
    ``returns``, ``_view``, ``_render_view``, ``_tensor_from_view`` and the notation
    methods; games with chance override ``chance_outcomes``; games with hidden information
    override ``sample_world``.
    """

    _info_records: dict[int, Any] | None = None
    """Cached observation records per player (:mod:`parlour.core.infostate`); immutable,
    shared by clones, rebound (never mutated) when extended."""
    _info_root: State[Any] | None = None
    """The state this one's history starts from, when that is not ``new_initial_state()``
    (a state read from position text); set by the game."""

    def __init__(self, game: GameT) -> None:
        self._game: GameT = game
        self._history: list[int] = []

    @property
    def game(self) -> GameT:
        return self._game

    def get_game(self) -> GameT:
        return self._game

    # -- whose turn ---------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The player to act, ``CHANCE_PLAYER`` at a chance node, ``TERMINAL_PLAYER`` at the end."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL_PLAYER

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE_PLAYER

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def turn_in_progress(self) -> bool:
        """Whether the player to act is part-way through a turn of several actions.

        True while the next action belongs to the same turn as the last one (a GobbleStones
        play being laid, a Stomple string): a turn ends when this is false or someone else
        (another player, chance) is to act. The web table composes and previews a turn only
        while it is in progress, and stores it whole once it ends, so that nothing a finished
        turn would reveal (a challenge's outcome, a draw) is ever shown unstored. Games whose
        every action is a whole turn keep the default.
        """
        return False

    # -- actions ------------------------------------------------------------------------
    @abstractmethod
    def _legal_actions(self) -> list[int]:
        """The current player's legal actions, ascending. Only called at player nodes."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` pairs at a chance node; empty elsewhere."""
        return []

    def sample_chance_outcome(self, rng: SupportsRandom) -> int:
        """A chance outcome drawn by its probability (one ``rng.random()`` per draw).

        ``rng`` is a :class:`random.Random` or a numpy ``Generator``: every caller that
        resolves chance (terminal play, agents, the arena, the server, the RL adapters) draws
        through :func:`pick_chance_outcome`, so one uniform number gives one outcome everywhere.
        """
        return pick_chance_outcome(self.chance_outcomes(), rng.random())

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal actions of ``player`` (default: the one to act), ascending.

        At a chance node these are the chance outcomes' actions; at the end, none.
        """
        current = self.current_player()
        if current == TERMINAL_PLAYER:
            return []
        if current == CHANCE_PLAYER:
            return [a for a, _ in self.chance_outcomes()] if player in (None, CHANCE_PLAYER) else []
        if player is not None and player != current:
            return []
        return list(self._legal_actions())

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        size = (
            self._game.max_chance_outcomes()
            if self.is_chance_node()
            else self._game.num_distinct_actions()
        )
        mask = [0] * size
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def _is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal for the player to act. Override for speed."""
        return action in self._legal_actions()

    def _illegal_reason(self, action: int) -> tuple[str, str]:
        """``(rule id, reason)`` explaining why ``action`` is illegal here. Games refine this."""
        return "G-2", Message("it is not one of the legal actions in this state")

    def apply_action(self, action: int) -> None:
        """Apply ``action`` for the player to act (or the chance player).

        Raises :class:`IllegalActionError` naming the broken rule; the state is unchanged.
        """
        if type(action) is not int:  # the common case skips these checks
            if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
                raise IllegalActionError(action, "G-2", Message("an action is an integer id"))
            action = int(action)
        current = self.current_player()
        if current >= 0:
            if not self._is_legal(action):
                if not 0 <= action < self._game.num_distinct_actions():
                    raise IllegalActionError(
                        action,
                        "G-2",
                        Message("action ids run from 0 to {last}",
                                last=self._game.num_distinct_actions() - 1),
                    )
                rule, reason = self._illegal_reason(action)
                raise IllegalActionError(self.safe_action_string(action), rule, reason)
        elif current == TERMINAL_PLAYER:
            raise IllegalActionError(action, "G-2", Message("the game is over"))
        elif action not in {a for a, p in self.chance_outcomes() if p > 0}:
            raise IllegalActionError(action, "G-1",
                                     Message("it is not a possible chance outcome here"))
        self._apply_action(action)
        self._history.append(action)

    def apply_trusted_action(self, action: int) -> None:
        """Apply an action just read from this very state's ``legal_actions()`` or
        ``chance_outcomes()``, without checking it a second time.

        For search loops, where the check would be paid twice per step; an action that comes
        from anywhere else (a person, a message, a file) goes through :meth:`apply_action`.
        """
        self._apply_action(action)
        self._history.append(action)

    def chance_seen_by(self, player: int) -> bool:
        """Whether ``player`` can tell this chance node's outcomes apart (a card turned up for
        all: yes; another player's hidden draw: no). Searches that reason from one player's
        information merge the outcomes that player cannot see.

        This default compares the player's views after two different outcomes: exact for
        every game, and slow; games override it with what their rules say.
        """
        outcomes = self.chance_outcomes()
        if len(outcomes) < 2:
            return True
        views = [self.child(action).view(player) for action, _p in outcomes[:2]]
        return bool(views[0] != views[1])

    def random_playout(self, random: Callable[[], float], limit: int | None = None) -> int:
        """Play on at random until the end, or for at most ``limit`` actions; return how many
        actions were applied.

        Chance follows its law and each player action is uniform among the legal ones, with one
        ``random()`` (uniform in [0, 1)) per action: ``legal[int(r * len(legal))]`` for a
        player (``legal`` ascending, as :meth:`legal_actions` gives it), and
        :func:`pick_chance_outcome` for chance. The actions played are therefore a function of
        the numbers drawn alone. This loop is the definition; a game may override it for speed
        (search playouts, benchmarks) but must apply the very same actions for the same
        numbers, and its tests check that it does.
        """
        done = 0
        while limit is None or done < limit:
            player = self.current_player()
            if player >= 0:
                legal = self._legal_actions()
                action = legal[int(random() * len(legal))]
            elif player == CHANCE_PLAYER:
                action = pick_chance_outcome(self.chance_outcomes(), random())
            else:
                break
            self._apply_action(action)
            self._history.append(action)
            done += 1
        return done

    def safe_action_string(self, action: int, player: int | None = None) -> str:
        """:meth:`action_to_string`, or the action's number when it has no notation here.

        For messages and logs about an action that may not fit this state (an illegal one, a
        stale one), where a failure to name it must not hide the real news.
        """
        try:
            return self.action_to_string(action, player)
        except (ValueError, IndexError, KeyError):
            return str(action)

    @abstractmethod
    def _apply_action(self, action: int) -> None:
        """Apply an action already checked to be legal."""

    def child(self, action: int) -> Self:
        state = self.clone()
        state.apply_action(action)
        return state

    def history(self) -> list[int]:
        return list(self._history)

    def move_number(self) -> int:
        return len(self._history)

    # -- notation -----------------------------------------------------------------------
    @abstractmethod
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """The action in the game's move notation, as a player would type it."""

    def public_action_string(self, action: int) -> str:
        """The action as every player may see it happen (G-3).

        Announcing another player's move, or a chance event, must use this: in games with
        hidden information it hides what only the mover (or no one) may know, such as a
        face-down tile's colour or a drawn tile. In games of perfect information it is
        :meth:`action_to_string`.
        """
        return self.action_to_string(action)

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """Parse the game's move notation for the player to act. Raises :class:`NotationError`."""

    def string_to_actions(self, text: str) -> list[int]:
        """Parse notation that may stand for several actions of the player to act.

        Most moves are one action; a GobbleStones play of several tiles is several. Games
        whose notation can name a sequence override this; the default reads one action.
        """
        return [self.string_to_action(text)]

    def parse_move(self, text: str) -> int:
        """Parse ``text`` and check it is legal now; the error names the rule if not."""
        action = self.string_to_action(text)
        if self.is_terminal():
            raise IllegalActionError(text, "G-2", Message("the game is over"))
        if self.is_player_node() and not self._is_legal(action):
            rule, reason = self._illegal_reason(action)
            raise IllegalActionError(text, rule, reason)
        return action

    @abstractmethod
    def position(self) -> str:
        """The state in the game's documented position text (round-trips through
        :meth:`Game.state_from_position`). Shows everything, hidden parts included."""

    # -- results ------------------------------------------------------------------------
    @abstractmethod
    def returns(self) -> list[float]:
        """+1 per winner and -1 per loser at the end (G-4); zeros before."""

    def player_return(self, player: int) -> float:
        return self.returns()[player]

    def rewards(self) -> list[float]:
        """Per-step rewards: the returns, paid on the final step (terminal reward model)."""
        return self.returns() if self.is_terminal() else [0.0] * self._game.num_players()

    def scores(self) -> list[float]:
        """Points, for games that keep score (G-4: reported apart from returns)."""
        return [0.0] * self._game.num_players()

    # -- views (G-3) --------------------------------------------------------------------
    def view(self, player: int | None, *, ended: bool = False) -> View:
        """What ``player`` may see now (``None``: a spectator). The one cut for hidden info.

        ``ended``: the game was ended from outside its rules (a resignation, a loss on time)
        before they ended it; the view turns up what the rules turn up at their own end
        (G-5), as :meth:`_ended_view` says.
        """
        if player is not None:
            self._check_player(player)
        if ended and not self.is_terminal():
            return self._ended_view(player)
        return self._view(player)

    def _ended_view(self, player: int | None) -> View:
        """``player``'s view of a game ended before its rules ended it (G-5). A game that
        hides nothing has nothing to turn up: its usual view."""
        return self._view(player)

    @abstractmethod
    def _view(self, player: int | None) -> View:
        """Build ``player``'s view: a JSON-serialisable dict."""

    @abstractmethod
    def _render_view(self, view: View) -> str:
        """A human-readable text of a view."""

    @abstractmethod
    def _tensor_from_view(self, view: View) -> np.ndarray:
        """The observation tensor of a view, shaped ``game.observation_tensor_shape()``."""

    def observation_string(self, player: int | None = None) -> str:
        return self._render_view(self.view(player))

    def observation_tensor(self, player: int) -> np.ndarray:
        return self._tensor_from_view(self.view(player))

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` has observed, in order, with perfect recall (OpenSpiel's
        meaning): equal for two histories exactly when the player cannot tell them apart.

        Perfect-information games use the history; games with hidden information replay it and
        record what the player's view showed after each action (:mod:`parlour.core.infostate`).
        """
        self._check_player(player)
        if self._game.get_type().information is Information.PERFECT:
            return infostate.history_information_state_string(self, player)
        return infostate.recorded_information_state_string(self, player)

    def information_state_tensor(self, player: int) -> np.ndarray:
        """The information state as a flat float32 vector of
        ``game.information_state_tensor_shape()``; see :mod:`parlour.core.infostate`."""
        self._check_player(player)
        if self._game.get_type().information is Information.PERFECT:
            return infostate.history_information_state_tensor(self, player)
        return infostate.recorded_information_state_tensor(self, player)

    def _information_step_row(
        self, player: int, actor: int, seen: str, before: View, after: View
    ) -> np.ndarray:
        """One step of ``player``'s record as ``game.information_step_width()`` numbers,
        from what they were shown only: the actor, the action as announced to them, and their
        view before and after. Games with hidden information implement it."""
        raise NotImplementedError(f"{self._game.name} records no information-state rows")

    def _check_player(self, player: int) -> None:
        if not isinstance(player, (int, np.integer)) or not 0 <= player < self._game.num_players():
            raise ValueError(f"no player {player} in a {self._game.num_players()}-player game")

    def sample_world(self, player: int, rng: random.Random) -> Self:
        """A full state consistent with ``player``'s view, drawn from the hidden possibilities.

        Information-set search uses it; a game of perfect information returns a copy.
        Games of imperfect information override it.
        """
        return self.clone()

    # -- copies and display --------------------------------------------------------------
    def clone(self) -> Self:
        """An independent copy. Games with large mutable parts override this for speed."""
        twin = copy.copy(self)
        twin.__dict__.update(
            {k: copy.deepcopy(v) for k, v in self.__dict__.items() if k not in _SHARED}
        )
        return twin

    def __str__(self) -> str:
        return self.observation_string(None)

    def __repr__(self) -> str:
        return f"{self._game!r}.state_from_position({self.position()!r})"


_SHARED = frozenset({"_game", "_info_records", "_info_root"})
"""State attributes that clones share instead of copying (immutable or never mutated)."""


def pick_chance_outcome(outcomes: Sequence[tuple[int, float]], r: float) -> int:
    """The chance outcome that ``r`` (uniform in [0, 1)) falls on, outcomes in listed order.

    Every caller that resolves chance (terminal play, agents, the arena) uses this one rule,
    so the same seed gives the same game everywhere.

    >>> outcomes = [(0, 0.5), (1, 0.25), (2, 0.25)]
    >>> [pick_chance_outcome(outcomes, r) for r in (0.0, 0.49, 0.5, 0.8, 0.999)]
    [0, 0, 1, 2, 2]
    """
    for action, probability in outcomes:
        r -= probability
        if r < 0:
            return action
    return outcomes[-1][0]


def parse_position_error(game: str, text: str | None, why: str) -> NotationError:
    """The error for a position text that cannot be read: every game words it alike.

    ``text`` is quoted when given (a long multi-line text may be left out with ``None``).

    >>> print(parse_position_error("stomple", "x 0", "expected 7 fields"))
    stomple: bad position text 'x 0': expected 7 fields (see docs/rules/stomple.md)
    """
    quoted = "" if text is None else f" {text!r}"
    return NotationError(
        f"{game}: bad position text{quoted}: {why} (see docs/rules/{game}.md)"
    )
