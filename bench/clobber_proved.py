"""Build parlour's data of proved Clobber positions from the hunt's records.

    python bench/clobber_proved.py                      # rewrites the shipped data file
    python bench/clobber_proved.py --out /tmp/p.txt.gz  # elsewhere (the test compares)
    python bench/clobber_proved.py --records hunt       # from a run's records
    python bench/clobber_proved.py --figures            # what the shipped data answers

Every record of ``bench/clobber_hunt_records/`` (see ``clobber_hunt.py``) decides positions:

- a solved target's own position: won or lost for its side to move;
- its winning moves: the position after each is lost for its side to move;
- every move it decided (``decided``: a move that wins, or one refuted): the position after
  it is lost, or won, for its side to move.

Each becomes one line of ``src/parlour/analysis/data/clobber-proved.txt.gz``, keyed as the
solver's tables key a position (:mod:`parlour.analysis.proved`), with the record's name. A
position that two records decide is kept once (a record's own position before the positions
one move below another's); two records that disagree stop the build. The moves one ply above
these positions are not stored: :func:`parlour.analysis.proved.lookup` works them out when
asked.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import clobber_hunt  # bench/, beside this script
from parlour.analysis import proved

OUT = Path(__file__).resolve().parents[1] / "src" / "parlour" / "analysis" / "data" / (
    proved.DATA_FILE)
"""The shipped data file."""


def records(directory: Path) -> dict[str, dict[str, Any]]:
    """Every record in ``directory``, by target name (``first:2``, ``3x12+b2a2``...)."""
    found = {}
    for path in sorted(directory.glob("*.json")):
        name = path.stem.replace("first-", "first:", 1)
        found[name] = clobber_hunt.load_state(directory, name)
    return found


def decided_positions(directory: Path) -> proved.Table:
    """The table of every position the records in ``directory`` decide."""
    import parlour

    every = records(directory)
    targets = clobber_hunt.targets(list(every))
    own: dict[str, tuple[bool, str]] = {}
    below: dict[str, tuple[bool, str]] = {}
    for name, record in every.items():
        position = targets[name][0]
        if record.get("position", position) != position:
            raise SystemExit(f"{name}: the record's position is not the target's")
        state = parlour.load_game("clobber", position=position).new_initial_state()
        side = position[-1]
        if record.get("winner"):
            add(own, proved.key(state), record["winner"] == side, name)
        moves = dict.fromkeys(record.get("winning_moves") or [], True)
        for move, wins in {**record.get("decided", {}), **moves}.items():
            child = state.child(state.string_to_action(move))
            add(below, proved.key(child), not wins, name)
    for text, (wins, name) in below.items():
        add(own, text, wins, name)  # a record's own position comes first
    return proved.Table(own, max(proved.live_stones(k) for k in own))


def add(table: dict[str, tuple[bool, str]], text: str | None, wins: bool, name: str) -> None:
    """Keep ``text`` decided as ``wins`` by record ``name``, unless it is there already (and
    agrees: a record that contradicts another stops the build)."""
    assert text is not None  # the records are plain Clobber on a grid
    there = table.setdefault(text, (wins, name))
    if there[0] != wins:
        raise SystemExit(f"records {there[1]} and {name} disagree on the position {text!r}")


def laid_out(text: str) -> str:
    """A position of a key's regions, each with empty squares around it, Black (``x``, the
    key's side to move) to move (:func:`parlour.analysis.openings.position_of`)."""
    from parlour.analysis import openings

    return openings.position_of(text)


def above_lost(table: proved.Table) -> set[str]:
    """The keys of the positions with a move into a position the table holds lost for its
    side to move (``lookup`` answers them as won), not themselves in the table: every capture
    undone in the lost positions laid out apart, so a lower bound (regions placed otherwise
    could give more)."""
    import parlour

    found: set[str] = set()
    for text, (wins, _) in table.entries.items():
        if wins:
            continue
        board, _ = laid_out(text).split()
        columns, cells = len(board.split("/")[0]), list(board.replace("/", ""))
        for target, mark in enumerate(cells):  # Black (to move) was just captured here by o
            if mark != "o":
                continue
            row, column = divmod(target, columns)
            for r, c in ((row + 1, column), (row - 1, column), (row, column + 1),
                         (row, column - 1)):
                source = r * columns + c
                if 0 <= c < columns and 0 <= source < len(cells) and cells[source] == ".":
                    before = cells.copy()
                    before[source], before[target] = "o", "x"
                    ranks = ["".join(before[i:i + columns])
                             for i in range(0, len(before), columns)]
                    state = parlour.load_game(
                        "clobber", position="/".join(ranks) + " o").new_initial_state()
                    found.add(proved.key(state) or "")
    return found - set(table.entries)


def figures(table: proved.Table) -> None:
    """What the data answers, and how fast a lookup is (the 6x6 start, 60 moves)."""
    import parlour

    above = above_lost(table)
    print(f"positions one move above a lost one (lookup answers them as won), not in the "
          f"data: at least {len(above):,}")
    state = parlour.load_game("clobber", size="6x6").new_initial_state()
    started = time.perf_counter()
    for _ in range(10):
        proof = proved.lookup(state, table)
    print(f"lookup of the 6x6 start: {(time.perf_counter() - started) / 10:.3f} s "
          f"({proof.describe() if proof else 'not decided'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=Path, default=clobber_hunt.SHIPPED,
                        help="a folder of hunt records (default: the shipped ones)")
    parser.add_argument("--out", type=Path, default=OUT, help="the data file to write")
    parser.add_argument("--figures", action="store_true",
                        help="print what the shipped data answers (writes nothing)")
    args = parser.parse_args()
    if args.figures:
        figures(proved.shipped())
        return
    table = decided_positions(args.records)
    data = proved.write(table)
    args.out.write_bytes(data)
    won = sum(wins for wins, _ in table.entries.values())
    print(f"{args.out}: {len(table.entries):,} positions ({won:,} won and "
          f"{len(table.entries) - won:,} lost for the side to move) from "
          f"{len({r for _, r in table.entries.values()})} records, up to {table.max_stones} "
          f"stones, {len(data):,} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
