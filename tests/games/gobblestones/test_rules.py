"""GobbleStones' rules B3-B8 from hand-made positions; each test names its ruling."""

from __future__ import annotations

import pytest

from parlour import IllegalActionError
from parlour.games.gobblestones.board import parse_square

from .helpers import colour, draw, game, letters, play, position, state, value


def refused(s, text: str) -> IllegalActionError:
    """The error a whole play raises; the state must not change (G-2)."""
    before = s.position()
    with pytest.raises(IllegalActionError) as err:
        play(s, text)
    assert s.position() == before
    return err.value


def step_refused(s, square: str) -> IllegalActionError:
    before = s.position()
    with pytest.raises(IllegalActionError) as err:
        s.apply_action(s.string_to_action(square))
    assert s.position() == before
    return err.value


# -- B3: the game's first play ----------------------------------------------------------------
def test_b3_first_play_off_centre_is_refused():
    s = state(racks=(letters("i8", "j8", "k8"), "RRRRR"))
    err = refused(s, "i8-k8")
    assert err.rule == "B3"
    assert step_refused(s, "i8").rule == "B3", "no legal first play can start on i8"
    assert parse_square("i8") not in s.legal_actions()


def test_b3_first_play_through_a_centre_square():
    s = state(racks=(letters("h8", "i8", "j8"), "RRRRR"))
    play(s, "h8-j8")
    assert s.scores()[0] == value("h8") + value("i8") + value("j8") == 12


@pytest.mark.parametrize("centre", ["c13", "h13", "m13", "c8", "m8", "c3", "h3", "m3"])
def test_b3_any_board_squares_centre_will_do(centre):
    s = state(racks=(colour(centre), "RRRRR"))
    assert parse_square(centre) in s.legal_actions()
    play(s, centre)
    assert s.view(None)["tiles"][parse_square(centre) // 15][parse_square(centre) % 15] != "."


def test_b3_after_a_pass_the_next_play_is_still_the_first():
    s = state(racks=(letters("h8"), letters("i8", "j8")))
    play(s, "pass")
    draw(s, "RRRRR")
    assert s.current_player() == 1
    assert refused(s, "i8-j8").rule == "B3"


# -- B4: straight, gapless, matching, adjacent ------------------------------------------------
BOARD_H8 = {"h8": "*"}


def test_b4_a_gap_is_refused():
    s = state(tiles=BOARD_H8, racks=(letters("i8", "k8"), "RRRRR"))
    err = refused(s, "i8 k8")
    assert err.rule == "B4" and "gap" in err.reason


def test_b4_jumping_over_a_tile_is_a_gap_too():
    s = state(tiles=BOARD_H8, racks=(letters("g8", "i8"), "RRRRR"))
    err = refused(s, "g8 i8")
    assert err.rule == "B4" and "jump" in err.reason


def test_b4_a_bend_is_refused():
    s = state(tiles=BOARD_H8, racks=(letters("i8", "j8", "j9"), "RRRRR"))
    err = refused(s, "i8 j8 j9")
    assert err.rule == "B4" and "bends" in err.reason
    s.apply_action(parse_square("i8"))
    s.apply_action(parse_square("j8"))
    assert step_refused(s, "j9").rule == "B4"


def test_b4_a_colour_mismatch_is_refused():
    assert colour("i8") == "Y"
    s = state(tiles=BOARD_H8, racks=("PPPPP", "RRRRR"))
    err = refused(s, "i8")
    assert err.rule == "B4" and "yellow" in err.reason
    assert step_refused(s, "i8").rule == "B4"
    with pytest.raises(IllegalActionError) as typed:
        s.string_to_actions("i8:p")
    assert typed.value.rule == "B4" and "match" in typed.value.reason


def test_b4_a_play_must_touch_a_tile_on_the_board():
    s = state(tiles=BOARD_H8, racks=(letters("k8", "l8"), "RRRRR"))
    err = refused(s, "k8-l8")
    assert err.rule == "B4" and "touch" in err.reason


def test_b4_a_covered_square_takes_no_tile():
    s = state(tiles=BOARD_H8, racks=(letters("h8"), "RRRRR"))
    assert refused(s, "h8").rule == "B4"


def test_b4_at_most_five_tiles():
    s = state(racks=(letters("h8", "i8", "j8", "k8", "l8", "m8"), "RRRRR"))
    err = refused(s, "h8-m8")
    assert err.rule == "B4" and "5" in err.reason
    play(s, "h8-l8")
    assert s.scores()[0] == sum(value(f"{f}8") for f in "hijkl")


def test_b4_tiles_are_entered_in_board_order():
    s = state(tiles=BOARD_H8, racks=(letters("i8", "i9"), "RRRRR"))
    s.apply_action(parse_square("i8"))
    err = step_refused(s, "i9")  # above i8: the play i9-i8 is legal, typed top to bottom
    assert err.rule == "B4" and "board order" in err.reason
    s = state(tiles=BOARD_H8, racks=(letters("i8", "i9"), "RRRRR"))
    assert s.string_to_actions("i8 i9") == [parse_square("i9"), parse_square("i8"), s.game.END]


def test_b4_legal_steps_are_exactly_those_that_can_finish_a_play():
    s = state(tiles=BOARD_H8, racks=(letters("i8", "j8", "i7"), "RRRRR"))
    names = lambda: sorted(s.action_to_string(a) for a in s.legal_actions())  # noqa: E731
    assert "pass" in names() and "j8" not in names()  # j8 cannot touch h8 by going right/down
    s.apply_action(parse_square("i8"))
    assert names() == ["end", "i7", "j8"]
    s.apply_action(parse_square("j8"))
    assert names() == ["end"]


# -- B5: no 2 x 2 block -----------------------------------------------------------------------
def test_b5_a_2x2_block_formed_by_the_last_tile_is_refused():
    s = state(tiles={"h9": "*", "i9": "*"}, racks=(letters("h8", "i8"), "RRRRR"))
    err = refused(s, "h8-i8")
    assert err.rule == "B5"
    s.apply_action(parse_square("h8"))  # the first tile alone is fine
    assert step_refused(s, "i8").rule == "B5"
    play(s, "end")
    assert s.scores()[0] == value("h8")


def test_b5_a_2x2_block_with_three_tiles_already_down_is_refused():
    s = state(tiles={"h8": "*", "i8": "*", "h7": "*"}, racks=(letters("i7"), "RRRRR"))
    assert refused(s, "i7").rule == "B5"
    assert parse_square("i7") not in s.legal_actions()
    assert parse_square("i9") in s.legal_actions(), "another green square is fine"


# -- B6: scoring and drawing ------------------------------------------------------------------
def test_b6_score_the_squares_covered_and_draw_five_minus_tiles_placed():
    s = state(racks=(letters("h8", "i8"), "RRRRR"))
    play(s, "h8-i8")
    assert s.scores() == [8.0, 0.0]
    assert s.is_chance_node() and s.view(None)["to_draw"] == 3
    draw(s, "GGG")
    assert s.current_player() == 1 and s.rack(0)["G"] == 3


def test_b6_a_pass_draws_five_and_racks_have_no_limit():
    s = state(racks=("RRRRR", "RRRRR"))
    play(s, "pass")
    draw(s, "YYYYY")
    assert sum(s.rack(0).values()) == 10


def test_b6_five_tiles_placed_draw_none():
    s = state(racks=(letters("h8", "i8", "j8", "k8", "l8") + "G", "RRRRR"))
    play(s, "h8-l8")
    assert s.current_player() == 1 and not s.is_chance_node()


# -- B7: every way the game ends ----------------------------------------------------------------
def test_b7_empty_rack_and_bag_too_short_ends_at_once():
    s = state(racks=(letters("h8", "i8", "j8"), "RRRRR"), bag={"R": 1}, spare=1)
    play(s, "h8-j8")  # needs 2, the bag has 1, the rack is empty
    assert s.is_terminal() and s.end_reason == "bag"
    assert s.bag() == {"R": 1, "Y": 0, "G": 0, "B": 0, "P": 0}, "no tile is drawn"


def test_b7_bag_too_short_with_tiles_left_draws_what_is_left_and_goes_on():
    s = state(racks=(letters("h8", "i8", "j8") + "P", "RRRRR"), bag={"R": 1}, spare=1)
    play(s, "h8-j8")
    assert s.is_chance_node() and s.view(None)["to_draw"] == 1
    draw(s, "R")
    assert s.current_player() == 1 and sum(s.bag().values()) == 0


def test_b7_the_turn_of_a_player_with_no_tiles_ends_the_game():
    s = state(racks=(letters("h8", "i8", "j8", "k8", "l8"), "RRRRR"))
    play(s, "h8-l8")  # five placed, none to draw: play goes on
    assert s.current_player() == 1
    play(s, "pass")
    draw(s, "YYYYY")
    assert s.is_terminal() and s.end_reason == "no-tiles"


def test_b7_every_player_passing_with_the_bag_empty_ends_the_game():
    s = state(players=3, racks=("R", "Y", "G"), bag={}, spare=2)
    play(s, "pass")
    play(s, "pass")
    assert not s.is_terminal() and s.current_player() == 2
    play(s, "pass")
    assert s.is_terminal() and s.end_reason == "passes"


def test_b7_a_tile_placed_restarts_the_count_of_passes():
    s = state(players=3, tiles=BOARD_H8, racks=("R", "R", letters("i8") + "R"), bag={}, spare=0)
    play(s, "pass")
    play(s, "pass")
    assert s.view(None)["passes"] == 2
    play(s, "i8")  # player 2 places a tile: the count starts again
    assert s.view(None)["passes"] == 0
    play(s, "pass")
    play(s, "pass")
    assert not s.is_terminal() and s.current_player() == 2


def test_b7_a_pass_with_tiles_in_the_bag_does_not_count():
    s = state(racks=("R", "Y"))
    play(s, "pass")
    assert s.view(None)["passes"] == 0


def test_b7_max_turns_cap_ends_the_game_scored_as_usual():
    g = game(max_turns=3)
    s = g.state_from_position(position(racks=("R", "YY"), bag={}, spare=1, turns=2))
    play(s, "pass")
    assert s.is_terminal() and s.end_reason == "max-turns"
    assert s.scores() == [1.0, 99.0] and s.returns() == [-1.0, 1.0]  # B8: 1 per tile


# -- B8: the end bonus and the winner (G-4) ------------------------------------------------------
def test_b8_each_tile_left_is_a_point_and_most_points_wins():
    s = state(racks=("RR", "-"), points=(10, 11), phase="end bag")
    assert s.scores() == [12.0, 11.0]
    assert s.returns() == [1.0, -1.0]


def test_b8_g4_ties_share_the_win():
    s = state(players=3, racks=("R", "-", "YY"), points=(10, 11, 9), phase="end passes")
    assert s.scores() == [11.0, 11.0, 11.0]
    assert s.returns() == [1.0, 1.0, 1.0]
    s = state(players=3, racks=("R", "-", "Y"), points=(10, 11, 9), phase="end passes")
    assert s.returns() == [1.0, 1.0, -1.0]


def test_b8_returns_are_zero_before_the_end():
    s = state(racks=("R", "Y"), points=(30, 0))
    assert s.returns() == [0.0, 0.0] and s.scores() == [30.0, 0.0]


def test_g2_illegal_action_ids_name_a_rule_and_leave_the_state_unchanged():
    s = state(tiles=BOARD_H8, racks=(letters("i8"), "RRRRR"))
    g = s.game
    for action, rule in [(g.END, "B4"), (parse_square("a1"), "B4")]:
        before = s.position()
        with pytest.raises(IllegalActionError) as err:
            s.apply_action(action)
        assert err.value.rule == rule and s.position() == before
    s.apply_action(parse_square("i8"))
    with pytest.raises(IllegalActionError) as err:
        s.apply_action(g.PASS)
    assert err.value.rule == "B4"
