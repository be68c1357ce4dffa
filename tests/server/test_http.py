"""The lobby, pages and JSON API of a real server process: good requests and bad ones."""

from __future__ import annotations

from pathlib import Path

import httpx

from parlour import list_games, load_game
from parlour.core import GameRecord

from .helpers import ServerProcess, token_of

STATIC = Path(__file__).resolve().parents[2] / "src" / "parlour" / "server" / "static"


def test_lobby_and_table_pages_are_served(server: ServerProcess):
    lobby = server.get("/")
    assert lobby.status_code == 200 and "lobby.js" in lobby.text
    table = server.create("clobber")
    page = server.get(table["url"])
    assert page.status_code == 200 and "table.js" in page.text
    assert server.get(table["watch"]).status_code == 200
    assert server.get("/static/js/table.js").status_code == 200


def test_every_game_is_offered_with_its_parameters_and_rules(server: ServerProcess):
    catalogue = server.get("/api/games").json()
    names = [g["name"] for g in catalogue["games"]]
    assert names == list_games()
    assert "random" in catalogue["agents"]
    for game in catalogue["games"]:
        assert game["default_players"] == load_game(game["name"]).num_players()
        rules = server.get(f"/rules/{game['name']}")
        assert rules.status_code == 200 and game["title"] in rules.text
        # every registered game has its own board drawing in the browser
        assert (STATIC / "js" / "boards" / f"{game['name'].replace('-', '_')}.js").is_file()
        # each game offers only the computer players that can play it
        assert {"easy", "medium", "hard"} <= set(game["agents"])
        assert all(a.startswith("plank-") == (game["name"] == "stomp-the-plank")
                   for a in game["agents"] if a.startswith("plank-") or a == "perfect")
    by_name = {g["name"]: g for g in catalogue["games"]}
    assert "plank-risk" not in by_name["clobber"]["agents"]
    assert "plank-risk" in by_name["stomp-the-plank"]["agents"]


def test_a_computer_player_that_cannot_play_the_game_is_refused(server: ServerProcess):
    refused = server.post(
        "/api/tables",
        {"game": "clobber", "seats": [{"kind": "me"}, {"kind": "ai", "agent": "plank-risk"}]},
    )
    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        "seat 2: the computer player 'plank-risk' cannot play Clobber"
    )


def test_check_reports_players_or_the_parameter_error(server: ServerProcess):
    ok = server.post("/api/games/clobber/check", {"params": {"size": "6x7"}}).json()
    assert ok == {"ok": True, "num_players": 2, "game": "clobber(size=6x7)"}
    bad = server.post("/api/games/clobber/check", {"params": {"rows": 0}}).json()
    # in a player's words: the rule named at the end, the engine's parameter name nowhere
    assert bad == {"ok": False, "error": "A board is 1x2 up to 99x26, not 0x6 (Clobber: the board)"}
    bad = server.post("/api/games/clobber/check", {"params": {"rows": "many"}}).json()
    assert bad["error"] == "Board rows: expected a whole number, got 'many'"


def test_creating_a_table_refuses_bad_requests_with_a_reason(server: ServerProcess):
    unknown = server.post("/api/tables", {"game": "chess"})
    assert unknown.status_code == 400 and "known games" in unknown.json()["detail"]
    bad_param = server.post("/api/tables", {"game": "clobber", "params": {"colour": "red"}})
    assert bad_param.status_code == 400
    assert bad_param.json()["detail"].startswith("Unknown parameter 'colour'; the parameters are")
    seats = server.post("/api/tables", {"game": "clobber", "seats": [{"kind": "me"}]})
    assert seats.status_code == 400 and "2 seats" in seats.json()["detail"]
    ai = server.post(
        "/api/tables", {"game": "clobber", "seats": [{"kind": "me"}, {"kind": "ai", "agent": "x"}]}
    )
    assert ai.status_code == 400 and "no computer player 'x'" in ai.json()["detail"]
    unbounded = server.post(  # a search with no time budget is not offered on the web
        "/api/tables",
        {"game": "clobber", "seats": [{"kind": "me"}, {"kind": "ai", "agent": "mcts"}]},
    )
    assert unbounded.status_code == 400 and "no computer player 'mcts'" in unbounded.text
    kind = server.post("/api/tables", {"game": "clobber", "seats": [{"kind": "boss"}] * 2})
    assert kind.status_code == 400
    junk = httpx.post(
        server.base + "/api/tables", content=b"{not json", timeout=10,
        headers={"content-type": "application/json"},
    )
    assert junk.status_code == 400
    huge = server.post("/api/tables", {"game": "clobber", "params": {"position": "o" * 20000}})
    assert huge.status_code == 413
    assert server.get("/healthz").json()["status"] == "ok"  # still serving


def test_unknown_links_and_tables_are_404(server: ServerProcess):
    assert server.get("/play/not-a-token").status_code == 404
    assert server.get("/api/play/not-a-token").status_code == 404
    assert server.get("/watch/nope").status_code == 404
    assert server.get("/api/watch/nope/replay").status_code == 404
    assert server.get("/rules/chess").status_code == 404


def test_creator_gets_own_seat_invitations_and_spectator_link(server: ServerProcess):
    table = server.create(
        "clobber", seats=[{"kind": "invite"}, {"kind": "me"}]
    )
    assert table["seats"] == [1]
    assert [i["seats"] for i in table["invites"]] == [[0]]
    tokens = {token_of(table["url"]), token_of(table["invites"][0]["url"])}
    assert len(tokens) == 2 and all(len(t) >= 32 for t in tokens)  # unguessable
    mine = server.get(f"/api/play/{token_of(table['url'])}").json()
    assert mine["viewer"] == 1 and mine["invites"] == table["invites"]
    theirs = server.get(f"/api/play/{token_of(table['invites'][0]['url'])}").json()
    assert theirs["viewer"] == 0 and "invites" not in theirs
    assert server.get(f"/api/play/{token_of(table['url'])}?seat=0").status_code == 403


def test_http_act_replay_and_record_round_trip(server: ServerProcess):
    table = server.create("clobber", {"rows": 2, "columns": 3})
    me, them = token_of(table["url"]), token_of(table["invites"][0]["url"])
    game = load_game("clobber", rows=2, columns=3)
    state = game.new_initial_state()
    turn = [me, them]
    n = 0
    while not state.is_terminal():
        action = state.legal_actions()[-1]
        body = {"type": "act", "client_id": f"h{n}", "steps": [action], "at": n}
        reply = server.post(f"/api/play/{turn[state.current_player()]}/act", body)
        assert reply.status_code == 200 and reply.json()["type"] == "ack", reply.text
        state.apply_action(action)
        n += 1
    final = server.get(f"/api/play/{me}").json()
    assert final["terminal"] and final["result"]["returns"] == state.returns()
    record = server.get(f"/api/play/{me}/record")
    assert "attachment" in record.headers["content-disposition"]
    assert GameRecord.from_json(record.text).final_state().position() == state.position()
    replay = server.get(f"/api/play/{me}/replay").json()["steps"]
    assert [s["version"] for s in replay] == list(range(n + 1))
    assert replay[-1]["view"] == state.view(0)
    watch = server.get(f"/api/watch/{table['table']}").json()
    assert watch["viewer"] is None and watch["view"] == state.view(None)


def test_rematch_rotates_seats_and_is_offered_once(server: ServerProcess):
    table = server.create("clobber", {"rows": 1, "columns": 2})
    me, them = token_of(table["url"]), token_of(table["invites"][0]["url"])
    early = server.post(f"/api/play/{me}/rematch")
    assert early.status_code == 409
    reply = server.post(f"/api/play/{me}/act", {"type": "act", "client_id": "x", "steps": ["a1b1"]})
    assert reply.json()["type"] == "ack"
    first = server.post(f"/api/play/{me}/rematch").json()
    second = server.post(f"/api/play/{them}/rematch").json()
    assert first["table"] == second["table"]
    assert server.get(f"/api/play/{token_of(first['url'])}").json()["hand"]["seats"] == [1]
    assert server.get(f"/api/play/{token_of(second['url'])}").json()["hand"]["seats"] == [0]
    old = server.get(f"/api/play/{them}").json()
    assert old["rematch"] == second["url"]


def test_the_learned_player_is_offered_where_a_network_ships(server: ServerProcess):
    """``net`` is "Computer (learned)" on the web, offered for Clobber 5x6 (its network ships
    in the package), not for GobbleStones (none ships); another board is refused by name."""
    catalogue = server.get("/api/games").json()
    by_name = {g["name"]: g for g in catalogue["games"]}
    assert "net" in by_name["clobber"]["agents"]
    assert "net" not in by_name["gobblestones"]["agents"]
    assert catalogue["agent_names"]["net"] == "Computer (learned)"
    refused = server.post("/api/tables", {
        "game": "clobber", "params": {"size": "6x6"},
        "seats": [{"kind": "me"}, {"kind": "ai", "agent": "net"}]})
    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        "seat 2: Computer (learned) cannot play Clobber with these settings")
    table = server.create("clobber", seats=[{"kind": "ai", "agent": "net"}, {"kind": "me"}])
    with server.client(table["url"]) as me:
        state = me.wait_state(lambda m: bool(m["legal"]) or m["terminal"], timeout=60)
        assert state["seats"][0]["name"] == "Computer (learned)"
        assert state["version"] >= 1 and not state["notices"]  # the computer moved, in time


def test_the_openapi_schema_documents_the_table_routes_typed_answers(server: ServerProcess):
    """Each table route's answer is named from its model (messages/schemas.py, issue 63)."""
    schema = server.get("/openapi.json").json()

    def answer(path: str, method: str, status: str = "200") -> str:
        content = schema["paths"][path][method]["responses"][status]["content"]
        return content["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]

    assert answer("/api/tables", "post", "201") == "TableCreated"
    assert answer("/api/tables", "get") == "LobbyPage"
    assert answer("/api/tables/{table_id}/seats/{seat}", "post") == "SeatTaken"
    assert answer("/api/play/{token}", "get") == "StateMessage"
    assert answer("/api/watch/{table_id}", "get") == "StateMessage"
    assert answer("/api/play/{token}/replay", "get") == "Replay"
    assert answer("/api/watch/{table_id}/replay", "get") == "Replay"
    assert answer("/api/play/{token}/name", "post") == "SeatNamed"
    assert answer("/api/play/{token}/rematch", "post") == "Rematch"
    state = schema["components"]["schemas"]["StateMessage"]
    assert {"type", "table", "seats", "view", "legal", "log", "clock"} <= set(state["required"])
    assert state["properties"]["seats"]["items"]["$ref"].endswith("/SeatEntry")
    # the model says what is on the wire: every field sent is declared, every required one sent
    table = server.create("clobber")
    reply = server.get(f"/api/play/{token_of(table['url'])}").json()
    assert set(state["required"]) <= set(reply) <= set(state["properties"])
    created = schema["components"]["schemas"]["TableCreated"]
    assert set(table) == set(created["properties"]) == set(created["required"])
