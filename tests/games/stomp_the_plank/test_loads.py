"""The load model's transitions and the max^n tables, against the engine.

Every expectation here is obtained by applying actions to real game states built from position
text (P1-P7, P10); the only assumption shared with the tables is the endless deck's chance of
a match, ``cards / 7``.
"""

from __future__ import annotations

import itertools
import random

import pytest

import parlour
from parlour.games.stomp_the_plank import DRAW, STOP, TREASURES
from parlour.games.stomp_the_plank.loads import (
    LoadModel,
    Next,
    Over,
    maxn_table,
    reveal_chances,
    reveals,
    tabulable,
)
from parlour.games.stomp_the_plank.odds import win_chances

from .plank_support import random_playout


def position(game, active: int, k: int, planks, supply_left: int, discards=(0,) * 7) -> str:
    pontoon = ",".join(TREASURES[:k]) or "-"
    phase = "choose" if k else "start"
    text = ",".join(f"{c}/{s}" for c, s in planks)
    return (f"turn=1 active={active} phase={phase} pontoon={pontoon} "
            f"discards={','.join(map(str, discards))} supply={supply_left} planks={text}")


def frame(values, active: int):
    """Per-seat values into the frame of ``active`` (active first, clockwise)."""
    n = len(values)
    return tuple(values[(active + i) % n] for i in range(n))


def engine_result(lm: LoadModel, state) -> Over | Next:
    """What the engine did, in the load model's terms, from the frame of the turn's player."""
    if state.is_terminal():
        return Over(frame(state.returns(), state.active_player))
    planks = [state.plank(p) for p in range(lm.players)]
    loads, supply = lm.start_of(planks, state.active_player, state.supply)
    return Next(loads, supply)


def planks_of(lm: LoadModel, rng: random.Random):
    while True:
        planks = []
        for _ in range(lm.players):
            s = rng.randrange(lm.tip_at // lm.step_weight + 1)
            if lm.tip_at - lm.step_weight * s <= 0:
                continue
            planks.append((rng.randrange(lm.tip_at - lm.step_weight * s), s))
        if len(planks) == lm.players:
            return planks


CONFIGS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 4, "supply": 9},
    {"players": 3, "crates": "1,2,4", "tip_at": 12, "step_weight": 3, "supply": 20},
]


@pytest.mark.parametrize("params", CONFIGS, ids=str)
def test_P2_P3_P4_P10_stop_step_and_last_spot_are_the_engines(params) -> None:
    # P3 and P10 (crates clockwise while the supply lasts), P4 (a step), P2, P5, P6.
    game = parlour.load_game("stomp-the-plank", **params)
    lm = LoadModel.of(game)
    rng = random.Random(3)
    checked = 0
    for _ in range(2000):
        planks = planks_of(lm, rng)
        left = lm.supply - sum(c for c, _ in planks)
        if left < 0:
            continue
        active, k = rng.randrange(lm.players), rng.randrange(1, lm.spots)
        state = game.state_from_position(position(game, active, k, planks, left))
        loads, supply = lm.start_of(planks, active, left)
        assert engine_result(lm, state.child(STOP)) == lm.stop(loads, supply, k)
        drawn = state.child(DRAW)
        assert engine_result(lm, drawn.child(0)) == lm.step(loads, supply)  # coins: a match
        if k + 1 == lm.spots:
            assert engine_result(lm, drawn.child(k)) == lm.last_spot()
        checked += 1
    assert checked > 100


def test_P1_P7_reveal_chances_are_the_engines_including_the_reshuffle() -> None:
    # P1: a draw is uniform over the pile; P7: an empty pile is reshuffled as a card is drawn.
    game = parlour.load_game("stomp-the-plank")
    seen = 0
    states = [s for seed in range(3)
              for s in random_playout(game.new_initial_state(), random.Random(seed))]
    for state in states:
        if state.is_terminal() or state.current_player() < 0:
            continue
        pile = tuple(state.pile_counts())
        pontoon = tuple(TREASURES.index(t) for t in state.pontoon())
        drawn = state.child(DRAW)
        engine = dict(drawn.chance_outcomes())
        assert dict(reveal_chances(pile, pontoon)) == pytest.approx(engine)
        for t, p, left in reveals(pile, pontoon):
            assert p == pytest.approx(engine[t])
            after = drawn.child(t)
            if after.phase == "choose":  # the turn goes on: the pile is the one left
                assert tuple(after.pile_counts()) == left
        seen += 1
    empty = game.state_from_position(
        "turn=9 active=0 phase=choose pontoon=coins,ruby discards=6,6,7,7,7,7,7 supply=60 "
        "planks=0/0,0/0")
    assert sum(empty.pile_counts()) == 0
    assert dict(reveal_chances((0,) * 7, (0, 1))) == pytest.approx(
        dict(empty.child(DRAW).chance_outcomes()))
    assert seen > 50


def test_two_players_max_n_is_the_solved_two_player_table() -> None:
    # The same game solved two ways: by loads (max^n) and by (crates, step) (odds).
    game = parlour.load_game("stomp-the-plank")
    lm, odds = LoadModel.of(game), win_chances(game.crates, game.plank)  # type: ignore[attr-defined]
    table = maxn_table(lm)
    for me, other in itertools.product([(0, 0), (5, 1), (14, 0), (2, 4), (8, 2)], repeat=2):
        loads = (lm.load(*me), lm.load(*other))
        assert (1 + table.value(loads, None)[0]) / 2 == pytest.approx(odds.chance(0, me, other))
        for k in range(1, lm.spots):
            stop, draw = table.turn(loads, None, k)
            assert (1 + max(stop[0], draw[0])) / 2 == pytest.approx(odds.chance(k, me, other))


SMALL = [
    {"players": 3, "crates": "0,1,2", "tip_at": 5, "step_weight": 2},
    {"players": 4, "crates": "0,1,2", "tip_at": 4, "step_weight": 2, "supply": 6},
    {"players": 3, "crates": "0,2", "tip_at": 5, "step_weight": 2, "supply": 5},
]


@pytest.mark.parametrize("params", SMALL, ids=str)
def test_P6_the_max_n_table_agrees_with_every_transition_of_the_engine(params) -> None:
    # Each value is the active player's better choice (their own return, max^n), judged by
    # what the engine does after a stop, a match and a fresh card, from every table of planks.
    game = parlour.load_game("stomp-the-plank", **params)
    lm = LoadModel.of(game)
    table = maxn_table(lm)
    n, spots = lm.players, lm.spots
    single = [(c, s) for s in range(lm.tip_at) for c in range(lm.tip_at)
              if lm.load(c, s) < lm.tip_at]
    checked = 0
    for planks in itertools.product(single, repeat=n):
        left = lm.supply - sum(c for c, _ in planks)
        if left < 0:
            continue
        loads, supply = lm.start_of(list(planks), 0, left)
        if table.unsettled[table._index(loads, supply)]:
            continue  # a cycle of passes with no settled choice (see loads._solve_maxn)

        def judged(state):
            result = engine_result(lm, state)
            return table.after(result) if isinstance(result, Next) else result.returns

        def best(k, planks=planks, left=left):
            state = game.state_from_position(position(game, 0, k, planks, left))
            drawn = state.child(DRAW)
            fresh = judged(drawn.child(k)) if k + 1 == spots else best(k + 1, planks, left)
            p = k / len(TREASURES)
            match = judged(drawn.child(0)) if k else fresh
            draw = tuple(p * a + (1 - p) * b for a, b in zip(match, fresh, strict=True))
            if not k:
                return draw
            stop = judged(state.child(STOP))
            return stop if stop[0] >= draw[0] else draw

        assert table.value(loads, supply) == pytest.approx(best(0), abs=1e-9), planks
        checked += 1
    assert checked > 50


def test_P5_P10_four_default_players_are_solved_with_a_short_supply() -> None:
    # P5: four planks of 14 crates would need 56 of the 60; stops late in the game can find the
    # supply short (P10), so the table keeps the steps taken, and so the supply, exactly.
    game = parlour.load_game("stomp-the-plank", players=4)
    lm = LoadModel.of(game)
    assert not lm.unlimited and tabulable(lm)
    table = maxn_table(lm)
    start = table.value((0, 0, 0, 0), 60)
    assert all(-1 < v < 1 for v in start) and sum(start) <= 2 + 1e-9
    # With 4 crates left and every plank 2 short, a stop on spot 5 (5 crates) tips only the
    # first player after the stopper: P10 hands the crates out clockwise.
    assert lm.stop((12, 12, 12, 12), 4, 5) == Over((1.0, -1.0, 1.0, 1.0))
    assert table.unsettled.mean() < 0.02
    assert LoadModel.of(parlour.load_game("stomp-the-plank", players=3)).unlimited
