"""The shape of the API tokens' answers (``/api/tokens``), each a :class:`TypedDict` as in
:mod:`parlour.server.messages.schemas`. A token's secret appears only in :class:`NewToken`."""

from __future__ import annotations

from typing_extensions import TypedDict


class TokenInfo(TypedDict):
    """A token as its account lists it: never its secret."""

    id: str
    name: str
    scopes: list[str]
    created_at: float
    used_at: float | None


class NewToken(TokenInfo):
    """``POST /api/tokens``: the new token, with its secret (``token``) shown this once."""

    token: str


class TokenList(TypedDict):
    """``GET /api/tokens``: the account's tokens, and each scope with what it allows."""

    tokens: list[TokenInfo]
    scopes: dict[str, str]


class Revoked(TypedDict):
    revoked: bool
