"""Whole tournaments: the same results on one process, several, or Ray; every game replays."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import parlour
from parlour.arena import match_from_line, plan, play_match, read_lines, run, without_timing
from parlour.cli import app
from parlour.core import GameRecord

AGENTS = ["mcts:iterations=25", "greedy:budget=100", "random"]
"""Iteration budgets only: a time budget would make the games depend on the machine."""


def same(lines: list[dict], others: list[dict]) -> bool:
    """Equal results, leaving out thinking times (they depend on the machine)."""
    return [without_timing(x) for x in lines] == [without_timing(x) for x in others]


@pytest.fixture(scope="module")
def one_process():
    return run(plan("clobber", AGENTS, games=4, params={"rows": 4, "columns": 5}, seed=3),
               workers=1)


def test_every_pairing_plays_the_games_asked_for(one_process) -> None:
    assert len(one_process.lines) == 3 * 4
    assert one_process.standings is not None
    games = {r.agent: r.games for r in one_process.standings.records}
    assert games == {agent: 8 for agent in AGENTS}


def test_local_processes_give_the_same_results(one_process) -> None:
    again = run(plan("clobber", AGENTS, games=4, params={"rows": 4, "columns": 5}, seed=3),
                workers=2)
    assert same(again.lines, one_process.lines)


def test_a_local_ray_instance_gives_the_same_results(one_process) -> None:
    import ray  # in the test extras
    on_ray = run(plan("clobber", AGENTS, games=4, params={"rows": 4, "columns": 5}, seed=3),
                 workers=2, use_ray=True)
    assert not ray.is_initialized()  # the tournament shut down the instance it started
    assert same(on_ray.lines, one_process.lines)


def test_each_line_is_a_record_that_replays_to_its_result(one_process) -> None:
    for line in one_process.lines:
        record = GameRecord.from_json(json.dumps(line))
        final = record.final_state()
        assert final.is_terminal()
        assert final.returns() == line["metadata"]["returns"]
        assert record.load_game() == parlour.load_game("clobber", rows=4, columns=5)


def test_a_game_replays_from_its_recorded_agents_and_seeds(one_process) -> None:
    line = one_process.lines[5]
    again = play_match(line["game"], line["params"], match_from_line(line))
    assert without_timing(again) == without_timing(line)


def test_a_chance_game_tournament_records_its_chance_actions() -> None:
    t = run(plan("stomp-the-plank", ["greedy", "random"], games=2, seed=1), workers=1)
    for line in t.lines:
        final = GameRecord.from_json(json.dumps(line)).final_state()
        assert final.returns() == line["metadata"]["returns"]


def test_multiplayer_tournaments_seat_every_line_up() -> None:
    t = run(plan("stomple", ["greedy:budget=50", "random"], games=3,
                 params={"players": 3, "rounds": 1}, seed=2), workers=1)
    assert len(t.lines) == 2 * 3  # line-ups aab and abb, three games each
    assert all(len(x["metadata"]["agents"]) == 3 for x in t.lines)


def test_unknown_agents_are_refused_before_any_game() -> None:
    with pytest.raises(ValueError, match="unknown agent"):
        plan("clobber", ["random", "deep-blue"], games=2)


def test_the_arena_command_writes_results_standings_and_a_plot(tmp_path) -> None:
    out = tmp_path / "arena"
    result = CliRunner().invoke(app, [
        "arena", "clobber", "--agents", "mcts:iterations=20,random", "--games", "4",
        "--param", "rows=3", "--param", "columns=4", "--workers", "1", "--out", str(out),
    ])
    assert result.exit_code == 0, result.output
    assert "Elo" in result.output
    lines = read_lines(out / "results.jsonl")
    assert len(lines) == 4
    standings = json.loads((out / "standings.json").read_text())
    assert standings["game"] == "clobber" and len(standings["ratings"]) == 2
    assert (out / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_matplotlib_the_arena_saves_its_results_and_names_the_extra(
    tmp_path, monkeypatch
) -> None:
    from parlour.arena import report
    from parlour.core.extras import MissingExtraError

    def no_matplotlib(*_args, **_kwargs):
        raise MissingExtraError("arena", "the arena's ratings plot", "matplotlib")

    monkeypatch.setattr(report, "plot_ratings", no_matplotlib)
    out = tmp_path / "arena"
    result = CliRunner().invoke(app, [
        "arena", "clobber", "--agents", "random,greedy", "--games", "2",
        "--param", "rows=2", "--param", "columns=3", "--workers", "1", "--out", str(out),
    ])
    assert result.exit_code == 0, result.output
    assert "pip install 'parlour[arena]'" in result.output
    assert len(read_lines(out / "results.jsonl")) == 2 and (out / "standings.json").exists()
    assert not (out / "ratings.png").exists()


def test_the_arena_command_reports_a_bad_agent(tmp_path) -> None:
    result = CliRunner().invoke(app, ["arena", "clobber", "--agents", "random,nobody",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "unknown agent" in result.output


def test_the_arena_command_seats_the_players_asked_for(tmp_path) -> None:
    out = tmp_path / "stomple"
    result = CliRunner().invoke(app, [
        "arena", "stomple", "--players", "3", "--param", "rounds=1", "--agents",
        "greedy:budget=20,random", "--games", "3", "--workers", "1", "--out", str(out),
    ])
    assert result.exit_code == 0, result.output
    assert {len(x["metadata"]["agents"]) for x in read_lines(out / "results.jsonl")} == {3}
    clobber = CliRunner().invoke(app, ["arena", "clobber", "--players", "3", "--out", str(out)])
    assert clobber.exit_code == 2 and "exactly 2 players" in clobber.output


def test_the_arena_writes_under_the_user_data_folder_and_shows_meaningful_columns(
    tmp_path, monkeypatch
) -> None:
    data = tmp_path / "a-rather-long-folder-name-so-that-paths-exceed-the-terminal-width"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, [
        "arena", "clobber", "--agents", "random,easy", "--games", "2",
        "--param", "rows=3", "--param", "columns=4", "--workers", "1",
    ])
    assert result.exit_code == 0, result.output
    assert "mean points" not in result.output  # Clobber has no points
    written = list((data / "parlour" / "arena").glob("clobber-*/results.jsonl"))
    assert len(written) == 1
    assert str(written[0]) in result.output  # printed whole, not wrapped mid-word
    assert not list(tmp_path.glob("arena-*"))  # nothing in the current directory
    stomple = CliRunner().invoke(app, [
        "arena", "stomple", "--param", "rounds=1", "--agents", "greedy:budget=20,random",
        "--games", "2", "--workers", "1", "--out", str(tmp_path / "s"),
    ])
    assert stomple.exit_code == 0, stomple.output
    assert "mean game points" in " ".join(stomple.output.split())


def test_the_standings_carry_glicko2_as_the_server_rates():
    from parlour.arena.ratings import standings
    from parlour.ratings import rate_game

    lines = [{"metadata": {"agents": ["a", "b"], "returns": [1.0, -1.0], "scores": [0, 0]}},
             {"metadata": {"agents": ["b", "a"], "returns": [1.0, -1.0], "scores": [0, 0]}},
             {"metadata": {"agents": ["a", "a"], "returns": [1.0, -1.0], "scores": [0, 0]}}]
    result = standings(lines, ["a", "b"])
    first = rate_game([(1500.0, 350.0, 0.06)] * 2, [1.0, -1.0])
    second = rate_game([first[1], first[0]], [1.0, -1.0])  # b (seat 0) beats a
    assert result.glicko["a"] == second[1] and result.glicko["b"] == second[0]  # self-play: none
    assert set(result.as_dict()["glicko2"]) == {"a", "b"}
