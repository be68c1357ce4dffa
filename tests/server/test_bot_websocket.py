"""The Bot API's streams as websockets (issue 31, docs/bots.md): ``/api/bot/ws`` and
``/api/bot/game/{id}/ws`` carry the lines of ``GET /api/bot/stream`` and
``GET /api/bot/game/{id}/stream``, from the same producers, with the token on the upgrade.

A real server process, a real websocket client (the ``websockets`` package, through
:class:`parlour.client.BotClient` and directly)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from parlour.client import BotClient, RequestRefused

from .helpers import ServerProcess, account, run_async
from .test_bots import assert_streams_show_seat_views, bot_account


def ws_url(server: ServerProcess, path: str) -> str:
    return "ws" + server.base.removeprefix("http") + path


async def refusal(server: ServerProcess, path: str, headers: dict[str, str]
                  ) -> tuple[dict[str, Any], int | None]:
    """The one message a refused websocket sends, and its close code."""
    async with connect(ws_url(server, path), additional_headers=headers) as socket:
        message = json.loads(await socket.recv())
        with pytest.raises(ConnectionClosed):
            await socket.recv()
        return message, socket.close_code


def test_bad_tokens_and_scopes_are_refused_on_the_websockets(server: ServerProcess):
    """The upgrade's Authorization header is checked as the HTTP streams check it: the
    reason as one ``error`` message, then the close code 4000 + the HTTP status."""
    person = account(server, "ws-person")
    reader = person.post("/api/tokens", json={"name": "r", "scopes": ["tables:read"]}).json()
    _browser, token = bot_account(server, "ws-owner")
    cases = [
        ("/api/bot/ws", {"Authorization": "Bearer plr_" + "A" * 43}, 401, "not valid"),
        ("/api/bot/ws", {}, 401, "bot:play token"),
        ("/api/bot/ws", {"Authorization": "Basic eDp5"}, 401, "Bearer"),
        ("/api/bot/ws", {"Authorization": f"Bearer {reader['token']}"}, 403,
         "lacks the bot:play scope"),
        ("/api/bot/game/nosuchtable/ws", {"Authorization": f"Bearer {token}"}, 404,
         "no seat"),
    ]
    for path, headers, status, words in cases:
        message, code = run_async(lambda p=path, h=headers: refusal(server, p, h))
        assert message["type"] == "error" and message["status"] == status, message
        assert words in message["message"]
        assert code == 4000 + status

    async def through_client() -> None:
        async with BotClient(server.base, "plr_" + "B" * 43, transport="websocket") as bot:
            async for _event in bot.events():
                pytest.fail("a forged token heard an event")

    with pytest.raises(RequestRefused) as refused:
        run_async(through_client)
    assert refused.value.status == 401


def comparable(lines: list[dict[str, Any]]) -> list[Any]:
    """A game stream's lines as the game shows them (what each says of the game, in order,
    a state sent again unchanged counted once: which repeats a connection gets, e.g. when a
    seat comes online, depends on when it joined)."""
    out: list[Any] = []
    for line in lines:
        if line["type"] == "state":
            key = ("state", line["version"], line["view"], line["legal"], line["to_act"],
                   line["terminal"])
        else:
            key = (line["type"], line["id"], line["seat"], line["players"])
        if not out or out[-1] != key:
            out.append(key)
    return out


def test_the_websockets_carry_the_same_lines_as_the_ndjson_streams(server: ServerProcess):
    """One GobbleStones bluffing game, heard by the same bot account on both transports at
    once: the event streams announce the same challenge, start and finish, and the game
    streams carry the same states (each the seat's view, G-3), move for move."""
    tokens = {name: bot_account(server, name)[1] for name in ("ws-ann", "ws-bob")}
    heard: dict[str, list[dict[str, Any]]] = {"ndjson": [], "websocket": []}
    events: dict[str, list[dict[str, Any]]] = {"ndjson": [], "websocket": []}
    rng = random.Random(8)

    async def listen(transport: str, started: asyncio.Event) -> None:
        async with BotClient(server.base, tokens["ws-bob"], transport=transport) as bob:
            async for event in bob.events():
                events[transport].append(event)
                started.set()
                if event["type"] == "gameFinish":
                    return

    async def watch(transport: str, table: str, ready: asyncio.Event) -> None:
        async with BotClient(server.base, tokens["ws-bob"], transport=transport) as bob:
            async for line in bob.game(table):
                heard[transport].append(line)
                ready.set()

    def seen_version() -> int:
        return min((lines[-1].get("version", -1) if lines else -1) for lines in heard.values())

    async def play(name: str, table: str) -> None:
        async with BotClient(server.base, tokens[name]) as client:
            async for line in client.game(table):
                if line.get("type") != "state" or line["terminal"]:
                    continue
                if line["to_act"] == line["viewer"] and line["legal"]:
                    while seen_version() < line["version"]:  # both transports saw it first
                        await asyncio.sleep(0.005)
                    action = rng.choice(line["legal"])["a"]
                    for _try in range(20):  # as `parlour bot` does: a 429 waits and tries again
                        try:
                            await client.move(table, action, line["version"])
                        except RequestRefused as exc:
                            assert exc.status in (409, 429), exc
                            if exc.status == 429:
                                await asyncio.sleep(exc.retry_after or 1.0)
                                continue
                        break

    async def main() -> str:
        connected = {t: asyncio.Event() for t in events}
        listeners = [asyncio.create_task(listen(t, connected[t])) for t in events]
        async with BotClient(server.base, tokens["ws-ann"]) as ann:
            # the event streams send nothing before an event: the challenge is the first
            challenge = await ann.challenge("ws-bob", "gobblestones", {"bluff": True})
            for event in connected.values():
                await asyncio.wait_for(event.wait(), 30)
        async with BotClient(server.base, tokens["ws-bob"]) as bob:
            table: str = (await bob.accept(challenge["id"]))["table"]
        ready = {t: asyncio.Event() for t in heard}
        watchers = [asyncio.create_task(watch(t, table, ready[t])) for t in heard]
        for event in ready.values():
            await asyncio.wait_for(event.wait(), 30)
        await asyncio.gather(play("ws-ann", table), play("ws-bob", table), *watchers)
        await asyncio.wait_for(asyncio.gather(*listeners), 60)
        return table

    table = run_async(main, 300)
    kinds = [[(e["type"], e.get("challenge", e.get("game", {})).get("id")) for e in found]
             for found in events.values()]
    assert kinds[0] == kinds[1]
    assert [k for k, _id in kinds[0]] == ["challenge", "gameStart", "gameFinish"]
    assert events["ndjson"][-1] == events["websocket"][-1]  # the finish, outcome and all
    assert comparable(heard["ndjson"]) == comparable(heard["websocket"])
    assert len(comparable(heard["websocket"])) > 10
    for transport in heard:
        assert_streams_show_seat_views(server, table, {"ws-bob": heard[transport]})
