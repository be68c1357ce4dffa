"""The compiled Clobber engine against an older one on a fixed set of hunt targets, in one run.

    python bench/clobber_engine_speed.py                     # against REFERENCE, every target
    python bench/clobber_engine_speed.py --reference main --targets g1m5 g4m5
    python bench/clobber_engine_speed.py --rounds 2          # each pair twice (ABBA order)
    python bench/clobber_engine_speed.py --instructions      # also callgrind instruction counts
    python bench/clobber_engine_speed.py --list              # the targets and their positions

The reference engine is ``_cclobber.c`` as it was at a git revision (or a file), compiled by
the script into a temporary folder (``cengine.compile_engine``); today's is the one this
checkout builds the same way, so both get the same compiler and flags. Each target (a position
of ``bench/clobber_hunt.py``: an opening of the MCGS 6x6 page, a strip, a line) is solved
for its side to move by both engines, one after the other, each in a fresh process with a cold
table of 2^``--tt-bits`` entries and no disk cache; with ``--rounds 2`` the second round runs
them in the other order, so that a change of the machine's load weighs on both alike. Printed:
the result (both must agree), nodes, CPU seconds and their ratio, reference over today's
(above 1: today's is faster), and the total over the set.

CPU seconds depend on what else the machine runs (caches, memory bandwidth); with
``--instructions`` each target is also run under ``valgrind --tool=callgrind`` (collecting
only inside the engine's ``win`` call), whose instruction counts do not depend on the load.
Valgrind runs some 50 times slower, so that is for small boards (``--instructions-max``).
Instructions do not count cache misses, which the big tables make the larger share of the
time on long solves: the two figures together say what a change buys.

The targets are chosen to take 10-60 CPU seconds each on the project's 2-core machine (the
hunt's own targets take hours; this set is what can be measured twice in one sitting beside
other work). Their records in ``bench/clobber_hunt_records/`` give the costs of the hunt's runs.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import clobber_hunt  # noqa: E402
import clobber_solver  # noqa: E402

REFERENCE = "a97a76d"
"""The engine before issue 67's speed-ups (main when they started)."""

TARGETS = ["g1m5", "g3m6", "g6m4", "g5m5", "2x16"]
"""Hunt targets of 10-60 CPU seconds each (the hunt's records: 17, 34, 44, 60 and 60 s).
``g4m5`` and ``g8m4`` are not among them: they are ``g1m5`` and ``g6m4`` turned or mirrored
(the same regions), which would count twice; the script refuses such a pair."""

SMALL = ["4x5", "3x6", "2x9"]
"""What ``--instructions`` runs under callgrind by default: boards (both sides of the start),
small enough for valgrind (16,000 to 46,000 nodes); hunt target names are taken too."""


def build(source: Path, folder: Path) -> str:
    from parlour.analysis import cengine

    return str(cengine.compile_engine(folder, source=source))


def solve(position: str, module: str, args: argparse.Namespace) -> dict:
    """One solve in a fresh process (``bench/clobber_solver.py --one``)."""
    options = argparse.Namespace(engine="c", tt_bits=args.tt_bits, time_limit=args.time_limit)
    return clobber_solver.run_in_child(position, options, 14, module)


def instructions(position: str, module: str, args: argparse.Namespace) -> int | None:
    """Instructions executed inside the engine's ``win`` (callgrind), or None without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    with tempfile.TemporaryDirectory(prefix="clobber-callgrind-") as folder:
        out = Path(folder) / "callgrind.out"
        command = [
            "valgrind", "--tool=callgrind", "--toggle-collect=Engine_win",
            f"--callgrind-out-file={out}",
            sys.executable, str(BENCH / "clobber_solver.py"), "--one", position,
            "--engine", "c", "--tt-bits", str(args.tt_bits), "--db-max", "14",
            "--time-limit", "0", "--module", module,
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        found = re.search(r"^summary:\s+(\d+)", out.read_text(), re.M) if out.exists() else None
        if done.returncode != 0 or found is None:
            raise SystemExit(f"callgrind failed on {position}: {done.stderr[-400:]}")
        return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", default=REFERENCE,
                        help="the older engine: a _cclobber.c file or a git revision")
    parser.add_argument("--targets", nargs="*", default=TARGETS)
    parser.add_argument("--tt-bits", type=int, default=26)
    parser.add_argument("--time-limit", type=float, default=3600.0, help="per solve, seconds")
    parser.add_argument("--rounds", type=int, default=1, help="1, or 2 (the second reversed)")
    parser.add_argument("--instructions", action="store_true", help="also callgrind counts")
    parser.add_argument("--instructions-max", nargs="*", default=SMALL,
                        help="the targets run under callgrind")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    every = clobber_hunt.targets([*args.targets, *args.instructions_max])
    if args.list:
        for name in args.targets:
            print(f"{name:>10}  {every[name][0]}  {every[name][1]}")
        return
    seen: dict[object, str] = {}
    for name in args.targets:
        same = seen.setdefault(clobber_hunt.key_of(every[name][0]), name)
        if same != name:
            raise SystemExit(f"{name} is {same} turned or mirrored: it would count twice")
    folder = Path(tempfile.mkdtemp(prefix="clobber-engine-speed-"))
    (folder / "ref").mkdir()
    old_source = clobber_solver.reference_source(args.reference, folder / "ref")
    from parlour.analysis import cengine

    old = build(old_source, folder / "ref")
    new = build(cengine.SOURCE, folder / "new")
    print(f"today's engine against the one of {args.reference}: fresh process per solve, "
          f"tt 2^{args.tt_bits}, side to move of each target")
    print(f"{'target':>10} {'winner':>6} {'ref nodes':>13} {'nodes':>13} {'ref CPU s':>9} "
          f"{'CPU s':>8} {'ref/new':>7}")
    totals = {"ref": 0.0, "new": 0.0}
    for round_ in range(args.rounds):
        for name in args.targets:
            position = every[name][0]
            order = [("ref", old), ("new", new)]
            if round_ % 2:
                order.reverse()
            rows = {side: solve(position, module, args) for side, module in order}
            ref, ours = rows["ref"], rows["new"]
            if "nodes" not in ref or "nodes" not in ours:
                print(f"{name:>10} {ref['outcome']} / {ours['outcome']}", flush=True)
                continue
            if ref["outcome"] != ours["outcome"]:
                raise SystemExit(f"{name}: the engines disagree: {ref['outcome']} / "
                                 f"{ours['outcome']}")
            totals["ref"] += ref["cpu_seconds"]
            totals["new"] += ours["cpu_seconds"]
            print(f"{name:>10} {ours['outcome']:>6} {ref['nodes']:>13,} {ours['nodes']:>13,} "
                  f"{ref['cpu_seconds']:>9.2f} {ours['cpu_seconds']:>8.2f} "
                  f"{ref['cpu_seconds'] / max(ours['cpu_seconds'], 1e-9):>6.2f}x", flush=True)
    print(f"{'all':>10} {'':>6} {'':>13} {'':>13} {totals['ref']:>9.2f} {totals['new']:>8.2f} "
          f"{totals['ref'] / max(totals['new'], 1e-9):>6.2f}x")
    if args.instructions:
        print("\ninstructions inside the engine (callgrind; independent of the machine's load)")
        print(f"{'target':>10} {'ref instructions':>17} {'instructions':>17} {'ref/new':>7}")
        for name in args.instructions_max:
            position = every[name][0] if name in every else name
            ref_i, new_i = instructions(position, old, args), instructions(position, new, args)
            if ref_i is None or new_i is None:
                print("valgrind is not installed: no instruction counts")
                break
            print(f"{name:>10} {ref_i:>17,} {new_i:>17,} {ref_i / new_i:>6.2f}x", flush=True)
    print(json.dumps({"reference": args.reference, "tt_bits": args.tt_bits, **totals}))


if __name__ == "__main__":
    main()
