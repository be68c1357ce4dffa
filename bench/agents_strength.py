"""How strong the agents are: the figures of issue 6, with the commands that measure them.

    python bench/agents_strength.py speed                       # MCTS iterations per second
    python bench/agents_strength.py random --games 200 --time 0.05 --workers 2
    python bench/agents_strength.py openspiel --games 200 --time 0.1 --workers 2
    python bench/agents_strength.py openspiel --opponent cpp --games 200 --time 0.1
    python bench/agents_strength.py plank --workers 1           # Stomp the Plank, issue 16
    python bench/agents_strength.py all --games 200             # every figure here, one run
    python bench/agents_strength.py speed --slices 3 --slice 1  # + issue 16's old-vs-new
    python bench/agents_strength.py ladder --game gobblestones --players 2 --games 40 \
        --workers 1                                             # hard > medium > easy
    python bench/agents_strength.py clobber --games 200 --times 0.1 --workers 1
    python bench/agents_strength.py clobber-medium --games 100 --times 1

``clobber`` (issue 16): Clobber's ``hard`` (exact proofs, then compiled MCTS) against OpenSpiel's
C++ ``pyspiel.MCTSBot`` (random rollouts, UCT, solver on) at the same wall time per move, on
5x6, 6x6 and 4x7 (``--boards``), at each of ``--times`` seconds a move, colours alternated, win
rates with 95% Wilson intervals beside the 60% target (75% moonshot). ``clobber-medium``:
``hard`` against ``medium`` in Clobber 5x6 through the arena; ``--times`` sets hard's budget and
``--medium-time`` medium's (default: their real budgets, 1 s and 0.25 s).

``random``: ``hard`` (its time budget overridden by ``--time``) against ``random`` in every
registered game, two players, seats alternated, through the arena (so every game is a
replayable record under ``--out``). ``openspiel``: Clobber 5x6, our MCTS against OpenSpiel's
MCTSBot with random rollouts (Python ``open_spiel.python.algorithms.mcts``, or the C++
``pyspiel.MCTSBot``) at the same wall time per move, colours alternated; see
``bench/agents_openspiel.py`` for how each bot is held to its time. Win rates come with 95%
Wilson intervals. Timings share the machine, so run with few other jobs; both sides of a game
run in the same process, one move at a time, so a busy machine slows both alike. ``speed`` also
prints issue 16's figures (``bench/engine_speed.py``); ``ladder``: see :func:`bench_ladder`.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import parlour
from agents_openspiel import iterations_per_second, play_pair
from parlour.arena import plan, run, wilson
from parlour.arena.ratings import decided_share
from parlour.arena.report import save


def rate(wins: float, n: int) -> str:
    low, high = wilson(wins, n)
    return f"{wins:g}/{n} = {100 * wins / n:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)"


def bench_engine_speed(slices: int, seconds: float) -> None:
    """Issue 16: GobbleStones and Stomple playouts and search, today against the reference
    code loaded from git, side by side in this process (``bench/engine_speed.py``)."""
    import engine_speed
    from reference import ReferenceUnavailable

    print("\n## Issue 16: engines and search against the reference code, side by side")
    try:
        engine_speed.report(slices, seconds)
    except ReferenceUnavailable as exc:
        print(f"  skipped: {exc}")


LADDER_PAIRS = (("hard", "medium"), ("medium", "easy"))
LADDER_GAMES = {"clobber": (2,), "stomple": (2, 3, 4), "gobblestones": (2, 3, 4),
                "stomp-the-plank": (2, 3, 4)}


def ladder_spec(name: str, scale: float, game: str = "") -> str:
    """A strength at ``scale`` times its normal budget: its iterations where the game has an
    iteration budget (``Knowledge.search_iterations``), else its time (``easy`` is a greedy
    player with no budget to scale; Stomp the Plank's three are rules and tables)."""
    import parlour
    from parlour.agents import knowledge_for
    from parlour.agents.clobber_search import HARD_SECONDS
    from parlour.agents.strengths import MEDIUM_SECONDS

    if scale == 1.0 or name == "easy" or game == "stomp-the-plank":
        return name
    level = {"medium": 0, "hard": 1}[name]
    budget = knowledge_for(parlour.load_game(game)).search_iterations if game else None
    if budget is not None:
        return f"{name}:iterations={max(1, round(budget[level] * scale))}"
    seconds = (MEDIUM_SECONDS, HARD_SECONDS)[level] * scale
    return f"{name}:time={seconds:g}"


def seat_shares(lines: list[dict], strong: str, weak: str) -> tuple[float, float, float]:
    """``(strong's wins per seat, weak's wins per seat, strong's share)`` over result lines.

    A seat wins when its return is positive (G-4: shared wins count for every winner). The
    share is the strong seats' part of the *decided* pairs of a strong and a weak seat
    (:func:`parlour.arena.ratings.decided_share`): the win rate with two players; ``s / (s +
    w)`` of the per-seat win rates in a game with one winner; the same ratio of per-seat loss
    rates, the other way round, in a game with one loser (Stomp the Plank, P6), where a share
    of wins could not pass 75% (three players) or 67% (four) even against a side that lost
    every game. 50% means equal strength.
    """
    wins = {strong: 0.0, weak: 0.0}
    seats = {strong: 0, weak: 0}
    for line in lines:
        for spec, value in zip(line["metadata"]["agents"], line["metadata"]["returns"],
                               strict=True):
            seats[spec] += 1
            wins[spec] += value > 0
    s, w = wins[strong] / max(1, seats[strong]), wins[weak] / max(1, seats[weak])
    ahead, decided = decided_share(lines, strong, weak)
    return s, w, ahead / decided if decided else 0.5


def bootstrap(lines: list[dict], strong: str, weak: str, rounds: int = 2000) -> tuple[float,
                                                                                        float]:
    """A 95% interval of the share, resampling whole games."""
    import random

    rng = random.Random(16)
    shares = sorted(
        seat_shares([rng.choice(lines) for _ in lines], strong, weak)[2] for _ in range(rounds)
    )
    return shares[int(0.025 * rounds)], shares[int(0.975 * rounds) - 1]


def bench_ladder(names: list[str], players: list[int] | None, games: int, scale: float,
                 workers: int, seed: int, out: Path | None,
                 pairs: tuple[tuple[str, str], ...] = LADDER_PAIRS) -> None:
    """``hard`` against ``medium`` and ``medium`` against ``easy`` in every game and player
    count asked for, through the arena.

    Two players: one table, seats alternated. More: every mixed table (three players: two
    strong and one weak, one strong and two weak; four players: 3-1, 2-2, 1-3), each playing
    ``games`` games with the agents rotating one seat a game, so that both sides sit in every
    seat equally often. The figure is the strong side's *share* of the decided pairs of strong and
    weak seats (see :func:`seat_shares`), with a 95% bootstrap interval; the target is 65%.
    ``scale`` multiplies the searching strengths' budgets (:func:`ladder_spec`); 1 is the real
    ones.
    """
    for name in names:
        for n in players or LADDER_GAMES.get(name, (2,)):
            if n not in LADDER_GAMES.get(name, (2,)):
                continue
            for strong, weak in pairs:
                a, b = ladder_spec(strong, scale, name), ladder_spec(weak, scale, name)
                start = time.perf_counter()
                params = {"players": n} if "players" in parlour.load_game(name).parameters else {}
                t = run(plan(name, [a, b], games, params, seed=seed), workers=workers)
                s, w, share = seat_shares(t.lines, a, b)
                low, high = bootstrap(t.lines, a, b)
                print(f"  {name:15s} {n}p  {a:18s} vs {b:18s} {len(t.lines):4d} games  "
                      f"wins/seat {100 * s:5.1f}% vs {100 * w:5.1f}%  share "
                      f"{100 * share:5.1f}% (95% {100 * low:.1f}-{100 * high:.1f}%)"
                      f"  [{time.perf_counter() - start:.0f} s]", flush=True)
                if out is not None:
                    assert t.standings is not None
                    save(out / f"{name}-{n}p-{strong}-{weak}", t.lines, t.standings,
                         {"game": name, "players": n, "games_per_table": games, "seed": seed,
                          "scale": scale})


def bench_speed(seconds: float) -> None:
    print(f"\n## MCTS iterations per second, Clobber 5x6 start position ({seconds:g} s each)")
    rates = iterations_per_second(seconds)
    for name, value in rates.items():
        print(f"  {name:18s} {value:10.0f} it/s")
    print(f"  parlour / OpenSpiel Python = {rates['parlour'] / rates['openspiel_python']:.2f}x; "
          f"parlour / OpenSpiel C++ = {rates['parlour'] / rates['openspiel_cpp']:.3f}x")
    print("\n## parlour MCTS iterations per second in every game (first real decision)")
    for name in parlour.list_games():
        print(f"  {name:18s} {game_rate(name, seconds):10.0f} it/s")


def game_rate(name: str, seconds: float) -> float:
    import random

    from parlour.agents import make_agent

    game = parlour.load_game(name)
    state, rng = game.new_initial_state(), random.Random(0)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(state.legal_actions()[0])
    agent = make_agent(f"mcts:time={seconds}:reuse=false", game, 0)
    agent.step(state)
    return agent.last_search["iterations"] / agent.last_search["seconds"]


def bench_random(games: int, seconds: float, workers: int, out: Path | None) -> None:
    hard = f"hard:time={seconds}"
    print(f"\n## {hard} against random, 2 players, {games} games per game, seats alternated")
    for name in parlour.list_games():
        start = time.perf_counter()
        t = run(plan(name, [hard, "random"], games, seed=6), workers=workers)
        assert t.standings is not None
        record = t.standings.records[0]
        print(f"  {name:18s} hard wins {rate(record.wins, record.games)}"
              f"  [{time.perf_counter() - start:.0f} s]", flush=True)
        if out is not None:
            save(out / name, t.lines, t.standings,
                 {"game": name, "players": 2, "games_per_table": games, "seed": 6})


def _one(args: tuple) -> dict:
    return play_pair(*args)


def play_all(jobs: list[tuple], workers: int) -> list[dict]:
    """Play every OpenSpiel match of ``jobs`` (in ``workers`` processes when more than one)."""
    if workers > 1:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            return list(pool.map(_one, jobs))
    return [_one(job) for job in jobs]


def totals(results: list[dict], jobs: list[tuple]) -> dict[str, float]:
    """Wins (all, and as White: ``job[4]``), and each side's seconds and iterations per move."""
    ours_moves = sum(r["ours_moves"] for r in results)
    theirs_moves = sum(r["theirs_moves"] for r in results)
    return {
        "wins": sum(r["won"] for r in results),
        "white": sum(r["won"] for r, j in zip(results, jobs, strict=True) if j[4]),
        "ours_seconds": sum(r["ours_seconds_per_move"] * r["ours_moves"] for r in results)
        / ours_moves,
        "theirs_seconds": sum(r["theirs_seconds_per_move"] * r["theirs_moves"] for r in results)
        / theirs_moves,
        "ours_iterations": sum(r["ours_iterations"] for r in results) / ours_moves,
        "theirs_iterations": sum(r["theirs_simulations"] for r in results) / theirs_moves,
    }


def bench_openspiel(games: int, seconds: float, workers: int, opponents: list[str],
                    spec: str | None) -> None:
    ours = spec or f"mcts:time={seconds}"
    for opponent in opponents:
        label = "Python MCTSBot" if opponent == "python" else "C++ pyspiel.MCTSBot"
        print(f"\n## Clobber 5x6: {ours} against OpenSpiel {label} (random rollouts, "
              f"uct_c=2), {seconds:g} s a move, {games} games, colours alternated", flush=True)
        jobs = [(ours, opponent, seconds, 1000 + i, i % 2 == 0) for i in range(games)]
        start = time.perf_counter()
        results = play_all(jobs, workers)
        t = totals(results, jobs)
        print(f"  parlour wins {rate(t['wins'], games)}; as White {t['white']}/{(games + 1) // 2}, "
              f"as Black {t['wins'] - t['white']}/{games // 2}")
        print(f"  seconds per move: parlour {t['ours_seconds']:.3f}, "
              f"OpenSpiel {t['theirs_seconds']:.3f}")
        print(f"  iterations per move: parlour {t['ours_iterations']:.0f}, OpenSpiel "
              f"{t['theirs_iterations']:.0f}  [{time.perf_counter() - start:.0f} s]", flush=True)


CLOBBER_TARGET, CLOBBER_MOONSHOT, MEDIUM_TARGET = 0.60, 0.75, 0.70


def verdict(wins: float, n: int, target: float) -> str:
    low, _high = wilson(wins, n)
    if low >= target:
        return f"target {target:.0%}: met (the whole interval is above it)"
    if wins / n >= target:
        return f"target {target:.0%}: met on the point estimate"
    return f"target {target:.0%}: NOT met"


def bench_clobber(games: int, times: list[float], boards: list[str], workers: int,
                  seed: int = 1000) -> None:
    for seconds in times:
        for board in boards:
            rows, columns = (int(x) for x in board.split("x"))
            spec = f"hard:time={seconds:g}"
            print(f"\n## Clobber {board}: {spec} against OpenSpiel C++ pyspiel.MCTSBot (random "
                  f"rollouts, uct_c=2, solver on), {seconds:g} s a move, {games} games, colours "
                  f"alternated, seeds from {seed}", flush=True)
            jobs = [(spec, "cpp", seconds, seed + 2 * i, i % 2 == 0, rows, columns)
                    for i in range(games)]
            start = time.perf_counter()
            results = play_all(jobs, workers)
            t = totals(results, jobs)
            wins = t["wins"]
            moonshot = "met" if wins / games >= CLOBBER_MOONSHOT else "not met"
            print(f"  hard wins {rate(wins, games)}; {verdict(wins, games, CLOBBER_TARGET)}; "
                  f"moonshot {CLOBBER_MOONSHOT:.0%}: {moonshot}")
            print(f"  as White {t['white']}/{(games + 1) // 2}, as Black "
                  f"{wins - t['white']}/{games // 2}; seconds per move: hard "
                  f"{t['ours_seconds']:.3f}, OpenSpiel {t['theirs_seconds']:.3f} (longest: hard "
                  f"{max(r['ours_longest_move'] for r in results):.3f}, OpenSpiel "
                  f"{max(r['theirs_longest_move'] for r in results):.3f}); iterations per move: "
                  f"hard's search {t['ours_iterations']:.0f}, OpenSpiel "
                  f"{t['theirs_iterations']:.0f}  [{time.perf_counter() - start:.0f} s]",
                  flush=True)


def bench_clobber_medium(games: int, times: list[float], medium_time: float | None,
                         workers: int) -> None:
    from parlour.agents.strengths import MEDIUM_SECONDS

    for seconds in times:
        medium = f"medium:time={medium_time if medium_time is not None else MEDIUM_SECONDS:g}"
        hard = f"hard:time={seconds:g}"
        print(f"\n## Clobber 5x6: {hard} against {medium}, {games} games, colours alternated",
              flush=True)
        start = time.perf_counter()
        t = run(plan("clobber", [hard, medium], games, seed=16), workers=workers)
        assert t.standings is not None
        record = next(r for r in t.standings.records if r.agent == hard)
        print(f"  hard wins {rate(record.wins, record.games)}; "
              f"{verdict(record.wins, record.games, MEDIUM_TARGET)}"
              f"  [{time.perf_counter() - start:.0f} s]", flush=True)


PLANK_CEILING = 0.8533
"""Stomp the Plank, two players, default plank 15/3: the best any player can score against
``random`` (exact, ``python bench/plank_ceiling.py``: best response 85.66% first / 85.00%
second); minimax play scores 79.97% and ``plank-stop-2`` 80.28% there."""


def _seconds_per_move(lines: list[dict], agent: str) -> float:
    """An agent's mean thinking time per move, from the arena's records."""
    seconds = moves = 0.0
    for line in lines:
        meta = line["metadata"]
        for seat, name in enumerate(meta["agents"]):
            if name == agent:
                seconds += meta["timing"]["seconds"][seat]
                moves += meta["timing"]["moves"][seat]
    return seconds / max(moves, 1)


def bench_plank(random_games: int, games: int, multi_games: int, workers: int) -> None:
    """Issue 16's Stomp the Plank figures: ``hard`` at its own budget (no ``--time``)."""
    print(f"\n## Stomp the Plank: hard against random, 2 players, {random_games} games, seats "
          f"alternated (exact ceiling {100 * PLANK_CEILING:.2f}%, target >= "
          f"{100 * PLANK_CEILING - 2:.2f}%; minimax play 79.97%)")
    start = time.perf_counter()
    t = run(plan("stomp-the-plank", ["hard", "random"], random_games, seed=6), workers=workers)
    assert t.standings is not None
    record = t.standings.records[0]
    print(f"  hard wins {rate(record.wins, record.games)}; ceiling "
          f"{100 * PLANK_CEILING:.2f}%, {100 * (record.wins / record.games - PLANK_CEILING):+.2f} "
          f"points; {1000 * _seconds_per_move(t.lines, 'hard'):.1f} ms a move"
          f"  [{time.perf_counter() - start:.0f} s]", flush=True)
    print(f"\n## Stomp the Plank: hard head to head, 2 players, {games} games each (target "
          ">= 55%)")
    for rival in ("plank-stop-2", "plank-risk"):
        start = time.perf_counter()
        t = run(plan("stomp-the-plank", ["hard", rival], games, seed=7), workers=workers)
        assert t.standings is not None
        record = {r.agent: r for r in t.standings.records}["hard"]
        print(f"  against {rival:13s} hard wins {rate(record.wins, record.games)}"
              f"  [{time.perf_counter() - start:.0f} s]", flush=True)
    from plank_vs_hard import hero_against  # bench/ is on the path (above)

    for players in (3, 4):
        fair = (players - 1) / players
        print(f"\n## Stomp the Plank, {players} players: one fixed strategy against "
              f"{players - 1} x hard, {multi_games} games each (a seat's fair share "
              f"{100 * fair:.0f}%)")
        for hero in ("plank-stop-2", "plank-risk"):
            start = time.perf_counter()
            t = hero_against(hero, "hard", players, multi_games, 8, workers)
            assert t.standings is not None
            rec = {r.agent: r for r in t.standings.records}
            print(f"  {hero:13s} wins {rate(rec[hero].wins, rec[hero].games)}; hard seats "
                  f"{rate(rec['hard'].wins, rec['hard'].games)}"
                  f"  [{time.perf_counter() - start:.0f} s]", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["speed", "random", "openspiel", "plank", "ladder",
                                         "all", "clobber", "clobber-medium"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--opponent", choices=["python", "cpp", "both"], default="both")
    parser.add_argument("--ours", help="our agent spec for the OpenSpiel match "
                        "(default mcts:time=TIME)")
    parser.add_argument("--times", type=float, nargs="+", default=[0.1, 1.0],
                        help="clobber: seconds per move, one match per value")
    parser.add_argument("--boards", nargs="+", default=["5x6", "6x6", "4x7"],
                        help="clobber: boards ROWSxCOLUMNS")
    parser.add_argument("--seed", type=int, default=1000,
                        help="clobber: first seed (game i uses seed + 2i; OpenSpiel's bot +1); "
                        "ladder: the arena's master seed (issue 16's runs: 16)")
    parser.add_argument("--medium-time", type=float, help="clobber-medium: medium's budget")
    parser.add_argument("--out", type=Path, help="keep the hard-vs-random records here")
    parser.add_argument("--slices", type=int, default=3,
                        help="speed: alternating slices per old/new column")
    parser.add_argument("--slice", type=float, default=1.0, help="speed: seconds per slice")
    parser.add_argument("--game", action="append",
                        help="ladder: only this game (repeatable; default: all four)")
    parser.add_argument("--players", type=int, action="append",
                        help="ladder: only this player count (repeatable)")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="ladder: multiply the search budgets (1 = the real ones)")
    parser.add_argument("--pair", choices=["hard-medium", "medium-easy"], action="append",
                        help="ladder: only this pairing (repeatable; default: both)")
    parser.add_argument("--plank-games", type=int, nargs=3, default=[2000, 200, 60],
                        metavar=("RANDOM", "HEAD", "MULTI"),
                        help="plank: games against random, against each fixed strategy, and "
                        "per strategy with 3 and 4 players")
    args = parser.parse_args()
    if args.what in ("speed", "all"):
        bench_speed(2.0)
        bench_engine_speed(args.slices, args.slice)
    if args.what in ("ladder", "all"):
        print(f"\n## Ladder: hard vs medium, medium vs easy ({args.games} games per table, "
              f"search budgets x{args.scale:g}; target: a share of 65% or more)", flush=True)
        pairs = tuple(pair for pair in LADDER_PAIRS
                      if args.pair is None or "-".join(pair) in args.pair)
        bench_ladder(args.game or list(LADDER_GAMES), args.players, args.games, args.scale,
                     args.workers, args.seed, args.out, pairs)
    if args.what in ("random", "all"):
        bench_random(args.games, args.time, args.workers, args.out)
    if args.what in ("openspiel", "all"):
        opponents = ["python", "cpp"] if args.opponent == "both" else [args.opponent]
        bench_openspiel(args.games, args.time, args.workers, opponents, args.ours)
    if args.what in ("plank", "all"):
        bench_plank(*args.plank_games, workers=args.workers)
    if args.what in ("clobber", "all"):
        bench_clobber(args.games, args.times, args.boards, args.workers, args.seed)
    if args.what in ("clobber-medium", "all"):
        bench_clobber_medium(args.games, args.times, args.medium_time, args.workers)


if __name__ == "__main__":
    main()
