"""B1: the board, drawn by chance or typed in as board text; B2's bag and deal."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import parlour
from parlour import IllegalActionError, InvalidParameterError, NotationError
from parlour.games.gobblestones import EXAMPLE_BOARD
from parlour.games.gobblestones.board import (
    BOARD_STEPS,
    CENTRES,
    PANEL_CELLS,
    PERMUTATIONS,
    board_text,
    parse_board_text,
    parse_square,
    square_name,
)

from .helpers import game


def _draw_board(seed: int, **params):
    state = game(**params).new_initial_state()
    rng = random.Random(seed)
    steps = 0
    while state.phase == "board":
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        assert sum(probs) == pytest.approx(1.0)
        state.apply_action(rng.choices(actions, probs)[0])
        steps += 1
    return state, steps


def test_b1_square_names_run_a1_bottom_left_to_o15_top_right():
    assert square_name(0) == "a15" and square_name(224) == "o1"
    assert parse_square("h8") == 7 * 15 + 7
    assert [square_name(s) for s in CENTRES] == [
        "c13", "h13", "m13", "c8", "h8", "m8", "c3", "h3", "m3"
    ]
    with pytest.raises(NotationError):
        parse_square("p3")
    with pytest.raises(NotationError):
        parse_square("a16")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_b1_chance_board_has_nine_board_squares_five_of_each_colour(seed):
    state, steps = _draw_board(seed)
    assert steps == BOARD_STEPS == 9 * 26
    assert state.phase == "deal"
    colours, values = state.snapshot().colour, state.snapshot().value
    perms = set()
    for cells in PANEL_CELLS:
        assert Counter(colours[s] for s in cells) == dict.fromkeys(range(5), 5)
        by_colour = {colours[s]: values[s] for s in cells}
        assert all(values[s] == by_colour[colours[s]] for s in cells), "one value per colour"
        assert sorted(by_colour.values()) == [2, 3, 4, 5, 6], "a permutation of 2-6"
        perms.add(tuple(by_colour[c] for c in range(5)))
    assert len(perms) == 9, "B1: board squares differ"


def test_b1_value_draw_excludes_permutations_already_used():
    state, _ = _draw_board(5)
    # Rebuild the board from its own chance actions and look at the last value step.
    history = state.history()
    replay = game().new_initial_state()
    for action in history[: BOARD_STEPS - 1]:
        replay.apply_action(action)
    outcomes = replay.chance_outcomes()
    assert len(outcomes) == len(PERMUTATIONS) - 8
    assert all(p == pytest.approx(1 / 112) for _, p in outcomes)
    used = {a for a, _ in outcomes} ^ set(range(120))
    assert len(used) == 8
    with pytest.raises(IllegalActionError) as err:
        replay.apply_action(min(used))
    assert err.value.rule == "G-1"


def test_b1_colour_draw_is_by_colours_left_in_the_board_square():
    state = game().new_initial_state()
    for _ in range(5):
        state.apply_action(0)  # five reds on the first five squares of board square 1
    outcomes = dict(state.chance_outcomes())
    assert 0 not in outcomes, "a board square holds five squares of each colour"
    assert outcomes == {c: pytest.approx(5 / 20) for c in range(1, 5)}
    assert state.action_to_string(1) == f"{square_name(PANEL_CELLS[0][5])}=Y"


def test_b1_board_text_round_trips_and_starts_at_the_deal():
    colours, values = parse_board_text(EXAMPLE_BOARD)
    assert board_text(colours, values) == EXAMPLE_BOARD
    state = game(board=EXAMPLE_BOARD).new_initial_state()
    assert state.phase == "deal" and state.is_chance_node()
    assert state.square("h8") == ("Y", 4)
    spaced = "\n".join(" ".join(row[i:i + 2] for i in range(0, 30, 2)).lower()
                       for row in EXAMPLE_BOARD.split("/"))
    assert parse_board_text(spaced) == (colours, values), "spaces, new lines and case are free"


def test_b1_board_text_with_two_values_for_one_colour_is_refused():
    bad = "R3" + EXAMPLE_BOARD[2:]  # a15 was G3; G keeps 3 elsewhere, but now R has 3 and 5
    with pytest.raises(InvalidParameterError) as err:
        game(board=bad)
    assert "B1" in str(err.value)


@pytest.mark.parametrize("text", ["", "R2" * 224, "X2" * 225, "R7" * 225, EXAMPLE_BOARD + "R2"])
def test_b1_malformed_board_text_is_refused(text):
    with pytest.raises(InvalidParameterError, match="B1"):
        game(board=text)


# -- B2: bag, racks and the deal ----------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_b2_each_player_draws_five_in_seat_order_then_seat_0_starts(players):
    state = game(players=players, board=EXAMPLE_BOARD).new_initial_state()
    drawers = []
    while state.is_chance_node():
        drawers.append(state.view(None)["drawer"])
        state.apply_action(state.chance_outcomes()[0][0])
    assert drawers == [p for p in range(players) for _ in range(5)]
    assert state.current_player() == 0
    assert [sum(state.rack(p).values()) for p in range(players)] == [5] * players
    assert sum(state.bag().values()) == 100 - 5 * players


def test_b2_bag_holds_100_tiles_and_draws_are_weighted_by_colours_left():
    state = game(board=EXAMPLE_BOARD).new_initial_state()
    assert state.bag() == dict.fromkeys("RYGBP", 20)
    assert state.chance_outcomes() == [(c, pytest.approx(0.2)) for c in range(5)]
    state.apply_action(0)  # a red tile
    probs = dict(state.chance_outcomes())
    assert probs[0] == pytest.approx(19 / 99) and probs[1] == pytest.approx(20 / 99)
    assert state.action_to_string(1) == "draw Y"


@pytest.mark.parametrize("players", [1, 5])
def test_b2_two_to_four_players(players):
    with pytest.raises(InvalidParameterError, match="B2"):
        parlour.load_game("gobblestones", players=players)


def test_b2_declared_sizes():
    g = parlour.load_game("gobblestones")
    assert g.num_distinct_actions() == 227 and g.max_chance_outcomes() == 120
    bluff = parlour.load_game("gobblestones", bluff=True, players=4)
    assert bluff.num_distinct_actions() == 5 * 225 + 4
    assert g.observation_tensor_shape() == (53, 15, 15)  # 38 + 15 for racks turned up (G-5)


def test_b1_board_squares_differ_in_a_typed_board():
    rows = [row[:10] + row[:10] + row[:10] for row in EXAMPLE_BOARD.split("/")]
    with pytest.raises(InvalidParameterError, match="identical"):
        game(board="/".join(rows))
