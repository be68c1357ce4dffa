"""parlour: Clobber, Stomple, Stomp the Plank and GobbleStones, for players and researchers.

>>> import parlour
>>> game = parlour.load_game("clobber", rows=5, columns=6)
>>> state = game.new_initial_state()
>>> state.action_to_string(state.legal_actions()[0])
'a5b5'
"""

from parlour import games as _games  # noqa: F401  (registers the built-in games)
from parlour._version import __version__
from parlour.core import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Game,
    GameRecord,
    IllegalActionError,
    InvalidParameterError,
    NotationError,
    ParlourError,
    RulesVersionError,
    State,
    UnknownGameError,
    list_games,
    load_game,
)

__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "InvalidParameterError",
    "NotationError",
    "ParlourError",
    "RulesVersionError",
    "State",
    "UnknownGameError",
    "__version__",
    "list_games",
    "load_game",
]
