"""Stomp the Plank, two players: how often can anyone beat a random player? Exactly.

    python bench/plank_ceiling.py                       # the defaults (P2, P5 15/3), ~8 CPU minutes
    python bench/plank_ceiling.py --check 2000          # and check the model against the engine
    python bench/plank_ceiling.py --param tip_at=20 --param step_weight=4  # P5's first plank

Issue 6 asks that ``hard`` beat ``random`` in 95% of two-player games of every game. In Stomp
the Plank no player can: this script computes, by dynamic programming over every reachable
situation at the start of a turn (both planks, whose turn, the draw pile's counts), the exact
chance of winning against parlour's ``random`` agent (draw or stop with probability 1/2) for:

- **best response**: a player who knows the opponent plays at random, counts every card and
  plays each decision to maximise its chance of winning: an upper bound for *every* agent;
- **game value**: the chance of winning when both sides play perfectly (not against random);
- **minimax policy**: the player who plays perfectly against a perfect opponent, against random;
- **stop after K**: ``plank-stop-K``, against random.

The model is compiled from ``bench/plank_ceiling.c`` (a C compiler is needed: ``cc``). It
restates rulings P1-P7 for two players, so ``--check N`` plays ``N`` games of
``plank-stop-K`` against ``random`` through parlour's engine and arena and prints the measured
rate next to the exact one: they must agree within the interval. The turn limit
(``max_turns``) is not modelled; against random it is never reached.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import parlour
from parlour.arena import plan, run, wilson

HERE = Path(__file__).resolve().parent
GAME = "stomp-the-plank"


def compile_model(workdir: Path) -> Path:
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        sys.exit("a C compiler (cc) is needed to build bench/plank_ceiling.c")
    binary = workdir / "plank_ceiling"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(HERE / "plank_ceiling.c"), "-lm"],
                   check=True)
    return binary


def exact(binary: Path, game: parlour.Game, k: int) -> dict[str, list[float]]:
    params = game.params
    crates = [int(c) for c in str(params["crates"]).split(",")]
    if len(crates) != 5:
        sys.exit("the model handles the default pontoon of five crate spots and a sixth that wins")
    if params["supply"] < 2 * (params["tip_at"] - 1):
        sys.exit("the model assumes the crate supply never runs out: supply >= 2 * (tip_at - 1)")
    args = [str(params["tip_at"]), str(params["step_weight"]), str(k), *map(str, crates)]
    done = subprocess.run([str(binary), *args], check=True, capture_output=True, text=True)
    sys.stderr.write(done.stderr)
    rows = {}
    for line in done.stdout.splitlines():
        seat, *values = line.split()
        rows[seat] = [float(v) for v in values]
    names = ["best response", "game value", "minimax policy", f"stop after {k}"]
    return {name: [rows["first"][i], rows["second"][i]] for i, name in enumerate(names)}


def check(game: parlour.Game, k: int, games: int, workers: int) -> tuple[int, int]:
    tournament = run(plan(game, [f"plank-stop-{k}", "random"], games, seed=11), workers=workers)
    assert tournament.standings is not None
    record = tournament.standings.records[0]
    return record.wins, record.games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a game parameter (tip_at, step_weight, crates)")
    parser.add_argument("--stop-after", type=int, default=2, metavar="K",
                        help="the fixed strategy evaluated and checked (plank-stop-K)")
    parser.add_argument("--check", type=int, default=0, metavar="N",
                        help="also play N games of plank-stop-K against random in the engine")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    params = dict(p.split("=", 1) for p in args.param)
    game = parlour.load_game(GAME, players=2, **params)

    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        values = exact(compile_model(Path(tmp)), game, args.stop_after)
    print(f"\n## {game}: chance that the player wins, exactly "
          f"[{time.perf_counter() - start:.0f} s]\n")
    print("| player | against | moving first | moving second | mean |")
    print("|---|---|---|---|---|")
    for name, (first, second) in values.items():
        against = "perfect play" if name == "game value" else "random"
        print(f"| {name} | {against} | {first:.2%} | {second:.2%} | {(first + second) / 2:.2%} |")

    if args.check:
        start = time.perf_counter()
        wins, n = check(game, args.stop_after, args.check, args.workers)
        low, high = wilson(wins, n)
        model = sum(values[f"stop after {args.stop_after}"]) / 2
        agree = "agrees" if low <= model <= high else "DISAGREES"
        print(f"\nengine check: plank-stop-{args.stop_after} beat random {wins}/{n} = "
              f"{wins / n:.1%} (95% {low:.1%}-{high:.1%}); model {model:.2%}: {agree} "
              f"[{time.perf_counter() - start:.0f} s]")


if __name__ == "__main__":
    main()
