"""Every parlour game as an OpenSpiel game, so OpenSpiel's algorithms run on it.

Importing this module registers each parlour game with ``pyspiel`` as a *Python game* named
``parlour_<name>`` (dashes become underscores: ``parlour_stomp_the_plank``), with all of its
parameters. The OpenSpiel game type and sizes come from the game's own declarations
(:class:`parlour.core.GameType`, :class:`parlour.core.GameInfo`) and every state call is
delegated to a parlour state, so the rules stay in ``parlour.games`` and ids, returns and
tensors are parlour's own::

    import pyspiel
    import parlour.openspiel

    game = pyspiel.load_game("parlour_clobber", {"rows": 6, "columns": 7})
    state = game.new_initial_state()

Two things OpenSpiel's parameters cannot say are translated, in both directions:

* a parameter whose parlour default is ``None`` (Clobber's ``size``, Stomple's ``target``) gets
  an OpenSpiel default that parlour would refuse and so can only mean "not given": ``""`` for
  text, ``0`` (or ``-1``) for numbers;
* OpenSpiel's game strings (``name(key=value,...)``) reserve ``,``, ``=``, ``(`` and ``)``, so
  inside a text value those (and ``%``) travel percent-encoded:
  ``parlour_stomp_the_plank(crates=1%2C2%2C4)``. Plain values are accepted on the way in.
"""

from __future__ import annotations

import urllib.parse
from typing import Any, ClassVar

import numpy as np
import pyspiel

from parlour.core import (
    ChanceMode,
    Game,
    Information,
    Param,
    State,
    Utility,
    game_class,
    list_games,
    load_game,
)

PREFIX = "parlour_"

_DYNAMICS = {"sequential": pyspiel.GameType.Dynamics.SEQUENTIAL}
_CHANCE = {
    ChanceMode.DETERMINISTIC: pyspiel.GameType.ChanceMode.DETERMINISTIC,
    ChanceMode.EXPLICIT_STOCHASTIC: pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
}
_INFORMATION = {
    Information.PERFECT: pyspiel.GameType.Information.PERFECT_INFORMATION,
    Information.IMPERFECT: pyspiel.GameType.Information.IMPERFECT_INFORMATION,
}
_UTILITY = {
    Utility.ZERO_SUM: pyspiel.GameType.Utility.ZERO_SUM,
    Utility.GENERAL_SUM: pyspiel.GameType.Utility.GENERAL_SUM,
}
_REWARD = {
    "terminal": pyspiel.GameType.RewardModel.TERMINAL,
    "rewards": pyspiel.GameType.RewardModel.REWARDS,
}
_RESERVED = {ch: f"%{ord(ch):02X}" for ch in "%,=()"}
"""Characters of OpenSpiel's game-string syntax, percent-encoded inside text values."""


def spiel_name(name: str) -> str:
    """The OpenSpiel name of a parlour game: ``stomp-the-plank`` -> ``parlour_stomp_the_plank``."""
    return PREFIX + name.replace("-", "_")


def _unset(param: Param) -> Any:
    """The OpenSpiel default of a parameter whose parlour default is ``None``.

    A value of the parameter's own type that parlour refuses, so that it cannot be mistaken
    for a real choice; ``""`` when there is none.
    """
    candidates = {int: (0, -1), float: (0.0, -1.0)}.get(param.kind, ())
    for value in candidates:
        if param.check is not None and param.check(value) is not None:
            return value
    return ""


def _specification(cls: type[Game]) -> dict[str, Any]:
    spec = {}
    for key, param in cls.parameters.items():
        default = _unset(param) if param.default is None else param.default
        spec[key] = _to_spiel(default)
    return spec


def _to_spiel(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    return "".join(_RESERVED.get(ch, ch) for ch in value)


def _from_spiel(value: Any) -> Any:
    return urllib.parse.unquote(value) if isinstance(value, str) and "%" in value else value


def to_spiel_params(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """Parlour keyword parameters as OpenSpiel parameters of the same game."""
    cls = game_class(name)
    spec = _specification(cls)
    try:
        values = {key: cls.parameters[key].convert(value) for key, value in params.items()}
    except (KeyError, ValueError):
        load_game(name, **params)  # raises parlour's error, which names the valid parameters
        raise
    out = {}
    for key, value in values.items():
        if value is None:
            continue
        out[key] = _to_spiel(str(value) if isinstance(spec[key], str) else value)
    return out


def from_spiel_params(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """OpenSpiel parameters as parlour keyword parameters (unset values dropped)."""
    spec = _specification(game_class(name))
    out = {}
    for key, value in params.items():
        if key in spec and spec[key] == value and game_class(name).parameters[key].default is None:
            continue
        out[key] = _from_spiel(value)
    return out


def spiel_game_type(name: str, game: Game | None = None) -> pyspiel.GameType:
    """The ``pyspiel.GameType`` of a parlour game, built from its declared :class:`GameType`.

    With ``game``, the type that configuration declares (a game may declare itself
    general-sum for more than two players, G-4); without, the registered class's type.
    """
    cls = game_class(name)
    kind = cls.game_type if game is None else game.get_type()
    return pyspiel.GameType(
        short_name=spiel_name(kind.short_name),
        long_name=f"{kind.long_name} (parlour)",
        dynamics=_DYNAMICS[kind.dynamics],
        chance_mode=_CHANCE[kind.chance_mode],
        information=_INFORMATION[kind.information],
        utility=_UTILITY[kind.utility],
        reward_model=_REWARD[kind.reward_model],
        max_num_players=kind.max_num_players,
        min_num_players=kind.min_num_players,
        provides_information_state_string=kind.provides_information_state_string,
        provides_information_state_tensor=kind.provides_information_state_tensor,
        provides_observation_string=kind.provides_observation_string,
        provides_observation_tensor=kind.provides_observation_tensor,
        parameter_specification=_specification(cls),
    )


def spiel_game_info(game: Game) -> pyspiel.GameInfo:
    """The ``pyspiel.GameInfo`` of a configured parlour game."""
    info = game.info()
    return pyspiel.GameInfo(
        num_distinct_actions=info.num_distinct_actions,
        max_chance_outcomes=info.max_chance_outcomes,
        num_players=info.num_players,
        min_utility=info.min_utility,
        max_utility=info.max_utility,
        # OpenSpiel allows a utility sum only for zero- and constant-sum game types.
        utility_sum=info.utility_sum if game.get_type().utility is Utility.ZERO_SUM else None,
        max_game_length=info.max_game_length,
    )


class _Held:
    """A parlour state inside an OpenSpiel state.

    OpenSpiel clones a Python state by deep-copying its attributes and serialises it by
    pickling them; this holder makes the first a parlour ``clone()`` (not a copy of the whole
    game) and the second a replay of the history (G-1), from the start or from a position.
    """

    __slots__ = ("root", "state")

    def __init__(self, state: State, root: str | None) -> None:
        self.state = state
        self.root = root  # position text the history starts from; None: the initial state

    def __deepcopy__(self, memo: dict) -> _Held:
        return _Held(self.state.clone(), self.root)

    def __reduce__(self):
        game = self.state.game
        return (
            _replay,
            (game.name, game.get_parameters(), self.root, self.state.history()),
        )


def _replay(name: str, params: dict, root: str | None, history: list[int]) -> _Held:
    game = load_game(name, **params)
    state = game.new_initial_state() if root is None else game.state_from_position(root)
    for action in history:
        state.apply_action(action)
    return _Held(state, root)


class SpielGame(pyspiel.Game):
    """A parlour game seen by OpenSpiel. One subclass per parlour game (see :func:`register`)."""

    parlour_name: ClassVar[str]
    spiel_type: ClassVar[pyspiel.GameType]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        game = load_game(self.parlour_name, **from_spiel_params(self.parlour_name, given))
        encoded = {k: _to_spiel(_from_spiel(v)) for k, v in given.items()}
        kind = spiel_game_type(self.parlour_name, game)
        super().__init__(kind, spiel_game_info(game), encoded)
        self.parlour_game = game

    def __reduce__(self):
        # pyspiel's own pickling rebuilds the C++ part only; rebuild from the game string.
        return (_load_game_string, (str(self),))

    def new_initial_state(self, position: str | None = None) -> SpielState:
        """The start of a game, or (given parlour position text) the state it describes."""
        if position is None:
            return SpielState(self, self.parlour_game.new_initial_state(), None)
        return SpielState(self, self.parlour_game.state_from_position(position), position)

    def make_py_observer(self, iig_obs_type=None, params=None) -> _Observer:
        return _Observer(self, iig_obs_type, params)


def _load_game_string(text: str) -> SpielGame:
    return pyspiel.load_game(text)


class SpielState(pyspiel.State):
    """An OpenSpiel state that delegates every call to a parlour state (``.parlour_state``)."""

    def __init__(self, game: SpielGame, state: State | None = None, root: str | None = None):
        super().__init__(game)
        if state is None:
            state = game.parlour_game.new_initial_state()
        self._held = _Held(state, root)

    @property
    def parlour_state(self) -> State:
        return self._held.state

    def current_player(self) -> int:
        return self._held.state.current_player()  # same ids: -1 chance, -4 terminal

    def _legal_actions(self, player: int) -> list[int]:
        return self._held.state.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._held.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._held.state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._held.state.action_to_string(action, player if player >= 0 else None)

    def is_terminal(self) -> bool:
        return self._held.state.is_terminal()

    def returns(self) -> list[float]:
        return self._held.state.returns()

    def rewards(self) -> list[float]:
        return self._held.state.rewards()

    def __str__(self) -> str:
        return self._held.state.position()


class _Observer:
    """OpenSpiel's observer interface over parlour's views (G-3: derived from the view only).

    The default observation type gives parlour's ``observation_tensor`` and
    ``observation_string``; the information-state type (perfect recall) gives parlour's
    ``information_state_string`` and ``information_state_tensor`` (flat, one size per
    configuration; see :mod:`parlour.core.infostate`).
    """

    def __init__(self, game: SpielGame, iig_obs_type, params) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        kind = iig_obs_type
        self.info_state = kind is not None and kind.perfect_recall
        if kind is not None and (
            not kind.public_info or kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "parlour games observe as one player sees the table (public and own private "
                "information); other observation types are not provided"
            )
        parlour_game = game.parlour_game
        if self.info_state:
            shape = parlour_game.information_state_tensor_shape()
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict: dict[str, np.ndarray] = {"info_state": self.tensor.reshape(shape)}
        else:
            shape = parlour_game.observation_tensor_shape()
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: SpielState, player: int) -> None:
        parlour_state = state.parlour_state
        if self.info_state:
            self.dict["info_state"][...] = parlour_state.information_state_tensor(player)
        else:
            self.dict["observation"][...] = parlour_state.observation_tensor(player)

    def string_from(self, state: SpielState, player: int) -> str:
        parlour_state = state.parlour_state
        if self.info_state:
            return parlour_state.information_state_string(player)
        return parlour_state.observation_string(player)


def register(name: str) -> str:
    """Register parlour game ``name`` with pyspiel (once); returns its OpenSpiel name."""
    short = spiel_name(game_class(name).game_type.short_name)
    if short in _REGISTERED:
        return short
    cls_name = "".join(part.title() for part in short.split("_")) + "Game"
    game_type = spiel_game_type(name)
    cls = type(cls_name, (SpielGame,), {"parlour_name": name, "spiel_type": game_type})
    cls.__module__ = __name__
    cls.__qualname__ = cls_name
    globals()[cls_name] = cls  # importable by name, so pickled games load again
    pyspiel.register_game(game_type, cls)
    _REGISTERED[short] = cls
    return short


_REGISTERED: dict[str, type[SpielGame]] = {}


def register_all() -> list[str]:
    """Register every parlour game not registered yet; returns all their OpenSpiel names."""
    return [register(name) for name in list_games()]


def load(name: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` for a parlour game by its parlour name: ``load("clobber", rows=3)``."""
    return pyspiel.load_game(register(name), to_spiel_params(name, params))


def unwrap(state: pyspiel.State) -> State:
    """The parlour state inside a state of a registered parlour game."""
    return state.parlour_state


register_all()
