"""The tutorials' endpoint and the rules pages, over HTTP against a real server process.

``POST /api/learn/GAME/TUTORIAL/STEP`` plays the learner's moves in the step's own position
(the client names a step, never a position) and answers with the engine's verdict and the
learner's view; hostile bodies get a clear error and change nothing.
"""

from __future__ import annotations

import json
import re

import httpx
import pytest

from parlour import list_games
from parlour.games import tutorial as lessons
from parlour.server.messages.protocol import MAX_STEP_TEXT, MAX_STEPS

from .helpers import ServerProcess

RULING_ID = re.compile(r"\[[A-Z]-?\d+\]|\b[CSPBG]-?\d{1,2}\b")


def _try(server: ServerProcess, path: str, moves: object) -> httpx.Response:
    return server.post(f"/api/learn/{path}", {"moves": moves})


def test_every_game_lists_its_tutorials_and_serves_the_page(server: ServerProcess):
    for game in list_games():
        listed = server.get(f"/api/learn/{game}").json()
        assert [t["id"] for t in listed["tutorials"]] == [t.id for t in lessons.tutorials(game)]
        for tutorial in listed["tutorials"]:
            assert 5 <= len(tutorial["steps"]) <= 10
            page = server.get(f"/learn/{game}/{tutorial['id']}")
            assert page.status_code == 200 and "learn.js" in page.text
        assert server.get(f"/learn/{game}").status_code == 200
    assert server.get("/learn/chess").status_code == 404
    assert server.get("/learn/clobber/speedrun").status_code == 404
    assert server.get("/api/learn/chess").status_code == 404


def test_a_step_answers_going_done_or_missed_with_the_learners_view(server: ServerProcess):
    start = _try(server, "clobber/basics/last-move", []).json()
    assert start["status"] == "going" and start["learner"] == 0
    assert start["view"]["position"] == "..../xoxx o"
    assert {m["s"] for m in start["legal"]} == {"b1a1", "b1c1"}
    missed = _try(server, "clobber/basics/last-move", ["b1c1"]).json()
    assert missed["status"] == "missed" and missed["legal"] == []
    done = _try(server, "clobber/basics/last-move", ["b1a1"]).json()
    assert done["status"] == "done" and done["terminal"] is True
    assert done["last"]["text"] == "b1a1" and done["log"][0]["text"] == "b1a1"
    assert done["result"]["returns"] == [1.0, -1.0]


def test_a_multi_step_turn_is_composed_and_moves_may_be_ids(server: ServerProcess):
    first = _try(server, "stomple/basics/string", ["c4"]).json()
    assert first["status"] == "going" and first["view"]["string"] == "yellow"
    assert [m["s"] for m in first["legal"]] == ["d4"]
    done = _try(server, "stomple/basics/string", [*first["moves"], "d4", "e5"]).json()
    assert done["status"] == "done" and done["log"][0]["text"] == "c4 > d4 > e5"


def test_a_refused_move_is_explained_in_player_words(server: ServerProcess):
    refused = _try(server, "gobblestones/basics/no-square", ["i9"]).json()
    assert refused["status"] == "going" and refused["moves"] == []
    assert refused["message"].endswith("(GobbleStones: no 2 x 2 blocks)")
    assert not RULING_ID.search(refused["message"])
    typed = _try(server, "clobber/basics/capture", ["z9"]).json()
    assert typed["message"] and typed["status"] == "going"
    late = _try(server, "clobber/basics/full-board", ["a5b5", "b4b5"]).json()
    assert len(late["moves"]) == 1 and late["message"] == "Your turn is over (Clobber: whose turn)"


def test_the_learner_sees_only_their_own_view(server: ServerProcess):
    decide = _try(server, "gobblestones/bluffing/challenge", []).json()
    view = decide["view"]
    assert view["player"] == 0 and view["racks"] is None
    assert [colour for _square, colour in view["play"]] == ["?", "?"]  # not the red tiles
    assert {m["s"] for m in decide["legal"]} == {"challenge", "trust"}
    turned = _try(server, "gobblestones/bluffing/challenge", ["challenge"]).json()
    assert turned["view"]["last_challenge"]["tiles"] == [["h10", "R"], ["h9", "R"]]


@pytest.mark.parametrize("body", [
    b"{not json",
    b'{"moves": "c2d2"}',
    b'{"moves": [], "position": "oxo o"}',
    b'{"moves": [true]}',
    b'{"moves": [""]}',
    b'{"moves": [["c2d2"]]}',
    json.dumps({"moves": ["c2d2"] * (MAX_STEPS + 1)}).encode(),
    json.dumps({"moves": ["c" * (MAX_STEP_TEXT + 1)]}).encode(),
])
def test_hostile_bodies_are_refused_with_a_reason(server: ServerProcess, body: bytes):
    answer = httpx.post(server.base + "/api/learn/clobber/basics/capture", content=body,
                        headers={"content-type": "application/json"}, timeout=10)
    assert answer.status_code == 400 and answer.json()["detail"]
    assert server.get("/healthz").json()["status"] == "ok"


def test_unknown_steps_huge_bodies_and_wild_action_ids(server: ServerProcess):
    assert _try(server, "clobber/basics/nope", []).status_code == 404
    assert _try(server, "clobber/nope/capture", []).status_code == 404
    huge = httpx.post(server.base + "/api/learn/clobber/basics/capture",
                      content=b'{"moves": ["' + b"c" * 40000 + b'"]}',
                      headers={"content-type": "application/json"}, timeout=10)
    assert huge.status_code == 413
    wild = _try(server, "clobber/basics/capture", [10**12]).json()
    assert wild["status"] == "going" and wild["message"] and wild["moves"] == []


def test_the_rules_page_is_for_people(server: ServerProcess):
    for game in list_games():
        page = server.get(f"/rules/{game}")
        assert page.status_code == 200
        text = page.text
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in text
        assert '<header class="bar">' in text and f'href="/learn/{game}"' in text
        assert 'class="rules-figure"' in text
        prose = re.sub(r'data-board="[^"]*"', "", text)  # the pictures' data is the engine's
        assert not RULING_ID.search(prose) and "seat 0" not in prose
        assert "bluff=" not in prose and "ruling" not in prose.lower()
        dialog = server.get(f"/api/rules/{game}").json()["html"]
        assert 'class="rules-figure"' in dialog and not RULING_ID.search(
            re.sub(r'data-board="[^"]*"', "", dialog))
