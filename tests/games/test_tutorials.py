"""The "Learn to play" lessons of every game (``games/*/tutorial.toml``).

Every step's position is real position text (it parses and writes back the same), the learner
is the player to act, the step's solution is legal and ends with the view showing what the
step teaches (and not showing it before), and what it teaches is checked once more here in
the engine's own terms: a stone captured, a string followed, a plank tipped, a bluff caught.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from parlour import list_games, load_game
from parlour.core import IllegalActionError, State
from parlour.games import tutorial as T

CASES = [
    pytest.param(tutorial, step, id=f"{game}-{tutorial.id}-{step.id}")
    for game in list_games()
    for tutorial in T.tutorials(game)
    for step in tutorial.steps
]
RULING_ID = re.compile(r"\[[A-Z]-?\d+\]|\b[CSPBG]-?\d{1,2}\b")
ENGINE_WORDS = re.compile(r"\b(seat|player) \d\b|\w+=\w+|\bbluff=|\bTrue\b|\bFalse\b", re.I)


def _played(tutorial: T.Tutorial, step: T.Step) -> T.Attempt:
    attempt = T.attempt(tutorial, step, list(step.solution))
    assert attempt.error is None, attempt.error
    return attempt


def test_every_game_has_a_tutorial_of_five_to_ten_steps():
    for game in list_games():
        found = T.tutorials(game)
        assert found, f"{game} has no tutorial"
        for tutorial in found:
            assert 5 <= len(tutorial.steps) <= 10, (game, tutorial.id)
            load_game(game, **tutorial.params)  # the game the finish starts


def test_the_bluffing_variant_has_its_own_tutorial_with_a_challenge_and_a_trust():
    bluffing = T.find("gobblestones", "bluffing")
    assert bluffing is not None and bluffing.params == {"bluff": True}
    moves = {m for step in bluffing.steps for m in (*step.solution, *step.then)}
    assert {"challenge", "trust"} <= moves


@pytest.mark.parametrize(("tutorial", "step"), CASES)
def test_the_position_is_real_position_text(tutorial: T.Tutorial, step: T.Step):
    state = step.start(tutorial.game)
    assert state.position().strip() == step.position.strip()
    assert not state.is_terminal() and state.current_player() >= 0


@pytest.mark.parametrize(("tutorial", "step"), CASES)
def test_the_solution_is_legal_and_shows_the_lesson(tutorial: T.Tutorial, step: T.Step):
    start = T.attempt(tutorial, step, [])
    assert start.status == "going" and start.error is None
    assert not T.shows(step, start.state, start.learner), "the lesson shows before any move"
    done = _played(tutorial, step)
    assert done.status == "done"
    assert done.learner == start.learner


@pytest.mark.parametrize(("tutorial", "step"), CASES)
def test_player_text_has_no_engine_words(tutorial: T.Tutorial, step: T.Step):
    for text in (step.title, step.instruction, step.hint, step.explain, tutorial.intro,
                 tutorial.finish, tutorial.title):
        assert not RULING_ID.search(text), text
        assert not ENGINE_WORDS.search(text), text


# -- what each step teaches, in the engine's terms ----------------------------------------------
def _stones(state: State[Any], mark: str) -> int:
    return state.position().split()[0].count(mark)


def test_clobber_every_move_is_a_capture():
    tutorial = T.find("clobber")
    assert tutorial is not None
    for step in tutorial.steps:
        before = step.start("clobber")
        after = _played(tutorial, step).state
        assert _stones(after, "x") == _stones(before, "x") - 1
        assert _stones(after, "o") == _stones(before, "o")


def test_clobber_a_diagonal_capture_is_refused():
    tutorial = T.find("clobber")
    assert tutorial is not None
    attempt = T.attempt(tutorial, tutorial.step("straight"), ["b2a3"])
    assert attempt.error is not None and "not next to each other" in str(attempt.error)
    assert attempt.status == "going" and attempt.actions == []


def test_clobber_the_wrong_capture_misses_the_last_move_lesson():
    tutorial = T.find("clobber")
    assert tutorial is not None
    attempt = T.attempt(tutorial, tutorial.step("last-move"), ["b1c1"])
    assert attempt.status == "missed" and not attempt.state.is_terminal()
    won = _played(tutorial, tutorial.step("last-move")).state
    assert won.is_terminal() and won.returns() == [1.0, -1.0]


def test_stomple_a_string_goes_on_until_it_runs_out():
    tutorial = T.find("stomple")
    assert tutorial is not None
    step = tutorial.step("string")
    for k in range(1, len(step.solution)):
        going = T.attempt(tutorial, step, list(step.solution[:k]))
        assert going.status == "going" and going.state.view(0)["string"] == "yellow"
    done = _played(tutorial, step)
    assert done.state.current_player() == 1 and len(done.actions) == 3


def test_stomple_a_fork_takes_either_branch_and_leaves_the_other():
    tutorial = T.find("stomple")
    assert tutorial is not None
    step = tutorial.step("fork")
    left = T.attempt(tutorial, step, ["d3", "c4"])
    right = _played(tutorial, step)
    assert left.status == right.status == "done"
    assert left.state.position() != right.state.position()
    assert "g" in left.state.view(0)["board"][3]  # the right-hand greens stay


def test_stomple_a_hop_lands_far_away_and_a_trapped_stomper_is_out():
    tutorial = T.find("stomple")
    assert tutorial is not None
    hop = _played(tutorial, tutorial.step("hop")).state
    assert hop.view(0)["board"][1][5] == "0"  # f6
    out = _played(tutorial, tutorial.step("knock-out")).state
    assert out.view(0)["status"] == ["on", "out"] and out.returns() == [1.0, -1.0]
    assert out.scores()[0] > 5  # the round's points were scored


def test_plank_a_stop_loads_the_other_plank_and_a_match_steps_the_elephant():
    tutorial = T.find("stomp-the-plank")
    assert tutorial is not None
    loaded = _played(tutorial, tutorial.step("draw-and-stop")).state.view(0)
    assert [p["crates"] for p in loaded["planks"]] == [0, 1]
    caught = _played(tutorial, tutorial.step("caught")).state.view(0)
    assert [p["step"] for p in caught["planks"]] == [1, 1]


def test_plank_drawing_on_when_one_step_from_the_water_sinks_you():
    tutorial = T.find("stomp-the-plank")
    assert tutorial is not None
    sunk = T.attempt(tutorial, tutorial.step("stop-in-time"), ["draw"])
    assert sunk.status == "missed" and sunk.state.view(0)["end"] == "tip-step"
    assert sunk.state.returns() == [-1.0, 1.0]


def test_plank_a_plank_tips_and_the_last_spot_wins():
    tutorial = T.find("stomp-the-plank")
    assert tutorial is not None
    tipped = _played(tutorial, tutorial.step("tip")).state.view(0)
    assert tipped["end"] == "tip-stop" and tipped["planks"][1]["balance"] <= 0
    last = _played(tutorial, tutorial.step("last-spot")).state.view(0)
    assert last["end"] == "last-spot" and len(last["pontoon"]) == last["spots"]


def test_gobblestones_the_first_play_covers_a_centre_and_a_2x2_block_is_refused():
    tutorial = T.find("gobblestones", "basics")
    assert tutorial is not None
    first = _played(tutorial, tutorial.step("first-play")).state.view(0)
    assert first["tiles"][7][7] == "P"  # h8, the centre square of the centre board square
    off_centre = T.attempt(tutorial, tutorial.step("first-play"), ["g8"])
    assert off_centre.error is not None and "B3" in str(off_centre.error)
    block = T.attempt(tutorial, tutorial.step("no-square"), ["i9"])
    assert isinstance(block.error, IllegalActionError) and block.error.rule == "B5"


def test_gobblestones_a_pass_draws_five():
    tutorial = T.find("gobblestones", "basics")
    assert tutorial is not None
    passed = _played(tutorial, tutorial.step("pass")).state.view(0)
    assert len(passed["rack"]) == 7


def test_bluffing_a_challenged_bluff_returns_and_an_honest_play_costs_the_challenger():
    tutorial = T.find("gobblestones", "bluffing")
    assert tutorial is not None
    challenged = _played(tutorial, tutorial.step("challenge")).state.view(0)
    assert challenged["last_challenge"]["correct"] is False
    assert challenged["scores"] == [0, 8] and challenged["rack_sizes"][1] == 6
    trusted = _played(tutorial, tutorial.step("trust")).state.view(0)
    assert trusted["last_challenge"] is None and trusted["scores"] == [0, 12]
    costly = T.attempt(tutorial, tutorial.step("trust"), ["challenge"])
    assert costly.status == "missed" and costly.state.view(0)["scores"][0] == -4
    caught = _played(tutorial, tutorial.step("caught")).state.view(0)
    assert caught["last_challenge"] == {**caught["last_challenge"], "challenger": 1,
                                        "correct": False}
    honest = _played(tutorial, tutorial.step("honest")).state.view(0)
    assert honest["last_challenge"]["correct"] is True and honest["scores"][1] < 8


def test_a_face_down_tile_stays_hidden_from_the_opponent():
    tutorial = T.find("gobblestones", "bluffing")
    assert tutorial is not None
    state = _played(tutorial, tutorial.step("bluff")).state
    assert state.view(1)["tiles"][6][7] == "?"  # h9, as the opponent sees it
    assert state.view(0)["tiles"][6][7] == "y"  # the learner's own face-down tile


# -- the runner ------------------------------------------------------------------------------
def test_matches_is_a_partial_match_with_bounds():
    view = {"a": 1, "b": [1, {"c": 2, "d": 3}], "e": "x"}
    assert T.matches({"a": 1}, view)
    assert T.matches({"b": [1, {"c": 2}]}, view)
    assert not T.matches({"b": [1]}, view)
    assert T.matches({"a": {"at_least": 1, "at_most": 1}}, view)
    assert not T.matches({"a": {"at_least": 2}}, view)
    assert not T.matches({"e": {"at_least": 0}}, view)
    assert not T.matches({"z": 1}, view)


def test_an_illegal_move_keeps_the_moves_before_it():
    tutorial = T.find("stomple")
    assert tutorial is not None
    attempt = T.attempt(tutorial, tutorial.step("string"), ["c4", "a5"])
    assert attempt.status == "going" and attempt.error_index == 1
    assert attempt.error is not None and "S7" in str(attempt.error)
    assert attempt.state.view(0)["string"] == "yellow" and len(attempt.actions) == 1


def test_moves_after_the_turn_are_refused_and_too_many_raise():
    tutorial = T.find("clobber")
    assert tutorial is not None
    step = tutorial.step("full-board")
    late = T.attempt(tutorial, step, ["a5b5", "b4b5"])
    assert late.error_index == 1 and late.status == "going"
    with pytest.raises(ValueError, match="at most"):
        T.attempt(tutorial, step, ["a5b5"] * (T.MAX_MOVES + 1))


def test_chance_past_the_script_is_the_same_every_time():
    tutorial = T.find("gobblestones", "basics")
    assert tutorial is not None
    step = tutorial.step("line")
    first = _played(tutorial, step).state.view(0)["rack"]
    assert _played(tutorial, step).state.view(0)["rack"] == first


@pytest.mark.parametrize(("text", "problem"), [
    ("x = 1", "no \\[\\[tutorial\\]\\]"),
    ('[[tutorial]]\nid = "a"\ntitle = "A"\nintro = "i"\nfinish = "f"', "no steps"),
    ('[[tutorial]]\nid = "a"\ntitle = "A"\nintro = "i"\nfinish = "f"\n[[tutorial.step]]\n'
     'id = "s"\ncolour = "red"', "unknown field"),
    ('[[tutorial]]\nid = "a"\ntitle = "A"\nintro = "i"\nfinish = "f"\n[[tutorial.step]]\n'
     'id = "s"\ntitle = "t"\ninstruction = "i"\nexplain = "e"\nhint = "h"\nposition = "p"',
     "'expect'"),
    ("[[tutorial]", "not TOML"),
])
def test_a_malformed_tutorial_file_is_refused(text: str, problem: str):
    with pytest.raises(T.TutorialError, match=problem):
        T.parse_tutorials("clobber", text)
