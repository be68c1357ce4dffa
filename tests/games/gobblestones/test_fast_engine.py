"""The fast legal plays (bitboards) and playouts (compiled or not) against the plain versions.

``plays.turn_plays`` must give exactly the plays of the square-by-square walk
(``plays.legal_plays``) and of a from-scratch check of every segment (``plays.play_problem``,
B3-B5), on random boards, random coverings and random racks; ``random_playout`` must play
exactly the actions of ``State.random_playout`` (the definition) for the same random numbers,
through the compiled playouts and through the Python ones, and a game it played must replay
identically from its actions (G-1).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parlour
import parlour.games.gobblestones.compiled as engine
from parlour.core import State
from parlour.games.gobblestones.board import (
    BOARD_STEPS,
    CENTRE_MASK,
    MAX_PLAY,
    NUM_COLOURS,
    SIZE,
    SQUARES,
)
from parlour.games.gobblestones.plays import (
    Plays,
    TurnPlays,
    colour_limits,
    legal_plays,
    play_problem,
    turn_plays,
)

from .test_properties import check_invariants, covered_cells


def as_plays(plays: TurnPlays) -> Plays:
    """The bitboards as the walk's table: ``(start, step) -> lengths``."""
    out: Plays = {}
    for s in range(SQUARES):
        if (plays.single >> s) & 1:
            out[(s, 0)] = (1,)
        for step, table in ((1, plays.right), (SIZE, plays.down)):
            lengths = tuple(k for k in range(2, MAX_PLAY + 1) if (table[k] >> s) & 1)
            if lengths:
                out[(s, step)] = lengths
    return out


def checked_plays(occupied: int, colours, rack, tiles: int) -> Plays:
    """Every segment that ``play_problem`` (the from-scratch checker) finds legal."""
    out: dict[tuple[int, int], list[int]] = {}
    owned = rack if rack is not None else [tiles] + [0] * (NUM_COLOURS - 1)
    for start in range(SQUARES):
        for step in (0, 1, SIZE):
            for length in (1,) if step == 0 else range(2, MAX_PLAY + 1):
                squares = [start + i * step for i in range(length)]
                if squares[-1] >= SQUARES or (step == 1 and start % SIZE + length > SIZE):
                    break
                tile_colours = None if rack is None else [colours[s] for s in squares]
                if play_problem(squares, occupied, colours, tile_colours, owned) is None:
                    out.setdefault((start, step), []).append(length)
    return {key: tuple(lengths) for key, lengths in out.items()}


def board(seed: int) -> tuple[int, ...]:
    """The colours of a board drawn by chance."""
    state = parlour.load_game("gobblestones").new_initial_state()
    state.random_playout(random.Random(seed).random, BOARD_STEPS)
    return tuple(state.snapshot().colour)


def covering(order: list[int]) -> int:
    """Squares covered one by one in ``order``, skipping any that would complete a 2 x 2
    block (B5), so that the covering is one a game could reach."""
    occupied = 0
    for s in order:
        r, c = divmod(s, SIZE)
        trial = occupied | (1 << s)
        blocked = False
        for top in (r - 1, r):
            for left in (c - 1, c):
                if 0 <= top < SIZE - 1 and 0 <= left < SIZE - 1:
                    corner = top * SIZE + left
                    block = (0b11 << corner) | (0b11 << (corner + SIZE))
                    blocked |= trial & block == block
        if not blocked:
            occupied = trial
    return occupied


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    order=st.lists(st.integers(0, SQUARES - 1), max_size=90),
    rack=st.lists(st.integers(0, 6), min_size=NUM_COLOURS, max_size=NUM_COLOURS),
    bluff=st.booleans(),
)
def test_b3_b4_b5_bitboard_plays_are_the_walks_and_the_checkers(seed, order, rack, bluff):
    colours = board(seed)
    occupied = covering(order)
    tiles = sum(rack)
    given_rack = None if bluff else rack
    fast = as_plays(turn_plays(occupied, colour_limits(colours), given_rack, tiles))
    assert fast == legal_plays(occupied, colours, given_rack, tiles)
    assert fast == checked_plays(occupied, colours, given_rack, tiles)


def test_b3_bitboard_plays_on_the_empty_board_go_through_a_centre():
    colours = board(1)
    plays = turn_plays(0, colour_limits(colours), [2, 2, 2, 2, 2], 10)
    assert as_plays(plays) == checked_plays(0, colours, [2, 2, 2, 2, 2], 10)
    assert plays.single and plays.single == plays.single & CENTRE_MASK


def _paths() -> list[bool]:
    """Compiled and Python playouts, or Python only where the compiled ones were not built."""
    return [True, False] if engine._cplayout is not None else [False]


@pytest.fixture(params=_paths(), ids=lambda compiled: "compiled" if compiled else "python")
def compiled(request):
    engine.COMPILED_PLAYOUTS[0] = request.param
    yield request.param
    engine.COMPILED_PLAYOUTS[0] = True


@pytest.mark.parametrize("players", [2, 3, 4])
def test_G1_random_playout_plays_the_definitions_actions(compiled, players):
    game = parlour.load_game("gobblestones", players=players)
    for seed in range(12):
        fast, plain = game.new_initial_state(), game.new_initial_state()
        fast.random_playout(random.Random(seed).random)
        State.random_playout(plain, random.Random(seed).random)
        assert fast.history() == plain.history()
        assert fast.position() == plain.position()
        assert fast.is_terminal() and fast.returns() == plain.returns()
        replay = game.new_state_from_actions(fast.history())  # G-1
        assert replay.position() == fast.position()


@pytest.mark.parametrize("players", [2, 4])
def test_random_playout_in_pieces_and_mid_play(compiled, players):
    """A budget stops anywhere (mid-board, mid-deal, part-way through a play, mid-draw) and the
    state goes on from there exactly as the definition does; every stop is a sound state."""
    game = parlour.load_game("gobblestones", players=players)
    for seed in range(4):
        fast, plain = game.new_initial_state(), game.new_initial_state()
        ours, theirs = random.Random(seed).random, random.Random(seed).random
        step = 0
        while not fast.is_terminal():
            before = covered_cells(fast) if fast.phase != "board" else set()
            budget = 1 + (step * 7 + seed) % 9
            assert fast.random_playout(ours, budget) == State.random_playout(plain, theirs,
                                                                             budget)
            assert fast.history() == plain.history()
            assert fast.position() == plain.position()
            if fast.phase != "board":
                check_invariants(fast, before)
            if fast.current_player() >= 0:
                assert fast.legal_actions() == plain.legal_actions()
            step += 1


def test_bluffing_games_take_the_general_loop():
    game = parlour.load_game("gobblestones", bluff=True, players=3)
    fast, plain = game.new_initial_state(), game.new_initial_state()
    fast.random_playout(random.Random(5).random)
    State.random_playout(plain, random.Random(5).random)
    assert fast.history() == plain.history()


@pytest.mark.parametrize("params", [{"players": 3}, {"players": 2, "bluff": True}])
def test_g3_chance_seen_by_says_what_the_views_show(params):
    """Only the drawer sees a drawn tile (G-3), everyone sees the board (B1): as the players'
    views after two different outcomes tell (a draw that ends the game is left out: G-5 then
    turns every rack up)."""
    game = parlour.load_game("gobblestones", **params)
    rng = random.Random(2)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node() and checked < 400:
            outcomes = state.chance_outcomes()
            if not any(state.child(a).is_terminal() for a, _p in outcomes):
                for player in range(game.num_players()):
                    assert state.chance_seen_by(player) == State.chance_seen_by(state, player)
                checked += 1
        state.random_playout(rng.random, 1)
    assert checked > 50
