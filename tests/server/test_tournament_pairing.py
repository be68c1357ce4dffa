"""Tournament pairing and standings, checked against FIDE's published Berger tables and Swiss
rounds of four and eight players worked by hand with the Dutch rules."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from parlour.server.tournaments.pairing import (
    Game,
    Round,
    berger_round,
    round_robin,
    round_robin_rounds,
    swiss,
)
from parlour.server.tournaments.standings import ROUND_ROBIN, SWISS, standings

# FIDE Handbook C.05, Annex 1 (Berger tables): each round's boards, first player named first.
BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
BERGER_8 = [
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]
BERGER_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


@pytest.mark.parametrize("n, table", [(4, BERGER_4), (6, BERGER_6), (8, BERGER_8)])
def test_round_robin_follows_the_published_berger_table(n, table):
    assert [berger_round(n, r) for r in range(1, n)] == table


@pytest.mark.parametrize("n", [4, 6, 8, 10, 16])
def test_a_berger_table_meets_everyone_once_with_colours_balanced(n):
    met = Counter()
    firsts = Counter()
    for r in range(1, n):
        boards = berger_round(n, r)
        assert sorted(p for b in boards for p in b) == list(range(1, n + 1))
        met.update(frozenset(b) for b in boards)
        firsts.update(b[0] for b in boards)
    assert set(met.values()) == {1} and len(met) == n * (n - 1) // 2
    assert all(abs(firsts[p] - (n - 1 - firsts[p])) <= 1 for p in range(1, n + 1))


def test_an_odd_round_robin_gives_each_player_one_bye():
    ids = [11, 12, 13, 14, 15]
    assert round_robin_rounds(5) == 5
    byes = Counter()
    met = Counter()
    for r in range(1, 6):
        pairing = round_robin(ids, r)
        assert len(pairing.byes) == 1 and len(pairing.tables) == 2
        byes.update(pairing.byes)
        met.update(frozenset(t) for t in pairing.tables)
    assert byes == Counter(ids)
    assert len(met) == 10 and set(met.values()) == {1}
    # the dummy is player 6 of the six-player table: who meets it sits out
    assert round_robin(ids, 1).byes == (11,) and round_robin(ids, 2).byes == (14,)


def _round(tables, winners, draws=()):
    """A round's games from its tables, the first player of each listed winning unless the
    table's winner is named."""
    games = []
    for table in tables:
        if frozenset(table) in {frozenset(d) for d in draws}:
            points = (0.5, 0.5)
        else:
            points = tuple(1.0 if p in winners else 0.0 for p in table)
        games.append(Game(tuple(table), points))
    return Round(tuple(games))


def test_a_swiss_of_eight_worked_by_hand():
    players = list(range(1, 9))
    # round 1: top half against bottom half, colours alternating down the boards
    r1 = swiss(players, [])
    assert r1.tables == ((1, 5), (6, 2), (3, 7), (8, 4)) and r1.byes == ()
    played = [_round(r1.tables, winners={1, 2, 3, 4})]
    # round 2: the 1-point group {1,2,3,4} pairs 1-3, 2-4; the zeroes 5-7, 6-8. 1 and 3 both
    # had white: 1, higher ranked, gets the black it is due; 2 and 4 both had black: 2 white.
    r2 = swiss(players, played)
    assert r2.tables == ((3, 1), (2, 4), (5, 7), (8, 6))
    played.append(_round(r2.tables, winners={1, 2, 5, 6}))
    # round 3: {1,2} on 2; {3,4,5,6} on 1 pair 3-5, 4-6; {7,8} on 0. 3 had white twice: it
    # must have black; 4 had black twice: it must have white.
    r3 = swiss(players, played)
    assert r3.tables == ((1, 2), (5, 3), (4, 6), (7, 8))


def test_a_swiss_of_four_over_four_rounds_worked_by_hand():
    players = [1, 2, 3, 4]
    r1 = swiss(players, [])
    assert r1.tables == ((1, 3), (4, 2))
    played = [_round(r1.tables, winners={1, 2})]
    r2 = swiss(players, played)
    assert r2.tables == ((2, 1), (3, 4))
    played.append(_round(r2.tables, winners={1, 3}))
    # 1 (2 points) has met 3 and 2: it floats down to 4; 2 and 3 meet; 1 and 4 both are due
    # white (after W, B) and 1 is higher ranked; 2 and 3 both due black: 2 gets it
    r3 = swiss(players, played)
    assert r3.tables == ((1, 4), (3, 2))
    played.append(_round(r3.tables, winners={1, 3}))
    # round 4: everyone has met everyone, so the no-repeat rule gives way; 1 (3 points) meets
    # 3 (2): 3 had white twice running and must have black; 4 had black twice: white
    r4 = swiss(players, played)
    assert r4.tables == ((1, 3), (4, 2))
    played.append(_round(r4.tables, winners={4}, draws=[(1, 3)]))
    # standings with Buchholz, worked by hand: 1 3.5 (opponents 3, 2, 4, 3: 2.5 + 1 + 1 +
    # 2.5 = 7), 3 2.5 (3.5 + 1 + 1 + 3.5 = 9), 2 and 4 on 1 point with Buchholz 8 each and a
    # win each: the seed decides
    table = standings(players, played, SWISS)
    assert [(s.player, s.points, s.tiebreak) for s in table] == [
        (1, 3.5, 7.0), (3, 2.5, 9.0), (2, 1.0, 8.0), (4, 1.0, 8.0)]
    assert (table[0].wins, table[0].draws, table[0].losses) == (3, 1, 0)


def test_swiss_never_repeats_a_pairing_while_another_exists():
    players = list(range(1, 11))
    played: list[Round] = []
    for r in range(6):
        pairing = swiss(players, played)
        # the higher-ranked wins every game
        played.append(_round(pairing.tables, winners={min(t) for t in pairing.tables}))
        met = Counter(frozenset(g.players) for rd in played for g in rd.games)
        assert set(met.values()) == {1}, r
        firsts = Counter(g.players[0] for rd in played for g in rd.games)
        for p in players:  # colours never two apart after an even number of rounds
            diff = 2 * firsts[p] - (r + 1)
            assert abs(diff) <= 2


def test_a_swiss_bye_goes_to_the_lowest_ranked_of_the_lowest_group_once():
    players = [1, 2, 3, 4, 5]
    played: list[Round] = []
    byes = []
    for _ in range(5):
        pairing = swiss(players, played)
        assert len(pairing.byes) == 1 and len(pairing.tables) == 2
        byes.append(pairing.byes[0])
        played.append(Round(_round(pairing.tables, winners={min(t) for t in pairing.tables})
                            .games, pairing.byes))
    assert byes[0] == 5  # lowest ranked in the (only) group
    assert sorted(byes) == players  # one bye each over five rounds
    # a bye scores a win in a Swiss
    assert standings(players, played[:1], SWISS)[0].points == 1.0


def test_sonneborn_berger_worked_by_hand():
    players = [1, 2, 3, 4]
    rounds = [
        Round((Game((1, 4), (1.0, 0.0)), Game((2, 3), (1.0, 0.0)))),
        Round((Game((4, 3), (1.0, 0.0)), Game((1, 2), (0.5, 0.5)))),
        Round((Game((2, 4), (0.0, 1.0)), Game((3, 1), (1.0, 0.0)))),
    ]
    # 4: 2 points (beat 3 and 2: 1 + 1.5 = 2.5); 1 and 2: 1.5 each, 1 beat 4 (2) and drew 2
    # (0.75): 2.75, 2 beat 3 (1) and drew 1 (0.75): 1.75; 3: 1 point, beat 1: 1.5
    table = standings(players, rounds, ROUND_ROBIN)
    assert [(s.player, s.points, s.tiebreak) for s in table] == [
        (4, 2.0, 2.5), (1, 1.5, 2.75), (2, 1.5, 1.75), (3, 1.0, 1.5)]


def test_round_robin_byes_score_nothing():
    rounds = [Round((Game((1, 2), (1.0, 0.0)),), byes=(3,))]
    assert {s.player: s.points for s in standings([1, 2, 3], rounds, ROUND_ROBIN)} == {
        1: 1.0, 2: 0.0, 3: 0.0}


@pytest.mark.parametrize("k, n", [(3, 9), (4, 8), (3, 7), (6, 13)])
def test_tables_of_more_players_have_the_right_size_and_fair_byes(k, n):
    players = list(range(1, n + 1))
    played: list[Round] = []
    for r in range(1, 7):
        pairing = swiss(players, played, players_per_table=k) if r % 2 else round_robin(
            players, r, played, players_per_table=k)
        assert all(len(t) == k for t in pairing.tables)
        assert len(pairing.byes) == n % k
        seated = [p for t in pairing.tables for p in t] + list(pairing.byes)
        assert sorted(seated) == players
        games = tuple(Game(t, tuple((k - 1 - i) / (k - 1) for i in range(k)))
                      for t in pairing.tables)
        played.append(Round(games, pairing.byes))
        byes = Counter(b for rd in played for b in rd.byes)
        assert max(byes.values(), default=0) - min(
            (byes[p] for p in players), default=0) <= 1
    # seats rotate: in six rounds (at most six games, a fair share of firsts 2 or fewer)
    # nobody sits first more than three times
    firsts = Counter(g.players[0] for rd in played for g in rd.games)
    assert max(firsts.values()) <= 3


def test_tables_of_three_meet_new_players_first():
    players = list(range(1, 10))
    played: list[Round] = []
    for r in range(1, 5):
        pairing = round_robin(players, r, played, players_per_table=3)
        played.append(Round(tuple(Game(t, (1.0, 0.5, 0.0)) for t in pairing.tables)))
    met = Counter(frozenset(pair) for rd in played for g in rd.games
                  for pair in itertools.combinations(g.players, 2))
    # 4 rounds x 3 tables x 3 pairs = 36 meetings among 36 possible pairs: most are new
    assert len(met) >= 27
