"""A bot across two server processes on one PostgreSQL (issue 31): its event stream on one
process hears of a challenge sent to the other, accepted there; its game stream on the first
shows each move a person makes on the second; a token revoked on one stops on the other."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest

from parlour.client import BotClient
from parlour.server.persistence.devdb import throwaway_cluster

from .helpers import TIMEOUT, ServerProcess, account, run_async
from .test_bots import bearer, bot_account


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    folder = tmp_path_factory.mktemp("bots-pg")
    with throwaway_cluster() as url:
        processes = [ServerProcess(folder / f"{n}.db", db_url=url,
                                   log_path=folder / f"{n}.log").start() for n in "ab"]
        yield processes
        for process in processes:
            process.stop()


def test_a_bot_on_one_process_plays_a_person_on_the_other(two: list[ServerProcess]):
    a, b = two
    person = account(b, "pg-person")
    _bot, token = bot_account(a, "pg-bot")

    async def scenario() -> dict[str, Any]:
        async with BotClient(a.base, token) as bot:
            events = bot.events()
            sent = person.post("/api/challenges", json={"opponent": "pg-bot", "game": "clobber",
                                                        "params": {"size": "3x4"}}).json()
            first = await anext(events)
            assert first["type"] == "challenge" and first["challenge"]["id"] == sent["id"]
            accepted = b.post(f"/api/challenges/{sent['id']}/accept", headers=bearer(token))
            assert accepted.status_code == 200  # answered on the other process
            start = await anext(events)
            assert start["type"] == "gameStart"
            table = start["game"]["id"]
            link = person.get(f"/api/challenges/{sent['id']}").json()["url"]
            seat = link.rsplit("/", 1)[1]
            rng = random.Random(5)
            answered = -1  # a state may come again at one version (as the runner knows)
            async for line in bot.game(table):  # on process a; the person plays on b
                if line.get("type") != "state":
                    continue
                if line["terminal"]:
                    return line
                if line["version"] == answered:
                    continue
                answered = line["version"]
                if line["to_act"] == line["viewer"] and line["legal"]:
                    await bot.move(table, rng.choice(line["legal"])["a"], line["version"])
                elif line["to_act"] >= 0:  # the person's turn: they play it on process b
                    for _try in range(200):
                        mine = b.get(f"/api/play/{seat}").json()
                        if mine["version"] >= line["version"]:
                            break
                        await asyncio.sleep(0.1)  # b has not heard of the bot's move yet
                    if mine["legal"]:
                        played = b.post(f"/api/play/{seat}/act", {
                            "type": "act", "client_id": f"p{mine['version']}",
                            "steps": [mine["legal"][0]["a"]], "at": mine["version"]})
                        assert played.status_code == 200, played.text
        raise AssertionError("the stream ended before the game")

    last = run_async(scenario, TIMEOUT * 3)
    assert last["terminal"] and {s["name"] for s in last["seats"]} == {"pg-bot", "pg-person"}


def test_a_token_revoked_on_one_process_stops_on_the_other(two: list[ServerProcess]):
    a, b = two
    person = account(a, "pg-revoker")
    made = person.post("/api/tokens", json={"name": "r", "scopes": ["tables:read"]}).json()
    assert b.get("/api/account/games", headers=bearer(made["token"])).status_code == 200
    assert person.delete(f"/api/tokens/{made['id']}").status_code == 200
    assert b.get("/api/account/games", headers=bearer(made["token"])).status_code == 401
