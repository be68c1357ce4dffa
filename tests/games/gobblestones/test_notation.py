"""Typed plays, action strings, position text and the board text (B1-B9 notation)."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour import IllegalActionError, InvalidParameterError, NotationError
from parlour.games.gobblestones import EXAMPLE_BOARD

from .helpers import game, letters, play, position, state


def sq(name: str) -> int:
    from parlour.games.gobblestones.board import parse_square

    return parse_square(name)


def column_state():
    return state(racks=(letters("h8", "h9", "h10", "h11"), "GGGGG"))


@pytest.mark.parametrize("text", ["h8-h11", "h11-h8", "h8 h9 h10 h11", "h10 h8, h11 h9",
                                  "H8-H11"])
def test_b4_a_whole_play_in_any_written_order_is_entered_in_board_order(text):
    s = column_state()
    assert s.string_to_actions(text) == [sq("h11"), sq("h10"), sq("h9"), sq("h8"), s.game.END]


def test_b4_pass_and_single_steps():
    s = column_state()
    assert s.string_to_actions("pass") == [s.game.PASS]
    assert s.string_to_action("h11") == sq("h11")
    s.apply_action(sq("h11"))
    assert s.string_to_actions("h10 h9 h8") == [sq("h10"), sq("h9"), sq("h8"), s.game.END]
    assert s.string_to_actions("end") == [s.game.END]


@pytest.mark.parametrize(("text", "rule"), [("h8-i9", "B4"), ("h8 h8", "B4"), ("h8 h10", "B4")])
def test_b4_typed_plays_that_break_a_rule_name_it(text, rule):
    s = column_state()
    with pytest.raises(IllegalActionError) as err:
        s.string_to_actions(text)
    assert err.value.rule == rule


@pytest.mark.parametrize("text", ["z9", "h16", "h8-", "h8:x", "h8-h9:r", "", "values"])
def test_bad_notation_is_a_notation_error(text):
    with pytest.raises(NotationError):
        column_state().string_to_actions(text)


def test_chance_notation():
    s = game(board=EXAMPLE_BOARD).new_initial_state()
    assert s.string_to_action("draw y") == 1 == s.string_to_action("Y")
    b = game().new_initial_state()
    assert b.action_to_string(3) == "a15=B" and b.string_to_action("a15=B") == 3
    for _ in range(25):
        b.apply_action(b.chance_outcomes()[0][0])
    assert b.string_to_action("values R2 Y3 G4 B5 P6") == 0
    assert b.action_to_string(119) == "values R6 Y5 G4 B3 P2"
    assert b.string_to_action(b.action_to_string(57)) == 57


# -- position text --------------------------------------------------------------------------
def _states_in_every_phase():
    rng = random.Random(4)
    seen = {}
    for params in ({}, {"bluff": True, "players": 3}):
        s = game(**params).new_initial_state()
        while not s.is_terminal():
            seen.setdefault((params.get("bluff", False), s.phase, bool(s.pending)), s.clone())
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(rng.choices(actions, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        seen[(params.get("bluff", False), "end", False)] = s
    return seen


def test_position_text_round_trips_in_every_phase():
    seen = _states_in_every_phase()
    phases = {phase for _bluff, phase, _pending in seen}
    assert phases == {"board", "deal", "play", "challenge", "draw", "end"}
    for s in seen.values():
        copy = s.game.state_from_position(s.position())
        assert copy.position() == s.position()
        assert copy.legal_actions() == s.legal_actions()
        assert copy.chance_outcomes() == s.chance_outcomes()
        for p in [None, *range(s.game.num_players())]:
            assert copy.view(p) == s.view(p)


def test_repr_pastes_back_as_code():
    s = column_state()
    play(s, "h8-h10")
    twin = eval(repr(s), {"parlour": parlour})
    assert twin.position() == s.position()


def test_position_parameter_starts_there():
    text = position(racks=("RY", "GB"), tiles={"h8": "*"}, points=(4, 0), phase="play 1")
    g = parlour.load_game("gobblestones", position=text)
    assert g.new_initial_state().position() == text
    with pytest.raises(InvalidParameterError):
        parlour.load_game("gobblestones", position=text, board=EXAMPLE_BOARD)
    with pytest.raises(InvalidParameterError):
        parlour.load_game("gobblestones", position=text, players=3)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda t: t.replace(" P20", " P19"), "B2"),  # 19 purple tiles in all
        (lambda t: t.replace("owners -", "owners h9=0"), "owners"),
        (lambda t: t.replace("phase play 0", "phase dance 0"), "phase"),
        (lambda t: t.replace("turns 0\n", ""), "missing"),
        (lambda t: t + "\nextra 1", "unknown field"),
        (lambda t: t.replace("racks RY/GB", "racks RY/GB/P"), "seats"),
        (lambda t: t.replace("points 0 0", "points 0 x"), "whole number"),
    ],
)
def test_bad_position_text_says_what_is_wrong(change, words):
    good = position(racks=("RY", "GB"))
    game().state_from_position(good)
    with pytest.raises(NotationError, match=words):
        game().state_from_position(change(good))


def test_position_face_up_tiles_match_and_face_down_needs_bluff():
    with pytest.raises(NotationError, match="B4"):
        game().state_from_position(position(tiles={"h8": "R"}, racks=("Y", "G")))
    with pytest.raises(NotationError, match="B9"):
        game().state_from_position(position(tiles={"h8": "r"}, owners={"h8": 0}, racks=("Y", "G")))
    s = game(bluff=True).state_from_position(
        position(tiles={"h8": "r"}, owners={"h8": 1}, racks=("Y", "G")))
    assert s.view(1)["tiles"][7][7] == "r"
