"""How long a Swiss round takes to pair (``parlour.server.tournaments.pairing.swiss``), by
players and round, with random results (45% first seat wins, 45% second, 10% drawn); and, as
the reference in the same run, a round robin's Berger round for the same players.

    python bench/tournament_pairing.py [--rounds 30] [--seed 1]

Prints the median and slowest pairing per player count. The Swiss runs off the server's
database thread (``asyncio.to_thread``), so a slow pairing delays only its own tournament.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from parlour.server.tournaments.pairing import Game, Round, round_robin, swiss


def _results(tables: tuple[tuple[int, ...], ...], rng: random.Random) -> tuple[Game, ...]:
    games = []
    for table in tables:
        x = rng.random()
        points = (1.0, 0.0) if x < 0.45 else (0.0, 1.0) if x < 0.9 else (0.5, 0.5)
        games.append(Game(table, points))
    return tuple(games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'players':>7} {'swiss median':>13} {'swiss slowest':>14} {'berger median':>14}"
          f" {'repeats':>8}")
    for n in (4, 8, 16, 32, 63, 64):
        rng = random.Random(args.seed)
        players = list(range(n))
        played: list[Round] = []
        times = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            pairing = swiss(players, played)
            times.append(time.perf_counter() - start)
            played.append(Round(_results(pairing.tables, rng), pairing.byes))
        met = [frozenset(g.players) for r in played for g in r.games]
        repeats = len(met) - len(set(met))
        berger = []
        for r in range(1, n - (1 - n % 2) + 1):
            start = time.perf_counter()
            round_robin(players, r)
            berger.append(time.perf_counter() - start)
        print(f"{n:>7} {statistics.median(times) * 1e3:>10.2f} ms {max(times) * 1e3:>11.2f} ms"
              f" {statistics.median(berger) * 1e3:>11.3f} ms {repeats:>8}")


if __name__ == "__main__":
    main()
