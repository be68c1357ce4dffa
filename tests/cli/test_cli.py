"""The command line as a user meets it: play, rules, replay, and clean errors."""

from __future__ import annotations

import io
import json
import re

from rich.console import Console
from typer.testing import CliRunner

import parlour
from parlour.agents import make_agent
from parlour.cli import app
from parlour.cli.session import Seat, TerminalGame
from parlour.core import GameRecord

runner = CliRunner()


def flat(text: str) -> str:
    """Output with Rich's line wrapping undone."""
    return " ".join(text.split())


def test_hot_seat_game_to_the_end_saves_a_record(tmp_path):
    path = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", "clobber", "--vs", "human", "--position", "oxo x", "--record", str(path)],
        input="b1a1\n",
    )
    assert result.exit_code == 0, result.output
    assert "won" in flat(result.output)
    record = GameRecord.load(path)
    assert record.game == "clobber" and record.actions == (4 * 1 + 3,)
    assert record.final_state().returns() == [-1.0, 1.0]


def test_illegal_move_is_explained_with_its_rule_and_changes_nothing(tmp_path):
    result = runner.invoke(
        app,
        ["play", "clobber", "--vs", "human", "--size", "3x4", "--record", str(tmp_path / "g.json")],
        input="b3c3\nquit\n",
    )
    assert result.exit_code == 0
    assert "b3 holds no White stone: you move one of your own stones (Clobber: moving)" in flat(
        result.output
    )
    assert GameRecord.load(tmp_path / "g.json").actions == ()


def test_notation_errors_are_explained(tmp_path):
    result = runner.invoke(
        app, ["play", "clobber", "--record", str(tmp_path / "g.json")], input="zz\nquit\n"
    )
    assert "Cannot read move 'zz'" in flat(result.output)
    assert "(Clobber: moving)" in flat(result.output)


def _first_legal(session_ref):
    def ask(_prompt: str) -> str:
        state = session_ref[0].state
        return state.action_to_string(state.legal_actions()[0])

    return ask


def test_a_person_plays_a_whole_game_against_the_random_agent():
    game = parlour.load_game("clobber", size="4x4")
    ref: list[TerminalGame] = []
    session = TerminalGame(
        game,
        [Seat("me"), Seat("bot", make_agent("random", game, seed=3))],
        Console(file=io.StringIO()),
        seed=3,
        ask=_first_legal(ref),
    )
    ref.append(session)
    final = session.run()
    assert final.is_terminal()
    assert sorted(final.returns()) == [-1.0, 1.0]
    replayed = GameRecord.from_json(session.record().to_json()).final_state()
    assert replayed.position() == final.position()


def test_undo_takes_back_my_move_and_the_computers_reply():
    game = parlour.load_game("clobber", size="4x4")
    inputs = iter(["a1b1", "undo", "quit"])
    session = TerminalGame(
        game,
        [Seat("me"), Seat("bot", make_agent("random", game, seed=1))],
        Console(file=io.StringIO()),
        ask=lambda _p: next(inputs),
    )
    final = session.run()
    assert final.history() == []
    assert final.position() == game.new_initial_state().position()


def test_rules_prints_the_players_rules_and_the_reference_with_ruling_ids():
    result = runner.invoke(app, ["rules", "clobber"])
    assert result.exit_code == 0
    assert "Cannibal" in flat(result.output) and "C6" not in flat(result.output)
    reference = runner.invoke(app, ["rules", "clobber", "--reference"])
    assert reference.exit_code == 0
    assert "C6" in flat(reference.output) and "Cannibal" in flat(reference.output)


def test_replay_prints_every_move(tmp_path):
    game = parlour.load_game("clobber", size="2x3")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    path = GameRecord.from_state(state).save(tmp_path / "r.json")
    result = runner.invoke(app, ["replay", str(path), "--no-boards"])
    assert result.exit_code == 0, result.output
    moves = [
        game.new_state_from_actions(state.history()[:i]).action_to_string(a)
        for i, a in enumerate(state.history())
    ]
    for number, move in enumerate(moves, 1):  # players named as they count, from 1
        assert f"{number}. Player {2 - number % 2}: {move}" in flat(result.output)
    assert "winner(s): Player 2" in flat(result.output)


def test_replay_refuses_a_file_that_is_not_a_record(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"hello": 1}))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "not a parlour record" in flat(result.output)


def test_unknown_game_lists_the_known_ones():
    result = runner.invoke(app, ["play", "chess"])
    assert result.exit_code == 2
    assert "clobber" in flat(result.output)


def test_unknown_parameter_lists_the_valid_ones():
    result = runner.invoke(app, ["play", "clobber", "--param", "colour=red"])
    assert result.exit_code == 2
    assert "valid parameters" in flat(result.output) and "rows" in flat(result.output)


def test_unknown_opponent_lists_the_agents():
    result = runner.invoke(app, ["play", "clobber", "--vs", "grandmaster"])
    assert result.exit_code == 2
    assert "random" in flat(result.output)


def test_games_lists_every_game_with_its_parameters():
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for name in parlour.list_games():
        assert name in flat(result.output)
    assert "cannibal" in result.output


def test_the_prompt_names_players_as_the_game_does(tmp_path):
    clobber = runner.invoke(
        app, ["play", "clobber", "--vs", "human", "--record", str(tmp_path / "c.json")],
        input="quit\n",
    )
    assert "White >" in clobber.output
    stomple = runner.invoke(
        app, ["play", "stomple", "--vs", "easy", "--name", "Ada", "--seed", "2",
              "--record", str(tmp_path / "s.json")],
        input="quit\n",
    )
    assert re.search(r"Ada \((white|yellow|red|blue|green|black)\) >", stomple.output)
    record = GameRecord.load(tmp_path / "s.json")
    assert record.players[0].startswith("Ada (") and record.players[1].startswith("Computer (easy")


def test_help_explains_how_to_type_a_move_with_an_example(tmp_path):
    result = runner.invoke(
        app, ["play", "stomp-the-plank", "--vs", "human", "--record", str(tmp_path / "p.json")],
        input="help\nquit\n",
    )
    text = flat(result.output)
    assert "How to move: type draw (or d) to turn over a card" in text
    assert "for example draw." in text


def test_undo_shows_the_board_once():
    game = parlour.load_game("clobber", size="4x4")
    out = io.StringIO()
    inputs = iter(["a1b1", "undo", "quit"])
    session = TerminalGame(
        game,
        [Seat("Ada"), Seat("random", make_agent("random", game, seed=1))],
        Console(file=out, width=100),
        ask=lambda _p: next(inputs),
    )
    session.run()
    after = out.getvalue().split("move taken back", 1)[1]
    board = str(render_board_text(game))
    assert after.count(board.splitlines()[0]) == 2  # shown by undo, and once more at "quit"


def render_board_text(game) -> str:
    from parlour.cli.boards import render_board

    console = Console(file=io.StringIO(), width=100)
    console.print(render_board(game.new_initial_state(), 0))
    return console.file.getvalue()


def test_g5_the_last_board_of_a_game_turns_up_every_rack_and_face_down_tile(tmp_path):
    """G-5 at the terminal: before the last turn the board hides player 1's rack and face-down
    tile from player 0; the board after the end shows them, and so does a replay's last board."""
    from tests.games.gobblestones.helpers import position

    text = position(tiles={"h8": "r", "i8": "y"}, owners={"h8": 0, "i8": 1},
                    racks=("RRGBP", "YYPPB"), points=(10, 12))
    path = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "gobblestones", "--position", text, "--param",
                                 "bluff=true", "--param", "max_turns=1", "--vs", "random",
                                 "--record", str(path)], input="pass\n")
    assert result.exit_code == 0, result.output
    before, _, after = flat(result.output).partition("Game over")[0].rpartition("Your rack")
    # i8: the second player's face-down tile, its colour unknown (players are counted from 1)
    assert "Racks turned up" not in before and " 2 " in before
    assert "Racks turned up: Player 1:" in after and "Computer (random): Y Y B P P" in after
    assert "B6 B6 r y Y4" in after, "h8 and i8 turned up"
    replay = runner.invoke(app, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    assert "Computer (random): Y Y B P P" in flat(replay.output).rpartition("Game over")[0]
