"""Clobber puzzles: the shipped set is proved by the solver, moves are checked, ratings move."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from typer.testing import CliRunner

import parlour
from parlour.analysis import ClobberSolver
from parlour.analysis.puzzle_maker import PuzzleMaker, difficulty, grade, place, remember
from parlour.analysis.puzzles import (
    NEAREST,
    Puzzle,
    PuzzleError,
    check_move,
    load,
    next_puzzle,
    rate_attempt,
    save,
    shipped,
)
from parlour.cli import app
from parlour.core import IllegalActionError, NotationError
from parlour.ratings import glicko2_update


def winning_moves(state) -> set[str]:
    solver = ClobberSolver(state.get_game(), tt_bits=18)
    return set(solver.solve(state, all_moves=True).winning_moves)


def verify(puzzle: Puzzle) -> None:
    """The line is what the puzzle claims: each of the player's moves is the only winning one,
    each reply is legal and loses for the side that plays it, and the line ends when the win
    is clear."""
    state = parlour.load_game("clobber", position=puzzle.position).new_initial_state()
    for ply, move in enumerate(puzzle.line):
        if ply % 2 == 0:
            assert winning_moves(state) == {move}, (puzzle.id, ply)
        else:
            assert not winning_moves(state), (puzzle.id, ply)  # the replier is lost anyway
        state.apply_action(state.string_to_action(move))


def test_at_least_a_thousand_puzzles_ship_with_distinct_positions():
    puzzles = shipped()
    assert len(puzzles) >= 1000
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert len({p.position for p in puzzles}) == len(puzzles)
    ratings = [p.rating for p in puzzles]
    assert ratings == sorted(ratings) and ratings[0] < 1000 < 2000 < ratings[-1]
    assert any(p.player_moves > 1 for p in puzzles)  # some need several moves found


@pytest.mark.parametrize("seed", range(3))
def test_a_sample_of_the_shipped_puzzles_is_proved_again(seed):
    sample = random.Random(seed).sample(shipped(), 8)
    for puzzle in sample:
        verify(puzzle)


def test_a_line_is_played_through_and_a_wrong_move_fails():
    puzzle = next(p for p in shipped() if p.player_moves >= 2)
    played: list[str] = []
    for i in range(0, len(puzzle.line), 2):
        result = check_move(puzzle, played, puzzle.line[i])
        assert result.correct
        played.append(puzzle.line[i])
        if result.reply is None:
            assert result.solved and i == len(puzzle.line) - 1
        else:
            assert result.reply == puzzle.line[i + 1] and not result.solved
            played.append(result.reply)
    assert played == list(puzzle.line)
    state = parlour.load_game("clobber", position=puzzle.position).new_initial_state()
    wrong = next(m for m in map(state.action_to_string, state.legal_actions())
                 if m != puzzle.line[0])
    failed = check_move(puzzle, [], wrong)
    assert not failed.correct and not failed.solved and failed.reply is None


def test_bad_moves_and_a_wrong_history_are_refused():
    puzzle = shipped()[0]
    with pytest.raises(NotationError):
        check_move(puzzle, [], "zz")
    state = parlour.load_game("clobber", position=puzzle.position).new_initial_state()
    empty = next(i for i, name in enumerate(state.get_game().grid.names)
                 if not (state.stones(0) | state.stones(1)) >> i & 1)
    square = state.get_game().grid.names[empty]
    neighbour = next(n for n in state.get_game().grid.neighbours[empty] if n >= 0)
    with pytest.raises(IllegalActionError):
        check_move(puzzle, [], square + state.get_game().grid.names[neighbour])
    with pytest.raises(PuzzleError):
        check_move(puzzle, ["a1a2"], puzzle.line[0])
    with pytest.raises(PuzzleError):
        check_move(puzzle, list(puzzle.line), puzzle.line[0])


def test_the_next_puzzle_is_near_the_rating_and_not_seen_before():
    puzzles = shipped()
    for rating in (900, 1500, 2200):
        nearest = sorted(abs(p.rating - rating) for p in puzzles)[NEAREST - 1]
        chosen = next_puzzle(puzzles, rating, seed=5)
        assert abs(chosen.rating - rating) <= nearest
        assert next_puzzle(puzzles, rating, seed=5) == chosen  # repeatable
    seen = {p.id for p in puzzles[:-1]}
    assert next_puzzle(puzzles, 800, seen=seen).id == puzzles[-1].id
    everything = {p.id for p in puzzles}
    assert next_puzzle(puzzles, 1500, seen=everything).id in everything
    with pytest.raises(PuzzleError):
        next_puzzle([], 1500)


def test_an_attempt_moves_both_ratings_as_glicko2_says():
    puzzle = shipped()[len(shipped()) // 2]
    player = (1500.0, 350.0, 0.06)
    (won, won_rd, _), (puzzle_after, _, _) = rate_attempt(player, puzzle, solved=True)
    assert won > 1500 and won_rd < 350 and puzzle_after < puzzle.rating
    (lost, _, _), (puzzle_up, _, _) = rate_attempt(player, puzzle, solved=False)
    assert lost < 1500 and puzzle_up > puzzle.rating
    assert (won, won_rd) == glicko2_update(*player, [(puzzle.rating, puzzle.rd, 1.0)])[:2]


def test_a_puzzle_file_round_trips_and_a_damaged_one_is_refused(tmp_path):
    puzzles = shipped()[:5]
    for name in ("p.jsonl", "p.jsonl.gz"):
        save(puzzles, tmp_path / name)
        assert load(tmp_path / name) == puzzles
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**puzzles[0].as_dict(), "line": ["a1a2", "a2a3"]}) + "\n")
    with pytest.raises(PuzzleError, match="line 1"):
        load(bad)
    bad.write_text("{not json\n")
    with pytest.raises(PuzzleError):
        load(bad)


def _short_game_record(seed: int) -> dict:
    """A real game to take puzzles from: random play on 4x5, to the end."""
    from parlour.core import GameRecord

    game = parlour.load_game("clobber", size="4x5")
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    record = GameRecord.from_state(state, agents=["random", "random"], match=seed)
    return json.loads(record.to_json())


def test_puzzles_made_from_games_are_proved_and_graded():
    maker = PuzzleMaker(solve_seconds=5.0)
    made = maker.from_games((_short_game_record(s) for s in range(12)), 6, per_game=2)
    assert made, "twelve random 4x5 games hold positions with one winning move"
    for puzzle in made:
        verify(puzzle)
        assert puzzle.source.startswith("4x5 random vs random")
    graded = grade(made)
    assert [p.rating for p in graded] == sorted(p.rating for p in graded)
    assert [difficulty(p) for p in graded] == sorted(difficulty(p) for p in graded)
    assert graded[0].rating == 800 and (len(graded) == 1 or graded[-1].rating == 2400)


def test_the_command_line_makes_puzzles_from_records_and_shows_one(tmp_path):
    games = tmp_path / "results.jsonl"
    games.write_text("".join(json.dumps(_short_game_record(s)) + "\n" for s in range(12)))
    out = tmp_path / "made.jsonl"
    runner = CliRunner()
    result = runner.invoke(app, ["puzzles", "clobber", "--generate", "3", "--games", str(games),
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    made = load(out)
    assert 1 <= len(made) <= 3
    for puzzle in made:
        verify(puzzle)
    merged = tmp_path / "merged.jsonl.gz"  # the same file twice: every position once
    result = runner.invoke(app, ["puzzles", "clobber", "--merge", str(out), "--merge", str(out),
                                 "--out", str(merged)])
    assert result.exit_code == 0, result.output
    assert sorted(p.id for p in load(merged)) == sorted(p.id for p in made)
    shown = runner.invoke(app, ["puzzles", "clobber", "--rating", "1200", "--solution"])
    assert shown.exit_code == 0 and "find the only winning move" in shown.output
    refused = runner.invoke(app, ["puzzles", "stomple", "--generate", "3"])
    assert refused.exit_code == 2


def test_a_new_puzzle_is_placed_on_the_shipped_scale_by_its_difficulty():
    """place() rates a puzzle as grade() rates the set it joins: the rating of its difficulty
    among the set's, between its neighbours', and the scale's ends beyond them."""
    graded = shipped()
    ordered = sorted(graded, key=difficulty)
    middle = ordered[len(ordered) // 2]
    assert place(middle, graded).rating == pytest.approx(middle.rating, abs=1)
    easiest, hardest = ordered[0], ordered[-1]
    assert place(replace(easiest, nodes=0, moves=1), graded).rating == easiest.rating == 800
    assert place(replace(hardest, nodes=10**12), graded).rating == hardest.rating == 2400
    ratings = [place(replace(middle, nodes=n), graded).rating for n in (10, 10**3, 10**5, 10**7)]
    assert ratings == sorted(ratings) and ratings[0] < ratings[-1]


def test_a_puzzle_made_before_is_not_made_again_and_a_position_has_a_time_budget():
    puzzle = next(p for p in shipped() if len(p.line) == 5)
    state = parlour.load_game("clobber", position=puzzle.position).new_initial_state()
    assert PuzzleMaker().make(state) is not None  # proved again from scratch
    maker = PuzzleMaker()
    remember(maker, puzzle.position, puzzle.line)
    assert maker.make(state) is None  # the shipped puzzle is not a new one
    after = state.child(state.string_to_action(puzzle.line[0]))
    after = after.child(after.string_to_action(puzzle.line[1]))
    assert maker.make(after) is None  # nor is a step of its line
    hurried = PuzzleMaker(position_seconds=0.0)  # no time at all: every candidate skipped
    assert hurried.make(state) is None and hurried.tried == 1
