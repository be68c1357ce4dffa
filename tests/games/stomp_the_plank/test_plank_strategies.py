"""The P8 reference strategies: they play legally and follow their stated rules."""

from __future__ import annotations

import random

import pytest

from parlour.agents import agent_names, make_agent
from parlour.core import load_game
from parlour.games.stomp_the_plank import DRAW, STOP

from .plank_support import game, play

CHOOSE_3 = ("turn=5 active=0 phase=choose pontoon=coins,ruby,map discards=0,0,0,0,0,0,0 "
            "supply={supply} planks={planks}")


def test_strategies_are_registered():
    names = set(agent_names())
    assert {f"plank-stop-{k}" for k in range(1, 6)} | {"plank-risk"} <= names


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_P3_stop_after_k_draws_until_k_cards(k):
    g = game()
    agent = make_agent(f"plank-stop-{k}", g, seed=0)
    state = g.new_initial_state()
    assert agent.step(state) == DRAW  # P3: always draws first
    state.apply_action(DRAW)
    for i, card in enumerate(("coins", "ruby", "map", "compass", "sword"), start=1):
        play(state, card)
        expected = STOP if i >= k else DRAW
        assert agent.step(state) == expected
        if expected == STOP:
            break
        state.apply_action(DRAW)


def test_risk_strategy_stops_when_a_stop_tips_a_plank():
    g = game()  # P5 defaults: a plank tips at 15
    agent = make_agent("plank-risk", g, seed=0)
    state = g.state_from_position(CHOOSE_3.format(supply=47, planks="0/0,13/0"))
    assert agent.step(state) == STOP  # 2 crates tip player 1: a certain win
    # One crate short, a stop here would not tip; the 3 crates of spot 4 would, so it draws.
    short = g.state_from_position(CHOOSE_3.format(supply=48, planks="0/0,12/0"))
    assert agent.step(short) == DRAW


def test_risk_strategy_draws_on_spot_1_and_fears_a_fatal_step():
    g = game()
    agent = make_agent("plank-risk", g, seed=0)
    one = g.state_from_position(
        "turn=5 active=0 phase=choose pontoon=coins discards=0,0,0,0,0,0,0 supply=60 "
        "planks=0/0,0/0")
    assert agent.step(one) == DRAW  # stopping gives 0 crates; a match costs little
    fatal = g.state_from_position(CHOOSE_3.format(supply=60, planks="0/4,0/0"))  # balance 3
    assert agent.step(fatal) == STOP  # one more step would tip its own plank
    # Risk of a match from the unseen cards: with every coins, ruby and map card discarded,
    # no draw can match, so drawing is free.
    no_risk = g.state_from_position(
        "turn=5 active=0 phase=choose pontoon=coins,ruby,map discards=6,6,6,0,0,0,0 "
        "supply=60 planks=0/4,0/0")
    assert agent.step(no_risk) == DRAW


@pytest.mark.parametrize("name", ["plank-stop-2", "plank-risk"])
def test_strategies_finish_games(name):
    g = game(players=3)
    rng = random.Random(0)
    agents = [make_agent(name, g, seed=i) for i in range(3)]
    for _ in range(5):
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(agents[state.current_player()].step(state))
        assert state.end in ("tip-stop", "tip-step", "last-spot")


def test_strategies_refuse_other_games():
    with pytest.raises(ValueError):
        make_agent("plank-risk", load_game("clobber"))
