"""Clobber's rules, one concept per test; each ruling test names its id (C1-C8, G-2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour import IllegalActionError, InvalidParameterError, NotationError

START_5X6 = "oxoxox/xoxoxo/oxoxox/xoxoxo/oxoxox o"


def clobber(**params):
    return parlour.load_game("clobber", **params)


def at(position: str, **params):
    return clobber(position=position, **params).new_initial_state()


# -- C1: board sizes -----------------------------------------------------------------------
def test_c1_default_board_is_5_rows_by_6_columns():
    game = clobber()
    assert game.get_parameters()["rows"] == 5 and game.get_parameters()["columns"] == 6
    assert game.new_initial_state().position().split()[0].count("/") == 4


@pytest.mark.parametrize(("preset", "shape"), [("6x7", (6, 7)), ("10x10", (10, 10))])
def test_c1_presets_by_name(preset, shape):
    ranks = clobber(size=preset).new_initial_state().position().split()[0].split("/")
    assert (len(ranks), len(ranks[0])) == shape


@pytest.mark.parametrize(("rows", "columns"), [(1, 2), (2, 1), (99, 26), (3, 8)])
def test_c1_any_size_from_1x2_to_99_rows_and_26_columns(rows, columns):
    game = clobber(rows=rows, columns=columns)
    assert game.num_distinct_actions() == rows * columns * 4


@pytest.mark.parametrize(("rows", "columns"), [(1, 1), (100, 2), (2, 27), (0, 5)])
def test_c1_sizes_outside_the_range_are_refused(rows, columns):
    with pytest.raises(InvalidParameterError, match="C1"):
        clobber(rows=rows, columns=columns)


def test_c1_size_text_that_disagrees_with_rows_is_refused():
    with pytest.raises(InvalidParameterError, match="disagrees"):
        clobber(size="6x7", rows=4)


# -- C2: square names ----------------------------------------------------------------------
@pytest.mark.parametrize("size", ["5x6", "6x7", "10x10", "3x3"])
def test_c2_a1_holds_a_white_stone_and_colours_alternate(size):
    state = clobber(size=size).new_initial_state()
    ranks = state.position().split()[0].split("/")
    assert ranks[-1][0] == "o"
    for r, rank in enumerate(ranks):
        for c, mark in enumerate(rank):
            assert mark == ("o" if (len(ranks) - 1 - r + c) % 2 == 0 else "x")


def test_c2_files_are_letters_from_the_left_and_ranks_numbers_from_the_bottom():
    state = clobber(size="10x10").new_initial_state()
    assert state.string_to_action("a1a2") == (9 * 10 + 0) * 4 + 0
    assert state.string_to_action("j10i10") == (0 * 10 + 9) * 4 + 3


# -- C3: who moves first -------------------------------------------------------------------
def test_c3_white_moves_first_by_default():
    state = clobber().new_initial_state()
    assert state.current_player() == 0
    assert state.position().endswith(" o")


def test_c3_first_black_gives_black_the_first_move():
    state = clobber(first="black").new_initial_state()
    assert state.current_player() == 1
    assert state.position().endswith(" x")


def test_c3_first_must_agree_with_a_given_position():
    with pytest.raises(InvalidParameterError, match="first"):
        clobber(position="ox o", first="black")


# -- C4: move notation and action ids -------------------------------------------------------
def test_c4_first_moves_of_the_5x6_start():
    state = clobber().new_initial_state()
    first = state.legal_actions()[:3]
    assert first == [1, 2, 9]
    assert [state.action_to_string(a) for a in first] == ["a5b5", "a5a4", "c5d5"]


@settings(max_examples=200)
@given(
    rows=st.integers(2, 12),
    columns=st.integers(2, 12),
    data=st.data(),
)
def test_c4_action_id_is_square_times_four_plus_direction(rows, columns, data):
    state = clobber(rows=rows, columns=columns).new_initial_state()
    row = data.draw(st.integers(0, rows - 1))
    col = data.draw(st.integers(0, columns - 1))
    direction = data.draw(st.integers(0, 3))
    drow, dcol = [(-1, 0), (0, 1), (1, 0), (0, -1)][direction]
    to_row, to_col = row + drow, col + dcol
    if not (0 <= to_row < rows and 0 <= to_col < columns):
        return
    files = "abcdefghijklmnopqrstuvwxyz"
    text = f"{files[col]}{rows - row}{files[to_col]}{rows - to_row}"
    action = (row * columns + col) * 4 + direction
    assert state.string_to_action(text) == action
    assert state.action_to_string(action) == text


def test_c4_two_digit_ranks_have_no_separator():
    state = clobber(size="10x10").new_initial_state()
    assert state.action_to_string(state.string_to_action("b10c10")) == "b10c10"


@pytest.mark.parametrize("text", ["a1", "a1c1", "z9z8", "hello", "a1a1"])
def test_c4_unreadable_or_non_adjacent_moves_raise_notation_errors(text):
    with pytest.raises(NotationError):
        clobber().new_initial_state().string_to_action(text)


# -- C5: normal play -----------------------------------------------------------------------
def test_c5_a_player_with_no_move_loses():
    state = at("o.x/... o")
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0]


def test_c5_the_player_who_makes_the_last_move_wins():
    state = at("ox x")
    state.apply_action(state.string_to_action("b1a1"))
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0]
    assert state.position() == "x. o"


def test_c5_every_game_ends_with_a_winner():
    game = clobber(rows=3, columns=3)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert sorted(state.returns()) == [-1.0, 1.0]


# -- C6: position text ---------------------------------------------------------------------
def test_c6_the_5x6_start_text():
    assert clobber().new_initial_state().position() == START_5X6


@pytest.mark.parametrize("text", ["xo./.ox x", "ox/xo/.. o", "o.x.x.x o"])
def test_c6_position_text_round_trips(text):
    assert at(text).position() == text
    assert clobber(position=text).state_from_position(text).position() == text


@pytest.mark.parametrize("text", ["ox/x o", "ox/xo", "ox/xo w", "oy/xo o", "ox/xo o extra"])
def test_c6_bad_position_text_is_refused(text):
    with pytest.raises(InvalidParameterError, match="C6"):
        clobber(position=text)
    with pytest.raises(NotationError, match="C6"):
        clobber(rows=2, columns=2).state_from_position(text)


def test_c6_position_sets_the_board_size():
    game = clobber(position="oxo/xox/oxo/xox x")
    assert game.num_distinct_actions() == 4 * 3 * 4
    assert game.new_initial_state().current_player() == 1


# -- C7: graph variant ---------------------------------------------------------------------
def test_c7_graph_moves_follow_edges():
    state = clobber(graph="a-b b-c c-d", position="oxox o").new_initial_state()
    moves = sorted(state.action_to_string(a) for a in state.legal_actions())
    assert moves == ["a-b", "c-b", "c-d"]


def test_c7_graph_default_colouring_alternates_in_node_order():
    state = clobber(graph="p-q q-r").new_initial_state()
    assert state.position() == "oxo o"


def test_c7_graph_is_played_to_the_end_with_the_same_rules():
    # a triangle o-x-o: White captures, then Black recaptures, then White has nothing.
    state = clobber(graph="a-b b-c c-a", position="ox. o").new_initial_state()
    state.apply_action(state.string_to_action("a-b"))
    assert state.position() == ".o. x"
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_c7_move_along_a_missing_edge_is_refused():
    state = clobber(graph="a-b b-c", position="oxo o").new_initial_state()
    with pytest.raises(NotationError, match="C7"):
        state.string_to_action("a-c")


@pytest.mark.parametrize("spec", ["a-a", "a-b-c", "a-b, c!d", ""])
def test_c7_bad_graph_text_is_refused(spec):
    with pytest.raises(InvalidParameterError, match="graph"):
        clobber(graph=spec)


# -- C8: Cannibal Clobber ------------------------------------------------------------------
def test_c8_cannibal_may_capture_its_own_stone():
    state = at("oo. o", cannibal=True)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["a1b1", "b1a1"]
    state.apply_action(state.string_to_action("a1b1"))
    assert state.position() == ".o. x"


def test_c8_without_cannibal_capturing_your_own_stone_names_c8():
    state = at("oox o")
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(state.string_to_action("a1b1"))
    assert err.value.rule == "C8"


def test_c8_cannibal_still_must_land_on_a_stone():
    state = at("o.x/x.. o", cannibal=True)
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(state.string_to_action("a2b2"))
    assert err.value.rule == "C8"


# -- G-2: illegal moves name their rule and change nothing -----------------------------------
def test_g2_moving_an_enemy_stone_is_refused_and_names_the_rule():
    state = clobber().new_initial_state()
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(state.string_to_action("b5c5"))
    assert "own stones" in str(err.value) and "Moving" in err.value.rule
    assert state.position() == START_5X6 and state.history() == []


def test_g2_moving_onto_an_empty_square_is_refused():
    state = at("o.x/xo. o")
    with pytest.raises(IllegalActionError, match="capture"):
        state.apply_action(state.string_to_action("a2b2"))


def test_g2_parse_move_explains_an_illegal_move_before_applying():
    state = clobber().new_initial_state()
    with pytest.raises(IllegalActionError, match="Moving"):
        state.parse_move("b5c5")


# -- a plain reference move generator, to check the bitboard one ------------------------------
def _reference_moves(rows: int, columns: int, cells: str, side: str, cannibal: bool):
    moves = []
    other = "x" if side == "o" else "o"
    for r in range(rows):
        for c in range(columns):
            if cells[r * columns + c] != side:
                continue
            for d, (dr, dc) in enumerate([(-1, 0), (0, 1), (1, 0), (0, -1)]):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < columns:
                    target = cells[rr * columns + cc]
                    if target == other or (cannibal and target == side):
                        moves.append((r * columns + c) * 4 + d)
    return moves


@settings(max_examples=300)
@given(
    rows=st.integers(1, 8),
    columns=st.integers(1, 8),
    data=st.data(),
    cannibal=st.booleans(),
)
def test_move_generation_matches_a_plain_reference(rows, columns, data, cannibal):
    if rows * columns < 2:
        return
    cells = "".join(
        data.draw(
            st.lists(st.sampled_from("ox."), min_size=rows * columns, max_size=rows * columns)
        )
    )
    side = data.draw(st.sampled_from("ox"))
    ranks = "/".join(cells[r * columns : (r + 1) * columns] for r in range(rows))
    state = at(f"{ranks} {side}", cannibal=cannibal)
    assert state.legal_actions() == _reference_moves(rows, columns, cells, side, cannibal)


def test_observation_tensor_planes_are_own_other_empty():
    state = at("ox./... x")
    tensor = state.observation_tensor(1)
    assert tensor.shape == (3, 2, 3)
    assert tensor[0].tolist() == [[0, 1, 0], [0, 0, 0]]
    assert tensor[1].tolist() == [[1, 0, 0], [0, 0, 0]]
    assert tensor[2].sum() == 4


def test_repr_pastes_back_as_code():
    state = at("ox./.xo x", cannibal=True)
    rebuilt = eval(repr(state), {"parlour": parlour})
    assert rebuilt.position() == state.position()
    assert rebuilt.game == state.game
