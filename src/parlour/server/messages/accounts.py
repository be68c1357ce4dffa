"""The shape of an account's own answers (``/api/me``, ``/api/whoami``, "Your games"), each a
:class:`TypedDict` as in :mod:`parlour.server.messages.schemas`."""

from __future__ import annotations

from typing_extensions import TypedDict


class AccountInfo(TypedDict):
    """An account as its owner reads it (never its password, sessions or tokens)."""

    username: str
    bot: bool
    created_at: float
    email: str | None
    email_confirmed: bool
    notify_email: bool


class AccountAnswer(TypedDict):
    """``/api/me``, ``/api/whoami`` (``null`` for a guest), ``/api/account/bot``."""

    account: AccountInfo | None


MyGame = TypedDict("MyGame", {
    "url": str, "table": str, "game": str, "title": str, "seats": list[int], "with": list[str],
    "finished": bool, "archived": bool, "your_turn": bool, "to_act": int | None,
    "rated": bool, "result": str | None, "updated_at": float,
})
"""One of the account's seat links, with whether it waits for this player."""


class MyGames(TypedDict):
    """``GET /api/me/games``: the account's games, newest first, and how many wait for it."""

    games: list[MyGame]
    waiting: int


class GamesJoined(TypedDict):
    joined: int
