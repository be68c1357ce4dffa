"""Exact values (``parlour.analysis.cgt_value``): published values, CGSuite's notation, the
definition of canonical forms on every position of up to 8 stones, and the laws of sums."""

from __future__ import annotations

import itertools
import random

import pytest

import parlour
from parlour.analysis import cgt_value
from parlour.analysis.cgt import ZERO, add, neg
from parlour.analysis.notation import NotationError, read, write
from parlour.analysis.values import ValueTooLarge, value_of
from tests.analysis.cgt_reference import Reference


@pytest.mark.parametrize(
    ("position", "published", "source"),
    [
        # CGSuite's test suite: game.grid.Clobber("xox|ox.").CanonicalForm (Left = Black, x)
        ("xox/ox.", "{^^*|*,v}", "CGSuite"),
        # MCGS's tests (clobber_1xn): XO is *, XXO is up, OOX is down, XOOX is 0
        ("xo", "*", "MCGS"),
        ("xxo", "^", "MCGS"),
        ("oox", "v", "MCGS"),
        ("xoox", "0", "MCGS"),
    ],
)
def test_published_values(position, published, source):
    assert cgt_value(position) == published, source
    assert value_of(position) is read(published)


@pytest.mark.parametrize("n", range(1, 11))
def test_one_white_stone_against_a_row_of_black_ones(n):
    """x...xo with n black stones is (n-1).up + n.star: *, ^, ^^*, ^3, ^4*, ..."""
    assert value_of("x" * n + "o") is read(f"^{n - 1}" if n > 1 else "0") + read("*" * (n % 2)
                                                                                   or "0")


# CGSuite's own table of how it reads and writes games (CgscriptTest: arithmetic and
# canonical forms): what we write for what it reads must be what it writes.
CGSUITE_ECHO = [
    ("*3+*5", "*6"),
    ("^^^^^^+vvv*+^19*3+v14", "^8*2"),
    ("2 + (1+*)", "3*"),
    ("2 - (1+*)", "1*"),
    ("{0|^*5}", "^^*4"),
    ("{3|||2||1|0,*||||-1/2}", "{3|||2||1|0,*||||-1/2}"),
    ("+-1", "+-1"),
    ("+-(1/2)", "+-1/2"),
    ("+-{1,1+*}", "+-{1,1*}"),
    ("3+-1", "{4|2}"),
    ("+-1+-2+-3+-4", "+-{10|8||6|4|||4|2||0|-2}"),
    ("{0||0|-1}", "Tiny(1)"),
    ("{0||0|-1/4}", "Tiny(1/4)"),
    ("{0|||0||-1|-2}", "Tiny({2|1})"),
    ("{1|0||0}", "Miny(1)"),
    ("{0|v*}", "^<2>"),
    ("{0,*|v}", "^<2>*"),
    ("{^|*}", "^[2]"),
    ("{0,^*|0}", "^[2]*"),
    ("3 - 2 +- 6 - 7 +- 8 + 4", "{12|0||-4|-16}"),
]


@pytest.mark.parametrize(("text", "written"), CGSUITE_ECHO)
def test_notation_as_cgsuite_writes_it(text, written):
    assert write(read(text)) == written


@pytest.mark.parametrize("text", ["{1|2|3}", "{", "{0|}}", "^^3", "1/3", "{0,|0}", "x", ""])
def test_text_that_is_no_game_is_refused(text):
    with pytest.raises(NotationError):
        read(text)


def _positions(max_stones: int = 8):
    """Every position on the boards of at most 9 squares below, with at most ``max_stones``
    stones: all 1xn (n <= 8), 2x2, 2x3, 2x4 and 3x3 fillings with x, o and empty squares
    (single regions, sums of several, dead stones)."""
    boards = [(1, n) for n in range(2, 9)] + [(2, 2), (2, 3), (2, 4), (3, 3)]
    for rows, columns in boards:
        game = parlour.load_game("clobber", rows=rows, columns=columns)
        for cells in itertools.product(".xo", repeat=rows * columns):
            if sum(c != "." for c in cells) > max_stones:
                continue
            ranks = ["".join(cells[r * columns:(r + 1) * columns]) for r in range(rows)]
            yield game.state_from_position("/".join(ranks) + " x")


def test_every_position_of_up_to_8_stones_matches_the_definition():
    """36,379 positions: the canonical form built from the whole game tree with the game's own
    moves (tests/analysis/cgt_reference.py) against ours (regions in normal form, sums of
    region values); then every value met reads back from what we write."""
    reference = Reference()
    values = {}
    count = 0
    for state in _positions():
        ours = value_of(state)
        assert reference.position(state) == reference.of_value(ours), state.position()
        values[ours.id] = ours
        count += 1
    assert count == 36_379
    for value in values.values():
        assert read(write(value)) is value, write(value)
    assert len(values) > 300  # many distinct games, not a few repeated ones


def test_a_game_plus_its_negative_is_zero_and_colours_swap_to_the_negative():
    swap = str.maketrans("xo", "ox")
    for state in itertools.islice(_positions(7), 0, None, 7):
        g = value_of(state)
        assert add(g, neg(g)) is ZERO
        text = state.position()[:-2]
        assert value_of(text.translate(swap)) is neg(g), text


def test_the_value_of_a_sum_is_the_sum_of_the_values():
    """Two regions side by side on one board (a sum) against the sum of their values; and our
    addition against the definition of a sum (every option of either part)."""
    rng = random.Random(32)
    reference = Reference()
    parts = ["xo", "xxo", "xoo", "xox", "xoxo", "xxoo", "xoxx", "oxxo", "xxxo", "xoxox",
             "xo/ox", "xx/oo", "xo/oo", "xox/o..", "xxo/.o."]
    for _ in range(60):
        a, b = rng.sample(parts, 2)
        ra, rb = a.split("/"), b.split("/")
        height = max(len(ra), len(rb))
        ra += ["." * len(ra[0])] * (height - len(ra))
        rb += ["." * len(rb[0])] * (height - len(rb))
        board = "/".join(x + "." + y for x, y in zip(ra, rb, strict=True))
        together = value_of(board)
        assert together is add(value_of(a), value_of(b)), board
        by_definition = reference.add(reference.of_value(value_of(a)),
                                      reference.of_value(value_of(b)))
        assert reference.of_value(together) == by_definition, board


def test_the_side_to_move_is_optional_and_states_are_taken():
    state = parlour.load_game("clobber", position="xxo./.... o").new_initial_state()
    assert cgt_value("xxo./....") == cgt_value("xxo./.... o") == cgt_value(state) == "^"
    assert cgt_value(".xxx./.o... x") == "^^*"


def test_too_large_a_region_is_refused_not_ground_through():
    with pytest.raises(ValueTooLarge):
        cgt_value("xoxoxo/oxoxox/xoxoxo")  # 18 stones in one region
    assert cgt_value("xxxxxx/....../oooooo") == "0"  # dead stones do not count


def test_cannibal_values_match_the_definition():
    """Cannibal Clobber (C8): a player may also take her own stones, so values are no longer
    all infinitesimal (xx is 1: only Left can move); every position of the 2x3 board."""
    assert cgt_value("xx", cannibal=True) == "1" and cgt_value("oo", cannibal=True) == "-1"
    assert cgt_value("xxx", cannibal=True) == "2" and cgt_value("xxx") == "0"
    reference = Reference()
    game = parlour.load_game("clobber", rows=2, columns=3, cannibal=True)
    for cells in itertools.product(".xo", repeat=6):
        state = game.state_from_position(f"{''.join(cells[:3])}/{''.join(cells[3:])} x")
        assert reference.position(state) == reference.of_value(value_of(state))
