"""The Bot API over HTTP (docs/bots.md): one :class:`BotClient` per server and token.

The streams come as newline-delimited JSON (the default) or, with ``transport="websocket"``,
as the same lines over the Bot API's websockets (``/api/bot/ws``, ``/api/bot/game/{id}/ws``;
the ``websockets`` package)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from parlour.core.extras import needs_extra

with needs_extra("bot", "the bot client"):
    import httpx

TRANSPORTS = ("ndjson", "websocket")
"""How the streams come: ``ndjson`` (``GET .../stream``) or ``websocket`` (``.../ws``)."""
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

    def __init__(self, server: str, token: str, *, timeout: float = 30.0,
                 transport: str = "ndjson") -> None:
        if transport not in TRANSPORTS:
            raise ValueError(f"the streams' transport is one of {', '.join(TRANSPORTS)}")
        self.server = server.rstrip("/")
        self.transport = transport
        self._token = token
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

    async def _messages(self, path: str) -> AsyncIterator[dict[str, Any]]:
        """The same lines over the websocket at ``path``: one message each; a refusal is an
        ``error`` message and a close code of ``4000 + status``."""
        with needs_extra("bot", "the bot client's websocket streams"):
            from websockets.asyncio.client import connect
            from websockets.exceptions import ConnectionClosedOK
        url = "ws" + self.server.removeprefix("http") + path
        headers = {"Authorization": f"Bearer {self._token}"}
        async with connect(url, additional_headers=headers, open_timeout=10.0,
                           ping_interval=STREAM_READ_SECONDS / 3,
                           ping_timeout=STREAM_READ_SECONDS) as socket:
            first = True
            try:
                async for text in socket:
                    message = json.loads(text)
                    if first and message.get("type") == "error" and "status" in message:
                        raise RequestRefused(int(message["status"]),
                                             {"detail": message.get("message")})
                    first = False
                    yield message
            except ConnectionClosedOK:
                return

    def _stream(self, name: str) -> AsyncIterator[dict[str, Any]]:
        if self.transport == "websocket":
            return self._messages(f"{name}/ws")
        return self._lines(f"{name}/stream")

    def events(self) -> AsyncIterator[dict[str, Any]]:
        """The account's events: ``challenge``, ``challengeGone``, ``gameStart``,
        ``gameFinish`` (ends when the connection does)."""
        return self._stream("/api/bot")

    def game(self, game_id: str) -> AsyncIterator[dict[str, Any]]:
        """One game as the bot's seat sees it: ``gameFull``, then each ``state`` message (the
        one a web seat receives); ends after the game's last state."""
        return self._stream(f"/api/bot/game/{game_id}")
