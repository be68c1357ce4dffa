"""What the web's Clobber analysis board costs: one answer of ``POST /api/analyse/clobber``.

    python bench/analysis_board.py                   # start positions 3x6, 3x7, 4x5, 4x6, 5x5
    python bench/analysis_board.py --limit 5 3x6 "xo../..ox/oxxo x"

Each position is answered in a fresh process (cold solver tables and values, as in a new
analysis worker) by :func:`parlour.server.study.analyse.analyse`, the job the server's worker runs,
under the server's default solve limit. Beside it, in the same process, the reference: the
bare ``solve(state, all_moves=True)`` the answer starts with, so "extra" is what the regions,
their values and the principal line add. Printed, not asserted: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

BOARDS = ["3x6", "3x7", "4x5", "4x6", "5x5"]

CHILD = r"""
import json, sys, time
import parlour
from parlour.analysis import SolverTimeout, solve
from parlour.server.study.analyse import analyse
text, limit = sys.argv[1], float(sys.argv[2])
game = parlour.load_game("clobber", size=text) if " " not in text else \
    parlour.load_game("clobber", position=text)
position = game.new_initial_state().position()
started = time.monotonic()
answer = analyse(position, limit)
total = time.monotonic() - started
# the reference in the same process, with the tables now warm for this shape: a fresh
# solver for it, so it is cold too
from parlour.analysis import ClobberSolver
started = time.monotonic()
try:
    ClobberSolver(game).solve(game.new_initial_state(), all_moves=True, time_limit=limit)
    bare = time.monotonic() - started
except SolverTimeout:
    bare = None
print(json.dumps({"answer": answer, "total": total, "bare": bare}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("positions", nargs="*", default=BOARDS,
                        help="board sizes (start positions) or position texts (C6)")
    parser.add_argument("--limit", type=float, default=5.0,
                        help="the solve limit in seconds (the server's analysis_seconds)")
    args = parser.parse_args()
    print(f"{'position':38} {'answer':>9} {'solve':>8} {'answer s':>9} {'bare s':>7} "
          f"{'extra s':>8} {'line':>9} regions")
    for text in args.positions:
        out = subprocess.run([sys.executable, "-c", CHILD, text, str(args.limit)],
                             capture_output=True, text=True, check=True, timeout=120)
        row = json.loads(out.stdout)
        answer = row["answer"]
        if not answer["solved"]:
            print(f"{text:38} {'unsolved':>9} {'-':>8} {row['total']:9.2f} "
                  f"{'-' if row['bare'] is None else format(row['bare'], '.2f'):>7}")
            continue
        bare = row["bare"]
        line = f"{len(answer['line'])}{'' if answer['line_complete'] else '+'}"
        regions = ", ".join(f"{r['stones']}:{r['outcome'] or '?'}:{r['value'] or '-'}"
                            for r in answer["regions"])
        print(f"{text:38} {answer['winner'] + ' wins':>9} {answer['seconds']:8.2f} "
              f"{row['total']:9.2f} {bare:7.2f} {row['total'] - answer['seconds']:8.2f} "
              f"{line:>9} {regions}")


if __name__ == "__main__":
    main()
