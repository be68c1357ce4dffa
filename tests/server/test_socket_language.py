"""A page's websocket speaks the language its page was rendered in (``?lang=fr``), whatever
headers the browser sends with the handshake (issue 65: a French table named the computer in
English when the handshake carried no ``Accept-Language``)."""

from __future__ import annotations

import json

from websockets.sync.client import connect

from .helpers import TIMEOUT, ServerProcess, token_of


def _seat_names(server: ServerProcess, path: str, **headers: str) -> list[str | None]:
    with connect(server.ws_base + path, additional_headers=headers) as ws:
        while True:
            message = json.loads(ws.recv(timeout=TIMEOUT))
            if "seats" in message:
                return [seat["name"] for seat in message["seats"]]


def test_the_pages_language_goes_with_its_websocket(server: ServerProcess):
    table = server.create("clobber", seats=[{"kind": "me", "name": "Guest 353"},
                                            {"kind": "ai", "agent": "easy"}])
    path = f"/ws/play/{token_of(table['url'])}"
    assert _seat_names(server, path) == ["Guest 353", "Computer (easy)"]
    assert _seat_names(server, path + "?lang=fr") == ["Guest 353", "Ordinateur (facile)"]
    # the page's word wins over the handshake's headers; an unknown language is not taken
    assert _seat_names(server, path + "?lang=fr", **{"Accept-Language": "en"})[1] \
        == "Ordinateur (facile)"
    assert _seat_names(server, path + "?lang=xx", **{"Accept-Language": "fr"})[1] \
        == "Ordinateur (facile)"
    assert _seat_names(server, path + "?lang=" + "f" * 5000)[1] == "Computer (easy)"
