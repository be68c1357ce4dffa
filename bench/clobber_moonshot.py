"""A very long Clobber solve (6x6, never solved; 4x8) that checkpoints and resumes.

    nice -n 10 python bench/clobber_moonshot.py 4x8 --checkpoint 4x8.ckpt   # stop any time
    nice -n 10 python bench/clobber_moonshot.py 4x8 --checkpoint 4x8.ckpt   # ...and resume

The first player's moves are tried in passes (``ClobberSolver(root_budget=...)``): each
undecided move gets ``--root-budget`` nodes, then four times as many in the next pass, so the
moves with small proofs are decided first and the progress is visible move by move. What was
proved (decided moves, the region table, costly proofs) is saved to the checkpoint every
``--every`` seconds and when the run stops (Ctrl-C, SIGTERM, ``--time-limit``); running the
same command again resumes from it. Every minute one line reports the decided moves, nodes,
wall and CPU seconds.
"""

from __future__ import annotations

import argparse
import resource
import signal
import time
from pathlib import Path

import parlour
from parlour.analysis import ClobberSolver, SolverTimeout
from parlour.analysis.checkpoint import Checkpoint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("board", nargs="?", default="4x8")
    parser.add_argument("--checkpoint", type=Path, help="default: clobber-BOARD.ckpt")
    parser.add_argument("--tt-bits", type=int, default=28, help="2^bits entries of 8 bytes")
    parser.add_argument("--root-budget", type=int, default=1 << 22, help="first pass, nodes")
    parser.add_argument("--every", type=float, default=300.0, help="seconds between saves")
    parser.add_argument("--time-limit", type=float, help="stop (and save) after S seconds")
    parser.add_argument("--all", action="store_true", help="decide every first move")
    args = parser.parse_args()

    game = parlour.load_game("clobber", size=args.board)
    state = game.new_initial_state()
    solver = ClobberSolver(game, tt_bits=args.tt_bits, root_budget=args.root_budget)
    saver = Checkpoint(args.checkpoint or Path(f"clobber-{args.board}.ckpt"), every=args.every)
    moves = len(state.legal_actions())
    started, cpu = time.monotonic(), time.process_time()
    last = started

    def line(nodes: int) -> str:
        won = sum(saver.decided.values())
        lost = len(saver.decided) - won
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return (
            f"{args.board}: {len(saver.decided)}/{moves} first moves decided ({won} win, "
            f"{lost} lose), {nodes:,} nodes, {time.monotonic() - started:.0f} s wall, "
            f"{time.process_time() - cpu:.0f} s CPU, peak {peak:.0f} MB, {saver.saves} saves"
        )

    def progress(nodes: int, _seconds: float) -> None:
        nonlocal last
        if time.monotonic() - last >= 60:
            last = time.monotonic()
            print(line(nodes), flush=True)

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    try:
        solution = solver.solve(
            state,
            all_moves=args.all,
            time_limit=args.time_limit,
            progress=progress,
            checkpoint=saver,
        )
    except (KeyboardInterrupt, SolverTimeout):
        print("stopped: " + line(solver.nodes) + f"; saved to {saver.path}", flush=True)
        print("decided: " + " ".join(f"{m}{'+' if w else '-'}" for m, w in saver.decided.items()))
        return
    print("solved: " + line(solver.nodes))
    print(f"{solution.winner} wins; winning moves: {', '.join(solution.winning_moves) or '-'}")


if __name__ == "__main__":
    main()
