"""Canonical values of small Clobber regions and the game arithmetic behind them."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.analysis import ClobberSolver
from parlour.analysis.cgt import (
    DOWN,
    STAR,
    UP,
    ZERO,
    game,
    integer,
    name,
    nimber,
    outcome,
    position_value,
    region_value,
    ups,
)
from parlour.analysis.regions import normal_form, parse_region


def value_of(text: str):
    return region_value(normal_form(*parse_region(text)))


@pytest.mark.parametrize(
    "region, expected",
    [
        ("xo", "*"),
        ("xo/ox", "*"),
        ("xox", "*"),
        ("xxo", "↑"),
        ("xoo", "↓"),
        ("xxxo", "⇑*"),
        ("xxxxo", "3·↑"),
        ("xxoo", "0"),
        ("xoxoxo", "0"),
        ("xox/oxo", "0"),
        ("xoxo", "{*, ↑ | *, ↓}"),
    ],
)
def test_values_of_small_regions(region, expected):
    assert name(value_of(region)) == expected


def test_a_region_and_its_turned_mirrored_copies_have_one_value():
    assert value_of("xxo") is value_of("oxx") is value_of("x/x/o") is value_of("o/x/x")


def test_swapping_colours_negates():
    for text in ["xxo", "xoxox", "xx/xo", "xoo/.xo"]:
        swapped = text.replace("x", "_").replace("o", "x").replace("_", "o")
        assert value_of(swapped) is -value_of(text)


def test_arithmetic_of_infinitesimals():
    assert STAR + STAR is ZERO
    assert UP + DOWN is ZERO
    assert nimber(2) + nimber(3) is STAR
    assert outcome(UP + STAR) == "N"  # up-star is fuzzy
    assert outcome(UP + nimber(2)) == "L"
    assert outcome(ups(2, 1)) == "L"
    assert UP > ZERO and DOWN < ZERO and not (STAR >= ZERO) and not (STAR <= ZERO)
    assert integer(2) + integer(-3) is integer(-1)
    assert game([ZERO], [integer(1)]) + game([ZERO], [integer(1)]) is integer(1)  # 1/2 + 1/2


def test_canonical_form_bypasses_reversible_options():
    # {* | *}: each option reverses through 0, which has no options left: the game is 0.
    assert game([STAR], [STAR]) is ZERO
    assert game([ZERO, STAR], [ZERO]) is UP + STAR
    assert game([ZERO], [ZERO, STAR]) is DOWN + STAR
    # {0, ↑ | *}: 0 is dominated by ↑, and ↑ does not reverse (* <= G fails: Right wins G + *
    # moving first, to * + * = 0).
    assert game([ZERO, UP], [STAR]).left == (UP,)


@pytest.mark.parametrize("seed", range(4))
def test_value_outcomes_agree_with_the_solver(seed):
    """The sign of a position's value decides who wins; it must agree with the search."""
    rng = random.Random(seed)
    for _ in range(15):
        rows, columns = rng.randint(1, 3), rng.randint(2, 4)
        ranks = ["".join(rng.choice("ox.") for _ in range(columns)) for _ in range(rows)]
        text = "/".join(ranks)
        game_ = parlour.load_game("clobber", position=text + " x")
        black_first = game_.new_initial_state()
        white_first = game_.state_from_position(text + " o")
        solver = ClobberSolver(game_, engine="python")  # type: ignore[arg-type]
        black_wins_first = solver.mover_wins(black_first)
        white_wins_first = solver.mover_wins(white_first)
        expected = {(True, True): "N", (False, False): "P", (True, False): "L",
                    (False, True): "R"}[(black_wins_first, white_wins_first)]
        assert outcome(position_value(black_first)) == expected, text


def test_graph_values_use_the_same_rules():
    game_ = parlour.load_game("clobber", graph="a-b b-c", position="xxo x")
    assert position_value(game_.new_initial_state()) is UP


def test_region_text_round_trips_and_normal_forms_ignore_placement():
    from parlour.analysis.regions import crop, region_text

    for text in ["xxo", "xo/ox", "x../xoo/..x"]:
        assert region_text(parse_region(text)) == text
    # The same L-shape placed and turned differently has one normal form.
    assert normal_form(*crop(*parse_region("...../.xo../..x.."))) == normal_form(
        *parse_region("x./ox")
    )
