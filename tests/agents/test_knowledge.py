"""Per-game evaluations: registered for every game, well-formed, and fair between seats."""

from __future__ import annotations

import pytest

import parlour
from parlour.agents import evaluate, knowledge_for
from parlour.agents.evaluation import score_margin

from .helpers import case_id, configs, player_states

CASES = configs()


@pytest.mark.parametrize("name", parlour.list_games())
def test_every_game_has_its_own_evaluation(name: str) -> None:
    """A game without one falls back on score_margin; add agents/knowledge/<game>.py."""
    assert knowledge_for(parlour.load_game(name)).evaluate is not score_margin


@pytest.mark.parametrize(("name", "params"), CASES, ids=[case_id(c) for c in CASES])
def test_evaluations_are_one_value_per_player_within_the_returns(name: str, params: dict) -> None:
    game = parlour.load_game(name, **params)
    n = game.num_players()
    for state in player_states(game, 12, seed=2):
        values = evaluate(state)
        assert len(values) == n
        assert all(-1.0 <= v <= 1.0 for v in values)
        if n == 2:  # two seats: what one gains the other loses
            assert values[0] == pytest.approx(-values[1], abs=1e-9)


@pytest.mark.parametrize("name", parlour.list_games())
def test_at_the_end_the_evaluation_is_the_returns(name: str) -> None:
    from .helpers import play

    final = play(parlour.load_game(name, **({"rounds": 1} if name == "stomple" else {})),
                 ["random", "random"], 0)
    assert evaluate(final) == final.returns()


def test_score_margin_squashes_each_players_lead() -> None:
    class Scored:
        def __init__(self, scores):
            self._scores = scores

        def is_terminal(self):
            return False

        def scores(self):
            return self._scores

    values = score_margin(Scored([10.0, 4.0, 1.0]), scale=6.0)  # type: ignore[arg-type]
    assert values[0] == pytest.approx(0.7615941559557649)  # tanh(1)
    assert values[1] == pytest.approx(-0.7615941559557649)
    assert values[2] < values[1]
    assert score_margin(Scored([0.0, 0.0])) == [0.0, 0.0]  # type: ignore[arg-type]


@pytest.mark.parametrize("name", parlour.list_games())
def test_playout_policies_choose_legal_actions(name: str) -> None:
    game = parlour.load_game(name)
    policy = knowledge_for(game).rollout_policy
    if policy is None:
        return  # this game's playouts are uniformly random
    for k, state in enumerate(player_states(game, 12, seed=4)):
        assert policy(state, (k % 10) / 10) in state.legal_actions()


def test_the_plank_playout_never_risks_a_step_that_tips_its_own_plank() -> None:
    from parlour.games.stomp_the_plank import DRAW, STOP

    game = parlour.load_game("stomp-the-plank")
    policy = knowledge_for(game).rollout_policy
    risky = safe = 0
    for state in player_states(game, 200, seed=6):
        me = state.current_player()
        if STOP not in state.legal_actions():
            continue
        step_tips = state.balance(me) <= game.params["step_weight"]
        action = policy(state, 0.5)
        if step_tips:
            risky += 1
            assert action == STOP  # P4, P5: a match now would tip the plank
        elif len(state.pontoon()) < 2:
            safe += 1
            assert action == DRAW
    assert risky and safe


def test_two_player_plank_positions_are_judged_by_the_solved_table() -> None:
    from parlour.games.stomp_the_plank.odds import win_chances

    game = parlour.load_game("stomp-the-plank")
    state = game.state_from_position(
        "turn=3 active=1 phase=choose pontoon=coins,ruby discards=0,0,0,0,0,0,0 supply=57 "
        "planks=2/1,1/0"
    )
    win = win_chances(game.crates, game.plank).chance(2, (1, 0), (2, 1))  # type: ignore[attr-defined]
    assert evaluate(state) == pytest.approx([1.0 - 2.0 * win, 2.0 * win - 1.0])
    # With three players the table does not apply: the planks' balances decide.
    from parlour.agents.knowledge.stomp_the_plank import balances

    three = parlour.load_game("stomp-the-plank", players=3).state_from_position(
        "turn=2 active=1 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=58 "
        "planks=2/0,0/1,0/0"
    )  # loads 2, 3 (a step weighs 3 crates, P5) and 0
    assert evaluate(three) == pytest.approx(balances(three))
    assert evaluate(three)[1] < evaluate(three)[0] < evaluate(three)[2]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_stomple_mobility_from_the_game_matches_the_position_text(players) -> None:
    """S4-S6 through ``StompleState.stomps_for`` and through a position text read back agree."""
    import random

    from parlour.agents.knowledge.stomple import mobility, mobility_by_position

    game = parlour.load_game("stomple", players=players)
    rng = random.Random(players)
    state, checked = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.current_player() >= 0:
            for p, status in enumerate(state.statuses()):
                if status != 2:  # out of the round: no share
                    assert mobility(state, p) == mobility_by_position(state, p)
                    checked += 1
        state.random_playout(rng.random, 1)
    assert checked > 100


def test_gobblestones_lead_counts_the_play_being_laid() -> None:
    """A tile laid counts for what it will score (B6): ending the play changes nothing."""
    import random

    from parlour.agents.knowledge.gobblestones import lead

    game = parlour.load_game("gobblestones")
    state, rng, checked = game.new_initial_state(), random.Random(4), 0
    while not state.is_terminal() and checked < 20:
        if state.turn_in_progress() and game.END in state.legal_actions():
            ended = state.child(game.END)
            assert state.play_points() > 0
            if not ended.is_terminal():
                assert lead(ended) == pytest.approx(lead(state))
                checked += 1
        state.random_playout(rng.random, 1)
    assert checked >= 5
