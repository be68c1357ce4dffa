"""Stomp the Plank: what the fixed strategies of the tuning report score against ``hard``.

    python bench/plank_vs_hard.py --games 200 --time 0.1 --workers 2
    python bench/plank_vs_hard.py --players 2 3 4 --games 60 --time 0.05

One "hero" seat plays a fixed strategy (``plank-stop-K``: draw until K cards are on the pontoon,
then stop; ``plank-risk``: weigh the chance of a match; both from
``src/parlour/agents/plank_strategies.py`` and ``bench/plank_report.py``), every other seat is
``hard`` (solved tables since issue 16, which ignore ``--time``; ``--hard mcts:time=0.1`` puts
the MCTS that was ``hard`` before in those seats). The hero's seat rotates. In this game all
players but the one who goes overboard win (P6), so a seat's fair share of wins is
(players - 1) / players; a strategy as good as ``hard`` wins that often. Chance and agents are
seeded (the arena's plan), and every game is kept as a replayable record with ``--out``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import parlour
from parlour.agents import agent_names
from parlour.arena import Tournament, run, schedule, wilson
from parlour.arena.report import save

GAME = "stomp-the-plank"


def strategies() -> list[str]:
    fixed = sorted(name for name in agent_names() if name.startswith("plank-"))
    if not fixed:
        sys.exit("no plank-* strategies are registered (src/parlour/agents/plank_strategies.py)")
    return fixed


def hero_against(hero: str, hard: str, players: int, games: int, seed: int,
                 workers: int) -> Tournament:
    game = parlour.load_game(GAME, players=players)
    # schedule() seats every multiset of the two agents; keep the tables with one hero.
    matches = [
        m for m in schedule([hero, hard], players, games, seed) if m.seats.count(hero) == 1
    ]
    tournament = Tournament(game, [hero, hard], games, seed, matches)
    return run(tournament, workers=workers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per strategy and count")
    parser.add_argument("--time", type=float, default=0.1, help="hard's seconds per move")
    parser.add_argument("--hard", help="the other seats' agent spec (default hard:time=TIME; "
                        "e.g. mcts:time=0.1, the MCTS that was Stomp the Plank's hard)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--strategies", nargs="+", help="only these (default: every plank-*)")
    parser.add_argument("--out", type=Path, help="keep every game's record here")
    args = parser.parse_args()
    hard = args.hard or f"hard:time={args.time}"
    print(f"# Stomp the Plank: fixed strategies against {hard}, {args.games} games each")
    for players in args.players:
        fair = (players - 1) / players
        print(f"\n## {players} players: one hero seat, {players - 1} x hard; "
              f"fair share of wins {100 * fair:.0f}%")
        print(f"  {'strategy':14s} {'hero wins':>22s}  {'95% CI':>13s}  {'hard seats win':>14s}")
        best = None
        for hero in args.strategies or strategies():
            start = time.perf_counter()
            t = hero_against(hero, hard, players, args.games, args.seed, args.workers)
            assert t.standings is not None
            rec = {r.agent: r for r in t.standings.records}
            h, m = rec[hero], rec[hard]
            low, high = wilson(h.wins, h.games)
            print(f"  {hero:14s} {h.wins:5d}/{h.games:<5d} = {100 * h.win_rate:5.1f}%  "
                  f"{100 * low:5.1f}-{100 * high:5.1f}%  {100 * m.win_rate:13.1f}%"
                  f"  [{time.perf_counter() - start:.0f} s]", flush=True)
            if best is None or h.win_rate > best[1]:
                best = (hero, h.win_rate)
            if args.out is not None:
                save(args.out / f"{players}p-{hero}", t.lines, t.standings,
                     {"game": GAME, "players": players, "hero": hero, "hard": hard})
        assert best is not None
        print(f"  best fixed strategy against hard: {best[0]} ({100 * best[1]:.1f}% "
              f"vs fair {100 * fair:.0f}%)")


if __name__ == "__main__":
    main()
