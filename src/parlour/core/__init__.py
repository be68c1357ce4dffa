"""The engine every parlour game shares: base classes, errors, the registry and records."""

from parlour.core.errors import (
    IllegalActionError,
    InvalidParameterError,
    NotationError,
    ParlourError,
    RulesVersionError,
    UnknownGameError,
)
from parlour.core.extras import MissingExtraError, compiled_module, needs_extra
from parlour.core.game import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    ChanceMode,
    Game,
    GameInfo,
    GameType,
    Information,
    Param,
    State,
    SupportsRandom,
    Utility,
    parse_position_error,
    pick_chance_outcome,
)
from parlour.core.infostate import View
from parlour.core.memory import SeatMemory
from parlour.core.presentation import Presentation, Turn, presentation, register_presentation
from parlour.core.record import GameRecord, RecordError
from parlour.core.registry import game_class, list_games, load_game, register_game

__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "ChanceMode",
    "Game",
    "GameInfo",
    "GameRecord",
    "GameType",
    "IllegalActionError",
    "Information",
    "InvalidParameterError",
    "MissingExtraError",
    "NotationError",
    "Param",
    "ParlourError",
    "Presentation",
    "RecordError",
    "RulesVersionError",
    "SeatMemory",
    "State",
    "SupportsRandom",
    "Turn",
    "UnknownGameError",
    "Utility",
    "View",
    "compiled_module",
    "game_class",
    "list_games",
    "load_game",
    "needs_extra",
    "parse_position_error",
    "pick_chance_outcome",
    "presentation",
    "register_game",
    "register_presentation",
]
