"""Who meets whom in a tournament round: round robins by Berger tables, Swiss by the Dutch
system's basics, and tables of three to six players for the games that seat them.

Pure functions of the players (ids, in seed order: the best-rated first) and the rounds
played so far, so that any server process pairs a round the same way and the tests can check
them against published tables and hand-worked examples.

- **Round robin** (two players): FIDE's Berger tables (Handbook C.05, Annex 1). Player ``n`` is
  fixed; in round ``r`` the player ``p`` with ``2p = r + 1 (mod n - 1)`` meets them (``p``
  white in odd rounds), and board ``k`` pairs ``p + k`` (white) with ``p - k``. An odd count
  adds a dummy: whoever meets it has the round off (a bye).
- **Swiss** (two players, the Dutch system's basics, FIDE C.04.3 simplified): players sorted by
  points, then seed; in each score group the top half meets the bottom half in order
  (``S1[i]`` against ``S2[i]``); a player left over floats down to the next group; nobody meets
  the same opponent twice, and two players who both *must* have the same colour (two more of
  the other, or the same colour twice running) do not meet. When no pairing keeps these, the
  colour rule goes first, then the no-repeat rule (four players in a four-round Swiss must meet
  someone again), and then the opponents met least come first. The bye goes to the
  lowest-ranked player of the lowest group who has had none.
- **Colours** (who sits first): the player who has had fewer firsts gets it; then the one who
  did not have it last round; then the higher-ranked player gets what they are due.
- **Tables of k players**: players in order (standings for Swiss, a rotation for round robins)
  seated ``k`` to a table, each table filled with whoever has met its players least; the
  ``n mod k`` left over have the round off, those with fewest byes first; inside a table the
  player who has sat first least sits first.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

SEARCH_BUDGET = 200_000
"""Steps of the Swiss pairing's backtracking per rule set before it relaxes a rule."""


@dataclass(frozen=True)
class Game:
    """One table of a round: the players in seat order and, once it ended, each one's points
    (1 a win, 0.5 a draw, 0 a loss; with more players the share of the others they beat)."""

    players: tuple[int, ...]
    points: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Round:
    games: tuple[Game, ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pairing:
    """A round to play: each table's players in seat order, and who has the round off."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


@dataclass
class _Record:
    """What the pairing rules need to know of one player's past rounds."""

    points: float = 0.0
    firsts: int = 0
    seconds: int = 0
    colours: list[int] = field(default_factory=list)  # 0 first, 1 second (two-player games)
    seats: Counter[int] = field(default_factory=Counter)
    met: Counter[int] = field(default_factory=Counter)
    byes: int = 0


def _records(players: Sequence[int], rounds: Sequence[Round], bye_points: float
             ) -> dict[int, _Record]:
    records = {p: _Record() for p in players}
    for played in rounds:
        for bye in played.byes:
            if bye in records:
                records[bye].byes += 1
                records[bye].points += bye_points
        for game in played.games:
            for seat, p in enumerate(game.players):
                if p not in records:
                    continue
                record = records[p]
                record.seats[seat] += 1
                if len(game.players) == 2:
                    record.colours.append(seat)
                    record.firsts += seat == 0
                    record.seconds += seat == 1
                record.met.update(o for o in game.players if o != p)
                if game.points is not None:
                    record.points += game.points[seat]
    return records


# -- round robin ----------------------------------------------------------------------------------
def berger_round(n: int, r: int) -> list[tuple[int, int]]:
    """Round ``r`` (from 1) of the Berger table for ``n`` players (even), numbered from 1:
    the boards in order, each as (first, second).

    >>> berger_round(6, 2)
    [(6, 4), (5, 3), (1, 2)]
    """
    if n < 2 or n % 2:
        raise ValueError("a Berger table has an even number of players")
    if not 1 <= r <= n - 1:
        raise ValueError(f"a round robin of {n} has rounds 1 to {n - 1}")
    m = n - 1

    def wrap(x: int) -> int:
        return (x - 1) % m + 1

    p = (r + 1) // 2 if r % 2 else (r + n) // 2
    boards = [(p, n) if r % 2 else (n, p)]
    boards += [(wrap(p + k), wrap(p - k)) for k in range(1, n // 2)]
    return boards


def round_robin_rounds(count: int, players_per_table: int = 2) -> int:
    """The rounds a full round robin of ``count`` players takes (two players: everyone meets
    everyone once; more: until each could have met all the others)."""
    if players_per_table == 2:
        return count - 1 if count % 2 == 0 else count
    return -(-(count - 1) // (players_per_table - 1))


def round_robin(players: Sequence[int], r: int, rounds: Sequence[Round] = (),
                players_per_table: int = 2) -> Pairing:
    """Round ``r`` (from 1) of a round robin of ``players`` (in seed order)."""
    if players_per_table != 2:
        order = list(players)
        shift = (r - 1) % len(order)
        return _tables(order[shift:] + order[:shift], _records(players, rounds, 0.0),
                       players_per_table)
    ids = list(players)
    n = len(ids) + len(ids) % 2
    tables, byes = [], []
    for a, b in berger_round(n, r):
        if max(a, b) > len(ids):
            byes.append(ids[min(a, b) - 1])
        else:
            tables.append((ids[a - 1], ids[b - 1]))
    return Pairing(tuple(tables), tuple(byes))


# -- Swiss ----------------------------------------------------------------------------------------
def _due(record: _Record) -> tuple[int, int]:
    """The seat a player is due (0 first, 1 second, -1 none) and how strongly: 2 absolute (two
    more of the other, or the same twice running), 1 a preference."""
    diff = record.firsts - record.seconds
    if diff >= 2 or record.colours[-2:] == [0, 0]:
        return 1, 2
    if diff <= -2 or record.colours[-2:] == [1, 1]:
        return 0, 2
    if diff:
        return (1 if diff > 0 else 0), 1
    if record.colours:
        return 1 - record.colours[-1], 1
    return -1, 0


def _seat_pair(a: int, b: int, records: dict[int, _Record], rank: dict[int, int],
               board: int) -> tuple[int, int]:
    """Who of ``a`` and ``b`` (``a`` ranked higher) sits first."""
    (due_a, strength_a), (due_b, strength_b) = _due(records[a]), _due(records[b])
    if due_a == -1 and due_b == -1:  # the first round: alternate down the boards
        return (a, b) if board % 2 == 0 else (b, a)
    if due_a != due_b:
        if due_a == 0 or due_b == 1:
            return a, b
        return b, a
    # both are due the same seat: the stronger claim, then the higher-ranked, gets it
    winner, loser = (b, a) if strength_b > strength_a else (a, b)
    return (winner, loser) if due_a == 0 else (loser, winner)


def _clash(a: _Record, b: _Record) -> bool:
    due_a, due_b = _due(a), _due(b)
    return due_a[1] == 2 and due_b[1] == 2 and due_a[0] == due_b[0]


def _candidates(p: int, rest: list[int], points: dict[int, float]) -> list[int]:
    """``p``'s opponents in the Dutch order: in their score group, the one half a group down
    first (top half against bottom half), then further down, then up the top half; then the
    lower groups in order (``p`` floats down)."""
    group = [q for q in rest if points[q] == points[p]]
    lower = [q for q in rest if points[q] != points[p]]
    half = (len(group) + 1) // 2  # p is the group's first; it has len(group) + 1 players
    return group[half - 1:] + group[:half - 1][::-1] + lower


def _pair_all(order: list[int], records: dict[int, _Record], repeats: bool, colours: bool
              ) -> list[tuple[int, int]] | None:
    points = {p: records[p].points for p in order}
    steps = 0

    def solve(rest: list[int]) -> list[tuple[int, int]] | None:
        nonlocal steps
        if not rest:
            return []
        p, others = rest[0], rest[1:]
        candidates = _candidates(p, others, points)
        if repeats:  # still the fewest meetings first
            candidates.sort(key=lambda q: records[p].met[q])
        for q in candidates:
            steps += 1
            if steps > SEARCH_BUDGET:
                return None
            if not repeats and records[p].met[q]:
                continue
            if not colours and _clash(records[p], records[q]):
                continue
            found = solve([x for x in others if x != q])
            if found is not None:
                return [(p, q), *found]
        return None

    return solve(order)


def swiss(players: Sequence[int], rounds: Sequence[Round], players_per_table: int = 2,
          bye_points: float = 1.0) -> Pairing:
    """The next round of a Swiss of ``players`` (in seed order) after ``rounds``."""
    records = _records(players, rounds, bye_points)
    rank = {p: i for i, p in enumerate(players)}
    order = sorted(players, key=lambda p: (-records[p].points, rank[p]))
    if players_per_table != 2:
        return _tables(order, records, players_per_table)
    byes: list[int] = []
    if len(order) % 2:
        # the lowest-ranked player of the lowest group who has had no bye (anyone, if all have)
        fewest = min(records[p].byes for p in order)
        bye = next(p for p in reversed(order) if records[p].byes == fewest)
        byes = [bye]
        order = [p for p in order if p != bye]
    for repeats, colours in ((False, False), (False, True), (True, True)):
        pairs = _pair_all(order, records, repeats, colours)
        if pairs is not None:
            break
    assert pairs is not None  # with both rules relaxed the first candidates always pair
    pairs.sort(key=lambda pair: (-max(records[pair[0]].points, records[pair[1]].points),
                                 min(rank[pair[0]], rank[pair[1]])))
    tables = tuple(_seat_pair(a, b, records, rank, board) if rank[a] < rank[b]
                   else _seat_pair(b, a, records, rank, board)
                   for board, (a, b) in enumerate(pairs))
    return Pairing(tables, tuple(byes))


# -- tables of three to six -----------------------------------------------------------------------
def _tables(order: list[int], records: dict[int, _Record], k: int) -> Pairing:
    if k < 2:
        raise ValueError("a table seats at least two players")
    spare = len(order) % k
    byes: list[int] = []
    if spare:
        by_byes = sorted(reversed(order), key=lambda p: records[p].byes)  # stable: lowest first
        byes = by_byes[:spare]
    left = [p for p in order if p not in byes]
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < k:
            best = min(left, key=lambda q: sum(records[q].met[t] for t in table))
            left.remove(best)
            table.append(best)
        tables.append(_seat_table(table, records))
    return Pairing(tuple(tables), tuple(byes))


def _seat_table(table: list[int], records: dict[int, _Record]) -> tuple[int, ...]:
    """Seat order for one table: the seats each has sat in least, earliest seats first."""
    best: tuple[int, ...] = tuple(table)
    best_cost = None
    for order in itertools.permutations(table):
        cost = sorted((records[p].seats[s] for s, p in enumerate(order)), reverse=True)
        firsts = records[order[0]].seats[0]
        key = (cost, firsts)
        if best_cost is None or key < best_cost:
            best, best_cost = order, key
    return best
