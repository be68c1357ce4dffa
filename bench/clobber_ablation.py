"""One solve of a board's start position (the first player's side only) with engine options.

    python bench/clobber_ablation.py 4x7                                  # today's defaults
    python bench/clobber_ablation.py 4x7 '{"order_mode": 0}'              # no pattern history
    python bench/clobber_ablation.py 4x7 '{"order_mode": 1}'              # unit history weights
    python bench/clobber_ablation.py 4x7 '{"tt_bits": 18}'                # a smaller table
    python bench/clobber_ablation.py 4x7 '{"db_max": 16}'                 # a larger region table

Prints the result, nodes, wall and CPU seconds, peak memory and the engine's counters
(``cut_first``: nodes whose first move tried refuted; ``cut_later`` / ``tried_later``: the
others and how many moves they tried), which is how the levers of issue 21 were measured.
"""

from __future__ import annotations

import json
import resource
import sys
import time

import parlour
from parlour.analysis import ClobberSolver


def main() -> None:
    size = sys.argv[1]
    options = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else 600.0
    tt_bits = options.pop("tt_bits", 24)
    db_max = options.pop("db_max", 14)
    game = parlour.load_game("clobber", size=size)
    solver = ClobberSolver(game, tt_bits=tt_bits, db_max_stones=db_max, c_options=options)
    state = game.new_initial_state()
    wall, cpu = time.perf_counter(), time.process_time()
    result = "wins" if solver.mover_wins(state, limit) else "loses"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{size} {options} tt 2^{tt_bits} db<={db_max}: first player {result}, "
          f"{solver.nodes:,} nodes, {time.perf_counter() - wall:.2f} s wall, "
          f"{time.process_time() - cpu:.2f} s CPU, {peak:.0f} MB; {solver.c_engine.stats}")


if __name__ == "__main__":
    main()
