"""``parlour solve clobber``: the JSON object, every winning move, time limits, clean errors."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import parlour
from parlour.cli import app

from .reference import winning_moves

runner = CliRunner()


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    """Keep the on-disk region table of these runs out of the user's cache directory."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))


def solve(*args: str):
    return runner.invoke(app, ["solve", "clobber", *args])


def test_json_for_a_second_player_win():
    result = solve("--size", "2x3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"winner", "winning_moves", "nodes", "seconds"}
    assert data["winner"] == "x" and data["winning_moves"] == []  # White moves first and loses
    assert isinstance(data["nodes"], int) and data["nodes"] > 0
    assert isinstance(data["seconds"], float)


def test_all_lists_exactly_the_winning_moves():
    text = "xoxo/oxox o"
    result = solve("--position", text, "--all", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    state = parlour.load_game("clobber", position=text).new_initial_state()
    assert data["winner"] == "o"
    assert sorted(data["winning_moves"]) == winning_moves(state)


def test_one_winning_move_without_all():
    result = solve("--position", "xoxo/oxox o", "--json")
    data = json.loads(result.stdout)
    assert len(data["winning_moves"]) == 1
    assert data["winning_moves"][0] in winning_moves(
        parlour.load_game("clobber", position="xoxo/oxox o").new_initial_state()
    )


def test_human_output_names_winner_and_move():
    result = solve("--position", "xxo./.... x", "--value")
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "Black (x) to move wins" in flat
    assert "value (Left = Black x): ^" in flat  # CGSuite's notation


def test_losing_side_is_told_so():
    result = solve("--size", "3x4")
    assert result.exit_code == 0
    assert "White (o) to move loses" in " ".join(result.output.split())


def test_time_limit_gives_a_clear_message_not_an_answer():
    result = solve("--size", "2x11", "--time-limit", "0.001", "--json")  # in no shipped data
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "not solved within the time limit" in " ".join(result.stderr.split())


@pytest.mark.parametrize(
    "args, message",
    [
        (["--position", "xq o"], "unknown square marks"),
        (["--size", "3x4", "--position", "xo o"], "not 3x4"),
        (["--size", "3x4", "--time-limit", "-1"], "--time-limit must be"),
    ],
)
def test_bad_input_is_explained(args, message):
    result = solve(*args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_other_games_cannot_be_solved():
    result = runner.invoke(app, ["solve", "stomple"])
    assert result.exit_code == 2
    assert "only clobber can be solved" in result.output


def test_graph_and_cannibal_variants():
    result = solve("--graph", "a-b b-c c-d", "--position", "xoxo x", "--all", "--json")
    assert json.loads(result.stdout)["winning_moves"] == ["a-b", "c-b"]
    result = solve("--size", "2x3", "--cannibal", "--json")
    state = parlour.load_game("clobber", size="2x3", cannibal=True).new_initial_state()
    assert (json.loads(result.stdout)["winning_moves"] != []) == bool(winning_moves(state))


def test_6x6_is_answered_from_the_shipped_proof_naming_its_record():
    # a search of 6x6 takes tens of CPU hours; the record first:2 (the position after b6b5,
    # lost for Black) answers it, so a search would have hit the time limit
    result = solve("--size", "6x6", "--first", "white", "--time-limit", "5")
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "White (o) to move wins with perfect play; a winning move: b6b5" in flat
    assert "proved by record first:2" in flat and "no search" in flat
    data = json.loads(solve("--size", "6x6", "--first", "black", "--json").stdout)
    assert data["winner"] == "x" and data["winning_moves"] == ["e6e5"]  # b6b5, mirrored
    assert data["proved_by"] == ["first:2"] and data["nodes"] == 0
    assert data["complete"] is False  # the records leave other first moves undecided


def test_a_lost_board_from_its_record_and_every_move_with_all():
    data = json.loads(solve("--size", "2x18", "--all", "--json").stdout)
    assert data["winner"] == "x" and data["winning_moves"] == []
    assert data["proved_by"] == ["2x18"] and data["complete"] is True


def test_all_searches_the_moves_the_records_leave_open():
    result = solve("--size", "6x6", "--all", "--time-limit", "0.5")
    assert result.exit_code == 1  # searched, and not within the limit: no guess
    flat = " ".join(result.stderr.split())
    assert "proved by record first:2" in flat and "does not decide" in flat
    assert "not solved within the time limit" in flat


def test_no_records_and_positions_outside_them_are_searched():
    result = solve("--size", "2x18", "--no-records", "--time-limit", "0.2", "--json")
    assert result.exit_code == 1  # 2x18 takes 1.5 billion nodes: searched, not looked up
    data = json.loads(solve("--size", "2x6", "--json").stdout)  # not in the shipped data
    assert "proved_by" not in data and data["nodes"] > 0 and data["winner"] == "x"


def test_the_opening_book_answers_the_5x6_start_and_its_first_moves():
    # a search of the 5x6 start takes 676 CPU s (docs/analysis.md): the opening book
    # (bench/clobber_openings.py) answers it, and every first move, at once
    result = solve("--size", "5x6", "--time-limit", "5")
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "White (o) to move loses against perfect play" in flat
    assert "from parlour's opening book" in flat and "no search" in flat
    data = json.loads(solve("--size", "5x6", "--first", "black", "--all", "--json").stdout)
    assert data == {"winner": "o", "winning_moves": [], "nodes": 0, "seconds": data["seconds"],
                    "proved_by": [], "book": True, "complete": True}
    start = parlour.load_game("clobber", size="5x6").new_initial_state()
    after = start.child(start.legal_actions()[0])  # a2a3 or the like: Black to move wins
    data = json.loads(solve("--position", after.position(), "--json").stdout)
    assert data["book"] is True and data["nodes"] == 0 and data["winner"] == "x"
    reply = after.child(after.string_to_action(data["winning_moves"][0]))
    data = json.loads(solve("--position", reply.position(), "--json").stdout)
    assert data["book"] is True and data["winner"] == "x" and data["winning_moves"] == []
