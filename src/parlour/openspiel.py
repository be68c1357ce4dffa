"""parlour games in OpenSpiel: importing this registers every game with ``pyspiel``.

>>> import pyspiel
>>> import parlour.openspiel
>>> game = pyspiel.load_game("parlour_clobber", {"rows": 3, "columns": 4})
>>> game.num_distinct_actions()
48

Game names are ``parlour_<name>`` (``parlour_stomp_the_plank``); :func:`load` takes parlour's
own names and keywords. See :mod:`parlour.rl.spiel` and docs/research.md.
"""

from parlour.core.extras import needs_extra

with needs_extra("rl", "the OpenSpiel games"):
    from parlour.rl.spiel import (
        SpielGame,
        SpielState,
        load,
        register,
        register_all,
        spiel_game_info,
        spiel_game_type,
        spiel_name,
        unwrap,
    )

__all__ = [
    "SpielGame",
    "SpielState",
    "load",
    "register",
    "register_all",
    "spiel_game_info",
    "spiel_game_type",
    "spiel_name",
    "unwrap",
]
