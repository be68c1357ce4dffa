"""The table of games by name: ``load_game`` and ``list_games``.

Games register themselves with :func:`register_game`; the core knows none of them, so imports
point one way (core <- games).
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from parlour.core.errors import InvalidParameterError, UnknownGameError
from parlour.core.game import Game

_GAMES: dict[str, type[Game]] = {}
G = TypeVar("G", bound=type[Game])


def register_game(cls: G) -> G:
    """Class decorator: make ``cls`` loadable by its ``game_type.short_name``."""
    name = cls.game_type.short_name
    if name in _GAMES and _GAMES[name] is not cls:
        raise ValueError(f"a different game is already registered as {name!r}")
    _GAMES[name] = cls
    return cls


def list_games() -> list[str]:
    """The names of every registered game, sorted."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    key = name.strip().lower().replace("_", "-")
    if key not in _GAMES:
        raise UnknownGameError(name, _GAMES)
    return _GAMES[key]


_CALL = re.compile(r"^\s*([\w-]+)\s*\((.*)\)\s*$", re.S)


def parse_game_string(text: str) -> tuple[str, dict[str, str]]:
    """Split OpenSpiel's ``"clobber(rows=3,columns=4)"`` form into a name and parameters.

    >>> parse_game_string("clobber(rows=3,columns=4)")
    ('clobber', {'rows': '3', 'columns': '4'})
    >>> parse_game_string("stomple")
    ('stomple', {})
    """
    match = _CALL.match(text)
    if not match:
        return text.strip(), {}
    name, body = match.group(1), match.group(2).strip()
    params: dict[str, str] = {}
    if body:
        for part in body.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise InvalidParameterError(name, f"cannot read parameter {part.strip()!r}")
            params[key.strip()] = value.strip()
    return name, params


def load_game(name: str, **params: Any) -> Game:
    """Build a configured game: ``load_game("clobber", rows=6, columns=7)``.

    ``name`` may also carry parameters in OpenSpiel's form, ``"clobber(rows=6,columns=7)"``.
    Unknown games and parameters raise errors that list the valid ones.
    """
    base, inline = parse_game_string(name)
    return game_class(base)(**{**inline, **params})
