"""The hunt for new Clobber results: the openings on the MCGS "Solving 6x6 Clobber" page,
6x6's first moves, and the boards past what MCGS checked (the longer strips, 4x8, 5x7, 6x6).

    python bench/clobber_hunt.py list                        # every target, what MCGS reported
    nice -n 19 python bench/clobber_hunt.py run mcgs --dir hunt --time-limit 7200
    nice -n 19 python bench/clobber_hunt.py run first:3 --dir hunt   # one first move of 6x6
    nice -n 19 python bench/clobber_hunt.py run 2x19 --dir hunt      # a board from its start
    python bench/clobber_hunt.py run 2x20+b2c2 --dir hunt --workers 2 --tt-bits 30  # Ray
    python bench/clobber_hunt.py report --dir hunt [--markdown]      # what is decided so far
    python bench/clobber_hunt.py report --lines first:2 --dir hunt   # the lines below a target

Targets:

- ``g3m4`` ... : the position after move ``m`` of game ``g`` on the MCGS page (Folkersen, Du
  and Müller's hunt through 6x6 openings: Black, on a1 in their drawing, moves first; their
  row 1 is the top rank, ours is the bottom one, so their f2 is our f5). ``mcgs`` names the
  page's solved and unsolved ones, the easiest (by MCGS's time) first; ``games`` names every
  position of its games, move 1 to the last (a solved one decides its neighbours: a move into
  a position lost for its side to move wins, a reply that wins refutes the move before it).
  ``report`` shows the ones outside ``mcgs`` once they have a record.
- ``first:K`` (K = 1..15): the K-th of the 15 distinct first moves of 6x6 up to the board's
  symmetries (the start position of ``--size 6x6``, White moving first; by symmetry the same
  game as the MCGS page's). The target is the position after that move, the opponent to
  move: if the opponent wins it, the first move is refuted; if not, it wins and 6x6 is a
  first-player win. ``first`` names all fifteen.
- ``RxC`` (``2x19``, ``3x12``, ``4x8``, ...): that board from its start, White first.
  ``strips`` names the strips past MCGS's checks of its conjectures ("2xn is P iff n = 0 mod
  3", checked to n = 17; "3xn is P iff n is even", to n = 10), ``boards`` 4x8, 5x7 and 6x6
  (6x6 by way of ``first:2``, its first move b6b5, solved as lost for the side after it).
- ``BASE+MOVE`` (``2x20+b2c2``, ``first:3+f5f4``, more moves with more ``+``): the position
  after those moves (our notation) from target BASE. Solved as a loss for its side to move,
  it gives BASE its winning move (``run`` and ``report`` look at every such record): a way to
  prove a conjectured winning move alone, or to refute a first move with a chosen reply.

Each target is solved in a fresh child process, one at a time, its moves tried in the solver's
order, each to its end (``--root-budget N``: in passes of growing node budgets instead), with
a checkpoint ``DIR/NAME.ckpt`` saved every ``--every`` seconds and when it stops (the time
limit, SIGTERM, Ctrl-C). ``DIR/NAME.json`` keeps the totals over every run of that target
(nodes, wall and CPU seconds, runs), the moves decided so far and, once solved, the winner and
its winning move; running the same command again resumes. ``report`` prints them.
Solved targets decide moves one ply up before any search: a target with a move into a
position lost for its side to move is won with it at once; a move into a position its side to
move wins is refuted by that proof, counted as decided and not searched (``report`` counts it
among the refuted moves and names the target below).
``--workers N`` solves a target on N local Ray workers sharing one transposition table
(``--tt-bits``) instead, with no checkpoint: for a target that should end within one run.

The records of the hunt so far ship beside this script (``bench/clobber_hunt_records/``): a
target with no record in ``--dir`` starts from its shipped one, so a fresh clone resumes with
the moves already decided (not searched again) and the totals so far, and ``report`` shows
them. The checkpoints (gigabytes of proofs) do not ship; a checkpoint in ``--dir`` is used
when there is one. After a run, copying its records over the shipped ones keeps the progress.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from parlour.games.clobber.game import ClobberGame

MCGS_START = "xoxoxo/oxoxox/xoxoxo/oxoxox/xoxoxo/oxoxox x"
"""The MCGS page's start: Black (x) on their a1 (our a6, the top left) and moving first."""

OTHER = {"x": "o", "o": "x"}
"""The opponent of each side."""

MCGS_GAMES = {
    1: ["f2e2", "b1c1", "e1d1", "a2b2", "e3d3"],
    2: ["a5b5", "e6d6", "b6c6", "f5e5"],
    3: ["a5a4", "a6b6", "f2f3", "f1e1", "c3c4", "a2a3"],
    4: ["e1e2", "f5f4", "f2f3", "e6e5", "d2d3"],
    5: ["b6b5", "a6a5", "c5c4", "a2a3", "d6d5"],
    6: ["f2f3", "e6d6", "e1d1", "f5e5"],
    7: ["a5a4", "a2a3", "b6b5", "b1b2"],
    8: ["b6c6", "f5f4", "a5a4", "e6e5"],
}
"""Each listed game's moves in MCGS's coordinates (row 1 at the top), Black first."""


@dataclass(frozen=True)
class Published:
    """What the MCGS page reports for the position after a game's move."""

    game: int
    move: int
    winner: str | None  # "x" / "o", or None: MCGS did not solve it
    mcgs: str  # their result in words


PUBLISHED = [
    Published(1, 5, "o", "White to play wins (4x4 db, 839 s)"),
    Published(8, 4, "x", "Black to play wins (4x4 db, 1,353 s)"),
    Published(6, 4, "x", "Black to play wins (4x4 db, 1,763 s)"),
    Published(4, 5, "o", "White to play wins (4x4 db, 1,802 s)"),
    Published(3, 6, "x", "Black to play wins (4x4 db, 1,805 s)"),
    Published(3, 5, "o", "White to play wins (4x5 db, 2,809 s)"),
    Published(2, 4, "x", "Black to play wins (4x4 db, 4,258 s)"),
    Published(8, 3, "o", "White to play wins (4x5 db, 4,458 s)"),
    Published(7, 4, "x", "Black to play wins (4x4 db, 8,816 s)"),
    Published(1, 4, "x", "Black to play wins (4x5 db, 22,959 s)"),
    Published(4, 4, "x", "Black to play wins (a transposition of game 1, move 4)"),
    Published(6, 3, "o", "White to play wins (4x5 db, 50,396 s)"),
    Published(3, 4, "o", "Black to play loses (4x5 db, 62,910 s)"),
    Published(5, 4, None, "not solved (4x4 db, timed out after 10,000 s)"),
    Published(5, 5, None, "not solved (listed as to do)"),
    Published(7, 3, None, "not solved (4x5 db, timed out after 100,000 s)"),
    Published(8, 2, None, "not solved (4x5 db, timed out after 200,000 s)"),
]
"""Every position of the page, the easiest for MCGS first (its times, its machine)."""


def clobber(position: str) -> ClobberGame:
    """The game of Clobber from ``position`` (our notation), typed as Clobber for the solver."""
    import parlour

    return cast("ClobberGame", parlour.load_game("clobber", position=position))


def ours(move: str) -> str:
    """An MCGS move (row 1 at the top of a 6-row board) in our notation (rank 1 at the bottom)."""
    return f"{move[0]}{7 - int(move[1])}{move[2]}{7 - int(move[3])}"


def mcgs_position(game: int, moves: int) -> str:
    import parlour

    state = parlour.load_game("clobber", position=MCGS_START).new_initial_state()
    for move in MCGS_GAMES[game][:moves]:
        state.apply_action(state.string_to_action(ours(move)))
    return state.position()


def game_positions() -> list[tuple[int, int]]:
    """Every position of the page's games: (game, move), move 1 to the game's last. The page
    solves a few of them; every other one is a target too, since a solved one can decide its
    neighbours one move away (a win into it, or a refutation of the move before it)."""
    return [(game, move) for game, moves in MCGS_GAMES.items()
            for move in range(1, len(moves) + 1)]


def first_moves() -> list[tuple[str, str]]:
    """The distinct first moves of 6x6 up to symmetry: (move, position after it), in the order
    of the board (a move's class is named by its first move in action order)."""
    import parlour

    state = parlour.load_game("clobber", size="6x6").new_initial_state()
    seen: dict[Any, tuple[str, str]] = {}
    for action in state.legal_actions():
        child = state.child(action).position()
        seen.setdefault(key_of(child), (state.action_to_string(action), child))
    return list(seen.values())


def targets(names: list[str] | tuple[str, ...] = ()) -> dict[str, tuple[str, str]]:
    """Every named target (and any board among ``names``): name -> (position, description)."""
    found: dict[str, tuple[str, str]] = {}
    for p in PUBLISHED:
        found[f"g{p.game}m{p.move}"] = (
            mcgs_position(p.game, p.move),
            f"MCGS game {p.game} after move {p.move}: {p.mcgs}",
        )
    for game, number in game_positions():
        found.setdefault(f"g{game}m{number}", (
            mcgs_position(game, number),
            f"MCGS game {game} after move {number} (the page gives no result)",
        ))
    for k, (move, position) in enumerate(first_moves(), 1):
        found[f"first:{k}"] = (position, f"6x6 (White first) after {move}")
    for board in [*STRIPS, *BOARDS, *(n for n in names if is_board(n))]:
        found[board] = board_target(board)
    for name in names:
        if "+" in name:
            found[name] = line_target(name, found)
    return found


def line_target(name: str, found: dict[str, tuple[str, str]]) -> tuple[str, str]:
    """``BASE+MOVE+...``: the position after those moves (our notation) from target BASE."""
    import parlour

    base, *moves = name.split("+")
    if base not in found and not is_board(base):
        raise SystemExit(f"unknown target {base!r} in {name!r}; `list` shows them")
    position = (found.get(base) or board_target(base))[0]
    state = parlour.load_game("clobber", position=position).new_initial_state()
    for move in moves:
        try:
            state.apply_action(state.string_to_action(move))
        except ValueError as error:
            raise SystemExit(f"{name}: {error}") from None
    return state.position(), f"{base} after {' '.join(moves)}"


def known_lines(directory: Path) -> list[str]:
    """The ``BASE+MOVE`` targets with a record (in ``directory`` or shipped): what a target
    one move above them may take its answer from."""
    return sorted({re.sub(r"^first-", "first:", path.stem)  # file_name's ":" back
                   for folder in (directory, SHIPPED) if folder.is_dir()
                   for path in folder.glob("*+*.json")})


STRIPS = ["2x16", "2x17", "2x18", "2x19", "2x20", "3x11", "3x12"]
"""The strips one to three boards past MCGS's checks of its conjectures."""
BOARDS = ["4x8", "5x7", "6x6"]
"""The boards of at most 36 squares MCGS v1.7 lists unsolved."""


def board_target(board: str) -> tuple[str, str]:
    """A board from its start position (White first), with what MCGS's conjecture says."""
    import parlour

    state = parlour.load_game("clobber", size=board).new_initial_state()
    return state.position(), f"{board} from the start, White first ({conjecture(board)})"


def conjecture(board: str) -> str:
    """What MCGS's conjectures say of a strip: P (second player wins) or N; "-" otherwise."""
    rows, columns = sorted(int(n) for n in board.split("x"))
    if rows == 2:
        return "P by MCGS's conjecture" if columns % 3 == 0 else "N by MCGS's conjecture"
    if rows == 3:
        return "P by MCGS's conjecture" if columns % 2 == 0 else "N by MCGS's conjecture"
    return "no conjecture"


def expand(names: list[str]) -> list[str]:
    every = targets()
    out: list[str] = []
    for name in names:
        if name == "mcgs":
            out += [f"g{p.game}m{p.move}" for p in PUBLISHED]
        elif name == "games":
            out += [f"g{game}m{move}" for game, move in game_positions()]
        elif name == "first":
            out += [n for n in every if n.startswith("first:")]
        elif name in ("strips", "boards"):
            out += STRIPS if name == "strips" else BOARDS
        elif name in every or is_board(name) or "+" in name:
            out.append(name)
        else:
            raise SystemExit(f"unknown target {name!r}; `list` shows them")
    return list(dict.fromkeys(out))


def file_name(name: str) -> str:
    return name.replace(":", "-")


SHIPPED = Path(__file__).with_name("clobber_hunt_records")
"""The hunt's records so far, the starting point of a target with no record in ``--dir``."""


def load_state(directory: Path, name: str) -> dict[str, Any]:
    """The target's record in ``directory``, else the shipped one, else an empty record."""
    for folder in (directory, SHIPPED):
        path = folder / f"{file_name(name)}.json"
        if path.exists():
            return dict(json.loads(path.read_text()))
    return {}


def save_state(directory: Path, name: str, data: dict[str, Any]) -> None:
    path = directory / f"{file_name(name)}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1))
    os.replace(tmp, path)


def run_one(name: str, args: argparse.Namespace) -> None:
    """Solve (or go on solving) one target in this process; update its record."""
    from parlour.analysis import ClobberSolver, SolverTimeout, cengine
    from parlour.analysis.checkpoint import Checkpoint

    directory = Path(args.dir)
    every = targets([name, *known_lines(directory)])
    position, description = every[name]
    record = load_state(directory, name)
    if record.get("winner"):
        print(f"{name}: already solved ({record['winner']} wins)", flush=True)
        return
    same = transposition(name, every, directory)
    if same is not None:  # the same position turned, mirrored or moved: its answer is ours
        solved = load_state(directory, same)
        # the key is the side to move's view: its winner is ours if it is its side to move
        wins = solved["winner"] == every[same][0][-1]
        record.update(position=position, description=description,
                      winner=position[-1] if wins else OTHER[position[-1]],
                      winning_moves=[], transposition_of=same, status="solved", nodes=0,
                      cpu=0, wall=0, runs=0)
        save_state(directory, name, record)
        print(f"{name}: a transposition of {same} ({record['winner']} wins)", flush=True)
        return
    into, below = decided_below(name, every, directory)
    if into is not None:  # a move into a position already known lost for its side to move
        move, other = into
        record.update(position=position, description=description, winner=position[-1],
                      winning_moves=[move], by_way_of=other, status="solved")
        save_state(directory, name, record)
        print(f"{name}: {position[-1]} wins with {move}, into {other}", flush=True)
        return
    game = clobber(position)
    record.setdefault("position", position)
    record.setdefault("description", description)
    if args.workers:
        run_on_ray(name, game, record, args)
        return
    module = cengine.load_from(Path(args.module)) if args.module else None
    solver = ClobberSolver(
        game, engine_module=module, tt_bits=args.tt_bits, root_budget=args.root_budget or None
    )
    state = game.new_initial_state()
    # the moves the record has decided count even when the checkpoint file is gone
    if below:
        print(f"{name}: {len(below)} moves refuted by solved positions below "
              f"({', '.join(f'{m} by {o}' for m, o in below.items())})", flush=True)
    saver = Checkpoint(directory / f"{file_name(name)}.ckpt", every=args.every,
                       decided={**dict.fromkeys(below, False), **record.get("decided", {})})
    started, cpu = time.monotonic(), time.process_time()
    last = [started]
    totals = {k: record.get(k, 0) for k in ("nodes", "wall", "cpu", "runs")}

    def update(nodes: int, status: str) -> None:
        record.update(
            nodes=totals["nodes"] + nodes,
            wall=round(totals["wall"] + time.monotonic() - started, 1),
            cpu=round(totals["cpu"] + time.process_time() - cpu, 1),
            runs=totals["runs"] + 1,
            status=status,
            decided=dict(saver.decided),
            moves=len(state.legal_actions()),
            peak_mb=max(record.get("peak_mb", 0),
                        round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)),
        )
        save_state(directory, name, record)

    def progress(nodes: int, _seconds: float) -> None:
        if time.monotonic() - last[0] >= 300:
            last[0] = time.monotonic()
            update(nodes, "running")
            won = sum(saver.decided.values())
            print(f"{name}: {len(saver.decided)}/{len(state.legal_actions())} moves decided "
                  f"({won} win), {record['nodes']:,} nodes, {record['cpu']:.0f} s CPU in all",
                  flush=True)

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    nodes_before = solver.nodes
    try:
        solution = solver.solve(
            state, time_limit=args.time_limit, progress=progress, checkpoint=saver
        )
    except (KeyboardInterrupt, SolverTimeout):
        update(solver.nodes - nodes_before, "stopped")
        print(f"{name}: stopped; {len(saver.decided)} moves decided, {record['nodes']:,} "
              f"nodes, {record['cpu']:.0f} s CPU in all", flush=True)
        return
    record.update(winner=solution.winner, winning_moves=list(solution.winning_moves))
    update(solution.nodes, "solved")
    print(f"{name}: {solution.winner} wins ({', '.join(solution.winning_moves) or 'no move'}); "
          f"{record['nodes']:,} nodes, {record['cpu']:.0f} s CPU, {record['wall']:.0f} s wall "
          "in all", flush=True)


def run_on_ray(name: str, game: Any, record: dict[str, Any], args: argparse.Namespace) -> None:
    """Solve one target on ``--workers`` local Ray workers sharing one table (no checkpoint).

    The Ray solve keeps no checkpoint: a run stopped before its end keeps only its totals
    (the nodes of the tasks finished, the wall time, the workers' CPU seconds as wall time
    times workers), so it is for targets expected to end within one run. It starts from the
    start: a target with moves already decided is refused (run it without ``--workers``).
    """
    from parlour.analysis import SolverTimeout
    from parlour.analysis.distributed import RayClobberSolver

    directory = Path(args.dir)
    if record.get("decided"):
        raise SystemExit(f"{name}: {len(record['decided'])} moves already decided; the Ray "
                         "solve does not resume them (run without --workers)")
    state = game.new_initial_state()
    totals = {k: record.get(k, 0) for k in ("nodes", "wall", "cpu", "runs")}
    started, last, finished = time.monotonic(), [time.monotonic()], [0]

    def update(nodes: int, cpu: float, status: str) -> None:
        record.update(nodes=totals["nodes"] + nodes,
                      wall=round(totals["wall"] + time.monotonic() - started, 1),
                      cpu=round(totals["cpu"] + cpu, 1), runs=totals["runs"] + 1,
                      status=status, moves=len(state.legal_actions()), workers=args.workers)
        save_state(directory, name, record)

    def progress(nodes: int, seconds: float) -> None:
        finished[0] = nodes
        if time.monotonic() - last[0] >= 300:
            last[0] = time.monotonic()
            update(nodes, seconds * args.workers, "running")
            print(f"{name}: {nodes:,} nodes in finished tasks, {seconds:.0f} s on "
                  f"{args.workers} workers", flush=True)

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    with RayClobberSolver(game, workers=args.workers, engine="c", tt_bits=args.tt_bits) as ray:
        started = last[0] = time.monotonic()  # the workers are up: Ray's start is not counted
        signal.signal(signal.SIGTERM, interrupt)  # after Ray's start, which sets its own
        try:
            found = ray.solve(state, time_limit=args.time_limit, progress=progress)
        except (KeyboardInterrupt, SolverTimeout):
            seconds = time.monotonic() - started
            update(finished[0], seconds * args.workers, "stopped")
            print(f"{name}: stopped after {seconds:.0f} s on {args.workers} workers", flush=True)
            return
    solution, stats = found.solution, found.stats
    record.update(winner=solution.winner, winning_moves=list(solution.winning_moves),
                  worker_nodes=list(stats.worker_nodes), shared=stats.shared)
    update(solution.nodes, sum(stats.worker_seconds), "solved")
    print(f"{name}: {solution.winner} wins ({', '.join(solution.winning_moves) or 'no move'}); "
          f"{record['nodes']:,} nodes, {record['cpu']:.0f} s CPU on {args.workers} workers, "
          f"{record['wall']:.0f} s wall in all", flush=True)


@functools.cache
def key_of(position: str) -> tuple[Any, ...]:
    """Positions with equal keys are one position turned, mirrored or moved (the side to move
    sees the same regions)."""
    from parlour.analysis import ClobberSolver

    game = clobber(position)
    return tuple(sorted(ClobberSolver(game, engine="python").regions(game.new_initial_state())))


def transposition(name: str, every: dict[str, tuple[str, str]], directory: Path) -> str | None:
    """Another target already solved that is the same position as ``name``."""
    mine = key_of(every[name][0])
    for other, (position, _) in every.items():
        if other != name and load_state(directory, other).get("winner") and (
                key_of(position) == mine):
            return other
    return None


def solved_by_key(name: str, every: dict[str, tuple[str, str]],
                  directory: Path) -> dict[tuple[Any, ...], tuple[str, bool]]:
    """Every target but ``name`` solved so far, by key: (its name, whether its side to move
    wins). A key is the side to move's view, so the colours do not matter."""
    solved: dict[tuple[Any, ...], tuple[str, bool]] = {}
    for other, (position, _) in every.items():
        record = load_state(directory, other)
        if other != name and record.get("winner"):
            solved.setdefault(key_of(position), (other, record["winner"] == position[-1]))
    return solved


def decided_below(name: str, every: dict[str, tuple[str, str]], directory: Path
                  ) -> tuple[tuple[str, str] | None, dict[str, str]]:
    """What the solved targets one move below decide for ``name``'s side to move: a winning
    move, (the move, that target), into a position lost for its side to move, or None; and
    the moves refuted, move -> that target, by a position its side to move wins. The win is a
    result one ply up for free; a solve counts the refuted moves as decided, lost, and does
    not search them."""
    solved = solved_by_key(name, every, directory)
    into: tuple[str, str] | None = None
    refuted: dict[str, str] = {}
    if not solved:
        return into, refuted
    state = clobber(every[name][0]).new_initial_state()
    for action in state.legal_actions():
        below = solved.get(key_of(state.child(action).position()))
        if below is None:
            continue
        move, other, wins_there = state.action_to_string(action), below[0], below[1]
        if wins_there:
            refuted[move] = other
        elif into is None:
            into = move, other
    return into, refuted


def move_count(position: str) -> int:
    """How many moves the side to move has."""
    return len(clobber(position).new_initial_state().legal_actions())


def run(args: argparse.Namespace) -> None:
    Path(args.dir).mkdir(parents=True, exist_ok=True)
    for name in expand(args.targets):
        command = [sys.executable, __file__, "one", name, "--dir", args.dir,
                   "--tt-bits", str(args.tt_bits), "--root-budget", str(args.root_budget),
                   "--every", str(args.every)]
        if args.time_limit:
            command += ["--time-limit", str(args.time_limit)]
        if args.module:
            command += ["--module", args.module]
        if args.workers:
            command += ["--workers", str(args.workers)]
        child = subprocess.Popen(command)
        try:
            child.wait()
        except KeyboardInterrupt:
            child.send_signal(signal.SIGTERM)
            child.wait()
            return


def is_board(name: str) -> bool:
    return re.fullmatch(r"[1-9]\d?x[1-9]\d?", name) is not None


def outcome(record: dict[str, Any], side: str) -> tuple[str, str]:
    """The result and winning-move cells of a target's row."""
    if record.get("transposition_of"):
        return (f"{record['winner']} wins",
                f"(the position of {record['transposition_of']}, turned or mirrored)")
    if record.get("winner"):
        result = f"{record['winner']} wins"
        if record["winner"] != side:
            result += f" (every move of {side} refuted)"
        move = ", ".join(record.get("winning_moves", [])) or "-"
        if record.get("by_way_of"):
            move += f" (into {record['by_way_of']}, lost for its side to move)"
        return result, move
    if record:
        decided = record.get("decided", {})
        result = f"open: {len(decided)} of {record.get('moves', '?')} moves refuted so far"
        if record.get("refuted_by"):
            result += f" ({', '.join(record['refuted_by'])} among them)"
        return result, "-"
    return "not run", "-"


def figures(record: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
    """A record's counts (nodes, seconds, runs) as a table shows them; "-" where it has none."""
    return [f"{record[k]:,.0f}" if record.get(k) is not None else "-" for k in keys]


def print_table(head: list[str], rows: list[list[str]], markdown: bool,
                numeric: range) -> None:
    """A report's table, as Markdown (the ``numeric`` columns right-aligned) or plain."""
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---:" if i in numeric else "---" for i in range(len(head))) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        for row in [head, *rows]:
            print("  ".join(row))


def line_row(name: str, record: dict[str, Any]) -> list[str]:
    """A ``BASE+MOVE`` record's row: who wins and how, what was refuted on the way, and what
    it cost."""
    side = record["position"][-1]
    refuted = [move for move, wins in record.get("decided", {}).items() if not wins]
    moves = record.get("moves", "?")
    if record.get("winner") == side:
        result = f"{side} wins"
        winning = ", ".join(record.get("winning_moves", [])) or "-"
        before = ", ".join(refuted) or "none (the first move tried)"
    elif record.get("winner"):
        result, winning, before = f"{record['winner']} wins", "-", f"all {moves}"
    else:
        result, winning = "open", "-"
        before = f"{len(refuted)} of {moves}" + (f": {', '.join(refuted)}" if refuted else "")
    peak = f"{record['peak_mb'] / 1024:.1f} GB" if record.get("peak_mb") else "-"
    return [f"`{name}`", side, result, winning, before,
            *figures(record, ("nodes", "cpu", "wall", "runs")), peak]


def report_lines(args: argparse.Namespace) -> None:
    """The records of the lines below the named targets (all of them without a name), one row
    each, in the order of their names: what a table of lines in the docs is made from."""
    directory = Path(args.dir)
    rows = [line_row(name, load_state(directory, name)) for name in known_lines(directory)
            if not args.targets or any(name.startswith(f"{base}+") for base in args.targets)]
    head = ["line", "to move", "result", "winning move", "moves refuted", "nodes", "CPU s",
            "wall s", "runs", "peak"]
    print_table(head, rows, args.markdown, numeric=range(5, 10))


def report(args: argparse.Namespace) -> None:
    directory = Path(args.dir)
    names = expand(args.targets or ["mcgs", "first", "strips", "boards"])
    if not args.targets:  # the games' other positions once a run has a record of them
        names[len(PUBLISHED):len(PUBLISHED)] = [
            f"g{game}m{move}" for game, move in game_positions()
            if f"g{game}m{move}" not in names and load_state(directory, f"g{game}m{move}")]
    every = targets([*names, *known_lines(directory)])
    published = {f"g{p.game}m{p.move}": p for p in PUBLISHED}
    openings, boards = [], []
    for name in names:
        record = load_state(directory, name)
        side = every[name][0][-1]
        if not record.get("winner"):
            into, below = decided_below(name, every, directory)
            if into is not None:
                record = {**record, "winner": side, "winning_moves": [into[0]],
                          "by_way_of": into[1]}
            elif below:  # counted as the solve will count them, the record's own beside them
                record = {**record, "moves": record.get("moves") or move_count(every[name][0]),
                          "decided": {**dict.fromkeys(below, False),
                                      **record.get("decided", {})},
                          "refuted_by": sorted(set(below.values()))}
        if record.get("by_way_of") and not record.get("nodes"):  # the solve one move below's
            solve = load_state(directory, record["by_way_of"])
            record.update({k: solve.get(k) for k in ("nodes", "cpu", "wall")})
        result, move = outcome(record, side)
        costs = figures({} if record.get("transposition_of") else record,
                        ("nodes", "cpu", "wall"))
        if is_board(name):
            said = conjecture(name)
            if record.get("winner") and said != "no conjecture":
                second = record["winner"] != side
                said += ": agrees" if second == said.startswith("P") else ": REFUTED"
            boards.append([name, side, result, move, *costs, said])
            continue
        if "+" in name:
            label, theirs = every[name][1], "-"
        elif name.startswith("first:"):
            first = every[name][1].rsplit(" ", 1)[-1]
            label = f"6x6 first move {first}"
            theirs = {"": "open", side: "refuted"}.get(record.get("winner", ""), "wins")
        else:
            game, number = (int(n) for n in re.findall(r"\d+", name))
            label = f"game {game}, move {number}"
            theirs = published[name].mcgs if name in published else "no result on the page"
        openings.append([label, side, result, move, *costs, theirs])
    tables = [
        (["position", "to move", "result", "winning move", "nodes", "CPU s", "wall s",
          "MCGS / verdict"], openings),
        (["board", "to move", "result", "winning move", "nodes", "CPU s", "wall s",
          "conjecture"], boards),
    ]
    for head, rows in [t for t in tables if t[1]]:
        print_table(head, rows, args.markdown, numeric=range(4, 7))
        print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["list", "run", "one", "report"])
    parser.add_argument("targets", nargs="*")
    parser.add_argument("--dir", default="hunt-6x6", help="checkpoints and records")
    parser.add_argument("--tt-bits", type=int, default=28)
    parser.add_argument("--root-budget", type=int, default=0,
                        help="nodes per move in the first pass (0: each move to its end, in "
                             "the solver's order)")
    parser.add_argument("--every", type=float, default=900.0, help="seconds between saves")
    parser.add_argument("--time-limit", type=float, help="per target and run, wall seconds")
    parser.add_argument("--module", help="a compiled engine to use (cengine.compile_engine)")
    parser.add_argument("--workers", type=int, default=0,
                        help="solve on this many local Ray workers sharing one table "
                             "(no checkpoint; 0: this process alone)")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--lines", action="store_true",
                        help="report: the BASE+MOVE records below the targets named, one row "
                             "each")
    args = parser.parse_intermixed_args()  # "report --lines first:2" reads as it looks
    if args.command == "list":
        for name, (position, description) in targets().items():
            print(f"{name:>9}  {position}  {description}")
    elif args.command == "one":
        run_one(args.targets[0], args)
    elif args.command == "run":
        run(args)
    elif args.lines:
        report_lines(args)
    else:
        report(args)


if __name__ == "__main__":
    main()
