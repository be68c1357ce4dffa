"""Cross-check parlour's Clobber solver against MCGS v1.5 on random positions from each
headline proof's region: a check by an engine written by other people.

    nice -n 10 python bench/mcgs_crosscheck.py --mcgs PATH/TO/MCGS --count 300 \\
        --json bench/mcgs_crosscheck.json            # every headline result
    python bench/mcgs_crosscheck.py --mcgs PATH/TO/MCGS --count 20 4x8   # one of them

Why: every other check of the hunt's proofs is parlour's own engine solving again, so a bug
shared by the solve and its re-solve would not show. MCGS (Folkersen, Du and Müller's
Minimax-based Combinatorial Game Solver) shares no code with parlour.

MCGS is not a dependency of parlour and nothing of it ships here. It is public: the
repository ``ualberta-mueller-group/MCGS`` on GitHub, tag ``v1.5``; its README says how to
build it (its ``make`` target ``MCGS``; these runs used ``DEBUG=0``, a release build, and no
database file, so MCGS searches every position from scratch). ``--mcgs`` is the path of the
binary it builds.

A headline result is a board's winning first move, recorded in ``bench/clobber_hunt_records``
as the position after it (``first-2`` for 6x6's b6b5, ``3x12+b2a2``, ``4x8+c3d3``,
``2x20+b2b1``), proved lost for its side to move. The proof's region is the positions below
it: each sample is that position followed by ``--depth`` random legal moves (both sides, a
``random.Random`` seeded from ``--seed``, the board and the sample's number, so a run repeats
exactly; a game that ends sooner stops there). Each sample is solved for its side to move by
parlour's solver (the compiled engine, one solver per board, so its tables carry over from
sample to sample) and by MCGS (one fresh process per sample, ``--no-use-db``), each with
``--time-limit`` seconds (CPU seconds for MCGS, wall seconds for parlour, which ends these
samples in a fraction of a second; the times reported are CPU seconds); a timeout on either
side is counted apart, never as agreement, and solved again by a run that resumes. The
depth is chosen per board so that MCGS ends each sample in a second or so: shallower samples
are harder for MCGS without its database long before they are for parlour.

Positions are written to MCGS as its ``[clobber]`` grid (rows top to bottom, ``|`` between
rows, ``X`` for our ``x``, ``O`` for our ``o``) with ``{B}`` when ``x`` is to move and ``{W}``
when ``o`` is; Clobber treats both colours alike, so only the mapping's consistency matters.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

RECORDS = Path(__file__).with_name("clobber_hunt_records")
"""The hunt's shipped records: where each headline position is read from."""

HEADLINES = {
    "6x6": ("first-2", "b6b5"),
    "3x12": ("3x12+b2a2", "b2a2"),
    "4x8": ("4x8+c3d3", "c3d3"),
    "2x20": ("2x20+b2b1", "b2b1"),
}
"""Board -> (the record of the position after its winning first move, that move)."""

DEPTHS = {"6x6": 10, "3x12": 10, "4x8": 8, "2x20": 12}
"""Random moves after the winning move, per board: deep enough that MCGS (no database) ends
each sample in about a second on a 2-core machine (two moves fewer and some samples take it
past half a minute), so that 300 samples a board fit in an evening."""


@dataclass
class Sample:
    """One position of a proof's region and what each solver said of it."""

    board: str
    index: int
    position: str
    parlour: bool | None = None  # whether the side to move wins; None: timed out
    mcgs: bool | None = None
    parlour_seconds: float = 0.0
    mcgs_seconds: float = 0.0


def headline_position(board: str) -> str:
    """The position after ``board``'s winning first move, from its shipped record."""
    record = json.loads((RECORDS / f"{HEADLINES[board][0]}.json").read_text())
    return str(record["position"])


def sample_position(start: str, depth: int, rng: random.Random) -> str:
    """``start`` followed by ``depth`` random legal moves (fewer if the game ends first)."""
    import parlour

    state = parlour.load_game("clobber", position=start).new_initial_state()
    for _ in range(depth):
        actions = state.legal_actions()
        if not actions:
            break
        state.apply_action(rng.choice(actions))
    return str(state.position())


def samples(board: str, count: int, depth: int, seed: int) -> list[str]:
    """``count`` distinct positions of ``board``'s proof region, the same for the same seed."""
    start = headline_position(board)
    found: dict[str, None] = {}
    index = 0
    while len(found) < count and index < 20 * count:
        rng = random.Random(f"{seed}:{board}:{index}")
        found.setdefault(sample_position(start, depth, rng))
        index += 1
    return list(found)


def mcgs_input(position: str) -> str:
    """``position`` (our notation) as an MCGS v1.5 input line for its side to move."""
    rows, side = position.split()
    grid = "|".join(rows.split("/")).replace("x", "X").replace("o", "O")
    return f"[clobber] {grid} {{{'B' if side == 'x' else 'W'}}}"


MCGS_FLAGS = ["--no-use-db", "--tt-sumgame-idx-bits", "24", "--tt-imp-sumgame-idx-bits", "1"]
"""No database; a 2^24-entry table (its default of 2^28 takes 1.8 GB and a second to clear
per process, longer than most samples take); the impartial table unused (Clobber is not)."""

RESULT = re.compile(r"^Got: (Win|Loss)$", re.MULTILINE)
"""The line of MCGS's output that gives the result for the player to move."""


def parse_mcgs(output: str) -> bool:
    """Whether MCGS's output says the player to move wins."""
    found = RESULT.findall(output)
    if len(found) != 1:
        raise ValueError(f"cannot read MCGS's answer from {output!r}")
    return bool(found[0] == "Win")


def run_mcgs(binary: str, position: str, limit: float) -> tuple[bool | None, float]:
    """MCGS's answer for ``position``'s side to move (None: past ``limit`` CPU seconds) and
    its CPU seconds. The limit is on CPU time (the kernel's ``RLIMIT_CPU`` ends the process),
    so that a machine busy with other work does not turn slow samples into timeouts; a wall
    limit of ``WALL_FACTOR`` times as long backs it up."""

    def cap() -> None:
        seconds = max(1, math.ceil(limit))
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run([binary, *MCGS_FLAGS, mcgs_input(position)],
                              capture_output=True, text=True, timeout=limit * WALL_FACTOR,
                              preexec_fn=cap)
    except subprocess.TimeoutExpired:
        return None, limit
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode < 0:  # ended by the CPU limit's signal
        return None, cpu
    if done.returncode:
        raise RuntimeError(f"MCGS failed on {position}: {done.stderr}")
    return parse_mcgs(done.stdout), cpu


WALL_FACTOR = 20
"""MCGS's wall limit, in multiples of its CPU limit."""


def run_parlour(solver: Any, position: str, limit: float) -> tuple[bool | None, float]:
    """parlour's answer for ``position``'s side to move (None: past ``limit`` wall seconds,
    the solver's own limit) and its CPU seconds."""
    import parlour
    from parlour.analysis import SolverTimeout

    state = parlour.load_game("clobber", position=position).new_initial_state()
    started = time.process_time()
    try:
        return solver.mover_wins(state, time_limit=limit), time.process_time() - started
    except SolverTimeout:
        return None, time.process_time() - started


def check_board(board: str, args: argparse.Namespace, kept: dict[str, dict[str, Any]],
                save: Callable[[], None]) -> list[Sample]:
    """Draw and solve ``board``'s samples (those in ``kept``, by position, from an earlier run
    with the same settings, are not solved again); ``save`` after each; print a line per
    disagreement or timeout."""
    import parlour
    from parlour.analysis import ClobberSolver

    depth = args.depth or DEPTHS[board]
    positions = samples(board, args.count, depth, args.seed)
    game = parlour.load_game("clobber", position=headline_position(board))
    solver = ClobberSolver(game, engine="c", tt_bits=args.tt_bits)  # type: ignore[arg-type]
    done: list[Sample] = []
    for index, position in enumerate(positions):
        if position in kept and None not in (kept[position]["parlour"],
                                             kept[position]["mcgs"]):
            done.append(Sample(**kept[position]))
            continue
        sample = Sample(board, index, position)
        sample.parlour, sample.parlour_seconds = run_parlour(solver, position, args.time_limit)
        sample.mcgs, sample.mcgs_seconds = run_mcgs(args.mcgs, position, args.time_limit)
        done.append(sample)
        kept[position] = asdict(sample)
        save()
        if None in (sample.parlour, sample.mcgs) or sample.parlour != sample.mcgs:
            print(f"  {board} #{index} {position}: parlour {sample.parlour}, "
                  f"MCGS {sample.mcgs}", flush=True)
    return done


def summary(board: str, done: list[Sample], depth: int) -> dict[str, Any]:
    """The counts and times of one board's samples."""
    both = [s for s in done if s.parlour is not None and s.mcgs is not None]
    return {
        "board": board, "winning_move": HEADLINES[board][1], "record": HEADLINES[board][0],
        "depth": depth, "samples": len(done),
        "agree": sum(s.parlour == s.mcgs for s in both),
        "disagree": sum(s.parlour != s.mcgs for s in both),
        "parlour_timeouts": sum(s.parlour is None for s in done),
        "mcgs_timeouts": sum(s.mcgs is None for s in done),
        "mover_wins": sum(bool(s.parlour) for s in both),
        "parlour_seconds": round(sum(s.parlour_seconds for s in done), 1),
        "mcgs_seconds": round(sum(s.mcgs_seconds for s in done), 1),
        "mcgs_max_seconds": round(max((s.mcgs_seconds for s in done), default=0.0), 2),
        "parlour_max_seconds": round(max((s.parlour_seconds for s in done), default=0.0), 2),
    }


HEAD = ["board", "move", "depth", "samples", "agree", "disagree", "timeouts p/M",
        "mover wins", "parlour s", "MCGS s", "MCGS max s"]


def row(s: dict[str, Any]) -> list[str]:
    return [s["board"], s["winning_move"], str(s["depth"]), str(s["samples"]), str(s["agree"]),
            str(s["disagree"]), f"{s['parlour_timeouts']}/{s['mcgs_timeouts']}",
            str(s["mover_wins"]), f"{s['parlour_seconds']:.1f}", f"{s['mcgs_seconds']:.1f}",
            f"{s['mcgs_max_seconds']:.2f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("boards", nargs="*", help="6x6 3x12 4x8 2x20 (all by default)")
    parser.add_argument("--mcgs", required=True, help="the MCGS v1.5 binary")
    parser.add_argument("--count", type=int, default=300, help="samples per board")
    parser.add_argument("--depth", type=int, default=0,
                        help="random moves after the winning move (0: the board's default)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=60.0,
                        help="seconds per sample, for each solver (MCGS: CPU seconds)")
    parser.add_argument("--tt-bits", type=int, default=22, help="parlour's table size")
    parser.add_argument("--json", help="the summary and every sample: written after each "
                        "sample, and read back to go on where a run with the same settings "
                        "stopped")
    args = parser.parse_args()
    for board in args.boards:
        if board not in HEADLINES:
            raise SystemExit(f"unknown board {board!r}: {', '.join(HEADLINES)}")
    path = Path(args.json) if args.json else None
    settings = {"mcgs": "v1.5", "seed": args.seed, "time_limit": args.time_limit,
                "depths": {b: args.depth or DEPTHS[b] for b in HEADLINES}}
    earlier = json.loads(path.read_text()) if path and path.exists() else {}
    same = all(earlier.get(k) == v for k, v in settings.items())
    kept: dict[str, dict[str, Any]] = {
        s["position"]: s for s in earlier.get("samples", []) if same}
    results: list[dict[str, Any]] = [
        r for r in earlier.get("results", []) if same and r["board"] not in args.boards]

    def save() -> None:
        if path:
            path.write_text(json.dumps({**settings, "results": results,
                                        "samples": list(kept.values())}, indent=1) + "\n")

    for board in args.boards or list(HEADLINES):
        started = time.monotonic()
        done = check_board(board, args, kept, save)
        results[:] = [r for r in results if r["board"] != board]
        results.append(summary(board, done, args.depth or DEPTHS[board]))
        save()
        print("  ".join(row(results[-1])) + f"  ({time.monotonic() - started:.0f} s)",
              flush=True)
    print("  ".join(HEAD))
    for result in results:
        print("  ".join(row(result)))
    if any(r["disagree"] for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
