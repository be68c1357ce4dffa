"""One Clobber solve on Ray workers against the local solver, wall times side by side.

    python bench/clobber_ray.py                       # 4x6 5x5 4x7 3x9, 2 workers
    python bench/clobber_ray.py 3x8 4x6 --workers 2 --all
    python bench/clobber_ray.py 4x6 --address 10.0.0.5:6379 --workers 16   # a cluster
    python bench/clobber_ray.py --tables 2       # no Ray: the cost of separate tables
    python bench/clobber_ray.py 3x10 5x6 --tt-bits 27 --estimate 16,64   # issue 32's figures
    python bench/clobber_ray.py 4x6 --no-share   # each worker with a table of its own

For each board (the alternating start position, White to move) the script solves it twice in
this one run, each with cold tables: the local solver (``ClobberSolver`` in this process, the
compiled engine, a 2^24-entry table, no on-disk cache, as ``parlour solve``), then
``RayClobberSolver`` with ``--workers`` fresh actors (the same engine and table size each).
Ray's start-up (once per run, a few seconds) and the actors' start are not in the solve
times; they are printed apart. "speed-up" is local wall seconds / Ray wall seconds. On a
machine shared with other work the wall times move with its load (the load average is
printed before each board), so the CPU seconds are printed too: the local solve's, and the
busiest worker's ("cpu speed-up" = local CPU / busiest worker's CPU: the speed-up with a
core per worker to itself). "work" is the Ray solve's search nodes (all workers, cancelled
work included) / the local solve's: what the split costs in duplicated or wasted search.
By default the workers share one transposition table in shared memory (``--no-share``: one
each, as before issue 32); ``--tt-bits`` sizes it, and the local solver's, alike.

``--estimate 16,64`` adds, per board, a paper estimate of the speed-up on that many workers
from this run's measured task sizes and duplicated work (see ``estimate``).

``--tables N`` measures, without Ray and in this one process, what separate tables cost: the
sub-positions the Ray solve starts from (the eldest move's replies when the eldest move wins,
else every distinct first move), solved one after another by one solver, then dealt round
N solvers (task i to solver i mod N). Node counts, exact and independent of the load.
"""

from __future__ import annotations

import argparse
import logging
import os
import time

import parlour
from parlour.analysis import ClobberSolver
from parlour.analysis.distributed import WORKER_TT_BITS, RayClobberSolver, ordered_actions

BOARDS = ["4x6", "5x5", "4x7", "3x9"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("boards", nargs="*", default=BOARDS, help="boards like 4x6")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--address", default=None, help="an existing Ray cluster")
    parser.add_argument("--all", action="store_true", help="every winning first move")
    parser.add_argument("--tables", type=int, default=0, help="no Ray: N separate tables")
    parser.add_argument("--tt-bits", type=int, default=WORKER_TT_BITS,
                        help="table size (2^bits entries) of the local solver and of Ray's")
    parser.add_argument("--no-share", action="store_true",
                        help="each worker keeps a table of its own")
    parser.add_argument("--estimate", default="",
                        help="worker counts for a paper estimate, e.g. 16,64")
    args = parser.parse_args()
    if args.tables:
        tables(args.boards, args.tables)
        return

    import ray

    started = time.monotonic()
    if args.address:
        ray.init(address=args.address, log_to_driver=False, logging_level=logging.ERROR)
    else:
        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR)
    print(f"Ray started in {time.monotonic() - started:.1f} s; {args.workers} workers; "
          f"{'every winning move' if args.all else 'one winning move'}")
    header = (f"{'board':>5} {'load':>5} {'winner':>6} {'local s':>8} {'ray s':>7} "
              f"{'speed-up':>8} {'local cpu':>9} {'max cpu':>7} {'cpu speed-up':>12} "
              f"{'work':>5} {'tasks':>5} {'cancel':>6} {'splits':>6}")
    print(header)
    try:
        for board in args.boards:
            game = parlour.load_game("clobber", size=board)
            state = game.new_initial_state()
            load = os.getloadavg()[0]
            local = ClobberSolver(game, tt_bits=args.tt_bits)
            t0, c0 = time.perf_counter(), time.process_time()
            mine = local.solve(state, all_moves=args.all)
            local_s, local_cpu = time.perf_counter() - t0, time.process_time() - c0
            del local
            with RayClobberSolver(game, workers=args.workers, tt_bits=args.tt_bits,
                                  share_tables=not args.no_share) as solver:
                t0 = time.perf_counter()
                found = solver.solve(state, all_moves=args.all)
                ray_s = time.perf_counter() - t0
            theirs, stats = found.solution, found.stats
            same = theirs.winner == mine.winner and (
                not args.all or theirs.winning_moves == mine.winning_moves
            )
            busiest = max(stats.worker_seconds)
            print(
                f"{board:>5} {load:5.1f} {theirs.winner:>6} {local_s:8.2f} {ray_s:7.2f} "
                f"{local_s / ray_s:7.2f}x {local_cpu:9.2f} {busiest:7.2f} "
                f"{local_cpu / busiest:11.2f}x {theirs.nodes / max(mine.nodes, 1):5.2f} "
                f"{stats.tasks:5d} {stats.cancelled:6d} {stats.splits:6d}"
                f"{' shared' if stats.shared else ' own tables'}, {stats.preempted} preempted"
                f"{'' if same else '  DIFFERENT ANSWER'}",
                flush=True,
            )
            sizes = sorted(stats.task_nodes, reverse=True)
            if sizes:
                each = ", ".join(f"{n:,}" for n in stats.worker_nodes)
                print(f"      tasks: {len(sizes)} finished, largest {sizes[0]:,} nodes "
                      f"({sizes[0] / max(mine.nodes, 1):.1%} of the local solve), median "
                      f"{sizes[len(sizes) // 2]:,}; local {mine.nodes:,} nodes, Ray "
                      f"{theirs.nodes:,} (workers {each})", flush=True)
            for count in [int(c) for c in args.estimate.split(",") if c.strip()]:
                speed, why = estimate(mine.nodes, theirs.nodes, args.workers, sizes, count)
                print(f"      estimate on {count} workers: {speed:.1f}x ({why})", flush=True)
    finally:
        ray.shutdown()


def estimate(local: int, measured: int, workers: int, sizes: list[int],
             count: int) -> tuple[float, str]:
    """A paper estimate of the speed-up on ``count`` workers, from one run on ``workers``.

    The model: the solve's work on W workers is the local solve's times a duplication factor
    d(W), spread evenly, but no faster than its largest task (a task is searched by one worker
    from start to end; splitting it is what the driver does when workers idle, so this bound
    is pessimistic for tasks that split well). d(W) is extrapolated from the measured one,
    d(w) = measured / local, as growing with log2 of the workers: the waste of a search that
    splits deeper grows with each doubling, not with each worker (each machine's workers share
    one table; across machines only proven sub-positions are shared, so each machine redoes
    the small-region work once). Speed-up = local / max(local * d(W) / W, largest task).
    """
    import math

    measured_d = max(measured / max(local, 1), 1.0)
    per_doubling = (measured_d - 1.0) / max(math.log2(workers), 1.0)
    d = 1.0 + per_doubling * math.log2(count)
    largest = sizes[0] if sizes else 0
    time_spread = local * d / count
    bound = max(time_spread, largest)
    which = "the largest task" if largest > time_spread else "the work spread evenly"
    return local / bound, f"duplication {d:.2f}, set by {which}"


def tables(boards: list[str], count: int) -> None:
    print(f"{'board':>5} {'tasks':>5} {'one table':>11} {f'{count} tables':>11} {'work':>5}"
          f"  nodes per table")
    for board in boards:
        game = parlour.load_game("clobber", size=board)
        state = game.new_initial_state()
        keys = ClobberSolver(game, engine="python")
        children = [state.child(a) for a in ordered_actions(state)]
        eldest = children[0]
        if not ClobberSolver(game, tt_bits=WORKER_TT_BITS).mover_wins(eldest):
            tasks = [eldest.child(a) for a in ordered_actions(eldest)]
        else:
            seen: set[tuple[object, ...]] = set()
            tasks = []
            for child in children:
                key = tuple(sorted(keys.regions(child)))
                if key not in seen:
                    seen.add(key)
                    tasks.append(child)
        one = ClobberSolver(game, tt_bits=WORKER_TT_BITS)
        for task in tasks:
            one.mover_wins(task)
        many = [ClobberSolver(game, tt_bits=WORKER_TT_BITS) for _ in range(count)]
        for i, task in enumerate(tasks):
            many[i % count].mover_wins(task)
        split = [solver.nodes for solver in many]
        print(f"{board:>5} {len(tasks):5d} {one.nodes:11,} {sum(split):11,} "
              f"{sum(split) / one.nodes:5.2f}  {', '.join(f'{n:,}' for n in split)}",
              flush=True)
        del one, many


if __name__ == "__main__":
    main()
