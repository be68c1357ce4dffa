"""Random Stomple games by player count: how long rounds last, who wins them, what they pay.

    python bench/stomple_report.py                 # 10,000 games per player count, 2-6 players
    python bench/stomple_report.py --games 500 --players 3 --out -

Every seat plays uniformly at random among its legal stomps; chance (the layout and the stomper
draw) follows its probabilities. Games are played to the default target (S11). The report goes
to docs/reports/stomple-random-games.md unless ``--out`` says otherwise (``-``: print only).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import parlour

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "docs" / "reports" / "stomple-random-games.md"


@dataclass
class Tally:
    players: int
    games: int = 0
    rounds: int = 0
    stomps: list[int] = field(default_factory=list)  # player actions per round
    turns: list[int] = field(default_factory=list)  # turns per round
    points: list[int] = field(default_factory=list)  # the round winner's points
    starter_won: int = 0
    rounds_per_game: list[int] = field(default_factory=list)
    game_wins_by_seat: list[int] = field(default_factory=list)
    seconds: float = 0.0


def play_games(players: int, games: int, seed: int) -> Tally:
    game = parlour.load_game("stomple", players=players)
    rng = random.Random(seed)
    tally = Tally(players, game_wins_by_seat=[0] * players)
    started = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        scores = [0.0] * players
        starter = None
        stomps = turns = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            if starter is None:
                starter = state.current_player()
            state.apply_action(rng.choice(state.legal_actions()))
            stomps += 1
            if state.string_kind is None:
                turns += 1
            now = state.scores()
            if now != scores:  # the round just ended
                winner = next(p for p in range(players) if now[p] > scores[p])
                tally.points.append(int(now[winner] - scores[winner]))
                tally.starter_won += winner == starter
                tally.stomps.append(stomps)
                tally.turns.append(turns)
                tally.rounds += 1
                scores, starter, stomps, turns = now, None, 0, 0
        tally.games += 1
        tally.rounds_per_game.append(state.round_number)
        for p in state.winners():
            tally.game_wins_by_seat[p] += 1
    tally.seconds = time.perf_counter() - started
    return tally


def _summary(values: list[int]) -> str:
    ordered = sorted(values)
    p10 = ordered[len(ordered) // 10]
    p90 = ordered[(len(ordered) * 9) // 10]
    return (
        f"{statistics.fmean(ordered):.1f} (median {statistics.median(ordered):g}, "
        f"10-90% {p10}-{p90}, max {ordered[-1]})"
    )


def _share(hits: int, total: int) -> str:
    """A proportion with its 95% normal-approximation margin."""
    p = hits / total
    return f"{p:.1%} ± {1.96 * math.sqrt(p * (1 - p) / total):.1%}"


def report(tallies: list[Tally], command: str, seed: int) -> str:
    lines = [
        "# Stomple: random games",
        "",
        "Every seat stomps uniformly at random among its legal holes; the layout and the stomper",
        "draw follow their chance probabilities (S1, S2). Each game is played to the default",
        "target (S11: 40, 20, 15, 10, 10 points for 2-6 players). A round's length counts the",
        "player actions (each stomp of a string is one) and the turns (a whole string is one).",
        "The *starter* is the player who takes the round's first turn (seat 0 in round 1, then",
        "the last round's winner).",
        "",
        f"Made with `{command}` (seed {seed}).",
        "",
        "| players | games | rounds | stomps per round | turns per round | points per round "
        "| starter wins round | fair share |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for t in tallies:
        lines.append(
            f"| {t.players} | {t.games} | {t.rounds} | {_summary(t.stomps)} | "
            f"{_summary(t.turns)} | {_summary(t.points)} | "
            f"{_share(t.starter_won, t.rounds)} | {1 / t.players:.1%} |"
        )
    lines += [
        "",
        "| players | rounds per game | seat 0 wins the game | game wins by seat | seconds |",
        "|---|---|---|---|---|",
    ]
    for t in tallies:
        seats = " / ".join(f"{w / t.games:.1%}" for w in t.game_wins_by_seat)
        lines.append(
            f"| {t.players} | {_summary(t.rounds_per_game)} | "
            f"{_share(t.game_wins_by_seat[0], t.games)} | {seats} | {t.seconds:.1f} |"
        )
    lines += ["", "Reading the first table: does the round's starter win its fair share?", ""]
    for t in tallies:
        p = t.starter_won / t.rounds
        margin = 1.96 * math.sqrt(p * (1 - p) / t.rounds)
        fair = 1 / t.players
        verdict = (
            "consistent with the fair share"
            if abs(p - fair) <= margin
            else ("more" if p > fair else "less") + " than the fair share (outside the 95% margin)"
        )
        lines.append(f"- {t.players} players: the starter wins {p:.1%} of rounds, {verdict}.")
    lines += [
        "",
        "Points per round are the round winner's points: 3 for the round, 3 per cat's eye and 1",
        "per solid marble left (S10). Seconds are wall-clock time for that player count on the",
        "machine that made the report (pure Python, one core).",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per player count")
    parser.add_argument("--players", default="2,3,4,5,6", help="player counts, comma-separated")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="Markdown file, or - to print")
    args = parser.parse_args(argv)
    tallies = []
    for players in (int(p) for p in args.players.split(",")):
        tally = play_games(players, args.games, args.seed + players)
        print(
            f"{players} players: {tally.games} games, {tally.rounds} rounds in "
            f"{tally.seconds:.1f}s ({tally.games / tally.seconds:.0f} games/s)",
            file=sys.stderr,
        )
        tallies.append(tally)
    shown = ["python bench/stomple_report.py", *(argv if argv is not None else sys.argv[1:])]
    text = report(tallies, " ".join(shown), args.seed)
    if args.out == "-":
        print(text)
    else:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        print(text)
        print(f"written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
