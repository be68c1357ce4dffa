"""``hard`` in Stomp the Plank: its best-response tables, its look-ahead, its opponent model.

Expected values are computed from the engine (positions, ``child``, ``chance_outcomes``); the
agent is driven through :class:`PlayerView`s only.
"""

from __future__ import annotations

import itertools
import random

import pytest

import parlour
from parlour.agents import make_agent
from parlour.agents.plank_hard import (
    MODELS,
    PlankHard,
    best_response,
    turn_options,
)
from parlour.core import pick_chance_outcome
from parlour.games.stomp_the_plank import DRAW, STOP, TREASURES
from parlour.games.stomp_the_plank.loads import LoadModel, Next, Over, maxn_table, table_size

from .test_view_only import Tripwire

SMALL = {"crates": "0,1,2", "tip_at": 5, "step_weight": 2}


def position(active: int, k: int, planks, left: int) -> str:
    pontoon = ",".join(TREASURES[:k]) or "-"
    text = ",".join(f"{c}/{s}" for c, s in planks)
    return (f"turn=1 active={active} phase={'choose' if k else 'start'} pontoon={pontoon} "
            f"discards=0,0,0,0,0,0,0 supply={left} planks={text}")


@pytest.mark.parametrize("name", ["random", "plank-stop-2", "plank-risk", "minimax", "safe",
                                  "medium"])
def test_the_best_response_table_agrees_with_every_transition_of_the_engine(name) -> None:
    # Hero = seat 0. On the hero's turns the value is the better of stop and draw; on the
    # opponent's, the model's mix of the two (the minimum for "safe": a perfect opponent).
    game = parlour.load_game("stomp-the-plank", **SMALL)
    lm = LoadModel.of(game)
    br = best_response(lm, name)
    model = next((m for m in MODELS if m.name == name), None)
    single = [(c, s) for s in range(5) for c in range(5) if lm.load(c, s) < lm.tip_at]

    def judged(state) -> float:
        if state.is_terminal():
            return state.returns()[0]
        hero, opp = (lm.load(*state.plank(p)) for p in (0, 1))
        if state.active_player == 0:
            return br.hero_start(hero, opp, None)
        return br.opp_start(hero, opp, None)

    for planks in itertools.product(single, repeat=2):
        for active in (0, 1):
            def best(k: int, planks=planks, active=active) -> float:
                left = 60 - planks[0][0] - planks[1][0]
                state = game.state_from_position(position(active, k, planks, left))
                drawn = state.child(DRAW)
                fresh = judged(drawn.child(k)) if k + 1 == lm.spots else best(k + 1, planks, active)
                p = k / len(TREASURES)
                draw = p * judged(drawn.child(0)) + (1 - p) * fresh if k else fresh
                if not k:
                    return draw
                stop = judged(state.child(STOP))
                if active == 0:
                    return max(stop, draw)
                if model is None:
                    return min(stop, draw)
                loads = (lm.load(*planks[1]), lm.load(*planks[0]))
                q = model.table_draw(lm, k, loads, None)
                return q * draw + (1 - q) * stop

            hero, opp = lm.load(*planks[0]), lm.load(*planks[1])
            table = br.hero_start(hero, opp, None) if active == 0 else br.opp_start(hero, opp, None)
            assert table == pytest.approx(best(0), abs=1e-9), (planks, active)


def test_the_safe_table_is_the_solved_game() -> None:
    game = parlour.load_game("stomp-the-plank")
    lm = LoadModel.of(game)
    safe, maxn = best_response(lm, "safe"), maxn_table(lm)
    for hero, opp in itertools.product(range(0, 15, 2), repeat=2):
        assert safe.hero_start(hero, opp, None) == pytest.approx(maxn.value((hero, opp), None)[0])
        assert safe.opp_start(hero, opp, None) == pytest.approx(maxn.value((opp, hero), None)[1])


def test_random_is_worth_more_to_its_best_response_than_to_minimax() -> None:
    lm = LoadModel.of(parlour.load_game("stomp-the-plank"))
    against_random = best_response(lm, "random").hero_start(0, 0, None)
    game_value = best_response(lm, "safe").hero_start(0, 0, None)
    assert against_random > 0.6 > 0.1 > game_value > 0  # 85% wins against ~52%


def expectimax(state, after, mover: int) -> float:
    """The rest of the turn straight from the engine: chance by ``chance_outcomes``."""
    if state.is_terminal() or (state.current_player() >= 0 and state.active_player != mover):
        return after(state)
    if state.is_chance_node():
        return sum(p * expectimax(state.child(a), after, mover) for a, p in state.chance_outcomes())
    if state.phase == "start":
        return after(state)
    return max(expectimax(state.child(a), after, mover) for a in state.legal_actions())


@pytest.mark.parametrize("text", [
    "turn=3 active=0 phase=choose pontoon=coins discards=1,0,0,3,0,0,0 supply=52 planks=3/1,5/0",
    "turn=9 active=1 phase=choose pontoon=map,ruby discards=6,5,6,6,7,6,6 supply=50 "
    "planks=4/0,6/1",  # a pile of 3: the next draw reshuffles (P7)
    "turn=5 active=0 phase=choose pontoon=coins,ruby,map,hook discards=0,5,5,0,0,0,0 supply=60 "
    "planks=0/0,0/0",
])
def test_the_turn_look_ahead_is_the_engines_expectimax(text) -> None:
    game = parlour.load_game("stomp-the-plank")
    lm = LoadModel.of(game)
    state = game.state_from_position(text)
    me = state.active_player
    # An arbitrary judge of a turn's end, the same for both computations.
    def judge_loads(loads) -> float:
        return 0.01 * loads[0] - 0.02 * loads[1] + 0.003 * loads[0] * loads[1]

    def after_model(outcome: Over | Next) -> float:
        if isinstance(outcome, Over):
            return outcome.returns[0]
        return judge_loads(outcome.loads)

    def after_engine(s) -> float:
        if s.is_terminal():
            return s.returns()[me]
        nxt = s.active_player
        return judge_loads(tuple(lm.load(*s.plank((nxt + i) % 2)) for i in range(2)))

    planks = [state.plank(p) for p in range(2)]
    loads, supply = lm.start_of(planks, me, state.supply)
    pile = tuple(state.pile_counts())
    pontoon = tuple(TREASURES.index(t) for t in state.pontoon())
    stop, draw = turn_options(lm, loads, supply, pile, pontoon, after_model)
    assert stop == pytest.approx(after_engine(state.child(STOP)))
    assert draw == pytest.approx(expectimax(state.child(DRAW), after_engine, me))


def play(game, specs, seed: int):
    agents = [make_agent(s, game, seed=seed + i) for i, s in enumerate(specs)]
    state, rng = game.new_initial_state(), random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(pick_chance_outcome(state.chance_outcomes(), rng.random()))
        else:
            action = agents[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return agents, state


@pytest.mark.parametrize("opponent",
                         ["random", "plank-stop-2", "plank-stop-4", "plank-risk", "medium"])
def test_hard_learns_who_it_plays(opponent) -> None:
    game = parlour.load_game("stomp-the-plank", max_turns=60)
    named = 0
    for seed in range(6):
        agents, _state = play(game, ["hard", opponent], 100 * seed)
        hard = agents[0]
        assert isinstance(hard, PlankHard)
        posterior = hard.posterior()
        assert sum(posterior.values()) == pytest.approx(1.0)
        named += posterior[opponent] >= 0.25
    # Short games may end before the opponent has shown itself, and plank-stop-2 makes the
    # same choices as minimax play in most situations (the posterior keeps both).
    assert named >= 4


def test_hard_decides_from_the_view_alone() -> None:
    game = parlour.load_game("stomp-the-plank")
    state = game.state_from_position(
        "turn=3 active=0 phase=choose pontoon=coins,ruby discards=1,0,0,3,0,0,0 supply=52 "
        "planks=3/1,5/0")
    wire = Tripwire(state)
    assert make_agent("hard", game, 1).step(wire) in (DRAW, STOP)
    assert wire.touched <= {"current_player", "get_game", "view", "legal_actions",
                            "information_state_string"}


@pytest.mark.parametrize("players", [3, 4])
def test_hard_plays_three_and_four_player_games_by_the_max_n_table(players) -> None:
    game = parlour.load_game("stomp-the-plank", players=players)
    # wait=true: the four-player table is solved before the first move, not beside it.
    _agents, state = play(game, ["hard:wait=true"] + ["plank-stop-2"] * (players - 1), 7)
    assert state.end in ("tip-stop", "tip-step", "last-spot")
    # It stops where a stop tips a plank (P6): a sure win it never passes up.
    text = ("turn=5 active=0 phase=choose pontoon=coins,ruby discards=0,0,0,0,0,0,0 "
            f"supply={60 - 13 * (players - 1)} planks=0/0" + ",13/0" * (players - 1))
    assert make_agent("hard:wait=true", game, 0).step(game.state_from_position(text)) == STOP


def test_a_large_table_is_solved_beside_the_moves_not_in_them() -> None:
    # Four players: 860 625 entries, seconds to solve. Until it is ready, a move is decided at
    # once by the stop-on-spot-2 rule (below); afterwards by the table.
    from parlour.agents import plank_hard

    game = parlour.load_game("stomp-the-plank", players=4)
    lm = LoadModel.of(game)
    assert table_size(lm) > plank_hard.SOLVE_AT_ONCE
    table = plank_hard.ready_maxn_table(lm, wait=False)
    plank_hard._building[lm].result()  # the background solve finishes
    assert plank_hard.ready_maxn_table(lm, wait=False) is maxn_table(lm)
    assert table is None or table is maxn_table(lm)


def test_P3_P6_while_the_four_player_table_is_solved_hard_stops_on_spot_2(monkeypatch) -> None:
    # The first seconds of a process: the table is not ready, and hard plays the rule that the
    # four-player max^n policy nearly is: draw to spot 2 (P3), stop there, or stop at once
    # where a stop tips another plank (a win, P6; spot 1 gives no crates, P2).
    from parlour.agents import plank_hard

    monkeypatch.setattr(plank_hard, "ready_maxn_table", lambda lm, wait: None)
    game = parlour.load_game("stomp-the-plank", players=4)
    agent = make_agent("hard", game, 0)

    def at(cards: int, planks: str, supply: int) -> int:
        pontoon = ",".join(TREASURES[:cards])
        return agent.step(game.state_from_position(
            f"turn=5 active=0 phase=choose pontoon={pontoon} discards=0,0,0,0,0,0,0 "
            f"supply={supply} planks={planks}"))

    assert at(1, "0/0,0/0,0/0,0/0", 60) == DRAW
    assert at(2, "0/0,0/0,0/0,0/0", 60) == STOP
    assert at(3, "0/0,0/0,0/0,0/0", 60) == STOP
    assert at(1, "0/0,0/0,14/0,0/0", 46) == DRAW  # spot 1 hands out nothing
