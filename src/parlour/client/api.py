"""The Bot API over HTTP (docs/bots.md): one :class:`BotClient` per server and token."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from parlour.core.extras import needs_extra

with needs_extra("bot", "the bot client"):
    import httpx

STREAM_READ_SECONDS = 30.0
"""A stream that sends nothing, not even its keep-alive line (every 7 s), for this long is
taken for dead and connected again."""


class RequestRefused(ValueError):
    """The server refused a request: ``status`` and its reason (``detail``, or the mover's
    ``message`` naming the rule a refused move breaks)."""

    def __init__(self, status: int, body: Any, retry_after: float | None = None) -> None:
        self.status = status
        self.body = body
        self.retry_after = retry_after
        """Seconds to wait before trying again (a ``429``'s ``Retry-After``)."""
        reason = body.get("detail") or body.get("message") if isinstance(body, dict) else body
        super().__init__(f"{status}: {reason}")


class BotClient:
    """The calls a bot makes. ``server`` is the server's address (``http://host:port``)."""

    def __init__(self, server: str, token: str, *, timeout: float = 30.0) -> None:
        self.server = server.rstrip("/")
        self.http = httpx.AsyncClient(
            base_url=self.server, timeout=timeout,
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
            limits=httpx.Limits(max_connections=400, max_keepalive_connections=100))

    async def close(self) -> None:
        await self.http.aclose()

    async def __aenter__(self) -> BotClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- calls -------------------------------------------------------------------------------
    async def _call(self, method: str, path: str, body: Any = None,
                    ok: tuple[int, ...] = (200, 201)) -> dict[str, Any]:
        response = await self.http.request(method, path, json=body)
        try:
            data = response.json()
        except ValueError:
            data = {"detail": response.text[:200]}
        if response.status_code not in ok:
            wait = response.headers.get("retry-after")
            raise RequestRefused(response.status_code, data,
                                 float(wait) if wait and wait.isdigit() else None)
        result: dict[str, Any] = data
        return result

    async def me(self) -> dict[str, Any]:
        return await self._call("GET", "/api/account/games")

    async def challenge(self, opponent: str, game: str, params: dict[str, Any] | None = None,
                        *, rated: bool = False, clock: dict[str, Any] | None = None
                        ) -> dict[str, Any]:
        return await self._call("POST", "/api/challenges", {
            "opponent": opponent, "game": game, "params": params or {}, "rated": rated,
            "clock": clock})

    async def accept(self, challenge_id: str) -> dict[str, Any]:
        return await self._call("POST", f"/api/challenges/{challenge_id}/accept")

    async def decline(self, challenge_id: str, reason: str | None = None) -> dict[str, Any]:
        return await self._call("POST", f"/api/challenges/{challenge_id}/decline",
                                {"reason": reason})

    async def move(self, game_id: str, action: str | int, at: int | None = None
                   ) -> dict[str, Any]:
        """Play ``action`` (a move in the game's notation, or an action id from the state's
        ``legal`` list); :class:`RequestRefused` if refused (400: the move itself, naming its
        rule; 409: not now, e.g. not the bot's turn)."""
        body = {"id": action} if isinstance(action, int) else {"action": action}
        return await self._call("POST", f"/api/bot/game/{game_id}/move", {**body, "at": at})

    async def resign(self, game_id: str) -> dict[str, Any]:
        return await self._call("POST", f"/api/bot/game/{game_id}/resign")

    # -- streams -----------------------------------------------------------------------------
    async def _lines(self, path: str) -> AsyncIterator[dict[str, Any]]:
        timeout = httpx.Timeout(10.0, read=STREAM_READ_SECONDS)
        async with self.http.stream("GET", path, timeout=timeout) as response:
            if response.status_code != 200:
                body = await response.aread()
                try:
                    data = json.loads(body)
                except ValueError:
                    data = {"detail": body[:200].decode("utf-8", "replace")}
                raise RequestRefused(response.status_code, data)
            async for text in response.aiter_lines():
                if text.strip():
                    yield json.loads(text)

    def events(self) -> AsyncIterator[dict[str, Any]]:
        """The account's events: ``challenge``, ``challengeGone``, ``gameStart``,
        ``gameFinish`` (ends when the connection does)."""
        return self._lines("/api/bot/stream")

    def game(self, game_id: str) -> AsyncIterator[dict[str, Any]]:
        """One game as the bot's seat sees it: ``gameFull``, then each ``state`` message (the
        one a web seat receives); ends after the game's last state."""
        return self._lines(f"/api/bot/game/{game_id}/stream")
