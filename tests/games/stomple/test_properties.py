"""Property tests over random playouts: positions round-trip, games replay from their actions,
and the engine agrees with a plain reading of the rulings written here from the position text."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour

from .helpers import random_playout

MARBLES = "wyrbgkc"


def neighbours(hole: int) -> set[int]:
    """S5 written out: the holes one step away in any of the eight directions."""
    row, col = divmod(hole, 7)
    return {
        r * 7 + c
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if 0 <= r < 7 and 0 <= c < 7 and (r, c) != (row, col)
    }


def on_edge(hole: int) -> bool:
    row, col = divmod(hole, 7)
    return row in (0, 6) or col in (0, 6)


def reference_legal(text: str) -> list[int]:
    """The holes the player to move may stomp, by S4, S6, S7 and S8 read from the text alone."""
    board, to_move, colours, status, string, *_ = text.split()
    cells = board.replace("/", "")
    p = int(to_move)
    marbles = {h for h, ch in enumerate(cells) if ch in MARBLES}
    if string != "-":
        return sorted(h for h in neighbours(cells.index(str(p))) if cells[h] == string)
    if status[p] == "f":
        return sorted(h for h in marbles if on_edge(h))
    here = cells.index(str(p))
    return sorted(h for h in marbles if h in neighbours(here) or cells[h] == colours[p])


def reference_points(board: str) -> int:
    """S10 written out: 3 for the round, 3 per cat's eye, 1 per solid marble."""
    return 3 + 3 * board.count("c") + sum(board.count(ch) for ch in "wyrbgk")


configs = st.fixed_dictionaries(
    {
        "players": st.integers(2, 6),
        "rounds": st.sampled_from([1, 1, 0]),
        "target": st.integers(3, 12),
    }
)


@settings(max_examples=30, deadline=None)
@given(config=configs, seed=st.integers(0, 2**32 - 1))
def test_s4_to_s10_random_playouts_agree_with_the_rulings_read_from_the_position(config, seed):
    game = parlour.load_game("stomple", **config)
    previous = None
    for state in random_playout(game.new_initial_state(), random.Random(seed)):
        text = state.position()
        copy = game.state_from_position(text)
        assert copy.position() == text
        assert copy.current_player() == state.current_player()
        assert copy.returns() == state.returns()
        if state.is_player_node():
            assert state.legal_actions() == reference_legal(text)
        if previous is not None and previous.is_player_node():
            before = previous.position().split()[0].replace("/", "")
            hole = state.history()[-1]
            after_stomp = before[:hole] + "." + before[hole + 1:]
            gained = [b - a for a, b in zip(previous.scores(), state.scores(), strict=True)]
            if any(gained):  # S10: the round ended with this stomp
                assert sorted(gained)[-1] == reference_points(after_stomp)
                assert sum(1 for g in gained if g) == 1
            elif not state.is_terminal():
                board = text.split()[0].replace("/", "")
                assert sum(board.count(ch) for ch in MARBLES) == sum(
                    before.count(ch) for ch in MARBLES
                ) - 1, "S8: each stomp takes exactly one marble off the board"
        previous = state


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_g1_any_prefix_of_a_game_replays_from_its_actions(players, seed, cut):
    game = parlour.load_game("stomple", players=players, target=6)
    *_, final = random_playout(game.new_initial_state(), random.Random(seed))
    history = final.history()
    prefix = history[: int(cut * len(history))]
    replayed = game.new_state_from_actions(prefix)
    assert replayed.history() == prefix
    assert game.new_state_from_actions(history).position() == final.position()
    assert replayed.position() == game.state_from_position(replayed.position()).position()


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_g3_every_view_shows_colour_round_and_scores_and_hides_nothing(players, seed):
    game = parlour.load_game("stomple", players=players, rounds=1)
    states = list(random_playout(game.new_initial_state(), random.Random(seed)))
    for state in random.Random(seed).sample(states, min(8, len(states))):
        spectator = state.view(None)
        for p in range(players):
            view = state.view(p)
            assert view["your_colour"] == view["colours"][p]
            assert view["round"] == state.round_number
            assert view["scores"] == [int(s) for s in state.scores()]
            # Perfect information: apart from who is looking, every view is the same.
            assert {k: v for k, v in view.items() if k not in ("player", "your_colour")} == {
                k: v for k, v in spectator.items() if k not in ("player", "your_colour")
            }
