"""B9, the bluffing variant: face-down tiles, challenges in clockwise order, both outcomes."""

from __future__ import annotations

import pytest

from parlour import IllegalActionError
from parlour.games.gobblestones.board import COLOURS, parse_square

from .helpers import colour, letters, play, state, value


def bluff_state(**kwargs):
    return state(bluff=True, **kwargs)


def tile_mark(s, name: str, viewer: int | None) -> str:
    square = parse_square(name)
    return s.view(viewer)["tiles"][square // 15][square % 15]


def test_b9_tiles_go_face_down_and_stay_so_when_everyone_trusts():
    assert colour("h8") == "Y"
    s = bluff_state(racks=("RRRRR", "GGGGG"))
    play(s, "h8:r")  # a red tile on a yellow square: a bluff
    assert s.phase == "challenge" and s.current_player() == 1
    assert s.view(1)["play"] == [["h8", "?"]], "the others do not see the colour"
    assert s.view(0)["play"] == [["h8", "R"]]
    play(s, "trust")
    assert s.scores() == [value("h8"), 0]
    assert tile_mark(s, "h8", 0) == "r" and tile_mark(s, "h8", 1) == "?"
    assert tile_mark(s, "h8", None) == "?"
    assert s.view(1)["owners"] == {"h8": 0}
    assert s.is_chance_node() and s.view(None)["to_draw"] == 4


def test_b9_deciders_go_clockwise_from_the_players_left():
    s = bluff_state(players=3, racks=("RRRRR", "YYYYY", "GGGGG"), phase="play 1")
    play(s, "h8")
    assert s.current_player() == 2
    play(s, "trust")
    assert s.current_player() == 0
    play(s, "trust")
    assert s.is_chance_node() and s.scores() == [0, value("h8"), 0]


def test_b9_the_first_to_challenge_is_the_challenger():
    s = bluff_state(players=3, racks=("YYYYY", "RRRRR", "GGGGG"))
    play(s, "h8:y")
    play(s, "challenge")  # player 1 challenges: player 2 is not asked
    assert s.view(None)["last_challenge"]["challenger"] == 1
    assert s.is_chance_node()


def test_b9_failed_challenge_the_challenger_loses_what_the_play_earned():
    s = bluff_state(racks=(letters("h8", "i8") + "P", "GGGGG"), points=(0, 5))
    play(s, "h8-i8")  # honest: tiles of the squares' colours
    play(s, "challenge")
    earned = value("h8") + value("i8")
    assert s.scores() == [earned, 5 - earned], "scores may go below zero"
    assert s.scores()[1] < 0
    assert tile_mark(s, "h8", 1) == "Y" and tile_mark(s, "i8", 1) == "Y", "turned face up"
    assert s.view(1)["owners"] == {}
    last = s.view(1)["last_challenge"]
    assert last == {"player": 0, "challenger": 1, "correct": True,
                    "tiles": [["h8", "Y"], ["i8", "Y"]]}
    assert s.is_chance_node() and s.view(None)["to_draw"] == 3, "the mover still draws (B6)"


def test_b9_successful_challenge_tiles_return_unscored_and_no_draw():
    s = bluff_state(racks=("RRRRR", "GGGGG"))
    bag = s.bag()
    play(s, "h8-i8:rr")  # red tiles on yellow squares: wrong
    play(s, "challenge")
    assert s.scores() == [0, 0]
    assert s.rack(0) == {"R": 5, "Y": 0, "G": 0, "B": 0, "P": 0}
    assert s.bag() == bag and not s.is_chance_node(), "the turn ends with no draw"
    assert s.current_player() == 1
    assert tile_mark(s, "h8", None) == "." and tile_mark(s, "i8", None) == "."
    assert s.view(1)["last_challenge"]["correct"] is False
    assert s.view(1)["last_challenge"]["tiles"] == [["h8", "R"], ["i8", "R"]]
    with pytest.raises(IllegalActionError) as err:  # the board is empty again: B3 holds
        play(s, "i8:g")
    assert err.value.rule == "B3"


def test_b9_square_rules_still_hold_face_down():
    s = bluff_state(racks=("RRRRR", "GGGGG"))
    with pytest.raises(IllegalActionError) as err:
        play(s, "i8:r")
    assert err.value.rule == "B3"
    s = bluff_state(tiles={"h8": "Y"}, racks=("RRRRR", "GGGGG"))
    for text, word in [("i8:r k8:r", "gap"), ("i8:r j9:r", "bends"), ("k8-l8:rr", "touch")]:
        with pytest.raises(IllegalActionError) as err:
            play(s, text)
        assert err.value.rule == "B4" and word in err.value.reason, text
    s = bluff_state(tiles={"h9": "R", "i9": "G"}, racks=("RRRRR", "GGGGG"))
    with pytest.raises(IllegalActionError) as err:
        play(s, "h8-i8:rr")
    assert err.value.rule == "B5"


def test_b9_only_tiles_from_the_rack():
    s = bluff_state(tiles={"h8": "Y"}, racks=("RRRRR", "GGGGG"))
    with pytest.raises(IllegalActionError) as err:
        play(s, "i8:g")
    assert err.value.rule == "B4"
    with pytest.raises(IllegalActionError) as err:
        s.apply_action(COLOURS.index("G") * 225 + parse_square("i8"))
    assert err.value.rule == "B4" and "no green tile" in err.value.reason


def test_b9_an_unchallenged_face_down_tile_counts_as_covered():
    s = bluff_state(tiles={"h8": "r"}, owners={"h8": 0}, racks=("RRRRR", "GGGGG"),
                    phase="play 1")
    assert parse_square("h8") not in {a % 225 for a in s.legal_actions()}
    play(s, "i8:g")  # touching the face-down tile is a legal (if wrong) play
    assert s.phase == "challenge"


def test_b9_a_caught_wrong_play_places_no_tile_for_b7():
    s = bluff_state(tiles={"h8": "Y"}, racks=("R", "G"), bag={}, spare=1)
    play(s, "i8:r")
    play(s, "challenge")
    assert s.view(None)["passes"] == 1 and not s.is_terminal()
    play(s, "pass")
    assert s.is_terminal() and s.end_reason == "passes"


def test_b9_notation_names_the_colour_and_defaults_to_the_squares_own():
    s = bluff_state(racks=(letters("h8", "i8"), "GGGGG"))
    y = COLOURS.index("Y")
    assert s.string_to_actions("h8 i8") == [y * 225 + parse_square("h8"),
                                            y * 225 + parse_square("i8"), s.game.END]
    action = s.string_to_action("h8:y")
    assert s.action_to_string(action) == "h8:y"
    assert s.public_action_string(action) == "h8:?", "announcing a move hides its colour"
    s.apply_action(action)
    assert s.action_to_string(s.game.END) == "end"


def test_b9_challenge_and_trust_only_when_a_play_waits():
    s = bluff_state(racks=("RRRRR", "GGGGG"))
    with pytest.raises(IllegalActionError) as err:
        s.apply_action(s.game.CHALLENGE)
    assert err.value.rule == "B9"
    play(s, "h8:r")
    with pytest.raises(IllegalActionError) as err:
        s.apply_action(s.game.PASS)
    assert err.value.rule == "B9"
    assert s.legal_actions() == [s.game.CHALLENGE, s.game.TRUST]
