"""``easy`` and ``medium`` in Stomp the Plank: the greedy beginner and the steady player.

Each is a stopping rule (:mod:`parlour.agents.plank_levels`): draw until a target number of
cards lies on the pontoon (5 for ``easy``, 3 for ``medium``, which one turn in three pushes on
to 4), stop earlier only when a stop tips another plank. The tests drive them through the
public API and :class:`PlayerView`s (``Agent.step``) on positions written in the game's
notation, and name the rulings they rest on: P2 (pontoon and last spot), P3 (draw at least
once, then draw or stop), P4 (a match ends the turn with a step), P5 (a plank tips at 15), P6
(a tipped plank loses, the others win), P10 (a short supply hands crates out clockwise).
"""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.agents import make_agent
from parlour.agents.greedy import GreedyAgent
from parlour.agents.mcts import MCTSAgent
from parlour.agents.plank_levels import (
    EASY_TARGET,
    MEDIUM_PUSH,
    MEDIUM_TARGET,
    PlankTarget,
    draw_chance,
)
from parlour.games.stomp_the_plank import DRAW, STOP, TREASURES
from parlour.games.stomp_the_plank.loads import LoadModel


def plank(**params):
    return parlour.load_game("stomp-the-plank", **params)


def choose(cards: int, planks: str, supply: int, active: int = 0) -> str:
    """A position where ``active`` has turned over ``cards`` different treasures (P3)."""
    pontoon = ",".join(TREASURES[:cards])
    return (f"turn=3 active={active} phase=choose pontoon={pontoon} discards=0,0,0,0,0,0,0 "
            f"supply={supply} planks={planks}")


def test_the_named_strengths_are_the_plank_rules_only_in_the_plank() -> None:
    game = plank()
    easy, medium = make_agent("easy", game, 1), make_agent("medium", game, 1)
    assert isinstance(easy, PlankTarget) and easy.target == EASY_TARGET == 5
    assert isinstance(medium, PlankTarget) and medium.target == MEDIUM_TARGET == 3
    # Every other game keeps its greedy easy and its MCTS medium.
    stomple = parlour.load_game("stomple")
    assert isinstance(make_agent("easy", stomple, 1), GreedyAgent)
    assert isinstance(make_agent("medium", stomple, 1), MCTSAgent)
    # A search budget (``ladder --scale``) means nothing to a rule: accepted, ignored.
    assert make_agent("medium:time=0.025", game, 1).target == 3
    assert make_agent("medium", game, 1).push == MEDIUM_PUSH and easy.push == 0.0
    with pytest.raises(ValueError, match="P3"):
        make_agent("medium:target=0", game, 1)
    with pytest.raises(ValueError, match="chance"):
        make_agent("medium:push=2", game, 1)
    with pytest.raises(ValueError, match="stomp-the-plank"):
        PlankTarget(stomple, 1)


@pytest.mark.parametrize(("spec", "target"),
                         [("medium:push=0", 3), ("easy", 5), ("easy:target=2", 2)])
def test_P3_each_rule_draws_until_its_target_then_stops(spec: str, target: int) -> None:
    game = plank()
    agent = make_agent(spec, game, 0)
    start = game.new_initial_state()
    assert agent.step(start) == DRAW  # P3: the first card is always drawn
    for cards in range(1, 6):  # P2: spots 1-5 pay 0, 1, 2, 3, 5 crates; no plank near tipping
        state = game.state_from_position(choose(cards, "0/0,0/0", 60))
        assert agent.step(state) == (STOP if cards >= target else DRAW), cards


def test_P3_medium_pushes_on_to_spot_4_one_turn_in_three_and_never_further() -> None:
    game = plank()
    assert pytest.approx(1 / 3) == MEDIUM_PUSH
    at_target = game.state_from_position(choose(3, "0/0,0/0", 60))
    pushes = sum(make_agent("medium", game, seed).step(at_target) == DRAW for seed in range(600))
    assert 160 <= pushes <= 240  # 200 expected; seeded, so the count is fixed
    for seed in range(50):
        agent = make_agent("medium", game, seed)
        assert agent.step(game.state_from_position(choose(2, "0/0,0/0", 60))) == DRAW
        assert agent.step(game.state_from_position(choose(4, "0/0,0/0", 60))) == STOP
    # The chance itself, as hard's model of medium reads it (P3, P6).
    lm = LoadModel.of(game)
    assert [draw_chance(lm, (0, 0), 60, k, 3, MEDIUM_PUSH) for k in range(6)] == \
        [1.0, 1.0, 1.0, MEDIUM_PUSH, 0.0, 0.0]
    assert draw_chance(lm, (0, 13), 60, 3, 3, MEDIUM_PUSH) == 0.0  # 2 crates tip: stop, win


def test_P2_on_a_short_pontoon_the_rules_stop_on_the_last_paying_spot() -> None:
    game = plank(crates="0,1,2")  # four spots: the fourth wins, so spot 3 is the last paying one
    agent = make_agent("easy", game, 0)
    assert agent.target == 3
    assert agent.step(game.state_from_position(choose(3, "0/0,0/0", 60))) == STOP
    # An explicit target may name the last spot: draw on for the win (P2), a study opponent.
    reckless = make_agent("easy:target=9", game, 0)
    assert reckless.target == 4
    assert reckless.step(game.state_from_position(choose(3, "0/0,0/0", 60))) == DRAW


@pytest.mark.parametrize("spec", ["easy", "medium"])
def test_P5_P6_a_stop_that_tips_another_plank_is_taken_at_once(spec: str) -> None:
    game = plank()
    agent = make_agent(spec, game, 0)
    # Two cards down: a stop hands over spot 2's 1 crate. 14 crates tip at 15 (P5): a win (P6).
    assert agent.step(game.state_from_position(choose(2, "0/0,14/0", 46))) == STOP
    # Crates and steps weigh alike: 11 crates and a step (3) also tip on that crate.
    assert agent.step(game.state_from_position(choose(2, "0/0,11/1", 49))) == STOP
    # One crate short of tipping, the rule goes on to its target.
    assert agent.step(game.state_from_position(choose(2, "0/0,13/0", 47))) == DRAW
    # Spot 1 hands out no crates (P2), so nothing tips there: draw.
    assert agent.step(game.state_from_position(choose(1, "0/0,14/0", 46))) == DRAW


def test_P10_a_short_supply_reaches_the_next_player_first() -> None:
    # Three players, a supply of 30 with 1 crate left: a stop on spot 2 gives that crate to the
    # stopper's left neighbour (seat 1) only (P10).
    game = plank(players=3, supply=30)
    agent = make_agent("medium", game, 0)
    near_left = game.state_from_position(choose(2, "7/0,14/0,8/0", 1))
    assert agent.step(near_left) == STOP  # seat 1 takes the crate and tips: a win (P6)
    near_far = game.state_from_position(choose(2, "7/0,8/0,14/0", 1))
    assert agent.step(near_far) == DRAW  # the crate never reaches seat 2: nothing tips


def test_P4_the_rules_ignore_their_own_plank() -> None:
    # The steady player and the greedy beginner do not look at their own plank: one more match
    # tips it (balance 3, P4/P5), and they still draw toward their target, as documented.
    game = plank()
    for spec in ("easy", "medium"):
        agent = make_agent(spec, game, 0)
        assert agent.step(game.state_from_position(choose(2, "0/4,0/0", 60))) == DRAW


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_rules_play_whole_games_legally_at_every_player_count(players: int) -> None:
    game = plank(players=players)
    line_up = ["easy", "medium", "hard", "random"][:players] if players < 4 else \
        ["easy", "medium", "easy", "medium"]
    for seed in range(3):
        agents = [make_agent(spec, game, seed * 10 + i) for i, spec in enumerate(line_up)]
        rng, state, actions = random.Random(seed), game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            mover = state.current_player()
            action = agents[mover].step(state.clone())
            assert action in state.legal_actions(), (seed, state.position())
            assert state.string_to_action(state.action_to_string(action)) == action
            state.apply_action(action)
            actions += 1
            assert actions < 2000, "a game between the rules should end long before the limit"
        returns = state.returns()
        assert len(returns) == players and any(r < 0 for r in returns), state.position()
