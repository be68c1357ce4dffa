"""Every sub-claim of the hunt's headline proofs, listed from the shipped records and re-solved
one by one in fresh processes: a check that does not go through the hunt's resumed runs.

    python bench/clobber_claims.py list [6x6 3x12 4x8 2x20]      # the claims, the costliest last
    nice -n 10 python bench/clobber_claims.py check --budget 1800 --time-limit 60 \\
        --json bench/clobber_claims_checks.json                  # re-solve the small ones
    python bench/clobber_claims.py report --json bench/clobber_claims_checks.json

Why: a headline proof (6x6 is won by b6b5, 3x12 by b2a2, 4x8 by c3d3, 2x20 by b2b1) is a
tree of records in ``bench/clobber_hunt_records``, each solved over runs resumed from
checkpoints, with some moves decided by records one move below rather than searched. A bug in
resuming, in merging a checkpoint's decided moves or in taking an answer from a record below
would not show in the records themselves. Re-solving each claim from scratch, in a new
process, with another transposition-table size and no checkpoint, would show it.

A claim is one entry of a record's ``decided`` moves: "after MOVE from the record's position
the side to move wins" (a refuted move, ``false`` in the record) or "... loses" (a winning
move, ``true``); the top claim of a board is "after its winning first move the side to move
loses". A claim is *needed* by the proof when the record's side to move loses (every move
must be refuted) or when it is the winning move; a losing move tried before the winning one
was found is listed too, as not needed. A claim whose position has a record of its own leads
on to that record's claims. Each claim has an estimate of its cost: its own record's CPU
seconds when it has one, else its parent's CPU seconds shared out over the parent's decided
moves. ``check`` re-solves the claims cheapest first, each in a child process (``solve``)
with ``--time-limit`` CPU seconds and ``--tt-bits``, until ``--budget`` seconds are spent; a
claim past its limit is counted as not checked. ``--json`` keeps what was checked, and a
second ``check`` with the same file goes on where the first stopped (and tries again, with a
longer limit, a claim that timed out).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RECORDS = Path(__file__).with_name("clobber_hunt_records")
"""The hunt's shipped records, where the claims are read from."""

HUNT_TT_BITS = 28
"""The table size of the hunt's runs (``bench/clobber_hunt.py``'s default)."""

HEADLINES = {
    "6x6": ("6x6", "b6b5", "first-2"),
    "3x12": ("3x12", "b2a2", "3x12+b2a2"),
    "4x8": ("4x8", "c3d3", "4x8+c3d3"),
    "2x20": ("2x20", "b2b1", "2x20+b2b1"),
}
"""Board -> (its start, the winning first move, the record of the position after it)."""


@dataclass
class Claim:
    """One claim of a proof: the position after ``move`` from ``parent``'s position is won
    (``mover_wins``) or lost for its side to move."""

    board: str
    parent: str  # the record the move is decided in ("6x6": the start of the board)
    move: str
    position: str
    mover_wins: bool
    needed: bool
    record: str | None  # the position's own record, when it has one
    estimate: float  # CPU seconds, from the records

    @property
    def name(self) -> str:
        return f"{self.parent}+{self.move}"


def load(name: str) -> dict[str, Any] | None:
    path = RECORDS / f"{name}.json"
    return dict(json.loads(path.read_text())) if path.exists() else None


def after(position: str, move: str) -> str:
    """The position after ``move`` (our notation) from ``position``."""
    import parlour

    state = parlour.load_game("clobber", position=position).new_initial_state()
    state.apply_action(state.string_to_action(move))
    return str(state.position())


def start(board: str) -> str:
    import parlour

    return str(parlour.load_game("clobber", size=board).new_initial_state().position())


def claims(board: str) -> list[Claim]:
    """Every claim of ``board``'s proof, the top one first, then each record's in turn."""
    origin, move, top = HEADLINES[board]
    record = load(top)
    if record is None:
        raise SystemExit(f"no record {top} for {board}")
    first = Claim(board, origin, move, after(start(origin), move), False, True, top, cost(top))
    if first.position != record["position"]:
        raise SystemExit(f"{top}'s position is not {origin} after {move}")
    found = [first]
    below(board, top, record, found)
    return found


@functools.cache
def by_key() -> dict[tuple[Any, ...], str]:
    """Every shipped record, by its position's key (turned, mirrored and moved positions share
    one): how the hunt decided a move by a record of another name."""
    sys.path.insert(0, str(Path(__file__).parent))
    from clobber_hunt import key_of

    return {key_of(json.loads(path.read_text())["position"]): path.stem
            for path in sorted(RECORDS.glob("*.json"))
            if "position" in json.loads(path.read_text())}


def cost(name: str) -> float:
    """A record's CPU seconds, or those of the record it was decided by (a transposition, or
    a move into a solved position)."""
    record = load(name) or {}
    if record.get("cpu"):
        return float(record["cpu"])
    other = record.get("transposition_of") or record.get("by_way_of")
    return cost(str(other).replace(":", "-")) if other else 0.0


def record_of(position: str, name: str) -> str | None:
    """The record of ``position``: the one named ``name``, else one of the same position."""
    if (RECORDS / f"{name}.json").exists():
        return name
    sys.path.insert(0, str(Path(__file__).parent))
    from clobber_hunt import key_of

    return by_key().get(key_of(position))


def below(board: str, name: str, record: dict[str, Any], found: list[Claim]) -> None:
    """The claims of record ``name`` and of the records below it, depth first."""
    position, side = record["position"], record["position"][-1]
    lost = record.get("winner") != side
    decided: dict[str, bool] = record.get("decided", {})
    share = float(record.get("cpu", 0)) / max(1, len(decided))
    for move, wins in decided.items():
        child = after(position, move)
        other = record_of(child, f"{name}+{move}")
        sub = load(other) if other else None
        if sub and (sub.get("winner") == sub["position"][-1]) != (not wins):
            raise SystemExit(f"{other} says the opposite of {name}'s decided {move}")
        found.append(Claim(board, name, move, child, not wins, lost or wins, other,
                           cost(other) if other else share))
        if sub and other == f"{name}+{move}":
            below(board, other, sub, found)


def missing(board: str) -> list[str]:
    """The records of ``board``'s proof where the side to move loses but a legal move has no
    decided entry: a hole in the proof (there should be none)."""
    import parlour

    holes = []
    names = [HEADLINES[board][2], *(c.record for c in claims(board) if c.record)]
    for name in dict.fromkeys(names):
        record = load(name) or {}
        if record.get("winner") == record["position"][-1]:
            continue
        state = parlour.load_game("clobber", position=record["position"]).new_initial_state()
        moves = {state.action_to_string(a) for a in state.legal_actions()}
        holes += [f"{name}+{m}" for m in sorted(moves - set(record.get("decided", {})))]
    return holes


def solve(position: str, tt_bits: int, limit: float) -> dict[str, Any]:
    """Solve ``position`` for its side to move in this process: no checkpoint, no record."""
    import parlour
    from parlour.analysis import ClobberSolver, SolverTimeout

    game = parlour.load_game("clobber", position=position)
    solver = ClobberSolver(game, engine="c", tt_bits=tt_bits)  # type: ignore[arg-type]
    started, cpu = time.monotonic(), time.process_time()
    try:
        wins: bool | None = solver.mover_wins(game.new_initial_state(), time_limit=limit)
    except SolverTimeout:
        wins = None
    return {"mover_wins": wins, "nodes": solver.nodes,
            "wall": round(time.monotonic() - started, 2),
            "cpu": round(time.process_time() - cpu, 2)}


def solve_fresh(position: str, tt_bits: int, limit: float) -> dict[str, Any]:
    """:func:`solve` in a new Python process, so nothing of this one's tables carries over,
    within ``limit`` CPU seconds (the kernel's ``RLIMIT_CPU`` ends it: a machine busy with
    other work does not make a claim time out) and ``WALL_FACTOR`` times as many wall seconds
    (the solver's own limit)."""

    def cap() -> None:
        seconds = max(1, math.ceil(limit))
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))

    done = subprocess.run(
        [sys.executable, __file__, "solve", position, "--tt-bits", str(tt_bits),
         "--time-limit", str(limit * WALL_FACTOR)],
        capture_output=True, text=True, preexec_fn=cap,
    )
    if done.returncode < 0:  # ended by the CPU limit's signal
        return {"mover_wins": None, "nodes": None, "wall": None, "cpu": float(limit)}
    if done.returncode:
        raise RuntimeError(f"the solve of {position} failed: {done.stderr}")
    return dict(json.loads(done.stdout))


WALL_FACTOR = 20
"""A claim's wall limit, in multiples of its CPU limit."""


def selected(boards: list[str]) -> list[Claim]:
    return [c for board in boards or list(HEADLINES) for c in claims(board)]


def check(args: argparse.Namespace) -> None:
    """Re-solve the claims cheapest first until the budget is spent; keep them in --json."""
    if args.tt_bits == HUNT_TT_BITS:
        raise SystemExit(f"--tt-bits {HUNT_TT_BITS} is the hunt's own table size; pick another")
    path = Path(args.json) if args.json else None
    kept: dict[str, Any] = json.loads(path.read_text()) if path and path.exists() else {}
    results: dict[str, Any] = kept.get("checked", {})
    order = sorted(selected(args.boards), key=lambda c: c.estimate)
    started = time.monotonic()
    for claim in order:
        if time.monotonic() - started > args.budget:
            break
        earlier = results.get(claim.name)
        if earlier and (earlier["mover_wins"] is not None or earlier["limit"] >= args.time_limit):
            continue
        got = solve_fresh(claim.position, args.tt_bits, args.time_limit)
        got.update(expected=claim.mover_wins, limit=args.time_limit, tt_bits=args.tt_bits)
        results[claim.name] = got
        verdict = ("timeout" if got["mover_wins"] is None else
                   "agrees" if got["mover_wins"] == claim.mover_wins else "DISAGREES")
        print(f"{claim.name}: {verdict} ({got['cpu']:.1f} s CPU)", flush=True)
        if path:
            path.write_text(json.dumps({"tt_bits": args.tt_bits, "checked": results},
                                       indent=1, sort_keys=True) + "\n")
    table(args.boards, results)
    if any(r["mover_wins"] is not None and r["mover_wins"] != r["expected"]
           for r in results.values()):
        sys.exit(1)


def tally(claims_: list[Claim], results: dict[str, Any]) -> dict[str, Any]:
    """One board's counts: claims, needed, re-solved agreeing / disagreeing, timed out, not
    tried, and the CPU seconds of the re-solves."""
    got = [results.get(c.name) for c in claims_]
    solved = [(c, r) for c, r in zip(claims_, got, strict=True)
              if r and r["mover_wins"] is not None]
    return {
        "claims": len(claims_), "needed": sum(c.needed for c in claims_),
        "agree": sum(r["mover_wins"] == c.mover_wins for c, r in solved),
        "disagree": sum(r["mover_wins"] != c.mover_wins for c, r in solved),
        "needed_agree": sum(c.needed and r["mover_wins"] == c.mover_wins for c, r in solved),
        "timeout": sum(1 for r in got if r and r["mover_wins"] is None),
        "not_tried": sum(r is None for r in got),
        "cpu": round(sum(r["cpu"] for r in got if r), 1),
        "largest_estimate": max((c.estimate for c, r in solved), default=0.0),
    }


def table(boards: list[str], results: dict[str, Any]) -> None:
    head = ["board", "claims", "needed", "agree", "(needed)", "disagree", "timeout",
            "not tried", "CPU s", "largest est. s"]
    print("  ".join(head))
    for board in boards or list(HEADLINES):
        t = tally(claims(board), results)
        print("  ".join(str(x) for x in [
            board, t["claims"], t["needed"], t["agree"], t["needed_agree"], t["disagree"],
            t["timeout"], t["not_tried"], t["cpu"], round(t["largest_estimate"])]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["list", "check", "report", "solve"])
    parser.add_argument("boards", nargs="*", help="6x6 3x12 4x8 2x20 (all by default); "
                        "solve: a position")
    parser.add_argument("--tt-bits", type=int, default=24,
                        help=f"the re-solve's table size (the hunt used {HUNT_TT_BITS})")
    parser.add_argument("--time-limit", type=float, default=60.0, help="CPU seconds per claim")
    parser.add_argument("--budget", type=float, default=1800.0, help="wall seconds for check")
    parser.add_argument("--json", help="what was checked: read, extended, written")
    args = parser.parse_args()
    if args.command == "solve":
        print(json.dumps(solve(args.boards[0], args.tt_bits, args.time_limit)))
        return
    for board in args.boards:
        if board not in HEADLINES:
            raise SystemExit(f"unknown board {board!r}: {', '.join(HEADLINES)}")
    if args.command == "list":
        for board in args.boards or list(HEADLINES):
            for c in sorted(claims(board), key=lambda c: c.estimate):
                print(f"{c.name:<28} {'wins' if c.mover_wins else 'loses':<5} "
                      f"{'needed' if c.needed else 'tried':<6} {c.estimate:>9.1f} s  "
                      f"{c.record or '-'}")
            print(f"{board}: holes {missing(board) or 'none'}")
    elif args.command == "check":
        check(args)
    else:
        kept = json.loads(Path(args.json).read_text()) if args.json else {}
        table(args.boards, kept.get("checked", {}))


if __name__ == "__main__":
    main()
