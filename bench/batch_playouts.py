"""Batched engines against the per-move API: random whole games per second, side by side.

For every game with a batched engine in ``parlour.batch``, the same kind of random playout
(chance by its law, player actions uniformly among the legal ones) is timed through the
batched engine and through the per-move API (``bench/playouts.py``'s loop), in alternating
slices so that machine load weighs on both alike; the ratio is what issue 19 asks for
(at least 10x)::

    python bench/batch_playouts.py                 # default configurations, 3 s per engine
    python bench/batch_playouts.py --seconds 5 --check   # exit 1 if a ratio is under 10
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import parlour
import parlour.batch as pb
from playouts import measure

TARGET = 10.0

BATCHED = sorted(pb.ENGINES)
"""The games with a batched engine (every game): ``pb.play_random(game, n_games, seed)``."""
CHUNKS = {"gobblestones": 2048}
"""Games per batched call where ``--chunk`` would make one call outlast a slice."""


def batched_rate(name: str, seconds: float, chunk: int, seed: int) -> float:
    """Games per second of the batched engine, whole chunks of ``chunk`` games at a time."""
    game = parlour.load_game(name)
    games = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or games == 0:
        returns = pb.play_random(game, n_games=chunk, seed=seed + games)
        assert returns.shape[0] == chunk
        games += chunk
    return games / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per engine")
    parser.add_argument("--slices", type=int, default=3, help="alternating slices per engine")
    parser.add_argument("--chunk", type=int, default=32768, help="games per batched call")
    parser.add_argument("--check", action="store_true", help=f"exit 1 below {TARGET:g}x")
    parser.add_argument("--game", action="append", choices=BATCHED,
                        help="only this game (repeatable)")
    args = parser.parse_args(argv)
    per = args.seconds / args.slices
    print(f"random whole games per second ({args.seconds:g} s per engine, "
          f"{args.slices} alternating slices, batch chunks of {args.chunk})")
    print(f"{'game':<18} {'parlour.batch':>14} {'per-move API':>13} {'ratio':>7}")
    ok = True
    for name in args.game or BATCHED:
        batched, single = [], []
        for k in range(args.slices):
            chunk = min(args.chunk, CHUNKS.get(name, args.chunk))
            batched.append(batched_rate(name, per, chunk, seed=1000 * k))
            single.append(measure(name, {}, per, seed=k)[0])
        fast, slow = float(np.mean(batched)), float(np.mean(single))
        ratio = fast / slow
        ok &= ratio >= TARGET
        print(f"{name:<18} {fast:>14,.0f} {slow:>13,.0f} {ratio:>7.1f}")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
