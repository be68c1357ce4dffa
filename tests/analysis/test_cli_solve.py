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
    result = solve("--size", "4x5", "--time-limit", "0.001", "--json")
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
