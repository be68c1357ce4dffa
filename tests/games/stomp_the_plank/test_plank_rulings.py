"""Stomp the Plank: one or more tests per ruling (P1-P10, G-1..G-5), from hand-made situations.

Positions are written in the documented position text (docs/rules/stomp-the-plank.md):
``turn active phase [end] pontoon discards supply planks``, planks as ``crates/step``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from parlour.core import (
    CHANCE_PLAYER,
    IllegalActionError,
    InvalidParameterError,
    NotationError,
    Utility,
)
from parlour.games.stomp_the_plank import DRAW, STOP, TREASURES, PlankModel

from .plank_support import EMPTY, at, game, play, random_playout

CRATES = (0, 1, 2, 3, 5)


def choose(pontoon: str, planks: str = "0/0,0/0", *, active: int = 0, discards: str = EMPTY,
           **params):
    """A state where ``active`` has ``pontoon`` on the pontoon and may draw or stop.

    The supply holds what the planks have not taken (P5).
    """
    given = sum(int(p.split("/")[0]) for p in planks.split(","))
    left = params.get("supply", 60) - given
    text = (f"turn=3 active={active} phase=choose pontoon={pontoon} discards={discards} "
            f"supply={left} planks={planks}")
    return at(text, players=len(planks.split(",")), **params)


# -- P1: the deck and draws as chance events ----------------------------------------------------
def test_P1_deck_is_49_cards_seven_of_each_treasure():
    state = game().new_initial_state()
    assert state.pile_counts() == [7] * 7
    play(state, "draw")
    assert state.current_player() == CHANCE_PLAYER
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(7))
    assert all(math.isclose(p, 7 / 49) for _, p in outcomes)
    assert [state.action_to_string(a) for a, _ in outcomes] == list(TREASURES)


def test_P1_a_draw_is_a_chance_event_over_the_cards_left():
    # Discards: 7 coins, 3 ruby, 1 map; pontoon: compass. Left: 0 coins, 4 ruby, 6 map,
    # 6 compass, 7 sword, 7 hook, 7 spyglass = 37 cards.
    state = at("turn=9 active=1 phase=card pontoon=compass discards=7,3,1,0,0,0,0 supply=60 "
               "planks=0/0,0/0")
    probs = dict(state.chance_outcomes())
    assert probs.keys() == {1, 2, 3, 4, 5, 6}  # no coins left: not an outcome
    expected = {1: 4, 2: 6, 3: 6, 4: 7, 5: 7, 6: 7}
    assert all(math.isclose(probs[t], n / 37) for t, n in expected.items())
    assert math.isclose(sum(probs.values()), 1.0)


def test_P1_G1_a_treasure_not_in_the_pile_cannot_be_drawn():
    state = at("turn=9 active=1 phase=card pontoon=compass discards=7,3,1,0,0,0,0 supply=60 "
               "planks=0/0,0/0")
    before = state.position()
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(0)  # coins: all seven are in the discards
    assert err.value.rule == "G-1"
    assert state.position() == before


def test_P1_P7_count_draws_are_exactly_a_uniform_shuffle():
    """Drawing by counts gives every order of a small pile the probability of a shuffle.

    Pile left: 2 coins, 1 ruby, 1 map (4 cards, 12 distinct orders). The chance of the first
    two cards, read from chance_outcomes, must equal the share of the 12 orders that start
    with them.
    """
    start = at("turn=1 active=0 phase=start pontoon=- discards=5,6,6,7,7,7,7 supply=60 "
               "planks=0/0,0/0")
    assert start.pile_counts() == [2, 1, 1, 0, 0, 0, 0]
    orders = set(itertools.permutations([0, 0, 1, 2]))
    assert len(orders) == 12
    prefix = Counter(order[:2] for order in orders)
    for first, second in itertools.product(range(3), repeat=2):
        state = play(start.clone(), "draw")
        p_first = dict(state.chance_outcomes()).get(first, 0.0)
        if not p_first:
            assert prefix[(first, second)] == 0
            continue
        state.apply_action(first)
        if state.current_player() != 0:
            pytest.fail("one card cannot end the turn here")
        play(state, "draw")
        p_second = dict(state.chance_outcomes()).get(second, 0.0)
        assert math.isclose(p_first * p_second, prefix[(first, second)] / 12)


# -- P2: the pontoon ------------------------------------------------------------------------------
@pytest.mark.parametrize("spot", [1, 2, 3, 4, 5])
def test_P2_P3_a_stop_on_each_spot_gives_that_spots_crates(spot):
    pontoon = ",".join(TREASURES[:spot])
    state = choose(pontoon, "2/1,3/0,0/2", active=0)
    play(state, "stop")
    assert state.plank(0) == (2, 1)  # the active player takes none
    assert state.plank(1) == (3 + CRATES[spot - 1], 0)
    assert state.plank(2) == (CRATES[spot - 1], 2)
    assert state.supply == 60 - 5 - 2 * CRATES[spot - 1]
    assert state.current_player() == 1 and state.phase == "start"


def test_P2_a_card_on_spot_6_wins_at_once():
    state = choose("coins,ruby,map,compass,sword", "4/2,0/0,14/0", active=1)
    play(state, "draw", "hook")
    assert state.is_terminal()
    assert state.end == "last-spot"
    assert state.pontoon() == ["coins", "ruby", "map", "compass", "sword", "hook"]
    assert state.returns() == [-1.0, 1.0, -1.0]
    assert state.winners() == [1]


@pytest.mark.parametrize("card", ["coins", "ruby", "map", "compass", "sword"])
def test_P9_a_matching_card_on_spot_6_is_a_match_not_a_win(card):
    """P9 (P2, P4): a card drawn onto spot 6 that matches one on the pontoon is caught: a step,
    no crates, no win. Otherwise drawing on spot 5 would always win and a stop there would
    never make sense."""
    state = choose("coins,ruby,map,compass,sword", "4/0,6/1", active=0)
    supply = state.supply
    play(state, "draw", card)
    assert not state.is_terminal() and state.end is None and state.winners() == []
    assert state.plank(0) == (4, 1), "a step toward the water (P4)"
    assert state.plank(1) == (6, 1) and state.supply == supply, "no crates given"
    assert state.current_player() == 1 and state.pontoon() == []


def test_P9_a_match_on_spot_6_can_step_the_elephant_off_the_plank():
    """P9: the match on spot 6 is an ordinary match, so on step 4 it loses (P4, P6)."""
    state = choose("coins,ruby,map,compass,sword", "0/4,0/0", active=0)
    play(state, "draw", "map")
    assert state.end == "tip-step" and state.losers() == [0] and state.winners() == [1]


def test_P2_other_crate_tables_set_the_spots():
    state = choose("coins,ruby,map", "0/0,0/0", crates="1,2,4")
    play(state, "stop")
    assert state.plank(1) == (4, 0)
    state = choose("coins,ruby,map", "0/0,0/0", crates="1,2,4")
    play(state, "draw", "sword")
    assert state.end == "last-spot" and state.returns() == [1.0, -1.0]


def test_P2_bad_crate_tables_are_refused():
    for bad in ("", "1,x", "0,1,2,3,4,5,6", "-1,2"):
        with pytest.raises(InvalidParameterError):
            game(crates=bad)


# -- P3: draw at least once, then draw or stop ----------------------------------------------------
def test_P3_stopping_before_the_first_draw_is_refused_naming_P3():
    state = game().new_initial_state()
    assert state.legal_actions() == [DRAW]
    before = state.position()
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(STOP)
    assert err.value.rule == "P3"
    assert state.position() == before and state.history() == []
    with pytest.raises(IllegalActionError) as err:
        state.parse_move("stop")
    assert err.value.rule == "P3"


def test_P3_after_a_card_that_does_not_match_the_player_may_draw_or_stop():
    state = play(game().new_initial_state(), "draw", "map")
    assert state.current_player() == 0
    assert state.legal_actions() == [DRAW, STOP]
    play(state, "draw", "hook")
    assert state.legal_actions() == [DRAW, STOP]
    assert state.pontoon() == ["map", "hook"]


# -- P4: a match -----------------------------------------------------------------------------------
def test_P4_a_match_ends_the_turn_and_steps_the_elephant_without_crates():
    state = choose("coins,ruby,map", "1/0,2/1,0/0", active=1)
    play(state, "draw", "coins")
    assert state.plank(1) == (2, 2)
    assert state.plank(0) == (1, 0) and state.plank(2) == (0, 0)  # no crates given
    assert state.supply == 57
    assert state.pontoon() == []
    assert state.discard_counts() == [2, 1, 1, 0, 0, 0, 0]
    assert state.current_player() == 2 and state.phase == "start"


# -- P5: the plank model and the supply -----------------------------------------------------------
def test_P5_default_plank_tips_when_crates_plus_three_per_step_reach_15():
    """The defaults are the model as ruling P5 writes it: crates + 3 * step >= 15."""
    model = PlankModel()
    assert (model.tip_at, model.step_weight) == (15, 3)
    assert game().plank == model == PlankModel(tip_at=15, step_weight=3)
    assert game(players=4).plank == model, "the same plank for every number of players"
    assert not model.tips(14, 0) and model.tips(15, 0)
    assert not model.tips(0, 4) and model.tips(0, 5)  # steps 0..4 are safe when empty
    assert not model.tips(11, 1) and model.tips(12, 1)
    assert not model.tips(2, 4) and model.tips(3, 4)
    assert model.balance(11, 1) == 1 and model.balance(0, 0) == 15


def test_P5_four_default_planks_cannot_outlast_the_supply():
    """Why P5 changed from 20/4 to 15/3 (the P8 study): four untipped default planks hold at
    most 4 * 14 = 56 crates, fewer than the 60 in the supply, so a game still in play always
    has crates to give. Under the first defaults, 20/4, four planks could hold 76 and play
    went on with an empty supply, a position that is still legal with those parameters."""
    model = PlankModel()
    assert 4 * (model.tip_at - 1) < 60 < 4 * (PlankModel(tip_at=20, step_weight=4).tip_at - 1)
    text = ("turn=30 active=3 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=0 "
            "planks=19/0,19/0,19/0,3/0")
    with pytest.raises(NotationError, match="tipped plank"):
        at(text, players=4)
    old = at(text, players=4, tip_at=20, step_weight=4)
    assert not old.is_terminal() and old.supply == 0
    assert [old.balance(i) for i in range(4)] == [1, 1, 1, 17]
    play(old, "draw", "coins", "draw", "ruby", "stop")  # spot 2: one crate each, none left
    assert not old.is_terminal() and old.supply == 0
    assert [old.plank(i)[0] for i in range(4)] == [19, 19, 19, 3]


def test_P5_a_plank_tips_by_balance_under_crates():
    state = choose("coins,ruby", "0/0,11/1")  # 11 + 3 * 1 = 14, balance 1: one crate tips it
    play(state, "stop")
    assert state.end == "tip-stop" and state.losers() == [1]
    state = choose("coins,ruby", "0/0,10/1")  # balance 2: one crate leaves balance 1
    play(state, "stop")
    assert not state.is_terminal() and state.balance(1) == 1


def test_P5_step_weight_and_tip_at_are_parameters():
    state = choose("coins,ruby,map", "0/0,5/1", tip_at=10, step_weight=3)
    play(state, "stop")  # 5 + 2 + 3 * 1 = 10
    assert state.end == "tip-stop"
    state = choose("coins,ruby,map", "0/0,5/1", tip_at=11, step_weight=3)
    play(state, "stop")
    assert not state.is_terminal() and state.balance(1) == 1


def test_P10_P5_the_supply_running_out_gives_what_is_left_clockwise_then_nothing():
    # 3 players, supply 20: 17 crates already out, 3 left. Player 1 stops on spot 5 (5 crates):
    # player 2 (on their left) takes the last 3, player 0 gets none.
    state = choose("coins,ruby,map,compass,sword", "9/0,0/0,8/0", active=1, supply=20)
    assert state.supply == 3
    play(state, "stop")
    assert [state.plank(i)[0] for i in range(3)] == [9, 0, 11]
    assert state.supply == 0
    # Now no stop gives anything.
    play(state, "draw", "hook", "draw", "coins", "draw", "spyglass", "stop")
    assert [state.plank(i)[0] for i in range(3)] == [9, 0, 11]
    assert state.supply == 0 and not state.is_terminal()


@pytest.mark.parametrize(("planks", "active", "left", "expected"), [
    ("3/0,3/0,0/0,0/0", 2, 7, [5, 3, 0, 5]),  # seat 3 (the stopper's left) 5, wrap to 0: 2
    ("0/0,3/0,0/0,0/0", 0, 4, [0, 7, 0, 0]),  # seat 1 takes all four, seats 2 and 3 none
    ("0/0,0/0,0/0,0/0", 3, 12, [5, 5, 2, 0]),  # seats 0 and 1 in full, seat 2 the last two
])
def test_P10_a_short_supply_pays_clockwise_from_the_stoppers_left(planks, active, left, expected):
    """P10: when the supply cannot give every other player their crates, they are paid in
    clockwise order from the stopper's left until it is empty (wrapping past seat 3 to 0)."""
    given = sum(int(p.split("/")[0]) for p in planks.split(","))
    state = choose("coins,ruby,map,compass,sword", planks, active=active, supply=given + left)
    assert state.supply == left
    play(state, "stop")  # spot 5: five crates to each other player, if the supply had them
    assert [state.plank(i)[0] for i in range(4)] == expected
    assert state.supply == 0 and not state.is_terminal()


def test_P5_crates_on_planks_and_in_the_supply_always_add_up():
    rng = random.Random(5)
    g = game(players=4, supply=12)
    for _ in range(20):
        for state in random_playout(g.new_initial_state(), rng):
            crates = sum(state.plank(i)[0] for i in range(4))
            assert crates + state.supply == 12


# -- P6: losing and winning -----------------------------------------------------------------------
def test_P6_the_player_whose_plank_tips_under_crates_loses_and_the_others_win():
    # Spot 5 gives 5 crates: player 1 reaches 10 + 5 = 15 and tips; player 3 reaches
    # 3 + 5 + 3 * 1 = 11 and does not (P5 defaults).
    state = choose("coins,ruby,map,compass,sword", "0/0,10/0,0/0,3/1", active=2)
    play(state, "stop")
    assert state.is_terminal() and state.end == "tip-stop"
    assert state.returns() == [1.0, -1.0, 1.0, 1.0]


def test_P6_two_planks_tipping_on_one_stop_both_lose():
    state = choose("coins,ruby,map,compass", "12/0,0/0,9/1", active=1)
    play(state, "stop")  # 3 crates each: 12 + 3 = 15 and 9 + 3 + 3 * 1 = 15
    assert state.end == "tip-stop"
    assert state.losers() == [0, 2] and state.winners() == [1]
    assert state.returns() == [-1.0, 1.0, -1.0]


def test_P6_P4_stepping_off_the_plank_loses():
    state = choose("coins,ruby", "0/4,7/0,0/0", active=0)
    play(state, "draw", "ruby")
    assert state.is_terminal() and state.end == "tip-step"
    assert state.plank(0) == (0, 5)
    assert state.returns() == [-1.0, 1.0, 1.0]
    assert state.pontoon() == ["coins", "ruby", "ruby"]  # the final turn stays on show


# -- P7: discards and the reshuffle ---------------------------------------------------------------
def test_P7_played_cards_are_discarded_at_the_end_of_the_turn():
    state = choose("coins,ruby,map", "0/0,0/0")
    play(state, "stop")
    assert state.discard_counts() == [1, 1, 1, 0, 0, 0, 0]
    assert state.pile_counts() == [6, 6, 6, 7, 7, 7, 7]


def test_P7_an_empty_pile_at_the_end_of_a_turn_takes_every_card_back():
    # All other cards are discarded: the pile is empty when this turn ends.
    state = choose("coins,ruby", "0/0,0/0", discards="6,6,7,7,7,7,7")
    assert sum(state.pile_counts()) == 0
    play(state, "stop")
    assert state.pile_counts() == [7] * 7 and state.discard_counts() == [0] * 7


def test_P7_a_reshuffle_mid_turn_leaves_the_pontoon_cards_out():
    state = choose("coins,ruby", "0/0,0/0", discards="6,6,6,7,7,7,7")
    assert state.pile_counts() == [0, 0, 1, 0, 0, 0, 0]
    play(state, "draw", "map")  # the last card of the pile
    assert sum(state.pile_counts()) == 0 and state.phase == "choose"
    play(state, "draw")  # P7: the discards become the new pile
    assert state.pile_counts() == [6, 6, 6, 7, 7, 7, 7]
    assert state.discard_counts() == [0] * 7
    assert state.pontoon() == ["coins", "ruby", "map"]
    probs = dict(state.chance_outcomes())
    assert math.isclose(probs[0], 6 / 46) and math.isclose(probs[3], 7 / 46)


def test_P7_P4_a_match_on_the_first_draw_of_a_new_pile():
    state = choose("coins,ruby,map", "0/0,0/0", active=1,
                   discards="6,6,6,7,7,7,7")  # the pile is empty
    play(state, "draw", "ruby")
    assert state.plank(1) == (0, 1)
    assert state.current_player() == 0
    # The new pile lost one ruby; the turn's four cards are the only discards.
    assert state.pile_counts() == [6, 5, 6, 7, 7, 7, 7]
    assert state.discard_counts() == [1, 2, 1, 0, 0, 0, 0]


# -- P8: players and defaults ----------------------------------------------------------------------
def test_P8_two_to_four_players_seat_0_starts_and_turns_go_clockwise():
    for bad in (1, 5):
        with pytest.raises(InvalidParameterError):
            game(players=bad)
    state = game(players=3).new_initial_state()
    seats = []
    for card in ("coins", "ruby", "map", "compass"):
        seats.append(state.current_player())
        play(state, "draw", card, "stop")
    assert seats == [0, 1, 2, 0]


def test_P8_P2_P5_defaults_are_the_rulings_values():
    """P2's crates, P5's tip_at=15, step_weight=3 and supply 60, as ruled."""
    g = game()
    assert g.get_parameters() == {
        "players": 2, "crates": "0,1,2,3,5", "tip_at": 15, "step_weight": 3, "supply": 60,
        "max_turns": 1000, "position": None,
    }
    assert g.crates == CRATES and g.spots == 6
    assert g.non_default_parameters() == {}
    assert game(crates=" 0, 1,2,3,5") == g  # written another way, still the default


# -- G-1 .. G-4 ------------------------------------------------------------------------------------
def test_G1_a_game_replays_exactly_from_its_actions():
    rng = random.Random(11)
    g = game(players=3)
    final = random_playout(g.new_initial_state(), rng)[-1]
    replay = g.new_state_from_actions(final.history())
    assert replay.position() == final.position()
    assert replay.returns() == final.returns()


def test_G2_illegal_actions_leave_the_state_unchanged():
    state = choose("coins", "0/0,0/0")
    before = state.position()
    for action in (2, -1, 7):
        with pytest.raises(IllegalActionError) as err:
            state.apply_action(action)
        assert err.value.rule == "G-2"
    assert state.position() == before
    finished = choose("coins,ruby", "0/0,14/0")  # the stop's one crate tips player 1
    play(finished, "stop")
    with pytest.raises(IllegalActionError):
        finished.apply_action(DRAW)


def test_G3_every_player_sees_the_same_table_and_no_pile_order():
    state = choose("coins,ruby", "3/1,2/0,4/0", discards="1,0,2,0,0,0,0")
    views = [state.view(p) for p in (None, 0, 1, 2)]
    for view in views:
        view.pop("player")
    assert all(view == views[0] for view in views)
    view = views[0]
    assert view["unseen"] == {"coins": 5, "ruby": 6, "map": 5, "compass": 7, "sword": 7,
                              "hook": 7, "spyglass": 7}
    assert [p["balance"] for p in view["planks"]] == [9, 13, 11]  # 15 - crates - 3 * step
    world = state.sample_world(1, random.Random(0))
    assert world.view(1) == state.view(1) and world.position() == state.position()


def test_G4_returns_are_zero_sum_for_two_players_and_general_sum_for_more():
    assert game().get_type().utility == Utility.ZERO_SUM
    assert game().utility_sum() == 0.0
    assert game(players=3).get_type().utility == Utility.GENERAL_SUM
    assert game(players=3).utility_sum() is None
    rng = random.Random(3)
    for _ in range(30):
        final = random_playout(game().new_initial_state(), rng)[-1]
        assert sum(final.returns()) == 0 and sorted(final.returns()) == [-1.0, 1.0]


def test_turn_limit_ends_the_game_with_no_loser():
    """max_turns (a project parameter, not a ruling) stops a game of endless 0-crate stops."""
    state = game(max_turns=3).new_initial_state()
    for card in ("coins", "ruby", "map"):
        play(state, "draw", card, "stop")
    assert state.is_terminal() and state.end == "turn-limit"
    assert state.returns() == [0.0, 0.0] and state.winners() == [] and state.losers() == []


def test_G5_at_the_end_there_is_nothing_left_to_turn_up():
    """G-5: Stomp the Plank hides only the order of the draw pile, cards never drawn, which
    stay unknown at the end; every view is the same table before and after it."""
    state = choose("coins,ruby", "0/0,14/0")
    play(state, "stop")  # the stop's one crate tips player 1
    assert state.is_terminal()
    views = [state.view(p) for p in (None, 0, 1)]
    for view in views:
        view.pop("player")
    assert views[0] == views[1] == views[2]
    assert "order" not in str(views[0]) and views[0]["draw_pile"] == sum(state.pile_counts())
