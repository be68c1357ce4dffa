"""Differential test against OpenSpiel's C++ clobber (the reference implementation).

At every step of every game: identical legal action ids, move strings, board text,
observation tensors, player to move and, at the end, returns.
"""

from __future__ import annotations

import random

import pytest

import parlour

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is in the test extras")

SIZES = [(5, 6, 150, 150), (6, 7, 80, 80), (10, 10, 50, 50)]  # rows, cols, default, custom: 560


def _random_position(rows: int, columns: int, rng: random.Random) -> tuple[str, int]:
    """A random board (each square o, x or empty) and a random side to move."""
    weights = rng.choice([(1, 1, 1), (3, 3, 1), (1, 1, 4)])
    cells = "".join(rng.choices("ox.", weights, k=rows * columns))
    return cells, rng.randrange(2)


def _lockstep(ours, theirs, rng: random.Random) -> int:
    steps = 0
    while True:
        assert str(ours) == str(theirs)
        assert ours.is_terminal() == theirs.is_terminal()
        legal = ours.legal_actions()
        assert legal == list(theirs.legal_actions())
        assert [ours.action_to_string(a) for a in legal] == [
            theirs.action_to_string(a) for a in legal
        ]
        for player in (0, 1):
            assert ours.observation_tensor(player).ravel().tolist() == list(
                theirs.observation_tensor(player)
            )
        if ours.is_terminal():
            assert ours.returns() == list(theirs.returns())
            return steps
        assert ours.current_player() == theirs.current_player()
        action = rng.choice(legal)
        ours.apply_action(action)
        theirs.apply_action(action)
        steps += 1


@pytest.mark.parametrize(("rows", "columns", "n_default", "n_custom"), SIZES)
def test_random_games_match_openspiel(rows: int, columns: int, n_default: int, n_custom: int):
    rng = random.Random(rows * 100 + columns)
    reference = pyspiel.load_game("clobber", {"rows": rows, "columns": columns})
    game = parlour.load_game("clobber", rows=rows, columns=columns)
    for _ in range(n_default):
        _lockstep(game.new_initial_state(), reference.new_initial_state(), rng)
    sides_seen = set()
    for _ in range(n_custom):
        cells, side = _random_position(rows, columns, rng)
        ranks = "/".join(cells[r * columns : (r + 1) * columns] for r in range(rows))
        ours = parlour.load_game("clobber", position=f"{ranks} {'ox'[side]}").new_initial_state()
        theirs = reference.new_initial_state(f"{side}{cells}")
        sides_seen.add(ours.current_player() if not ours.is_terminal() else side)
        _lockstep(ours, theirs, rng)
    assert sides_seen == {0, 1}


def test_game_sizes_match_openspiel():
    for rows, columns, *_ in SIZES:
        reference = pyspiel.load_game("clobber", {"rows": rows, "columns": columns})
        game = parlour.load_game("clobber", rows=rows, columns=columns)
        assert game.num_distinct_actions() == reference.num_distinct_actions()
        assert game.max_game_length() == reference.max_game_length()
        assert list(game.observation_tensor_shape()) == reference.observation_tensor_shape()
