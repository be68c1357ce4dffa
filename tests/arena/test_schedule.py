"""The tournament plan: who meets whom, in which seat, with which seeds."""

from __future__ import annotations

from collections import Counter

import pytest

from parlour.arena import schedule, tables


def test_two_player_tables_are_every_pairing() -> None:
    assert tables(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]


def test_with_more_seats_than_agents_agents_repeat_but_never_alone() -> None:
    line_ups = tables(["a", "b"], 3)
    assert line_ups == [("a", "a", "b"), ("a", "b", "b")]
    assert tables(["a", "b", "c", "d"], 3) == [
        ("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d"), ("b", "c", "d")
    ]


def test_seats_rotate_so_each_agent_sits_in_each_seat_equally() -> None:
    matches = schedule(["a", "b", "c"], 3, games=6, seed=0)
    assert len(matches) == 6
    for agent in "abc":
        assert Counter(m.seats.index(agent) for m in matches) == {0: 2, 1: 2, 2: 2}
    two = schedule(["x", "y"], 2, games=4, seed=0)
    assert [m.seats for m in two] == [("x", "y"), ("y", "x")] * 2


def test_seeds_are_fixed_by_the_master_seed_and_all_different() -> None:
    first = schedule(["a", "b", "c"], 2, games=10, seed=42)
    assert first == schedule(["a", "b", "c"], 2, games=10, seed=42)
    other = schedule(["a", "b", "c"], 2, games=10, seed=43)
    assert [m.chance_seed for m in first] != [m.chance_seed for m in other]
    seeds = [m.chance_seed for m in first] + [s for m in first for s in m.agent_seeds]
    assert len(set(seeds)) == len(seeds)
    assert [m.index for m in first] == list(range(30))


@pytest.mark.parametrize(
    ("agents", "players", "games"),
    [(["a"], 2, 1), (["a", "a"], 2, 1), (["a", "b"], 1, 1), (["a", "b"], 2, 0)],
)
def test_impossible_tournaments_are_refused(agents, players, games) -> None:
    with pytest.raises(ValueError):
        schedule(agents, players, games, seed=0)
