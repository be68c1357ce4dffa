"""parlour.batch plays the same Clobber as the reference engine (parlour.games.clobber).

Differential tests: batched games are stepped next to reference states and compared move by
move (legal actions, positions, ends, returns, tensors); random playouts are compared with the
exact win probability of uniformly random play, computed on the reference engine.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.batch import ClobberBatch, Layout, play_random
from parlour.batch.bits import popcount, select_bit
from parlour.games.clobber import ClobberGame, ClobberState

CONFIGS = [
    {"rows": 3, "columns": 4},
    {"size": "5x6"},
    {"size": "6x7", "first": "black"},
    {"size": "10x10"},  # two words per colour
    {"rows": 10, "columns": 7},  # 9 rows in the first word, 1 in the last
    {"rows": 7, "columns": 26},  # widest board: 2 rows per word
    {"rows": 1, "columns": 7},
    {"rows": 9, "columns": 1},
    {"rows": 70, "columns": 1},  # a full 64-bit word, then 6 rows
    {"cannibal": True, "rows": 4, "columns": 4},  # C8
    {"cannibal": True, "size": "10x10"},
    {"position": "oxo.x/.xoox/o.x.o/xxooo x"},  # C6
]


def _reference_states(batch: ClobberBatch, game: ClobberGame) -> list[ClobberState]:
    return [game.new_initial_state() for _ in range(batch.batch_size)]


def _assert_same(batch: ClobberBatch, states: list[ClobberState]) -> None:
    mask = batch.legal_actions_mask()
    done = batch.terminated()
    returns = batch.returns()
    players = batch.current_player()
    tensors = [batch.observation_tensor(p) for p in (0, 1)]
    for i, state in enumerate(states):
        assert batch.state(i).position() == state.position()
        assert np.flatnonzero(mask[i]).tolist() == state.legal_actions()
        assert bool(done[i]) == state.is_terminal()
        assert players[i] == state.current_player()
        assert returns[i].tolist() == state.returns()
        for p in (0, 1):
            np.testing.assert_array_equal(tensors[p][i], state.observation_tensor(p))


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_batched_random_games_match_the_reference_move_by_move(config: dict) -> None:
    """C4/C5/C8: the batch draws its own random moves; the reference must agree at every step."""
    game = parlour.load_game("clobber", **config)
    batch = ClobberBatch(game, batch_size=12, seed=7)
    states = _reference_states(batch, game)
    _assert_same(batch, states)
    while not batch.terminated().all():
        actions = batch.random_actions()
        rewards, _done = batch.step(actions)
        for i, state in enumerate(states):
            if state.is_terminal():
                assert actions[i] == -1
                assert rewards[i].tolist() == [0.0, 0.0]
                continue
            state.apply_action(int(actions[i]))
            assert rewards[i].tolist() == state.returns()
        _assert_same(batch, states)


@pytest.mark.parametrize("config", CONFIGS[:5], ids=str)
def test_batch_plays_actions_chosen_by_the_reference(config: dict) -> None:
    """step() applies given actions (not only its own draws) exactly as the reference does."""
    game = parlour.load_game("clobber", **config)
    batch = ClobberBatch(game, batch_size=8)
    states = _reference_states(batch, game)
    rng = random.Random(3)
    while not all(s.is_terminal() for s in states):
        actions = [rng.choice(s.legal_actions()) if not s.is_terminal() else -1 for s in states]
        batch.step(actions)
        for state, action in zip(states, actions, strict=True):
            if action >= 0:
                state.apply_action(action)
        _assert_same(batch, states)


def test_an_illegal_action_names_its_rule_and_changes_nothing() -> None:
    """G-2: the error names the game in the batch and the reference's rule; no game moves."""
    game = parlour.load_game("clobber", rows=3, columns=4)
    batch = ClobberBatch(game, batch_size=3)
    first = game.new_initial_state().legal_actions()[0]
    gap = game.state_from_position("o.ox/xoxo/oxox o")
    batch.set_state(1, gap)
    gap_move = gap.legal_actions()[0]
    before = batch.stones.copy()
    cases = [
        (gap.string_to_action("a3b3"), "rulebook: Moving"),  # onto an empty square
        (0, "C4"),  # a3 north: off the board
        (4 * 1 + 1, "rulebook: Moving"),  # b3 is Black's stone, White to move
        (10_000, "G-2"),  # no such action id
    ]
    for action, rule in cases:
        with pytest.raises(parlour.IllegalActionError) as info:
            batch.step([first, action, first])
        assert info.value.rule == rule
        assert "game 1" in str(info.value) or rule == "G-2"
        np.testing.assert_array_equal(batch.stones, before)
    batch.step([first, gap_move, first])
    assert batch.state(1).position() == gap.child(gap_move).position()


def test_reset_restarts_only_the_chosen_games() -> None:
    batch = ClobberBatch("clobber", 4, seed=1, rows=3, columns=4)
    start = batch.state(0).position()
    batch.step(batch.random_actions())
    batch.reset([True, False, True, False])
    assert [batch.state(i).position() == start for i in range(4)] == [True, False, True, False]


def _random_play_win_probability(game: ClobberGame) -> float:
    """White's exact win probability when both sides play uniformly random legal moves."""

    @cache
    def white_wins(white: int, black: int, to_move: int) -> float:
        state = ClobberState(game, white, black, to_move)
        actions = state.legal_actions()
        if not actions:
            return float(to_move == 1)
        children = (state.child(a) for a in actions)
        return sum(white_wins(c.stones(0), c.stones(1), c.to_move) for c in children) / len(
            actions
        )

    start = game.new_initial_state()
    return white_wins(start.stones(0), start.stones(1), start.to_move)


@pytest.mark.parametrize(
    "config",
    [
        {"rows": 3, "columns": 4},
        {"rows": 3, "columns": 4, "first": "black"},
        {"rows": 2, "columns": 5},
        {"rows": 3, "columns": 3, "cannibal": True},
    ],
    ids=str,
)
def test_random_playouts_win_as_often_as_exact_random_play(config: dict) -> None:
    """play_random draws uniformly among legal moves: its White win rate is the exact one."""
    game = parlour.load_game("clobber", **config)
    exact = _random_play_win_probability(game)
    n = 60_000
    returns = play_random(game, n, seed=11)
    assert returns.shape == (n, 2)
    assert set(np.unique(returns[:, 0])) <= {-1.0, 1.0}
    np.testing.assert_array_equal(returns.sum(axis=1), 0.0)
    rate = float((returns[:, 0] == 1).mean())
    sigma = (exact * (1 - exact) / n) ** 0.5
    assert abs(rate - exact) < 5 * sigma, (rate, exact)


def test_play_random_is_reproducible_from_its_seed() -> None:
    a = play_random("clobber", 500, seed=3, size="10x10")
    b = play_random("clobber", 500, seed=3, size="10x10")
    c = play_random("clobber", 500, seed=4, size="10x10")
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_batch_refuses_what_it_does_not_play() -> None:
    with pytest.raises(ValueError, match="grid"):
        ClobberBatch("clobber", 2, graph="a-b b-c", position="oxo o")
    with pytest.raises(ValueError, match="plays Clobber, not 'other'"):
        ClobberBatch.play_random(_OtherGame(), 1)


class _OtherGame(parlour.Game):
    """A game that is not Clobber (never registered)."""

    game_type = parlour.core.GameType(
        "other", "Other", parlour.core.ChanceMode.DETERMINISTIC,
        parlour.core.Information.PERFECT, parlour.core.Utility.ZERO_SUM, 2, 2,
    )
    parameters = {}

    def _info(self):
        return parlour.core.GameInfo(1, 0, 2, -1.0, 1.0, 0.0, 1)

    def new_initial_state(self):
        raise NotImplementedError

    def state_from_position(self, text):
        raise NotImplementedError


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(1, 99), columns=st.integers(1, 26), data=st.data(),
)
def test_layout_split_and_join_round_trip(rows: int, columns: int, data) -> None:
    layout = Layout(rows, columns)
    bits = data.draw(st.integers(0, (1 << (rows * columns)) - 1))
    words = layout.split(bits)
    assert len(words) == layout.num_words
    assert all(0 <= w < (1 << 64) for w in words)
    assert layout.join(words) == bits


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, (1 << 64) - 1), min_size=1, max_size=20), st.data())
def test_select_bit_finds_the_kth_set_bit(words: list[int], data) -> None:
    ranks = [data.draw(st.integers(0, w.bit_count() - 1)) for w in words]
    array = np.array(words, dtype=np.uint64)
    assert popcount(array).tolist() == [w.bit_count() for w in words]
    expected = [[i for i in range(64) if w >> i & 1][r] for w, r in zip(words, ranks, strict=True)]
    assert select_bit(array, np.array(ranks)).tolist() == expected
