"""Stomple's notation, position text, views, tensor planes and terminal board."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest
from rich.console import Console

import parlour
from parlour import InvalidParameterError, NotationError
from parlour.cli.boards import render_board
from parlour.cli.boards.stomple import render
from parlour.games.stomple import NAMES

from .helpers import at, play, position, random_playout

FORK = position({"d4": "0", "d5": "y", "c6": "y", "e6": "y", "a1": "1", "g1": "b"})


# -- moves -------------------------------------------------------------------------------------
def test_holes_are_written_file_then_rank_and_action_ids_count_from_a7():
    state = at(FORK)
    for action, name in enumerate(NAMES):
        assert state.action_to_string(action) == name
        assert state.string_to_action(name) == action
        assert state.string_to_action(name.upper()) == action
    assert state.string_to_action("d4") == 24


@pytest.mark.parametrize("text", ["h1", "d8", "d0", "", "d4e5", "44"])
def test_bad_hole_names_raise_notation_errors(text):
    with pytest.raises(NotationError):
        at(FORK).string_to_action(text)


def test_chance_actions_have_readable_names_that_parse_back():
    state = parlour.load_game("stomple", players=3).new_initial_state()
    assert state.action_to_string(2) == "deal a7 red"
    assert state.string_to_action("deal a7 red") == state.string_to_action("r") == 2
    assert state.string_to_action("cat's eye") == 6
    for hole in range(49):
        state.apply_action(hole % 7)
    assert state.action_to_string(5) == "player 0 draws black"
    assert state.string_to_action("player 0 draws black") == 5
    with pytest.raises(NotationError, match="S2"):
        state.string_to_action("cat's eye")


# -- position text -----------------------------------------------------------------------------
def test_position_text_of_a_new_game():
    state = parlour.load_game("stomple", players=3).new_initial_state()
    assert state.position() == "/".join(["???????"] * 7) + " 0 ??? fff - 0,0,0 1"


def test_position_text_says_a_string_is_under_way_and_round_trips():
    state = play(at(FORK), "d5")
    text = state.position()
    assert text == position(
        {"d5": "0", "c6": "y", "e6": "y", "a1": "1", "g1": "b"}, string="y"
    )
    assert at(text).position() == text and at(text).legal_actions() == state.legal_actions()


def test_position_parameter_starts_a_game_there_and_sets_the_players():
    cells = {"d4": "0", "d5": "w", "a1": "w", "g7": "y"}
    text = position(cells, colours="rbg", status="sff", scores="3,4,5")
    game = parlour.load_game("stomple", position=text)
    assert game.num_players() == 3 and game.get_parameters()["players"] == 3
    assert game.new_initial_state().position() == text
    with pytest.raises(InvalidParameterError, match="3 players"):
        parlour.load_game("stomple", position=text, players=4)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("......./......./......./......./......./......./....... 0 rb ss - 0,0", "7 fields"),
        (position({"d4": "0"}, status="sf")[:-1] + "0", "round"),
        (position({n: "w" for n in NAMES[:8]} | {"d4": "0", "g1": "1"}), "more than 7 white"),
        (position({"d4": "0", "d5": "0"}), "two stompers"),
        (position({"d4": "0"}), "player 1 is 's'"),
        (position({"d4": "0", "a1": "1"}, colours="rr"), "same colour"),
        (position({"d4": "0", "a1": "1"}, colours="rc"), "stomper colour"),
        (position({"d4": "0", "a1": "1"}, to_move=2), "player to move"),
        (position({"d4": "0", "a1": "1"}, scores="0"), "scores"),
        (position({"d4": "0", "a1": "1"}, scores="40,0"), "target"),
        (position({"d4": "0"}, status="sx", scores="5,0"), "round is over"),
        (position({"d4": "0"}, status="sx", string="w", to_move=1), "is out"),
        (position({"d4": "0", "a1": "1"}, status="ff"), "is 'f' but their stomper is on"),
        ("???????/" * 6 + "??????w 0 ?? ff - 0,0 1", "'?' only at the end"),
        ("w??????/" + "???????/" * 5 + "??????? 0 r? ff - 0,0 1", "deal comes before the draw"),
    ],
)
def test_bad_position_texts_say_what_is_wrong(text, words):
    with pytest.raises(NotationError, match=words):
        at(text)


def test_a_written_round_without_any_stomper_left_is_refused():
    # Player 0 cannot stomp and is knocked out; player 1's first turn finds no outer marble.
    with pytest.raises(NotationError, match="no winner"):
        at(position({"g4": "0"}, colours="gb", status="sf"))


# -- views and tensors -------------------------------------------------------------------------
def test_view_holds_the_players_colour_round_scores_and_legal_holes():
    text = position({"d4": "0", "d5": "y", "a1": "1", "g1": "b"}, scores="7,12", round=3)
    view = at(text).view(1)
    assert view["your_colour"] == "blue" and view["colours"] == ["red", "blue"]
    assert view["round"] == 3 and view["scores"] == [7, 12] and view["target"] == 40
    assert view["to_move"] == 0 and view["legal"] == ["d5"]
    assert view["status"] == ["on", "on"] and view["string"] is None


def test_tensor_planes_follow_the_documented_layout():
    text = position({"d4": "0", "d5": "y", "c6": "c", "a1": "1", "g1": "b", "e6": "y"},
                    scores="4,20", string="-")
    state = play(at(text), "d5")  # player 0 must now stomp the yellow string on to e6
    game = state.game
    planes = state.observation_tensor(1)
    assert planes.shape == game.observation_tensor_shape() == (16 + 11 * 2, 7, 7)
    assert planes[1, 1, 4] == 1 and planes[1].sum() == 1, "yellow marble on e6"
    assert planes[6, 1, 2] == 1 and planes[3, 6, 6] == 1, "cat's eye c6, blue g1"
    assert planes[7, 3, 3] == 1, "d4 is empty now"
    assert planes[8].sum() == 0 and planes[9 + 1].sum() == 49, "a yellow string"
    own, other = 16, 16 + 11  # viewer (player 1) first, then player 0
    assert planes[own, 6, 0] == 1 and planes[other, 2, 3] == 1, "stompers on a1 and d5"
    assert planes[other + 3].sum() == 49 and planes[own + 3].sum() == 0, "player 0 to move"
    assert planes[own + 4 + 3].sum() == 49 and planes[other + 4 + 2].sum() == 49, "blue, red"
    assert planes[own + 10, 0, 0] == pytest.approx(20 / 40)
    assert planes[other + 10, 0, 0] == pytest.approx(4 / 40)
    assert np.array_equal(state.observation_tensor(0)[own], planes[other])


def test_tensor_marks_first_turns_and_players_out():
    text = position({"d4": "0", "a1": "w"}, colours="rbg", status="sfx")
    planes = at(text).observation_tensor(0)
    assert planes[16 + 11 + 1].sum() == 49 and planes[16 + 22 + 2].sum() == 49


def test_observation_string_shows_coordinates_scores_and_whose_turn():
    state = at(position({"d4": "0", "a1": "1", "g1": "b", "d5": "w"}, scores="3,9"))
    text = state.observation_string(1)
    assert "a b c d e f g" in text and "9 points" in text and "player 0 to stomp" in text
    assert "(you)" in text


# -- the rich board ----------------------------------------------------------------------------
def _printed(renderable) -> str:
    console = Console(file=io.StringIO(), width=100, color_system="truecolor", record=True)
    console.print(renderable)
    return console.export_text()


def test_rich_board_draws_marbles_stompers_coordinates_and_scores():
    state = at(position({"d4": "0", "a1": "1", "g1": "b", "d5": "w", "c6": "c"}, scores="3,9"))
    text = _printed(render(state.view(0)))
    assert " a  b  c  d  e  f  g" in text
    # the stomper of the first player, numbered as players count (from 1)
    assert "●" in text and "◉" in text and " 1 " in text and "Player 1 to stomp" in text
    assert "red" in text and "blue" in text and "9" in text
    assert "(●)" in text, "legal holes are marked"


def test_rich_board_through_the_cli_lookup_for_every_phase():
    start = parlour.load_game("stomple", players=4, rounds=1).new_initial_state()
    for state in random_playout(start, random.Random(8)):
        if len(state.history()) % 23 == 0 or state.is_terminal():
            assert "round 1" in _printed(render_board(state, None))
