"""Build parlour's Clobber opening book (:mod:`parlour.analysis.openings`).

    nice -n 15 python bench/clobber_openings.py                    # the shipped book, 45 min
    nice -n 15 python bench/clobber_openings.py --budget 600 --out /tmp/book.txt.gz
    nice -n 15 python bench/clobber_openings.py --boards 5x6 --budget 900 --resume
    python bench/clobber_openings.py --figures                     # what the shipped book holds

One process, one board after another (5x6 first), each with its share of a time
budget (wall seconds). For each board it solves, level by level from the start position
(both colours moving first are one entry: the key swaps colours), every child of every
position of the level: a child the solver finds won gets the winning move it found, and the
position after that move goes into the book as lost; a child lost for its side to move makes
its parent won. A position every child of which is won is lost. A solve that does not finish
within its limit (``--position-limit``, or what is left of the board's budget) leaves that
position out: nothing is guessed. The book is written (sorted, gzip without a time stamp)
after every board and every minute, so a stopped run still leaves a consistent book.

The hunt's records (6x6, 3x12, 4x8, the long strips) are not copied: they ship in
``clobber-proved.txt.gz`` and :func:`parlour.analysis.openings.lookup` reads both.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import parlour
from parlour.analysis import ClobberSolver, SolverTimeout, openings, proved

OUT = Path(__file__).resolve().parents[1] / "src" / "parlour" / "analysis" / "data" / (
    openings.DATA_FILE)

BOARDS: tuple[tuple[str, float, int, int], ...] = (
    # board, share of the budget, most entries, table bits
    ("5x6", 0.70, 30000, 28),
    ("3x4", 0.005, 2000, 22),
    ("3x5", 0.005, 2000, 22),
    ("3x6", 0.005, 2000, 22),
    ("3x7", 0.01, 2000, 22),
    ("3x8", 0.01, 2000, 24),
    ("4x4", 0.01, 6000, 22),
    ("4x5", 0.03, 12000, 24),
    ("4x6", 0.05, 12000, 24),
    ("5x5", 0.05, 12000, 24),
    ("4x7", 0.115, 12000, 26),
)
"""The boards of the book: the lobby's 5x6 (the default) first, with most of the budget (its
start alone is 676 CPU s), then the small ones; what a board leaves of its share goes to
the next."""


def build(budget: float, position_limit: float, out: Path | None, only: set[str] | None,
          log: Any = print, resume: bool = False) -> proved.Table:
    """Solve the boards' openings within ``budget`` wall seconds; the book's table
    (``resume``: the book at ``out`` is kept and extended, its positions not solved again)."""
    entries: dict[str, tuple[bool, str]] = {}
    if resume and out is not None and out.exists():
        entries.update(proved.read(out.read_bytes(), openings.HEADER).entries)
    started = time.monotonic()
    last_write = [started]
    boards = [b for b in BOARDS if only is None or b[0] in only]
    shares = sum(b[1] for b in boards)
    carry = 0.0
    for size, share, cap, bits in boards:
        board_budget = budget * share / shares + carry
        board_started = time.monotonic()
        before = len(entries)
        depth = book_board(size, board_budget, position_limit, cap, bits, entries,
                           lambda: save(entries, out, last_write), log)
        spent = time.monotonic() - board_started
        carry = max(board_budget - spent, 0.0)  # what a board leaves goes to the next
        log(f"{size}: {len(entries) - before:,} entries, levels expanded: {depth}, "
            f"{spent:.0f} s")
        save(entries, out, last_write, force=True)
    log(f"total: {len(entries):,} entries in {time.monotonic() - started:.0f} s")
    return table_of(entries)


def table_of(entries: dict[str, tuple[bool, str]]) -> proved.Table:
    return proved.Table(dict(entries), max((proved.live_stones(k) for k in entries), default=0))


def save(entries: dict[str, tuple[bool, str]], out: Path | None, last: list[float],
         force: bool = False) -> None:
    """Write the book when a minute has passed since the last write (or ``force``)."""
    if out is None or not (force or time.monotonic() - last[0] >= 60):
        return
    out.write_bytes(proved.write(table_of(entries), openings.HEADER))
    last[0] = time.monotonic()


def book_board(size: str, budget: float, position_limit: float, cap: int, bits: int,
               entries: dict[str, tuple[bool, str]], tick: Any, log: Any) -> int:
    """Expand the levels of one board into ``entries``; the number of levels expanded in
    full."""
    game: Any = parlour.load_game("clobber", size=size)
    solver = ClobberSolver(game, tt_bits=bits)
    deadline = time.monotonic() + budget
    start = game.new_initial_state()
    level = [start]
    depth = 0
    while level:
        after: dict[str, Any] = {}
        for state in level:
            if time.monotonic() >= deadline or board_entries(entries, size) >= cap:
                return depth
            expand(state, solver, entries, deadline, position_limit, size)
            tick()
            for action in state.legal_actions():
                child = state.child(action)
                key = proved.key(child)
                if key in entries and key not in after and not child.is_terminal():
                    after[key] = child
        depth += 1
        log(f"  {size} level {depth}: {len(after):,} positions, "
            f"{board_entries(entries, size):,} entries")
        level = list(after.values())
    return depth


_COUNTS: dict[str, set[str]] = {}


def board_entries(entries: dict[str, tuple[bool, str]], size: str) -> int:
    """How many entries ``size`` added (its own count: boards share keys rarely)."""
    return len(_COUNTS.get(size, ()))


def put(entries: dict[str, tuple[bool, str]], key: str | None, wins: bool, size: str) -> None:
    assert key is not None
    there = entries.setdefault(key, (wins, openings.RECORD))
    if there[0] != wins:  # the solver contradicting itself: stop, never ship it
        raise SystemExit(f"{size}: the solver decided {key!r} both ways")
    _COUNTS.setdefault(size, set()).add(key)


def expand(state: Any, solver: ClobberSolver, entries: dict[str, tuple[bool, str]],
           deadline: float, position_limit: float, size: str) -> None:
    """Decide ``state`` (a search of its own first, its moves in the solver's order, so a
    won position is decided by its winning move), then every child of it that the limits
    allow, each child its share of the time left (one hard child cannot take it all)."""
    own = proved.key(state)
    if own not in entries and not state.is_terminal():
        left = min(position_limit, (deadline - time.monotonic()) / 2)
        try:
            solution = solver.solve(state, time_limit=max(left, 1e-3))
        except SolverTimeout:
            pass
        else:
            put(entries, own, solution.mover_wins, size)
            if solution.mover_wins:
                put(entries, proved.key(state.child(solution.winning_actions[0])), False, size)
    won_child = lost_child = undecided = 0
    actions = state.legal_actions()
    for number, action in enumerate(actions):
        child = state.child(action)
        key = proved.key(child)
        if key not in entries:
            share = (deadline - time.monotonic()) / (len(actions) - number)
            left = min(position_limit, max(share, 1.0), deadline - time.monotonic())
            if left <= 0:
                undecided += 1
                continue
            try:
                solution = solver.solve(child, time_limit=left)
            except SolverTimeout:
                undecided += 1
                continue
            put(entries, key, solution.mover_wins, size)
            if solution.mover_wins:
                below = child.child(solution.winning_actions[0])
                put(entries, proved.key(below), False, size)
        if entries[key or ""][0]:
            won_child += 1
        else:
            lost_child += 1
    if own in entries or state.is_terminal():
        return
    if lost_child:
        put(entries, own, True, size)
    elif not undecided:
        put(entries, own, False, size)


def levels(size: str, table: proved.Table, most: int = 20000) -> tuple[int, int, int]:
    """How deep ``table`` answers ``size`` from its start: the levels (plies) every position
    of which it decides, the positions of the next level and how many of those it decides
    (at most ``most`` positions are looked at)."""
    start = parlour.load_game("clobber", size=size).new_initial_state()
    level = {proved.key(start): start}
    depth = 0
    while level:
        decided = sum(1 for state in level.values() if openings.lookup(state, table))
        if decided < len(level):
            return depth, len(level), decided
        after: dict[str | None, Any] = {}
        for state in level.values():
            for action in state.legal_actions():
                child = state.child(action)
                if not child.is_terminal():
                    after.setdefault(proved.key(child), child)
            if len(after) > most:
                return depth + 1, len(after), -1
        level = after
        depth += 1
    return depth, 0, 0


def figures(path: Path) -> None:
    """What the book at ``path`` holds and answers, and how fast a lookup is."""
    table = proved.read(path.read_bytes(), openings.HEADER)
    lost = sum(1 for wins, _ in table.entries.values() if not wins)
    print(f"{path.name}: {path.stat().st_size:,} bytes, {len(table.entries):,} positions "
          f"({len(table.entries) - lost:,} won, {lost:,} lost for the side to move)")
    known = openings.known()
    print("| board | start | moves answered in full | the next level | start's lookup |")
    print("|---|---|---:|---|---:|")
    for size, *_ in (*BOARDS, ("6x6", 0, 0, 0)):
        start = parlour.load_game("clobber", size=size).new_initial_state()
        took = []
        for _ in range(5):  # the quickest of five: the machine is shared
            began = time.perf_counter()
            proof = openings.lookup(start, known)
            took.append(time.perf_counter() - began)
        told = ("not decided" if proof is None else
                "N (White first wins)" if proof.mover_wins else "P (White first loses)")
        depth, following, decided = levels(size, known)
        full = "-" if depth == 0 else "the start" if depth == 1 else f"{depth - 1}"
        nxt = ("-" if not following else f"{following:,}+ positions, not counted" if decided < 0
               else f"{decided:,} of {following:,} positions")
        print(f"| {size} | {told} | {full} | {nxt} | {min(took) * 1000:.1f} ms |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=float, default=2700.0,
                        help="wall seconds for the whole book (default 2700)")
    parser.add_argument("--position-limit", type=float, default=600.0,
                        help="wall seconds for one position's solve (default 600)")
    parser.add_argument("--boards", help="only these boards, comma-separated (e.g. 4x4,4x5)")
    parser.add_argument("--out", type=Path, default=OUT, help="the book file to write")
    parser.add_argument("--resume", action="store_true",
                        help="keep the book at --out and extend it (a run that was stopped)")
    parser.add_argument("--figures", action="store_true", help="print what the book holds")
    args = parser.parse_args()
    if args.figures:
        figures(args.out)
        return
    only = set(args.boards.split(",")) if args.boards else None
    build(args.budget, args.position_limit, args.out, only, log=lambda s: print(s, flush=True),
          resume=args.resume)


if __name__ == "__main__":
    main()
