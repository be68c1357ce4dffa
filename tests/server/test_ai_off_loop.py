"""A computer player thinking does not stop the server: it runs off the event loop."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from parlour.agents import Agent, register_agent
from parlour.server import create_app

from .helpers import Client, free_port

RELEASE = threading.Event()
THINKING = threading.Event()


class BlockingAgent(Agent):
    """Thinks until the test says stop: as long as the slowest search could."""

    name = "test-blocking"

    def step(self, state):
        THINKING.set()
        if not RELEASE.wait(timeout=60):
            raise RuntimeError("the test never released the agent")
        return state.legal_actions()[0]


@pytest.fixture()
def inprocess(tmp_path: Path) -> Iterator[str]:
    register_agent("test-blocking", BlockingAgent)
    app = create_app(
        f"sqlite:///{tmp_path / 'db.sqlite'}",
        ai_mode="thread",
        ai_delay=0,
        ai_deadline=60,
        extra_agents=("test-blocking",),
    )
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.05)
    yield f"127.0.0.1:{port}"
    RELEASE.set()
    server.should_exit = True
    thread.join(timeout=30)


def _client(host: str, path: str) -> Client:
    from websockets.sync.client import connect

    return Client(connect(f"ws://{host}/ws{path}", open_timeout=30).__enter__())


def test_other_tables_play_on_while_an_ai_thinks(inprocess: str):
    base = f"http://{inprocess}"
    RELEASE.clear()
    THINKING.clear()
    slow = httpx.post(f"{base}/api/tables", json={
        "game": "clobber", "seats": [{"kind": "ai", "agent": "test-blocking"}, {"kind": "me"}],
    }).json()
    assert THINKING.wait(timeout=30)  # the AI is now busy on its first move
    busy = httpx.get(f"{base}/api/play/{slow['url'].rsplit('/', 1)[1]}", timeout=10).json()
    assert busy["to_act"] == 0 and busy["version"] == 0
    other = httpx.post(f"{base}/api/tables", json={"game": "clobber"}, timeout=10).json()
    friend = other["invites"][0]["url"].rsplit("/", 1)[1]
    httpx.get(f"{base}/api/play/{friend}", timeout=10)  # the invited friend arrives
    with _client(inprocess, other["url"]) as me:
        message = me.wait_state(timeout=10)
        assert me.act([message["legal"][0]["a"]], at=0, )["type"] == "ack"
    assert httpx.get(f"{base}/healthz", timeout=10).status_code == 200
    RELEASE.set()
    with _client(inprocess, slow["url"]) as human:
        moved = human.wait_state(lambda m: m["version"] == 1, timeout=30)
        assert moved["last"]["player"] == 0 and moved["legal"]
