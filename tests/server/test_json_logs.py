"""``parlour serve --log-format json`` (issue 64): one JSON object a line, with the request and
the table a line is about, and no secret in any line, whatever the requests carried."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

import httpx

from parlour.server.logs import TABLE_ID
from parlour.server.web.logs import JSONFormatter, scrub

from .helpers import PASSWORD, TIMEOUT, ServerProcess, account, token_of
from .prometheus import Prometheus

KEYS = {"time", "level", "logger", "message"}


def lines_of(server: ServerProcess) -> list[dict[str, Any]]:
    """Every line the server wrote, each parsed as JSON (a line that is not fails)."""
    text = server.log_path.read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_every_line_is_json_with_its_request_and_table_and_no_secret(tmp_path: Path):
    server = ServerProcess(tmp_path / "parlour.db", extra_args=("--log-format", "json"))
    server.start()
    try:
        # secrets of every kind, sent where a careless log would print them
        person = account(server, "log-reader")
        with httpx.Client(base_url=server.base, timeout=TIMEOUT) as browser:
            signed = browser.post("/api/session", json={"username": "log-reader",
                                                         "password": PASSWORD})
            assert signed.status_code == 200
            session = browser.cookies["parlour_session"]
            browser.post("/api/session", json={"username": "log-reader",
                                               "password": "a wrong secret phrase"})
            browser.get(f"/api/account?password={PASSWORD.replace(' ', '+')}")
        made = person.post("/api/tokens", json={"name": "logs", "scopes": ["tables:read"]})
        bot_token = made.json()["token"]
        assert server.get("/api/account/games",
                          headers={"Authorization": f"Bearer {bot_token}"}).status_code == 200
        server.get(f"/api/account/games?token={bot_token}")
        server.get(f"/api/play/{bot_token}")
        server.get(f"/api/me?session={session}")
        table = server.create("clobber", {"rows": 3, "columns": 4})
        seat = token_of(table["url"])
        invite = token_of(table["invites"][0]["url"])
        assert server.get(f"/play/{seat}").status_code == 200
        assert server.get(f"/api/play/{invite}?token={seat}").status_code == 200
        with server.client(table["url"]) as white:
            message = white.wait_state()
            assert white.act([message["legal"][0]["a"]], at=0)["type"] == "ack"
        person.close()

        def stored() -> list[dict[str, Any]]:
            return [line for line in lines_of(server)
                    if "stored moves" in line["message"]]

        moved = Prometheus.until(stored, what="the move's log line")
    finally:
        server.stop()
    lines = lines_of(server)
    assert all(set(line) >= KEYS for line in lines), [x for x in lines if not set(x) >= KEYS]
    assert {line["level"] for line in lines} <= {"debug", "info", "warning", "error",
                                                "critical"}
    assert moved[0]["table_id"] == table["table"] and moved[0]["logger"] == "parlour.server"
    access = [line for line in lines if line["logger"] == "uvicorn.access"]
    assert access and all(len(line["request_id"]) == 16 for line in access)
    assert len({line["request_id"] for line in access}) == len(access)  # one id a request
    assert any(line["path"].startswith("/play/<token>") for line in access)
    assert any("websocket" in line["message"].lower() and "<token>" in line["message"]
               for line in lines)
    text = server.log_path.read_text()
    for secret in (PASSWORD, PASSWORD.replace(" ", "+"), session, bot_token, seat, invite,
                   bot_token.removeprefix("plr_")):
        assert secret not in text, f"a secret reached the log: {secret[:6]}..."


def test_a_request_id_is_answered_to_the_client(tmp_path: Path):
    server = ServerProcess(tmp_path / "parlour.db", extra_args=("--log-format", "json"))
    server.start()
    try:
        first = server.get("/api/games").headers["x-request-id"]
        second = server.get("/api/games").headers["x-request-id"]
        assert first != second and len(first) == 16
        assert any(line.get("request_id") == first for line in Prometheus.until(
            lambda: [line for line in lines_of(server) if line.get("request_id") == first],
            what="the request's access line"))
    finally:
        server.stop()


def test_the_formatter_takes_secrets_out_of_tracebacks_too():
    try:
        raise ValueError("could not open /ws/play/AbCdEfGhIjKlMnOp with plr_SeCrEtToKeN123 "
                         '{"password": "hunter2 hunter2"} session=abcdefabcdef')
    except ValueError:
        record = logging.LogRecord("parlour.server", logging.ERROR, __file__, 1,
                                   "table %s: storing failed for %s", ("t123",
                                                                       "/play/QwErTyUiOp123456"),
                                   sys.exc_info())
    line = json.loads(JSONFormatter().format(record))
    assert line["table_id"] == "t123" and line["level"] == "error"
    assert line["message"] == "table t123: storing failed for /play/<token>"
    for secret in ("AbCdEfGhIjKlMnOp", "SeCrEtToKeN123", "hunter2", "abcdefabcdef"):
        assert secret not in line["exception"]
    assert "ValueError" in line["exception"]
    token = TABLE_ID.set("t999")  # a change to a table names it, whatever the message says
    try:
        plain = logging.LogRecord("parlour.server", logging.INFO, __file__, 1, "x", (), None)
        assert json.loads(JSONFormatter().format(plain))["table_id"] == "t999"
    finally:
        TABLE_ID.reset(token)
    assert scrub("Authorization: Bearer abc.def-ghi") == "Authorization: Bearer <secret>"
