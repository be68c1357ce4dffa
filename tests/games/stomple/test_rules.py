"""Stomple's rules, one concept per test; each ruling test names its id (S1-S12, G-1..G-4)."""

from __future__ import annotations

import math
import random

import pytest

import parlour
from parlour import IllegalActionError, InvalidParameterError
from parlour.core import CHANCE_PLAYER, TERMINAL_PLAYER, Utility
from parlour.games.stomple import FORK_POSITION, HOLES, NAMES, OUTER, StompleState
from parlour.games.stomple.board import ADJACENT, CATS_EYE, KIND_NAMES

from .helpers import at, names, play, position, random_playout


def deal_and_draw(state: StompleState, rng: random.Random) -> StompleState:
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    return state


# -- S1: the board and the marbles ---------------------------------------------------------
def test_s1_board_is_7_by_7_named_like_chess():
    assert HOLES == 49 and len(NAMES) == 49
    assert NAMES[0] == "a7" and NAMES[6] == "g7" and NAMES[24] == "d4" and NAMES[48] == "g1"


def test_s1_layout_is_one_chance_event_per_hole_over_the_marbles_left():
    state = parlour.load_game("stomple").new_initial_state()
    assert state.current_player() == CHANCE_PLAYER
    assert state.chance_outcomes() == [(k, 1 / 7) for k in range(7)]
    for _ in range(7):  # the first seven holes all get white marbles
        state.apply_action(0)
    outcomes = dict(state.chance_outcomes())
    assert 0 not in outcomes, "all seven white marbles are placed"
    assert outcomes == {k: pytest.approx(7 / 42) for k in range(1, 7)}
    assert state.position().startswith("wwwwwww/???????")


def test_s1_every_layout_is_equally_likely_and_has_7_of_each_kind():
    """A uniform shuffle: each deal's probability is 7!^7 / 49!, whatever came out."""
    rng = random.Random(4)
    expected = 7 * math.lgamma(8) - math.lgamma(50)
    for _ in range(5):
        state = parlour.load_game("stomple").new_initial_state()
        log_p = 0.0
        for _ in range(HOLES):
            outcomes = state.chance_outcomes()
            action, prob = rng.choice(outcomes)
            log_p += math.log(prob)
            state.apply_action(action)
        assert log_p == pytest.approx(expected)
        cells = state.position().split()[0].replace("/", "")
        assert sorted(cells) == sorted("wyrbgkc" * 7)


# -- S2: players and the stomper draw --------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_s2_each_player_draws_a_distinct_stomper_colour(players):
    state = parlour.load_game("stomple", players=players).new_initial_state()
    for hole in range(HOLES):
        state.apply_action(hole % 7)
    drawn = []
    for _ in range(players):
        outcomes = state.chance_outcomes()
        free = [c for c in range(6) if c not in drawn]
        assert [a for a, _ in outcomes] == free, "no cat's eye stomper, no colour twice"
        assert all(p == pytest.approx(1 / len(free)) for _, p in outcomes)
        drawn.append(free[-1])
        state.apply_action(free[-1])
    assert state.stomper_colours() == drawn
    assert state.current_player() == 0


@pytest.mark.parametrize("players", [1, 7, 0])
def test_s2_two_to_six_players(players):
    with pytest.raises(InvalidParameterError, match="S2"):
        parlour.load_game("stomple", players=players)


def test_s2_drawing_a_colour_already_taken_is_refused():
    state = parlour.load_game("stomple").new_initial_state()
    for hole in range(HOLES):
        state.apply_action(hole % 7)
    state.apply_action(2)
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(2)
    assert err.value.rule == "G-1"


# -- S3 / S4: the outer row and the first turn -----------------------------------------------
def test_s3_outer_row_is_the_24_edge_holes():
    outer = {NAMES[h] for h in range(HOLES) if (OUTER >> h) & 1}
    assert len(outer) == 24
    assert outer == {n for n in NAMES if n[0] in "ag" or n[1] in "17"}


def test_s4_first_turn_stomps_any_outer_marble_of_any_colour():
    state = at(position({"a1": "w", "d4": "r", "g7": "c", "d7": "y"}, status="ff"))
    assert names(state) == ["d7", "g7", "a1"], "outer marbles of any colour, red d4 is inside"
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(state.string_to_action("d4"))
    assert err.value.rule == "S4"
    play(state, "d7")
    assert state.current_player() == 1 and names(state) == ["g7", "a1"]


def test_s4_s6_after_the_first_turn_a_player_stomps_next_door_or_hops():
    state = at(position({"a1": "w", "d4": "r", "g7": "c", "d7": "y"}, status="ff"))
    play(state, "d7", "a1")
    # Player 0 (red) on d7: nothing next door, but the red marble on d4 is a hop away.
    assert state.current_player() == 0 and names(state) == ["d4"]


def test_s4_s9_first_turn_with_no_outer_marble_left_knocks_the_player_out():
    # Players 1 and 2 still have a first turn to take, but the outer row is bare.
    text = position({"d4": "0", "d5": "y", "c3": "g"}, colours="rby", status="sff")
    state = at(text, rounds=1)
    play(state, "d5")
    assert state.is_terminal()
    assert state.statuses() == [1, 2, 2]
    assert state.scores() == [3.0 + 1, 0.0, 0.0], "3 for the round, 1 for the green marble left"


# -- S5: adjacency -----------------------------------------------------------------------------
def test_s5_adjacent_means_the_eight_holes_around_diagonals_included():
    assert [ADJACENT[h].bit_count() for h in (0, 3, 24)] == [3, 5, 8]
    ring = ("c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5")
    cells = {n: "wwwyyygg"[i] for i, n in enumerate(ring)} | {"f6": "k", "b2": "k"}
    state = at(position({**cells, "d4": "0", "a7": "1"}))
    assert sorted(names(state)) == sorted(["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"])


# -- S6: hops ----------------------------------------------------------------------------------
def test_s6_hop_to_a_marble_of_ones_own_colour_anywhere():
    state = at(position({"a1": "0", "g7": "r", "g6": "b", "b1": "y", "d4": "1"}))
    assert names(state) == ["g7", "b1"], "the red marble far away, the yellow one next door"
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(state.string_to_action("g6"))
    assert err.value.rule == "S6" and "blue" in err.value.reason


def test_s6_s7_a_hop_into_a_string_keeps_stomping_it():
    state = at(position({"a1": "0", "g7": "r", "f6": "r", "e5": "r", "d4": "1", "b4": "b"}))
    play(state, "g7")
    assert state.current_player() == 0 and state.string_kind == 2
    assert names(state) == ["f6"]
    play(state, "f6")
    assert names(state) == ["e5"]
    play(state, "e5")
    assert state.current_player() == 1 and state.string_kind is None


# -- S7: strings -------------------------------------------------------------------------------
def fork() -> StompleState:
    """Player 0 (red) on d4 next to a yellow on d5, which touches yellows on c6 and e6."""
    return at(position({"d4": "0", "d5": "y", "c6": "y", "e6": "y", "a1": "1", "g1": "b"}))


def test_s7_a_string_that_forks_lets_the_player_choose_one_branch():
    state = play(fork(), "d5")
    assert state.current_player() == 0 and names(state) == ["c6", "e6"]
    assert state.position().split()[4] == "y", "the position says a yellow string is under way"
    right = play(state.clone(), "e6")
    assert right.current_player() == 1, "c6 is not next to e6: the string ends"
    assert right.marble_at(right.string_to_action("c6")) == 1, "the other branch stays"
    left = play(state.clone(), "c6")
    assert left.current_player() == 1 and left.marble_at(left.string_to_action("e6")) == 1


def test_s7_the_documented_fork_position_forks():
    """The round-in-progress example of docs/rules/stomple.md (also played by conformance)."""
    state = parlour.load_game("stomple", position=FORK_POSITION).new_initial_state()
    assert state.game.num_players() == 3 and state.statuses() == [1, 1, 0]
    play(state, "d5")
    assert names(state) == ["c6", "e6"] and state.current_player() == 0


def test_s7_each_stomp_of_a_string_is_a_separate_action_of_the_same_player():
    state = fork()
    state.apply_action(state.string_to_action("d5"))
    state.apply_action(state.string_to_action("c6"))
    assert [NAMES[a] for a in state.history()] == ["d5", "c6"]
    assert state.string_to_actions("d5 e6") == state.string_to_actions("d5-e6") == [
        state.string_to_action("d5"), state.string_to_action("e6")
    ]


def test_s7_during_a_string_no_other_colour_and_no_hop():
    state = at(position({"d4": "0", "d5": "y", "c6": "y", "d6": "w", "a7": "r", "g1": "1",
                         "f1": "b"}))
    play(state, "d5")
    assert names(state) == ["c6"]
    for hole, words in (("d6", "white marble"), ("a7", "yellow string")):
        with pytest.raises(IllegalActionError) as err:
            state.apply_action(state.string_to_action(hole))
        assert err.value.rule == "S7" and words in err.value.reason


def test_s7_the_first_turn_stomp_starts_a_string_too():
    state = at(position({"a1": "g", "b2": "g", "c3": "g", "g7": "w"}, status="ff"))
    play(state, "a1")
    assert state.current_player() == 0 and names(state) == ["b2"]
    play(state, "b2", "c3")
    assert state.current_player() == 1


def test_s7_cats_eyes_make_a_string_and_s10_score_three_each():
    cells = {"a1": "0", "b2": "c", "c3": "c", "d4": "c", "g4": "1",
             "g7": "c", "a7": "c", "g1": "w", "d7": "y", "a4": "k"}
    state = at(position(cells), rounds=1)
    play(state, "b2")
    assert state.string_kind == CATS_EYE and names(state) == ["c3"]
    play(state, "c3", "d4")
    # Player 1 on g4 has nothing next door and no blue marble: knocked out (S9); round over.
    assert state.is_terminal()
    assert state.scores() == [3.0 + 3 * 2 + 3, 0.0]
    assert state.returns() == [1.0, -1.0]


# -- S8: stompers hold holes -----------------------------------------------------------------
def test_s8_a_stomp_moves_the_stomper_and_takes_the_marble_away():
    state = fork()
    play(state, "d5")
    d4, d5 = state.string_to_action("d4"), state.string_to_action("d5")
    assert state.stomper_holes()[0] == d5 and state.marble_at(d5) is None
    assert state.marble_at(d4) is None and state.position().split()[0].split("/")[3][3] == "."


def test_s8_holes_with_a_stomper_or_no_marble_cannot_be_stomped():
    state = at(position({"d4": "0", "d5": "1", "c3": "w"}))
    for hole, words in (("d5", "player 1's stomper"), ("e4", "empty")):
        with pytest.raises(IllegalActionError) as err:
            state.apply_action(state.string_to_action(hole))
        assert err.value.rule == "S8" and words in err.value.reason


def test_s8_a_string_cannot_run_through_a_stomper():
    # The yellows on c6 and e6 would continue the string from d5, but player 1 stands on e6.
    state = at(position({"d4": "0", "d5": "y", "c6": "y", "e6": "1", "g1": "b"}))
    play(state, "d5")
    assert names(state) == ["c6"]


# -- S9: knock-outs ----------------------------------------------------------------------------
def test_s9_a_player_who_cannot_stomp_at_the_start_of_a_turn_is_out():
    cells = {"d4": "0", "d5": "w", "c5": "k", "g4": "1", "a1": "2", "b1": "y"}
    state = at(position(cells, colours="rbg", status="sss"))
    play(state, "d5")
    # Player 1 (blue, g4) has no neighbour and no blue marble: out, stomper gone; player 2 moves.
    assert state.statuses() == [1, 2, 1]
    assert state.stomper_holes()[1] is None and state.current_player() == 2
    assert state.position().split()[0].split("/")[3] == "......."


def test_s9_a_player_with_a_hop_left_is_not_out():
    state = at(position({"d4": "0", "d5": "w", "g4": "1", "a7": "b"}))
    play(state, "d5")
    assert state.current_player() == 1 and names(state) == ["a7"]


def test_s9_knock_out_due_in_a_written_position_happens_when_it_is_read():
    cells = {"d4": "0", "d5": "w", "c3": "r", "g4": "1", "a1": "y"}
    text = position(cells, to_move=1, colours="rbg", status="ssf")
    state = at(text)
    assert state.statuses() == [1, 2, 0] and state.current_player() == 2


def test_s9_s10_knocked_out_while_another_still_has_a_first_turn_to_take():
    """Only one stomper is left, but player 2's first turn is still to come: play goes on."""
    cells = {"d4": "0", "d5": "w", "g4": "1", "a1": "y", "g7": "k", "b4": "r"}
    state = at(position(cells, colours="rbg", status="ssf"), rounds=1)
    play(state, "d5")
    assert state.statuses() == [1, 2, 0]
    assert not state.is_terminal() and state.current_player() == 2
    assert names(state) == ["g7", "a1"]
    play(state, "g7")
    assert state.current_player() == 0 and not state.is_terminal()


# -- S10: the end of a round -------------------------------------------------------------------
def test_s10_last_stomper_scores_3_plus_1_per_solid_plus_3_per_cats_eye():
    cells = {"d4": "0", "d5": "w", "g4": "1", "a1": "y", "a2": "y", "a7": "c", "b7": "g"}
    state = at(position(cells), rounds=1)
    assert state.round_points() == 3 + 1 + 1 + 1 + 3 + 1
    play(state, "d5")
    assert state.scores() == [3.0 + 3 + 3, 0.0]


def test_s10_the_round_does_not_end_in_the_middle_of_a_string():
    cells = {"d4": "0", "d5": "w", "d6": "w", "g4": "1"}
    state = at(position(cells), rounds=1)
    play(state, "d5")
    assert state.current_player() == 0 and not state.is_terminal()
    play(state, "d6")
    assert state.is_terminal() and state.scores() == [3.0, 0.0]


# -- S11: rounds to the target -----------------------------------------------------------------
@pytest.mark.parametrize(("players", "target"), [(2, 40), (3, 20), (4, 15), (5, 10), (6, 10)])
def test_s11_default_target_by_player_count(players, target):
    assert parlour.load_game("stomple", players=players).target == target


def test_s11_target_parameter():
    assert parlour.load_game("stomple", players=3, target=7).target == 7
    with pytest.raises(InvalidParameterError, match="S11"):
        parlour.load_game("stomple", target=0)


def test_s11_the_round_winner_starts_the_next_round_with_a_new_layout_and_draw():
    cells = {"d4": "0", "d5": "w", "g4": "1", "a1": "y"}
    text = position(cells, to_move=1, colours="rb", status="ss", scores="10,5", round=2)
    state = at(text)
    # Player 1 cannot stomp: out; player 0 wins round 2 with 3 + 2 solids.
    assert state.scores() == [15.0, 5.0]
    assert state.round_number == 3 and state.current_player() == CHANCE_PLAYER
    assert state.position() == "/".join(["???????"] * 7) + " 0 ?? ff - 15,5 3"
    deal_and_draw(state, random.Random(1))
    assert state.current_player() == 0 and state.statuses() == [0, 0]
    assert len(state.legal_actions()) == 24


def test_s11_seat_0_starts_round_1_then_the_winner_starts():
    rng = random.Random(12)
    starters, winners = [], []
    scores = [0.0, 0.0, 0.0]
    for state in random_playout(parlour.load_game("stomple", players=3).new_initial_state(), rng):
        if state.is_player_node() and state.statuses() == [0, 0, 0]:
            starters.append(state.current_player())  # nobody has stomped yet this round
        if state.scores() != scores:  # a round just ended: its winner is who scored
            gained = [p for p in range(3) if state.scores()[p] > scores[p]]
            assert len(gained) == 1
            winners.append(gained[0])
            scores = state.scores()
    assert len(starters) == len(winners) >= 2
    assert starters == [0, *winners[:-1]]


def test_s11_three_player_game_reaches_the_target_of_20():
    cells = {"d4": "0", "d5": "w", "g4": "1", "a1": "y", "a2": "y", "a7": "c"}
    text = position(cells, colours="rbg", status="ssx", scores="15,4,9", round=3)
    state = at(text)
    play(state, "d5")
    assert state.is_terminal()
    assert state.scores() == [15.0 + 3 + 2 + 3, 4.0, 9.0]
    assert state.returns() == [1.0, -1.0, -1.0]
    assert state.game.get_type().utility == Utility.GENERAL_SUM


def test_s11_random_three_player_game_plays_rounds_until_someone_has_20():
    rng = random.Random(2024)
    game = parlour.load_game("stomple", players=3)
    round_scores = []
    final = None
    for state in random_playout(game.new_initial_state(), rng):
        if state.is_chance_node() and state.position().startswith("?"):
            round_scores.append(state.scores())
        final = state
    assert final.is_terminal() and final.round_number == len(round_scores)
    assert all(max(s) < 20 for s in round_scores), "no round starts after the target is reached"
    assert max(final.scores()) >= 20
    winner = final.scores().index(max(final.scores()))
    assert final.returns() == [1.0 if p == winner else -1.0 for p in range(3)]


def test_s11_ties_share_the_win():
    """G-4: a finished game with two players level at the top gives both +1."""
    text = position({"d4": "0"}, colours="rbg", status="sxx", scores="22,22,0", round=4)
    state = at(text)
    assert state.is_terminal() and state.returns() == [1.0, 1.0, -1.0]


# -- S12: a single round -----------------------------------------------------------------------
def test_s12_rounds_1_ends_after_one_round_and_the_round_winner_wins():
    game = parlour.load_game("stomple", rounds=1)
    rng = random.Random(5)
    *_, final = random_playout(game.new_initial_state(), rng)
    assert final.round_number == 1 and final.is_terminal()
    winner = final.statuses().index(1)
    assert final.scores()[winner] >= 3 and max(final.scores()) < 40
    assert final.returns() == [1.0 if p == winner else -1.0 for p in range(2)]


def test_s12_rounds_takes_only_0_or_1():
    with pytest.raises(InvalidParameterError):
        parlour.load_game("stomple", rounds=2)


# -- G-2 / G-4 ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("hole", "rule"), [("g1", "S7"), ("d4", "S8"), ("e4", "S8")])
def test_g2_illegal_stomp_names_its_ruling_and_changes_nothing(hole, rule):
    state = play(fork(), "d5")
    before, history = state.position(), state.history()
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(state.string_to_action(hole))
    assert err.value.rule == rule
    assert state.position() == before and state.history() == history


def test_g4_two_player_stomple_is_zero_sum_and_more_players_general_sum():
    two = parlour.load_game("stomple")
    assert two.get_type().utility == Utility.ZERO_SUM and two.utility_sum() == 0.0
    four = parlour.load_game("stomple", players=4)
    assert four.get_type().utility == Utility.GENERAL_SUM and four.utility_sum() is None


def test_g4_returns_are_zero_until_the_end_and_terminal_player_after():
    state = fork()
    assert state.returns() == [0.0, 0.0]
    text = position({"d4": "0"}, status="sx", scores="41,3")
    final = at(text)
    assert final.current_player() == TERMINAL_PLAYER and final.returns() == [1.0, -1.0]


def test_kind_names_are_the_six_colours_then_cats_eye():
    assert KIND_NAMES == ("white", "yellow", "red", "blue", "green", "black", "cat's eye")
