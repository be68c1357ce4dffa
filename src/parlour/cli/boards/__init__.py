"""Rich drawings of each game's board, built from a player's view (never the full state).

A game's drawing lives in ``parlour.cli.boards.<module>`` where ``<module>`` is the game's name
with ``-`` as ``_`` (``stomp-the-plank`` -> ``stomp_the_plank``) and defines
``render(view: dict, names: Sequence[str] | None) -> rich.console.RenderableType`` (``names``:
the seats as the players call them). Games without one are shown as their observation text.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from rich.console import RenderableType
from rich.text import Text

from parlour.core import State


def render_board(
    state: State, viewer: int | None, names: Sequence[str] | None = None
) -> RenderableType:
    """The board as ``viewer`` (a player, or ``None`` for a spectator) may see it; ``names``
    are the seats' names (by default "Player 1", "Player 2"...: players count from 1)."""
    module_name = f"{__name__}.{state.game.name.replace('-', '_')}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return Text(state.observation_string(viewer))
    return module.render(state.view(viewer), names)
