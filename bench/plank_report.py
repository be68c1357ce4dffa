"""Ruling P8: check the defaults of P2 and P5 by simulating simple reference strategies.

    python bench/plank_report.py --compare tip_at=20,step_weight=4  # the report in docs/reports/
    python bench/plank_report.py --games 100 --out -  # a quick look, printed only
    python bench/plank_report.py --tip-at 10 --step-weight 2 --out /tmp/t10.md  # another setting

The report compares the defaults (ruling P5's ``tip_at=15, step_weight=3``, or
``--tip-at``/``--step-weight``) with each ``--compare`` setting, such as P5's first defaults
``tip_at=20,step_weight=4``, and copies in the written reasons from
``docs/reports/stomp-the-plank-tuning-notes.md``. Its cost grows with ``--games``: 42 table
lines of ``--games`` games per player count and setting (300 games, two settings: about 10
minutes on one free core; the stored report used ``--games 80``).

Strategies (registered agents, src/parlour/agents/plank_strategies.py): ``plank-stop-K``
draws until K cards are on the pontoon and stops (K = 1..5); ``plank-risk`` weighs the risk of
a match from the unseen cards. For 2, 3 and 4 players the report gives:

1. self-play: every seat plays the same strategy; game length in turns and how each game
   ended (tip on a stop, several planks at once, tip by stepping, a card on the last spot,
   the turn limit), how often the crate supply ran out, and each seat's share of losses;
2. the best fixed K: one "hero" seat plays K against a table of ``plank-stop-K'`` players (each
   K' in turn) and against a table of ``plank-risk``; the hero's seat rotates. The best K loses
   least often on average over those tables (a seat's fair share of losses is 1/players);
3. the same for ``plank-risk`` as the hero.

Chance follows its probabilities with a seeded generator, so a run is reproducible.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import parlour
from parlour.agents import make_agent
from parlour.core import game_class

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "docs" / "reports" / "stomp-the-plank-tuning.md"
DEFAULT_NOTES = ROOT / "docs" / "reports" / "stomp-the-plank-tuning-notes.md"
FIXED = [f"plank-stop-{k}" for k in range(1, 6)]
STRATEGIES = [*FIXED, "plank-risk"]
ENDS = ("tip-stop", "tip-stop-several", "tip-step", "last-spot", "turn-limit")


@dataclass
class Tally:
    games: int = 0
    turns: list[int] = field(default_factory=list)
    ends: Counter = field(default_factory=Counter)
    supply_out: int = 0
    losses_by_seat: Counter = field(default_factory=Counter)
    hero_losses: int = 0
    hero_wins: int = 0

    def add(self, result, hero: int | None = None) -> None:
        state, ran_out = result
        self.games += 1
        self.turns.append(state.turn if state.end != "turn-limit" else state.turn - 1)
        losers = state.losers()
        end = state.end
        if end == "tip-stop" and len(losers) > 1:
            end = "tip-stop-several"
        self.ends[end] += 1
        self.supply_out += ran_out
        for seat in losers:
            self.losses_by_seat[seat] += 1
        if hero is not None:
            self.hero_losses += hero in losers
            self.hero_wins += hero in state.winners()


def play(game, names: list[str], rng: random.Random, seed: int):
    """One game; returns the final state and whether play went on with an empty supply."""
    agents = [make_agent(name, game, seed=seed + i) for i, name in enumerate(names)]
    state = game.new_initial_state()
    ran_out = False
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            ran_out = ran_out or state.supply == 0
            state.apply_action(agents[state.current_player()].step(state))
    return state, ran_out


def self_play(game, name: str, games: int, rng: random.Random) -> Tally:
    tally = Tally()
    for g in range(games):
        tally.add(play(game, [name] * game.num_players(), rng, g))
    return tally


def hero_vs_table(game, hero: str, table: str, games: int, rng: random.Random) -> Tally:
    n = game.num_players()
    tally = Tally()
    for g in range(games):
        seat = g % n
        names = [table] * n
        names[seat] = hero
        tally.add(play(game, names, rng, g), hero=seat)
    return tally


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def length_cells(turns: list[int]) -> list[str]:
    ordered = sorted(turns)
    q = statistics.quantiles(ordered, n=10) if len(ordered) > 1 else [ordered[0]] * 9
    return [f"{statistics.fmean(ordered):.1f}", f"{statistics.median(ordered):g}",
            f"{q[0]:g}", f"{q[8]:g}", str(ordered[-1])]


def parse_setting(text: str) -> dict[str, object]:
    """``"tip_at=15,step_weight=3"`` -> parameters (crates are written with ``;``)."""
    setting: dict[str, object] = {}
    for part in text.split(","):
        key, _, value = part.partition("=")
        setting[key.strip()] = value.strip().replace(";", ",")
    return setting


def setting_name(params: dict[str, object]) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items()) or "defaults"


def simulate(n: int, params: dict[str, object], games: int, rng: random.Random):
    """Self-play tallies and the hero loss matrix for one player count and setting."""
    game = parlour.load_game("stomp-the-plank", players=n, **params)
    selfplay = {name: self_play(game, name, games, rng) for name in STRATEGIES}
    matrix = {
        hero: {table: hero_vs_table(game, hero, table, games, rng) for table in STRATEGIES}
        for hero in STRATEGIES
    }
    return game, selfplay, matrix


def section(n: int, game, selfplay, matrix) -> tuple[list[str], dict[str, float]]:
    lines = [f"### {n} players ({game})", "", "Self-play: every seat plays the same strategy.", ""]
    lines.append("| strategy | mean | median | p10 | p90 | max | " + " | ".join(ENDS)
                 + " | supply ran out | losses by seat |")
    lines.append("|" + "---|" * (7 + len(ENDS) + 1))
    for name, tally in selfplay.items():
        seats = ", ".join(pct(tally.losses_by_seat[s], tally.games) for s in range(n))
        lines.append(
            f"| {name} | " + " | ".join(length_cells(tally.turns)) + " | "
            + " | ".join(pct(tally.ends[e], tally.games) for e in ENDS)
            + f" | {pct(tally.supply_out, tally.games)} | {seats} |"
        )
    lines += ["", f"One hero against a table: how often the hero loses (fair share "
              f"{100 / n:.1f}%). Rows: the hero; columns: what every other seat plays.", ""]
    lines.append("| hero | " + " | ".join(f"vs {t}" for t in STRATEGIES) + " | mean |")
    lines.append("|" + "---|" * (len(STRATEGIES) + 2))
    means = {}
    for hero, row in matrix.items():
        rates = [row[t].hero_losses / row[t].games for t in STRATEGIES]
        means[hero] = statistics.fmean(rates)
        lines.append(f"| {hero} | " + " | ".join(f"{100 * r:.1f}%" for r in rates)
                     + f" | {100 * means[hero]:.1f}% |")
    best = min(FIXED, key=lambda h: means[h])
    lines += ["", f"Best fixed K: **{best}** (loses {100 * means[best]:.1f}% on average over "
              f"the tables; plank-risk {100 * means['plank-risk']:.1f}%).", ""]
    return lines, means


def report(args: argparse.Namespace) -> str:
    base = {"crates": args.crates, "tip_at": args.tip_at, "step_weight": args.step_weight,
            "supply": args.supply, "max_turns": args.max_turns}
    settings = [base] + [{**base, **parse_setting(c)} for c in args.compare]
    started = time.perf_counter()
    rng = random.Random(args.seed)
    lines = [
        "# Stomp the Plank: tuning report (ruling P8)",
        "",
        "Produced by (the numbers below; the notes are kept in "
        f"`{Path(args.notes).name}` and copied in):" if args.notes else "Produced by:",
        "",
        "```",
        "python " + " ".join(["bench/plank_report.py", *sys.argv[1:]]),
        "```",
        "",
    ]
    if args.notes and Path(args.notes).exists():
        lines += [Path(args.notes).read_text(encoding="utf-8").strip(), ""]
    lines += [
        "## How to read the tables",
        "",
        f"{args.games} games per table line, seed {args.seed}. Lengths are in turns (a turn is "
        "one player's draws up to a stop or a match). Ends: `tip-stop` one plank tipped under "
        "the crates of a stop, `tip-stop-several` two or more at once (P6), `tip-step` the "
        "active player stepped off (P4), `last-spot` a card on the last spot won (P2), "
        "`turn-limit` max_turns ran out with no loser. *Supply ran out*: play went on after "
        "the last crate was given (P5). Strategies: `plank-stop-K` draws until K cards are "
        "down; `plank-risk` weighs the chance of a match from the unseen cards.",
        "",
    ]
    summary = ["## Summary", "",
               "| setting | players | best fixed K | its losses | plank-risk losses | "
               "risk self-play: mean / p90 / max turns | supply ran out (stop-2 / stop-3 / "
               "risk self-play) | turn limit (risk self-play) |",
               "|---|---|---|---|---|---|---|---|"]
    body = []
    for params in settings:
        shown = {k: v for k, v in params.items() if v != base.get(k) or params is base}
        body += [f"## Setting: {setting_name(shown)}", ""]
        for n in args.players:
            game, selfplay, matrix = simulate(n, params, args.games, rng)
            lines_n, means = section(n, game, selfplay, matrix)
            body += lines_n
            best = min(FIXED, key=lambda h: means[h])
            risk = selfplay["plank-risk"]
            cells = length_cells(risk.turns)
            summary.append(
                f"| {setting_name(shown)} | {n} | {best[-1]} | {100 * means[best]:.1f}% | "
                f"{100 * means['plank-risk']:.1f}% | {cells[0]} / {cells[3]} / {cells[4]} | "
                + " / ".join(pct(selfplay[s].supply_out, selfplay[s].games)
                             for s in ("plank-stop-2", "plank-stop-3", "plank-risk"))
                + f" | {pct(risk.ends['turn-limit'], risk.games)} |"
            )
    lines += [*summary, "", *body,
              f"Simulated in {time.perf_counter() - started:.0f} s.", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per table line")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=2024)
    defaults = {k: p.default for k, p in game_class("stomp-the-plank").parameters.items()}
    parser.add_argument("--crates", default=defaults["crates"])
    parser.add_argument("--tip-at", type=int, default=defaults["tip_at"],
                        help="base setting's tip_at (default %(default)s, ruling P5)")
    parser.add_argument("--step-weight", type=int, default=defaults["step_weight"],
                        help="base setting's step_weight (default %(default)s, ruling P5)")
    parser.add_argument("--supply", type=int, default=defaults["supply"])
    parser.add_argument("--max-turns", type=int, default=defaults["max_turns"])
    parser.add_argument("--compare", action="append", default=[], metavar="SETTING",
                        help="also simulate another setting, given as changes to the base "
                        "one, like tip_at=20,step_weight=4 (P5's first defaults); repeat for "
                        "several")
    parser.add_argument("--notes", default=str(DEFAULT_NOTES),
                        help="markdown copied into the report (the written reasons); '' for none")
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="report file, or - to print only")
    args = parser.parse_args(argv)
    text = report(args)
    print(text)
    if args.out != "-":
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
