"""Benchmark of the Clobber solver on alternating (checkerboard) boards.

    python bench/clobber_solver.py                  # the issue-7 boards + every board <= 20 squares
    python bench/clobber_solver.py --stretch        # also 3x9, 3x10, 4x7, 5x5, 5x6 (long)
    python bench/clobber_solver.py --engine python  # the pure-Python engine (small boards)
    python bench/clobber_solver.py --baseline       # also the same search without the CGT shortcuts
    python bench/clobber_solver.py --mcgs-6x6 --time-limit 1800   # 6x6 openings MCGS solved
    python bench/clobber_solver.py --table --tt-bits 27    # every rectangle of at most 30 squares
    python bench/clobber_solver.py --table --markdown      # ...as the table of docs/analysis.md
    python bench/clobber_solver.py --reference main --table --markdown --tt-bits 27
        # every rectangle of at most 30 squares, today's engine against main's, in one run

Each board is solved in a fresh process (cold tables, no on-disk cache), so "peak MB" is the
peak resident memory of that solve. "outcome" is N (first player wins) or P (second player
wins). The MCGS column holds the MCGS (C++) times quoted in issue 7, measured on this kind of
2-core machine after building its 4x4 database once (57 s): constants, printed for reference,
not measured here. ``--baseline`` measures, in the same run, the same engine with the region
table of outcome classes switched off (``db_max_stones=0``), to show what the CGT shortcuts buy.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MCGS_SECONDS = {"2x10": 0.4, "2x12": 13.0, "3x6": 0.4, "3x7": 1.5, "3x8": 85.0, "4x5": 1.1}
"""MCGS (Folkersen, Du, Müller) solve times quoted in issue 7, in seconds."""
MCGS_REPORTED = {"5x6": 43_797.0}
"""Times the MCGS authors report for their own machine (issue 21 quotes 5x6: 43,797 s)."""

ISSUE_BOARDS = ["2x10", "2x12", "3x6", "3x7", "3x8", "4x5", "4x6"]

MCGS_6X6 = [
    # (name, position text (C6), winner, MCGS seconds) -- 6x6 openings that the MCGS authors
    # solved and published on their "Solving 6x6 Clobber" page (their machine, with 4x4 or 4x5
    # databases). An independent check of our answers on hard positions.
    ("game 1, move 5", "x.ox.o/.ooxx./xoxx.o/oxoxox/xoxoxo/oxoxox o", "o", 839),
    ("game 8, move 4", "xoxoxo/oxoxox/xoxoxo/xxoxoo/.oxoo./o.xx.x x", "x", 1353),
    ("game 6, move 4", "xoxx.o/oxoxo./xoxoxx/oxoxox/xoxoo./oxoo.x x", "x", 1763),
    ("game 4, move 5", "xoxo.o/oxo.x./xoxxxx/oxoxoo/xoxoo./oxox.x o", "o", 1802),
    ("game 3, move 6", "xoxoo./.xoxo./oo.oxx/xxxxox/.oxoxo/.ooxox x", "x", 1805),
    ("game 3, move 5", "xoxoo./oxoxo./xo.oxx/xxxxox/.oxoxo/.ooxox o", "o", 2809),
    ("game 2, move 4", "xoxoxo/oxoxox/xoxoxo/oxoxox/.xxoo./o.xo.x x", "x", 4258),
    ("game 1, move 4", "x.ox.o/.ooxx./xoxoxo/oxoxox/xoxoxo/oxoxox x", "x", 22959),
    ("game 3, move 4", "xoxoo./oxoxo./xoxoxx/xxoxox/.oxoxo/.ooxox x", "o", 62910),
]
STRETCH_BOARDS = ["3x9", "2x14", "4x7", "3x10", "5x5", "5x6"]


def small_boards(max_squares: int = 20) -> list[str]:
    """Every alternating board of at most ``max_squares`` squares, up to turning it."""
    return [
        f"{r}x{c}"
        for r in range(1, max_squares + 1)
        for c in range(r, max_squares + 1)
        if 2 <= r * c <= max_squares and c <= 26
    ]


def rectangles(max_squares: int = 30) -> list[str]:
    """Every rectangle of at most ``max_squares`` squares (rows <= columns), by rows then size.

    A board has at most 26 columns (ruling C1), so 1x27 and longer are played turned (27x1)."""
    return [
        f"{r}x{c}" if c <= 26 else f"{c}x{r}"
        for r in range(1, max_squares + 1)
        for c in range(max(r, 2 if r == 1 else r), max_squares + 1)
        if r * c <= max_squares
    ]


def mcgs_seconds(size: str) -> float | None:
    return MCGS_SECONDS.get(size, MCGS_REPORTED.get(size))


def solve_one(
    size: str, engine: str, tt_bits: int, db_max: int, limit: float, module_path: str | None = None
) -> dict:
    """Solve one board (``RxC``: its outcome class) or position (the winner) in this process."""
    from pathlib import Path

    import parlour
    from parlour.analysis import ClobberSolver, SolverTimeout, cengine

    is_position = " " in size
    game = parlour.load_game("clobber", **({"position": size} if is_position else {"size": size}))
    module = cengine.load_from(Path(module_path)) if module_path else None
    solver = ClobberSolver(
        game, engine=engine, engine_module=module, tt_bits=tt_bits, db_max_stones=db_max
    )
    state = game.new_initial_state()
    started = time.perf_counter()
    cpu = time.process_time()
    try:
        if is_position:
            mover = size[-1]
            outcome = mover if solver.mover_wins(state, limit) else "xo"[mover == "x"]
        else:
            outcome = solver.outcome(state, time_limit=limit)
    except SolverTimeout:
        outcome = "timeout"
    seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "board": size,
        "engine": solver.engine_name,
        "outcome": outcome,
        "nodes": solver.nodes,
        "seconds": seconds,
        "cpu_seconds": time.process_time() - cpu,
        "peak_mb": peak_mb,
    }


def run_in_child(
    size: str, args: argparse.Namespace, db_max: int, module_path: str | None = None
) -> dict:
    command = [
        sys.executable, __file__, "--one", size, "--engine", args.engine,
        "--tt-bits", str(args.tt_bits), "--db-max", str(db_max),
        "--time-limit", str(args.time_limit),
    ]
    if module_path:
        command += ["--module", module_path]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        return {"board": size, "outcome": "error: " + (lines[-1] if lines else
                                                      f"exit status {done.returncode}")}
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="auto", choices=["auto", "c", "python"])
    parser.add_argument("--tt-bits", type=int, default=24, help="transposition table: 2^bits")
    parser.add_argument("--db-max", type=int, default=14, help="largest region in the table")
    parser.add_argument("--time-limit", type=float, default=600.0, help="per board, seconds")
    parser.add_argument("--stretch", action="store_true", help="also the long, larger boards")
    parser.add_argument("--baseline", action="store_true", help="also run without CGT tables")
    parser.add_argument("--boards", nargs="*", help="only these boards, e.g. 3x8 4x6")
    parser.add_argument("--mcgs-6x6", action="store_true",
                        help="only the 6x6 openings solved by the MCGS authors")
    parser.add_argument("--table", action="store_true",
                        help="every rectangle of at most 30 squares (--max-squares)")
    parser.add_argument("--max-squares", type=int, default=30)
    parser.add_argument("--markdown", action="store_true", help="--table as a Markdown table")
    parser.add_argument("--reference",
                        help="also solve each board with the engine built from this version of "
                        "_cclobber.c: a file, or a git revision (main, a1b2c3d) whose "
                        "src/parlour/analysis/_cclobber.c is read with git show")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--module", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(solve_one(args.one, args.engine, args.tt_bits, args.db_max,
                                   args.time_limit, args.module)))
        return
    if args.reference:
        from parlour.analysis import cengine

        build = Path(tempfile.mkdtemp(prefix="clobber-reference-"))
        source = reference_source(args.reference, build)
        args.reference_module = str(cengine.compile_engine(build, source=source))
        run_reference(args)
        return

    if args.mcgs_6x6:
        run_6x6(args)
        return
    if args.table:
        run_table(args)
        return
    boards = args.boards or list(
        dict.fromkeys(ISSUE_BOARDS + small_boards() + (STRETCH_BOARDS if args.stretch else []))
    )
    header = (
        f"{'board':>6} {'outcome':>8} {'nodes':>13} {'seconds':>9} {'peak MB':>8} "
        f"{'MCGS s':>7} {'MCGS/ours':>9}"
    )
    if args.baseline:
        header += f" {'plain nodes':>13} {'plain s':>9} {'plain/ours':>10}"
    print(f"Clobber solver benchmark (engine={args.engine}, tt 2^{args.tt_bits} entries, "
          f"region table <= {args.db_max} stones, limit {args.time_limit:g} s per board)")
    print(header)
    total = 0.0
    for size in boards:
        row = run_in_child(size, args, args.db_max)
        if "nodes" not in row:
            print(f"{size:>6} {row['outcome']}")
            continue
        total += row["seconds"]
        ref = MCGS_SECONDS.get(size)
        ratio = f"{ref / row['seconds']:.1f}x" if ref and row["outcome"] != "timeout" else ""
        line = (
            f"{size:>6} {row['outcome']:>8} {row['nodes']:>13,} {row['seconds']:>9.2f} "
            f"{row['peak_mb']:>8.0f} {ref if ref is not None else '':>7} {ratio:>9}"
        )
        if args.baseline:
            plain = run_in_child(size, args, 0)
            if "nodes" in plain:
                speed = (
                    f"{plain['seconds'] / row['seconds']:.1f}x"
                    if plain["outcome"] != "timeout" else ">limit"
                )
                line += f" {plain['nodes']:>13,} {plain['seconds']:>9.2f} {speed:>10}"
        print(line, flush=True)
    print(f"total solve time {total:.1f} s")


def reference_source(reference: str, build: Path) -> Path:
    """The reference engine's source: a file, or the engine at a git revision of this clone."""
    if Path(reference).is_file():
        return Path(reference)
    root = Path(__file__).resolve().parent.parent
    try:
        text = subprocess.run(
            ["git", "-C", str(root), "show", f"{reference}:src/parlour/analysis/_cclobber.c"],
            check=True, capture_output=True, text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise SystemExit(f"cannot read the engine at {reference!r} from git: {exc}") from None
    target = build / "_cclobber.c"
    target.write_text(text)
    return target


def run_reference(args: argparse.Namespace) -> None:
    """Each board solved by this engine and by the reference one, one after the other in the
    same run (same machine load): nodes, wall and CPU seconds, and the ratios. With --table,
    every rectangle of at most --max-squares squares (both players moving first)."""
    boards = args.boards or (rectangles(args.max_squares) if args.table else ISSUE_BOARDS)
    print(f"this engine against the one built from {args.reference} "
          f"(tt 2^{args.tt_bits} entries, limit {args.time_limit:g} s per board)")
    if args.markdown:
        print("| board | outcome | nodes before | nodes after | after/before | CPU s before "
              "| CPU s after | after/before |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
    else:
        print(f"{'board':>6} {'outcome':>8} {'nodes':>13} {'CPU s':>8} {'wall s':>8} "
              f"{'ref nodes':>13} {'ref CPU s':>9} {'ref wall s':>10} {'nodes':>6} {'CPU':>6}")
    for size in boards:
        ref = run_in_child(size, args, args.db_max, args.reference_module)
        ours = run_in_child(size, args, args.db_max)
        if "nodes" not in ours or "nodes" not in ref:
            print(f"{size:>6} {ours['outcome']} / {ref['outcome']}", flush=True)
            continue
        if ours["outcome"] not in ("timeout", ref["outcome"]) and ref["outcome"] != "timeout":
            raise SystemExit(f"{size}: the engines disagree: {ours['outcome']} / {ref['outcome']}")
        nodes = ours["nodes"] / max(ref["nodes"], 1)
        cpu = ours["cpu_seconds"] / max(ref["cpu_seconds"], 1e-9)
        if args.markdown:
            outcome = ours["outcome"] if ours["outcome"] != "timeout" else (
                f"not solved in {args.time_limit:g} s")
            print(f"| {size} | {outcome} | {ref['nodes']:,} | {ours['nodes']:,} | {nodes:.2f} "
                  f"| {ref['cpu_seconds']:.2f} | {ours['cpu_seconds']:.2f} | {cpu:.2f} |",
                  flush=True)
            continue
        print(f"{size:>6} {ours['outcome']:>8} {ours['nodes']:>13,} {ours['cpu_seconds']:>8.2f} "
              f"{ours['seconds']:>8.2f} {ref['nodes']:>13,} {ref['cpu_seconds']:>9.2f} "
              f"{ref['seconds']:>10.2f} {ref['nodes'] / ours['nodes']:>5.2f}x "
              f"{ref['cpu_seconds'] / max(ours['cpu_seconds'], 1e-9):>5.2f}x", flush=True)


def run_table(args: argparse.Namespace) -> None:
    """Every rectangle of at most --max-squares squares: outcome, seconds (wall and CPU),
    nodes, peak memory, and MCGS's time where one is known ("-" where none is)."""
    boards = args.boards or rectangles(args.max_squares)
    print(f"every rectangle of at most {args.max_squares} squares (engine={args.engine}, "
          f"tt 2^{args.tt_bits} entries, limit {args.time_limit:g} s per board)")
    if args.markdown:
        print("| board | outcome | seconds | CPU s | nodes | peak MB | MCGS s |")
        print("|---|---|---:|---:|---:|---:|---:|")
    else:
        print(f"{'board':>6} {'outcome':>8} {'seconds':>9} {'CPU s':>9} {'nodes':>15} "
              f"{'peak MB':>8} {'MCGS s':>8}")
    for size in boards:
        row = run_in_child(size, args, args.db_max)
        if "nodes" not in row:
            print(f"{size:>6} {row['outcome']}", flush=True)
            continue
        ref = mcgs_seconds(size)
        outcome = row["outcome"]
        if outcome == "timeout":
            outcome = f"not solved in {args.time_limit:g} s"
        cells = [size, outcome, f"{row['seconds']:.2f}", f"{row['cpu_seconds']:.2f}",
                 f"{row['nodes']:,}", f"{row['peak_mb']:.0f}", f"{ref:,g}" if ref else "-"]
        if args.markdown:
            print("| " + " | ".join(cells) + " |", flush=True)
        else:
            widths = [6, 8, 9, 9, 15, 8, 8]
            print(" ".join(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True)), flush=True)


def run_6x6(args: argparse.Namespace) -> None:
    print("6x6 openings solved by MCGS (their figures: their machine, 4x4/4x5 databases)")
    print(f"{'position':>15} {'winner':>6} {'ours':>8} {'nodes':>13} {'seconds':>9} "
          f"{'peak MB':>8} {'MCGS s':>7}")
    for name, text, winner, mcgs in MCGS_6X6:
        row = run_in_child(text, args, args.db_max)
        if "nodes" not in row:
            print(f"{name:>15} {row['outcome']}")
            continue
        agrees = "" if row["outcome"] in (winner, "timeout") else "  DISAGREES"
        print(f"{name:>15} {winner:>6} {row['outcome']:>8} {row['nodes']:>13,} "
              f"{row['seconds']:>9.1f} {row['peak_mb']:>8.0f} {mcgs:>7}{agrees}", flush=True)


if __name__ == "__main__":
    main()
