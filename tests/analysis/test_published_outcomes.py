"""Published outcomes of alternating (checkerboard) Clobber boards.

The results of the Clobber literature listed in issue 7: 2xn is a second-player win exactly when
n is a multiple of 3, 3xn exactly when n is even, 4x4 and 4x5 are first-player wins, and the
strip (xo)^n is a first-player win for every n except 3.
"N" = first-player win, "P" = second-player win.
"""

from __future__ import annotations

import pytest

import parlour
from parlour.analysis import ClobberSolver


def outcome(rows: int, columns: int, **options: object) -> str:
    game = parlour.load_game("clobber", rows=rows, columns=columns)
    return ClobberSolver(game, **options).outcome(game.new_initial_state())  # type: ignore[arg-type]


@pytest.mark.parametrize("n", range(1, 12))
def test_2xn_is_a_second_player_win_exactly_when_3_divides_n(n, cmodule):
    expected = "P" if n % 3 == 0 else "N"
    assert outcome(2, n, engine="c", engine_module=cmodule) == expected


@pytest.mark.parametrize("n", range(1, 8))
def test_3xn_is_a_second_player_win_exactly_when_n_is_even(n, cmodule):
    expected = "P" if n % 2 == 0 else "N"
    assert outcome(3, n, engine="c", engine_module=cmodule) == expected


@pytest.mark.parametrize("shape", [(4, 4), (4, 5), (5, 4)])
def test_4x4_and_4x5_are_first_player_wins(shape, cmodule):
    assert outcome(*shape, engine="c", engine_module=cmodule) == "N"


@pytest.mark.parametrize("n", range(1, 14))
def test_strip_xo_n_is_a_first_player_win_except_n_3(n, cmodule):
    expected = "P" if n == 3 else "N"
    assert outcome(1, 2 * n, engine="c", engine_module=cmodule) == expected


@pytest.mark.parametrize("n", range(14, 21))
def test_long_vertical_strips_too(n, cmodule):
    assert outcome(2 * n, 1, engine="c", engine_module=cmodule) == "N"


@pytest.mark.parametrize(
    "shape, expected",
    [((2, 3), "P"), ((2, 4), "N"), ((2, 6), "P"), ((3, 3), "N"), ((3, 4), "P"), ((1, 6), "P"),
     ((1, 8), "N")],
)
def test_the_python_engine_agrees_on_small_boards(shape, expected):
    assert outcome(*shape, engine="python") == expected


def test_the_outcome_does_not_depend_on_who_starts_for_symmetric_boards(cmodule):
    game = parlour.load_game("clobber", size="3x5", first="black")
    solver = ClobberSolver(game, engine="c", engine_module=cmodule)
    assert solver.outcome(game.new_initial_state()) == "N"


@pytest.mark.slow
def test_a_6x6_opening_solved_by_mcgs(cmodule):
    """A 6x6 position after four moves that the MCGS authors solved (their "Solving 6x6
    Clobber" page: Black to play wins, 1353 s for MCGS): an independent solver's answer."""
    text = "xoxoxo/oxoxox/xoxoxo/xxoxoo/.oxoo./o.xx.x x"
    game = parlour.load_game("clobber", position=text)
    solver = ClobberSolver(game, engine="c", engine_module=cmodule, tt_bits=22)  # type: ignore[arg-type]
    assert solver.mover_wins(game.new_initial_state())
