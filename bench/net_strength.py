"""How strong the learned player is (issue 33), with the commands that measure it.

    python bench/net_strength.py medium --games 200                   # net against medium
    python bench/net_strength.py openspiel --games 200                # against OpenSpiel's C++
    python bench/net_strength.py hard --games 100                     #   MCTSBot / hard, at
                                                                      #   equal time per move
    python bench/net_strength.py curve RUN_DIR --games 40             # Elo by training minute
    python bench/net_strength.py gobblestones --games 200             # the hidden-information game
    python bench/net_strength.py medium --size 4x5,6x6,5x7 --games 100  # other Clobber boards
    python bench/net_strength.py boards RUN_DIR --size 4x5,5x6 --games 20 --every 10
                                                      # each snapshot against medium, by board
                                                      # (--snapshots 15,30: those minutes only)

``--net`` names the player (default ``net``: the shipped network at its default budget);
``--size`` the Clobber boards (comma-separated ROWSxCOLUMNS, default 5x6), for ``medium``,
``hard``, ``openspiel`` and ``boards``.

``medium``: through the arena (``parlour.arena``: seats alternate game by game, seeds from
``--seed``), ``medium`` at its real budget (0.25 s a move).

``openspiel`` and ``hard``: **equal time per move**. Both sides of a game run in this process,
one move at a time. The opponent's budget for each move is the mean wall time the network
has taken per move so far in the match (its first moves: the mean of a calibration search from
the start position), so a busier machine slows both alike. OpenSpiel's bot is the C++
``pyspiel.MCTSBot`` with random rollouts, ``uct_c=2`` and its solver on (as in
``bench/agents_openspiel.py``); ``hard`` is parlour's own (solver proofs, then compiled MCTS),
given ``hard:time=T`` with T that running mean, at the start of each game. Both engines play
the same game (Clobber's action ids are OpenSpiel's, C4), checked move by move.

``curve``: every network snapshot of a training run (``net-mNNN.npz``) plays ``--games``
games against each fixed reference (``--refs``: MCTS with fixed iteration budgets, so the
references are the same on any machine and at any load), and the references play each other;
Bradley-Terry ratings (Elo scale) are fitted to all of it, anchored so that the first
reference is 0.

``boards``: every ``--every``-th snapshot of a training run (``net-mNNN.npz``, the latest
always included) against ``--opponent`` (default ``medium``) on each board of ``--size``,
through the arena: the learning curve of a network for every board.

Win rates come with 95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np

import parlour
from agents_strength import _seconds_per_move as seconds_per_move
from agents_strength import rate
from parlour.agents import make_agent
from parlour.agents.learned.network import Network
from parlour.arena import fit_elo, plan, run
from parlour.arena.ratings import pairwise


def bench_arena(game: str, net: str, opponent: str, games: int, seed: int, workers: int,
                params: dict | None = None) -> None:
    board = " {rows}x{columns}".format(**params) if params and "rows" in params else ""
    print(f"\n## {game}{board}: {net} against {opponent}, {games} games, seats alternated, "
          f"seed {seed}", flush=True)
    start = time.perf_counter()
    cpu = time.process_time()
    t = run(plan(game, [net, opponent], games, params or {}, seed=seed), workers=workers)
    assert t.standings is not None
    record = {r.agent: r for r in t.standings.records}[net]
    first = sum(1 for line in t.lines if line["metadata"]["agents"][0] == net
                and line["metadata"]["returns"][0] > 0)
    seated_first = sum(1 for line in t.lines if line["metadata"]["agents"][0] == net)
    print(f"  {net} wins {rate(record.wins, record.games)}; in seat 1 {first}/{seated_first}, "
          f"in seat 2 {record.wins - first}/{record.games - seated_first}")
    print(f"  seconds per move: {net} {seconds_per_move(t.lines, net):.4f}, {opponent} "
          f"{seconds_per_move(t.lines, opponent):.4f}  [{time.perf_counter() - start:.0f} s, "
          f"{time.process_time() - cpu:.0f} s CPU in this process]", flush=True)


def calibrate(net: str, game, seed: int) -> float:
    """The network's mean wall time for a move from the start position (three searches)."""
    agent = make_agent(net, game, seed)
    state = game.new_initial_state()
    agent.step(state)  # loads and warms up
    start = time.perf_counter()
    for _ in range(3):
        agent.step(state)
    return (time.perf_counter() - start) / 3


class EqualTime:
    """The running mean of the network's seconds per move (the opponent's budget)."""

    def __init__(self, first: float) -> None:
        self.seconds, self.moves, self.first = 0.0, 0, first

    def budget(self) -> float:
        return self.seconds / self.moves if self.moves else self.first

    def add(self, seconds: float) -> None:
        self.seconds += seconds
        self.moves += 1


def play_equal_time(net: str, opponent: str, game, spiel_game, seed: int, net_white: bool,
                    clock: EqualTime) -> dict:
    """One game of ``net`` against ``opponent`` (``cpp``: OpenSpiel's MCTSBot; else a parlour
    agent spec taking ``time``), the opponent's budget per move the clock's running mean."""
    import pyspiel

    ours = make_agent(net, game, seed)
    theirs = None
    if opponent != "cpp":
        theirs = make_agent(f"{opponent}:time={clock.budget():.4f}", game, seed + 1)
    state, spiel_state = game.new_initial_state(), spiel_game.new_initial_state()
    seat = 0 if net_white else 1
    spent, moves, simulations = [0.0, 0.0], [0, 0], 0
    while not state.is_terminal():
        assert sorted(state.legal_actions()) == sorted(spiel_state.legal_actions())
        player = state.current_player()
        start = time.perf_counter()
        if player == seat:
            action = ours.step(state)
            clock.add(time.perf_counter() - start)
        elif theirs is not None:
            action = theirs.step(state)
        else:
            budget = clock.budget()
            bot = pyspiel.MCTSBot(spiel_game, pyspiel.RandomRolloutEvaluator(1, seed + moves[1]),
                                  2.0, 10**8, 1000, True, seed + 7 * moves[player], False,
                                  pyspiel.ChildSelectionPolicy.UCT, budget)
            root = bot.mcts_search(spiel_state)
            simulations += root.explore_count
            best = root.best_child()
            action = best.action if best is not None else spiel_state.legal_actions()[0]
        spent[player] += time.perf_counter() - start
        moves[player] += 1
        state.apply_action(action)
        spiel_state.apply_action(action)
    return {"won": state.returns()[seat] > 0, "white": net_white,
            "ours": (spent[seat], moves[seat]), "theirs": (spent[1 - seat], moves[1 - seat]),
            "simulations": simulations}


def bench_equal_time(net: str, opponent: str, games: int, seed: int,
                     size: tuple[int, int] = (5, 6)) -> None:
    import pyspiel

    game = parlour.load_game("clobber", rows=size[0], columns=size[1])
    spiel_game = pyspiel.load_game(f"clobber(rows={size[0]},columns={size[1]})")
    first = calibrate(net, game, seed)
    label = "OpenSpiel C++ pyspiel.MCTSBot (random rollouts, uct_c=2, solver)" if (
        opponent == "cpp") else opponent
    print(f"\n## Clobber {size[0]}x{size[1]}: {net} against {label} at equal time per move, "
          f"{games} games, "
          f"colours alternated, seeds from {seed}; calibration {first:.4f} s a move", flush=True)
    clock = EqualTime(first)
    start, cpu = time.perf_counter(), time.process_time()
    results = []
    for i in range(games):
        results.append(play_equal_time(net, opponent, game, spiel_game, seed + 2 * i,
                                       i % 2 == 0, clock))
    wins = sum(r["won"] for r in results)
    white = sum(r["won"] for r in results if r["white"])
    ours = sum(r["ours"][0] for r in results) / max(1, sum(r["ours"][1] for r in results))
    theirs = sum(r["theirs"][0] for r in results) / max(1, sum(r["theirs"][1] for r in results))
    print(f"  {net} wins {rate(wins, games)}; as White {white}/{(games + 1) // 2}, as Black "
          f"{wins - white}/{games // 2}")
    extra = ""
    if opponent == "cpp":
        sims = sum(r["simulations"] for r in results) / max(1, sum(r["theirs"][1]
                                                                    for r in results))
        extra = f"; OpenSpiel's simulations per move {sims:.0f}"
    print(f"  seconds per move: {net} {ours:.4f}, opponent {theirs:.4f}{extra}  "
          f"[{time.perf_counter() - start:.0f} s, {time.process_time() - cpu:.0f} s CPU]",
          flush=True)


def snapshots(run_dir: Path) -> list[tuple[int, Path]]:
    found = []
    for path in run_dir.glob("net-m*.npz"):
        match = re.fullmatch(r"net-m(\d+)\.npz", path.name)
        if match:
            found.append((int(match.group(1)), path))
    return sorted(found)


def bench_curve(run_dir: Path, refs: list[str], games: int, ref_games: int, seed: int,
                workers: int, every: int) -> None:
    """Elo of each snapshot against fixed references (see the module)."""
    game = "clobber"
    points = [(m, p) for m, p in snapshots(run_dir) if m % every == 0]
    print(f"\n## Learning curve of {run_dir}: {len(points)} snapshots, {games} games against "
          f"each of {', '.join(refs)}; references {ref_games} games a pair", flush=True)
    lines: list[dict] = []
    start = time.perf_counter()
    t = run(plan(game, refs, ref_games, seed=seed), workers=workers)
    lines += t.lines
    agents = list(refs)
    per_snapshot = {}
    for minute, path in points:
        spec = f"net:path={path}"
        agents.append(spec)
        for k, ref in enumerate(refs):
            t = run(plan(game, [spec, ref], games, seed=seed + 1000 * (minute + 1) + k),
                    workers=workers)
            lines += t.lines
            record = {r.agent: r for r in t.standings.records}[spec]  # type: ignore[union-attr]
            per_snapshot.setdefault(minute, []).append((ref, record.wins, record.games))
        print(f"  minute {minute}: " + ", ".join(f"{w}/{n} vs {r}" for r, w, n in
                                                 per_snapshot[minute])
              + f"  [{time.perf_counter() - start:.0f} s]", flush=True)
    wins, played = pairwise(lines, agents)
    ratings = {r.agent: r for r in fit_elo(agents, wins, played)}
    anchor = ratings[refs[0]].elo
    print(f"\n| wall minute | CPU minutes | positions | Elo ({refs[0]} = 0) | 95% interval | "
          + " | ".join(f"vs {r}" for r in refs) + " |")
    print("|---|---|---|---|---|" + "---|" * len(refs))
    for ref in refs:
        r = ratings[ref]
        print(f"| {ref} | | | {r.elo - anchor:+.0f} | {r.low - anchor:+.0f}..{r.high - anchor:+.0f}"
              " |" + " |" * len(refs))
    for minute, path in points:
        r = ratings[f"net:path={path}"]
        trained = Network.load(path).spec.get("trained", {})
        cells = " | ".join(f"{w}/{n}" for _ref, w, n in per_snapshot[minute])
        print(f"| {minute} | {trained.get('cpu_minutes', '?')} | {trained.get('positions', '?')} "
              f"| {r.elo - anchor:+.0f} | {r.low - anchor:+.0f}..{r.high - anchor:+.0f} | "
              f"{cells} |")


def bench_boards(run_dir: Path, sizes: list[tuple[int, int]], opponent: str, games: int,
                 seed: int, workers: int, every: int, only: set[int] | None = None) -> None:
    """Each snapshot of a run against ``opponent`` on each board (see the module); ``only``:
    those of these minutes alone."""
    found = snapshots(run_dir)
    points = [(m, p) for i, (m, p) in enumerate(found)
              if (m in only if only else m % every == 0 or i == len(found) - 1)]
    names = [f"{r}x{c}" for r, c in sizes]
    print(f"\n## {run_dir}: {len(points)} snapshots against {opponent}, {games} games a board, "
          f"seats alternated, seeds from {seed}", flush=True)
    rows = []
    start = time.perf_counter()
    for minute, path in points:
        spec = f"net:path={path}"
        cells = []
        for k, (r, c) in enumerate(sizes):
            t = run(plan("clobber", [spec, opponent], games, {"rows": r, "columns": c},
                         seed=seed + 1000 * k), workers=workers)
            record = {x.agent: x for x in t.standings.records}[spec]  # type: ignore[union-attr]
            cells.append(rate(record.wins, record.games))
        trained = Network.load(path).spec.get("trained", {})
        rows.append((minute, trained.get("cpu_minutes", "?"), trained.get("positions", "?"),
                     cells))
        print(f"  minute {minute}: "
              + ", ".join(f"{n} {cell}" for n, cell in zip(names, cells, strict=True))
              + f"  [{time.perf_counter() - start:.0f} s]", flush=True)
    print("\n| wall minute | CPU minutes | positions | " + " | ".join(
        f"{n} vs {opponent}" for n in names) + " |")
    print("|---|---|---|" + "---|" * len(names))
    for minute, cpu, positions, cells in rows:
        print(f"| {minute} | {cpu} | {positions} | " + " | ".join(cells) + " |")


def parse_sizes(text: str) -> list[tuple[int, int]]:
    sizes = []
    for part in text.split(","):
        r, _, c = part.strip().lower().partition("x")
        sizes.append((int(r), int(c)))
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["medium", "openspiel", "hard", "curve", "gobblestones",
                                         "boards"])
    parser.add_argument("run_dir", nargs="?", type=Path, help="curve: the training run's folder")
    parser.add_argument("--net", default="net", help="the learned player's agent spec")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--refs", default="mcts:iterations=100,mcts:iterations=300,"
                        "mcts:iterations=1000,mcts:iterations=3000",
                        help="curve: the fixed references (the first is Elo 0)")
    parser.add_argument("--ref-games", type=int, default=40,
                        help="curve: games per pair of references")
    parser.add_argument("--every", type=int, default=1, help="curve: every N-th minute")
    parser.add_argument("--snapshots", default="",
                        help="boards: only these minutes' snapshots, comma-separated")
    parser.add_argument("--opponent", default="medium",
                        help="gobblestones, boards: the opponent")
    parser.add_argument("--size", default="5x6",
                        help="Clobber boards, comma-separated ROWSxCOLUMNS (default 5x6)")
    args = parser.parse_args()
    np.seterr(all="ignore")
    sizes = parse_sizes(args.size)
    if args.what == "medium":
        for r, c in sizes:
            bench_arena("clobber", args.net, "medium", args.games, args.seed, args.workers,
                        {"rows": r, "columns": c})
    elif args.what in ("openspiel", "hard"):
        for size in sizes:
            bench_equal_time(args.net, "cpp" if args.what == "openspiel" else "hard",
                             args.games, args.seed, size)
    elif args.what == "boards":
        if args.run_dir is None:
            parser.error("boards needs the training run's folder")
        only = {int(m) for m in args.snapshots.split(",") if m.strip()}
        bench_boards(args.run_dir, sizes, args.opponent, args.games, args.seed, args.workers,
                     args.every, only)
    elif args.what == "gobblestones":
        bench_arena("gobblestones", args.net, args.opponent, args.games, args.seed,
                    args.workers)
    else:
        if args.run_dir is None:
            parser.error("curve needs the training run's folder")
        bench_curve(args.run_dir, args.refs.split(","), args.games, args.ref_games, args.seed,
                    args.workers, args.every)


if __name__ == "__main__":
    main()
