"""Random whole-game Clobber playouts per second: parlour.batch, parlour's per-move API,
OpenSpiel's C++ (``pyspiel.evaluate_bots`` with uniform random bots) and OpenSpiel's Python loop.

All four are measured in the same run on the same machine, and the ratios printed, so that the
figures compare like with like::

    python bench/clobber_playouts.py            # 5x6 and 10x10, 2 s per engine and board
    python bench/clobber_playouts.py --seconds 5 --check

Targets (issue 9): parlour.batch at least 2x OpenSpiel's C++ on 5x6; the per-move API at least
a quarter of OpenSpiel's Python loop. ``--check`` exits with status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import pyspiel

import parlour
import parlour.batch

SIZES = ((5, 6), (10, 10))


def rates(engines: dict[str, Callable[[], int]], seconds: float, rounds: int = 5) -> dict:
    """Games per second of each engine. Each ``play`` plays some games and returns how many.

    The engines take turns in ``rounds`` short slices (after one warm-up call each), so that a
    change in the machine's load during the run weighs on all of them alike.
    """
    games = dict.fromkeys(engines, 0)
    spent = dict.fromkeys(engines, 0.0)
    for play in engines.values():
        play()
    for _ in range(rounds):
        for label, play in engines.items():
            start = time.perf_counter()
            while (elapsed := time.perf_counter() - start) < seconds / rounds:
                games[label] += play()
            spent[label] += elapsed
    return {label: games[label] / spent[label] for label in engines}


def batch_playouts(rows: int, columns: int, n: int) -> Callable[[], int]:
    game = parlour.load_game("clobber", rows=rows, columns=columns)
    seeds = iter(range(1 << 30))

    def play() -> int:
        parlour.batch.play_random(game, n, seed=next(seeds))
        return n

    return play


def random_loop(game: Any, n: int) -> Callable[[], int]:
    """Whole random games through a per-move API: the same loop for parlour and OpenSpiel."""
    rng = random.Random(0)

    def play() -> int:
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            state.returns()
        return n

    return play


def parlour_loop(rows: int, columns: int, n: int) -> Callable[[], int]:
    return random_loop(parlour.load_game("clobber", rows=rows, columns=columns), n)


def openspiel_cpp(rows: int, columns: int, n: int) -> Callable[[], int]:
    game = pyspiel.load_game("clobber", {"rows": rows, "columns": columns})
    bots = [pyspiel.make_uniform_random_bot(p, 1234 + p) for p in range(2)]
    seeds = iter(range(1 << 30))

    def play() -> int:
        for _ in range(n):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seeds))
        return n

    return play


def openspiel_loop(rows: int, columns: int, n: int) -> Callable[[], int]:
    return random_loop(pyspiel.load_game("clobber", {"rows": rows, "columns": columns}), n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per engine and board")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args(argv)

    print(f"parlour {parlour.__version__}, open_spiel via pyspiel; {args.seconds:g} s each")
    print(f"{'board':>6} {'engine':<28} {'games/s':>12}")
    missed = []
    for rows, columns in SIZES:
        small = rows * columns <= 30
        engines = {
            "parlour.batch": batch_playouts(rows, columns, 1 << 15 if small else 1 << 13),
            "parlour per-move API": parlour_loop(rows, columns, 50 if small else 5),
            "OpenSpiel C++ evaluate_bots": openspiel_cpp(rows, columns, 200 if small else 20),
            "OpenSpiel Python loop": openspiel_loop(rows, columns, 100 if small else 10),
        }
        measured = rates(engines, args.seconds)
        for label, value in measured.items():
            print(f"{rows}x{columns:<4} {label:<28} {value:>12,.0f}")
        batch_vs_cpp = measured["parlour.batch"] / measured["OpenSpiel C++ evaluate_bots"]
        api_vs_loop = measured["parlour per-move API"] / measured["OpenSpiel Python loop"]
        print(f"{rows}x{columns:<4} ratio parlour.batch / OpenSpiel C++       = {batch_vs_cpp:6.2f}"
              "   (target >= 2 on 5x6)")
        print(f"{rows}x{columns:<4} ratio per-move API / OpenSpiel Python loop = {api_vs_loop:6.2f}"
              "   (target >= 0.25)")
        if (rows, columns) == (5, 6) and batch_vs_cpp < 2:
            missed.append(f"5x6 batch/C++ {batch_vs_cpp:.2f} < 2")
        if api_vs_loop < 0.25:
            missed.append(f"{rows}x{columns} per-move/Python loop {api_vs_loop:.2f} < 0.25")
    if missed:
        print("targets missed: " + "; ".join(missed))
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
