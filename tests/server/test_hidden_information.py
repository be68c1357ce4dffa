"""G-3: everything a seat or a spectator receives is built from that seat's own view.

Whole games of GobbleStones (with and without bluffing) and Stomp the Plank are played through
a real server, one websocket per seat plus a spectator; afterwards the true game is rebuilt
from the server's database and every message, replay and record each listener received is
checked against what that listener may see: its board equals ``state.view(viewer)`` at that
move, legal moves go only to the seat to act, another player's move is named only when the
game hides nothing, and a record of a hidden-information game holds no action list.

G-5: until the last move nothing hidden reaches a listener; once the game is over every
listener's final message, the last step of its replay and its record show every rack and every
face-down tile (never the bag, whose tiles were never drawn).
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest

from parlour import CHANCE_PLAYER, load_game
from parlour.server.messages.views import Note, turn_log
from parlour.server.persistence.store import Store

from .helpers import ServerProcess, play_turn, token_of

STATE_KEYS = {
    "rated",  # whether the game changes ratings (issue 29): public, like the clock
    "type",
    "table",
    "game",
    "title",
    "params",
    "public",
    "num_players",
    "seats",
    "hand",
    "log",
    "watch",
    "rematch",
    "view",
    "viewer",
    "version",
    "to_act",
    "terminal",
    "legal",
    "last",
    "result",
    "preview",
    "invites",
    "custom_start",
    "notices",
    "started",
    "awaited",
    "expires_at",
    "listed",
    "archived",
    "taken_over",
    "resigned",
    "undo",
    "clock",
}
PARTIAL_KEYS = {
    "type",
    "client_id",
    "steps",
    "at",
    "complete",
    "view",
    "viewer",
    "version",
    "to_act",
    "terminal",
    "legal",
    "last",
    "result",
    "preview",
}
CONFIGS = [
    ("gobblestones", {"max_turns": 24}),
    ("gobblestones", {"bluff": True, "players": 3, "max_turns": 24}),
    ("stomp-the-plank", {"players": 3}),
]


def _play_out(server: ServerProcess, game: str, params: dict[str, Any], seed: int):
    rng = random.Random(seed)
    n = load_game(game, **params).num_players()
    table = server.create(game, params, seats=[{"kind": "invite"}] * n)
    urls = {inv["seats"][0]: inv["url"] for inv in table["invites"]}
    clients = {seat: server.client(urls[seat]) for seat in range(n)}
    clients[None] = server.client(table["watch"])
    clients["host"] = server.client(table["url"])  # the creator, holding no seat
    try:
        for client in clients.values():
            client.wait_state()
        for _turn in range(400):
            spectator = clients[None].wait_state()
            if spectator["terminal"]:
                break
            seat = spectator["to_act"]
            mover = clients[seat]
            message = mover.wait_state(lambda m, v=spectator["version"]: m["version"] == v)
            reply = play_turn(mover, message, rng.choice)
            assert reply["type"] == "ack", reply
            clients[None].wait_state(lambda m, v=reply["version"]: m["version"] == v)
        assert clients[None].state["terminal"], "the game did not finish"
        for seat in range(n):
            clients[seat].wait_state(lambda m: m["terminal"])
        documents = {}
        for seat in range(n):
            token = token_of(urls[seat])
            documents[seat] = (
                server.get(f"/api/play/{token}/replay").json(),
                server.get(f"/api/play/{token}/record").text,
                server.get(f"/api/play/{token}").json(),
            )
        documents[None] = (
            server.get(f"/api/watch/{table['table']}/replay").json(),
            server.get(f"/api/watch/{table['table']}/record").text,
            server.get(f"/api/watch/{table['table']}").json(),
        )
        return table, clients, documents
    finally:
        for client in clients.values():
            client.close()


def _true_states(server: ServerProcess, game: str, params: dict[str, Any], table_id: str):
    store = Store(f"sqlite:///{server.db_path}")
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    assert stored is not None
    state = load_game(game, **params).new_initial_state()
    states, players, texts = [state.clone()], [], []
    public_notes = []
    for row in stored.actions:
        players.append(row.player)
        texts.append(state.public_action_string(row.action))
        public_notes.append(Note(row.seq, row.player, texts[-1], texts[-1], tuple(state.scores())))
        state.apply_action(row.action)
        states.append(state.clone())
    # the log as anyone may read it after each move: built from the public texts only, so a
    # line about another player's turn that equals it carries nothing hidden
    configured = load_game(game, **params)

    @functools.cache
    def lines(version: int) -> dict[int, dict]:
        scores = tuple(states[version].scores())
        log = turn_log(configured, public_notes[:version], None, scores, limit=10**6)
        return {line["seq"]: line for line in log}

    return states, players, texts, lines


def _check_log(log: list[dict], viewer: int | None, public_lines: dict[int, dict]):
    """Each line of the move log about someone else's turn is the public line (G-3)."""
    for line in log:
        if line["player"] != viewer:
            assert line == public_lines[line["seq"]], (line, public_lines[line["seq"]])


def _turned_up(view: dict[str, Any], truth) -> None:
    """G-5 at the end: every rack, every face-down colour, and still no bag colours."""
    seats = range(len(view["rack_sizes"]))
    racks = ["".join(c * k for c, k in truth.rack(p).items()) for p in seats]
    assert view["racks"] == racks
    assert all("?" not in row for row in view["tiles"]), "every face-down tile turned up"
    assert isinstance(view["bag"], int)


def _still_hidden(view: dict[str, Any], viewer: int | None, truth) -> None:
    """G-3 before the end: no other rack, no face-down colour that is not the viewer's."""
    assert view["racks"] is None
    for square, owner in view["owners"].items():
        mark = view["tiles"][15 - int(square[1:])]["abcdefghijklmno".index(square[0])]
        assert (mark == "?") == (owner != viewer), (square, owner, viewer)
    if viewer is None:
        assert view["rack"] is None


def _check_moves(
    moves: list[dict | None],
    viewer: int | None,
    public: bool,
    players: list[int],
    texts: list[str],
):
    """Others' moves are worded only as the game says everyone may see them (G-3)."""
    for move in moves:
        if move is None:
            continue
        assert move["player"] == players[move["seq"]]
        if public or (move["player"] == viewer and move["player"] != CHANCE_PLAYER):
            continue
        assert move["text"] == texts[move["seq"]]


@pytest.mark.parametrize(("game", "params"), CONFIGS, ids=["gobble", "gobble-bluff", "plank"])
def test_g3_every_message_replay_and_record_is_cut_to_the_listener(
    server: ServerProcess, game: str, params: dict[str, Any]
):
    table, clients, documents = _play_out(server, game, params, seed=len(json.dumps(params)))
    states, players, texts, lines = _true_states(server, game, params, table["table"])
    public = load_game(game, **params).get_type().information.value == "perfect"
    for key, client in clients.items():
        viewer = None if key in (None, "host") else key
        assert client.received, key
        for message in client.received:
            if message["type"] == "state":
                assert set(message) <= STATE_KEYS, set(message) - STATE_KEYS
                truth = states[message["version"]]
                assert message["viewer"] == viewer
                assert message["view"] == truth.view(viewer)
                if viewer is not None and truth.current_player() == viewer:
                    assert [m["a"] for m in message["legal"]] == truth.legal_actions()
                else:
                    assert message["legal"] == []
                _check_moves([message["last"]], viewer, public, players, texts)
                _check_log(message["log"], viewer, lines(message["version"]))
                assert (message["result"] is not None) == truth.is_terminal()
                if game == "gobblestones":
                    if truth.is_terminal():
                        _turned_up(message["view"], truth)
                    else:
                        _still_hidden(message["view"], viewer, truth)
            elif message["type"] == "partial":
                assert set(message) <= PARTIAL_KEYS
                preview = states[message["at"]].clone()
                for action in message["steps"]:
                    preview.apply_action(action)
                assert message["view"] == preview.view(viewer)
                # a preview is only ever of a turn still in progress: nothing a finished
                # turn reveals (a challenge's outcome, a draw) comes back unstored
                assert preview.turn_in_progress() and preview.current_player() == viewer
            elif message["type"] in ("chat", "chat_history"):
                # chat carries what people typed and who they are, nothing of the game
                said = message.get("messages", [message])
                assert all(set(m) <= {"type", "channel", "id", "seat", "name", "text", "at"}
                           for m in said)
            else:
                assert message["type"] in ("ack", "error", "pong"), message
                assert set(message) <= {
                    "type",
                    "client_id",
                    "seq",
                    "version",
                    "duplicate",
                    "code",
                    "message",
                    "rule",
                    "step",
                    "to_act",
                }
    for viewer, (replay, record, snapshot) in documents.items():
        assert snapshot["view"] == states[-1].view(viewer)
        for step in replay["steps"]:
            assert step["view"] == states[step["version"]].view(viewer)
            if game == "gobblestones" and step["version"] < len(states) - 1:
                _still_hidden(step["view"], viewer, states[step["version"]])
        if game == "gobblestones":  # G-5: the replay ends with everything turned up
            assert replay["steps"][-1]["version"] == len(states) - 1
            _turned_up(replay["steps"][-1]["view"], states[-1])
            _turned_up(snapshot["view"], states[-1])
        _check_moves([s["last"] for s in replay["steps"]], viewer, public, players, texts)
        document = json.loads(record)
        if public:
            assert document["format"] == "parlour-record"
            assert document["actions"] == states[-1].history()
        else:
            assert document["format"] == "parlour-seat-replay" and "actions" not in document
            assert document["steps"] == replay["steps"]
            assert document["viewer"] == viewer
            _turned_up(document["steps"][-1]["view"], states[-1])  # G-5: in the record too


def test_g3_hidden_racks_differ_between_seats_and_never_cross(server: ServerProcess):
    """A direct probe: in GobbleStones each seat's messages carry its own rack and never the
    other's (racks are dealt at random, so over a game they differ)."""
    table, clients, _documents = _play_out(server, "gobblestones", {"max_turns": 6}, seed=3)
    states, _players, _texts, _lines = _true_states(
        server, "gobblestones", {"max_turns": 6}, table["table"]
    )
    differing = 0
    for seat in (0, 1):
        for message in clients[seat].received:
            if message["type"] != "state":
                continue
            truth = states[message["version"]]
            own, other = truth.view(seat)["rack"], truth.view(1 - seat)["rack"]
            assert message["view"]["rack"] == own
            differing += own != other
            if truth.is_terminal():  # G-5: now both racks are turned up, for everyone
                assert message["view"]["racks"] == [own, other][:: 1 if seat == 0 else -1]
                continue
            assert "rack" not in json.dumps(message).replace('"rack":', "", 1).replace(
                '"rack_sizes":', ""
            ).replace('"racks": null', "")
    assert differing > 0
    assert all(m["view"]["rack"] is None for m in clients[None].received if m["type"] == "state")


def _dealt_position(seed: int) -> tuple[Any, str]:
    rng = random.Random(seed)
    dealt = load_game("gobblestones").new_initial_state()
    while dealt.is_chance_node():
        dealt.apply_action(rng.choice([a for a, _p in dealt.chance_outcomes()]))
    return dealt, dealt.position()


def test_g3_a_set_up_position_with_hidden_racks_cannot_have_invited_players(
    server: ServerProcess,
):
    """A position text holds every rack: its writer would know the invited players' tiles.
    Such a table is refused with the reason, and nothing is created."""
    _dealt, position = _dealt_position(5)
    response = server.post(
        "/api/tables",
        {"game": "gobblestones", "params": {"position": position},
         "seats": [{"kind": "me"}, {"kind": "invite"}]},
    )
    assert response.status_code == 400
    assert "cannot have invited players" in response.json()["detail"]


def test_g3_a_table_started_from_a_position_text_does_not_show_it(server: ServerProcess):
    """Hot-seat or against the computer, a set-up position is allowed; every message says the
    table starts from a set-up position, and none carries the text itself."""
    dealt, position = _dealt_position(6)
    table = server.create(
        "gobblestones", {"position": position},
        seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}],
    )
    with server.client(table["watch"]) as spectator:
        message = spectator.wait_state()
        assert message["custom_start"] is True
        assert "position" not in message["params"]
        assert position not in json.dumps(message)
    record = server.get(f"/api/watch/{table['table']}/record").text
    assert position not in record
    with server.client(table["url"]) as me:
        assert me.wait_state()["view"]["rack"] == dealt.view(0)["rack"]
