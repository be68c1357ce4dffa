"""The rules of each game for people, as the game ships them: ``rules.md`` in the game's
package, in the game's own words (no ruling ids, engine parameters or seats from 0), with its
pictures of real positions.

A picture is a fenced ``board`` block, a TOML table::

    position = "x..../..oxx/..... o"     # the game's position text
    params = { rows = 3, columns = 5 }   # game parameters, if the position needs them
    moves = ["c2d2"]                     # moves played from it (the last one is marked)
    viewer = 0                           # whose view to draw (default: a spectator's)
    caption = "White's stone on c2 captures the black stone on d2."

:func:`figure` plays it through the engine (every move by ``apply_action``), so a picture is a
real position, seen through the one cut for hidden information (``state.view``). The web's
``/rules/GAME`` page (:mod:`parlour.server.web.rules`) and ``parlour rules GAME`` in the terminal
both draw from here, each with its own board code.
"""

from __future__ import annotations

import importlib
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from parlour.core import CHANCE_PLAYER, State, game_class, list_games, load_game

FILE = "rules.md"
FENCE = "board"
"""The fence's info string of a picture."""
FIGURE_KEYS = frozenset({"position", "params", "moves", "viewer", "caption"})


class RulesTextError(ValueError):
    """A ``board`` block that does not describe a real position (a bug in the text)."""


@dataclass(frozen=True)
class Figure:
    """A picture of the rules: the position after its moves, and how it came."""

    state: State[Any]
    viewer: int | None
    previous: dict[str, Any] | None
    """The viewer's view before the last move (what changed is marked)."""
    last: dict[str, Any] | None
    """The last move as the viewer may read it: ``{"player", "text"}``."""
    caption: str


def _package(game: str) -> str:
    return ".".join(game_class(game).__module__.split(".")[:3])


@lru_cache(maxsize=16)
def rules_markdown(game: str) -> str | None:
    """The player's rules text of ``game`` (in English, the catalog's source), or ``None`` if
    none is shipped."""
    if game not in list_games():
        return None
    source = resources.files(importlib.import_module(_package(game))).joinpath(FILE)
    return source.read_text(encoding="utf-8") if source.is_file() else None


def figure(game: str, block: str) -> Figure:
    """The position a ``board`` block describes, its moves played by the engine."""
    try:
        spec = tomllib.loads(block)
    except tomllib.TOMLDecodeError as exc:
        raise RulesTextError(f"{game}: a board block is not TOML: {exc}") from None
    unknown = set(spec) - FIGURE_KEYS
    if unknown or "position" not in spec or "caption" not in spec:
        raise RulesTextError(f"{game}: a board block gives position and caption "
                             f"(and maybe {', '.join(sorted(FIGURE_KEYS))}), not {sorted(spec)}")
    viewer = spec.get("viewer")
    state = load_game(game, **spec.get("params", {})).state_from_position(spec["position"])
    previous = None
    last = None
    for text in spec.get("moves", []):
        previous = state.view(viewer)
        for action in state.string_to_actions(text):
            mover = state.current_player()
            seen = (state.safe_action_string(action, viewer) if mover == viewer
                    else state.public_action_string(action))
            state.apply_action(action)
            if mover != CHANCE_PLAYER:
                last = {"player": mover, "text": seen}
    return Figure(state, viewer, previous, last, str(spec["caption"]))
