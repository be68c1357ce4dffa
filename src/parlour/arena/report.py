"""What a tournament leaves behind: results lines, standings, Rich tables and a ratings plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.table import Table

from parlour.arena.ratings import Standings
from parlour.core.extras import needs_extra

RESULTS = "results.jsonl"
STANDINGS = "standings.json"
PLOT = "ratings.png"


def write_lines(path: Path, lines: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for line in lines:
            out.write(json.dumps(line, separators=(",", ":")) + "\n")


def read_lines(path: str | Path) -> list[dict[str, Any]]:
    """The result lines of a ``results.jsonl`` file."""
    with Path(path).open(encoding="utf-8") as source:
        return [json.loads(text) for text in source if text.strip()]


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


def records_table(result: Standings, points: str | None = "mean points") -> Table:
    """Wins and losses per agent; ``points`` titles a mean-points column (``None``: no such
    column, for games without points)."""
    table = Table(title="Results by agent")
    columns = ["agent", "games", "wins", "losses", "win rate"] + ([points] if points else [])
    for column in columns:
        table.add_column(column, justify="left" if column == "agent" else "right")
    for r in result.records:
        row = [r.agent, str(r.games), str(r.wins), str(r.losses), _percent(r.win_rate)]
        if points:
            row.append(f"{r.mean_score:.2f}")
        table.add_row(*row)
    return table


def pairwise_table(result: Standings) -> Table:
    """Row agent's share of points against column agent (draws count half)."""
    table = Table(title="Score of row against column")
    table.add_column("")
    for agent in result.agents:
        table.add_column(agent, justify="right")
    for i, agent in enumerate(result.agents):
        cells = [
            "" if i == j else f"{_percent(result.score(i, j))} ({int(result.pair_games[i, j])})"
            for j in range(len(result.agents))
        ]
        table.add_row(agent, *cells)
    return table


def ratings_table(result: Standings) -> Table:
    table = Table(title="Elo (Bradley-Terry, mean 0) with 95% intervals; Glicko-2 as the web "
                        "server rates, games in order")
    for column in ("agent", "Elo", "95% interval", "Glicko-2", "RD"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for r in sorted(result.ratings, key=lambda r: -r.elo):
        rating, rd, _vol = result.glicko.get(r.agent, (float("nan"),) * 3)
        table.add_row(r.agent, f"{r.elo:+.0f}", f"{r.low:+.0f} .. {r.high:+.0f}",
                      f"{rating:.0f}", f"{rd:.0f}")
    return table


def plot_ratings(result: Standings, path: Path, title: str) -> Path:
    """A PNG of the ratings with their intervals, best at the top."""
    with needs_extra("arena", "the arena's ratings plot"):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

    ratings = sorted(result.ratings, key=lambda r: r.elo)
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(ratings)))
    ys = range(len(ratings))
    ax.errorbar(
        [r.elo for r in ratings],
        list(ys),
        xerr=[[r.elo - r.low for r in ratings], [r.high - r.elo for r in ratings]],
        fmt="o",
        capsize=4,
    )
    ax.set_yticks(list(ys), [r.agent for r in ratings])
    ax.axvline(0.0, color="grey", linewidth=0.5)
    ax.set_xlabel("Elo (mean 0), 95% interval")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def save(
    out: Path, lines: list[dict[str, Any]], result: Standings, summary: dict[str, Any]
) -> None:
    """Write results lines, standings (with the tournament's settings) and the plot to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    write_lines(out / RESULTS, lines)
    body = {**summary, **result.as_dict()}
    (out / STANDINGS).write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
    plot_ratings(result, out / PLOT, f"{summary.get('game', '')}: {len(lines)} games")
