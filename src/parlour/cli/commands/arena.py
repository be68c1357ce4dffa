"""``parlour arena GAME --agents hard,medium,random``: a tournament, its ratings and a plot."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from parlour.arena import plan, run
from parlour.arena.report import (
    PLOT,
    RESULTS,
    STANDINGS,
    pairwise_table,
    ratings_table,
    records_table,
    save,
)
from parlour.cli.common import arena_dir, build_game, console, err_console, parse_params
from parlour.core import presentation
from parlour.core.extras import MissingExtraError


def arena(
    game: Annotated[str, typer.Argument(help="clobber, stomple, stomp-the-plank, gobblestones")],
    agents: Annotated[
        str,
        typer.Option(
            help="agents, comma-separated: names (random, easy, medium, hard, greedy, mcts...) "
            "with options as name:key=value, e.g. hard:iterations=2000"
        ),
    ] = "hard,medium,random",
    games: Annotated[int, typer.Option(help="games per pairing (or per table of agents)")] = 200,
    players: Annotated[int | None, typer.Option(help="players per game")] = None,
    param: Annotated[list[str] | None, typer.Option(help="a game parameter, key=value")] = None,
    seed: Annotated[int, typer.Option(help="master seed: every game's seeds derive from it")] = 0,
    workers: Annotated[
        int | None, typer.Option(help="parallel games (default: one per available core)")
    ] = None,
    ray: Annotated[bool, typer.Option("--ray", help="run the games as Ray tasks")] = False,
    ray_address: Annotated[
        str | None, typer.Option(help="Ray cluster address (implies --ray); default: local Ray")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="output folder (default: arena/GAME-DATE-TIME in parlour's user data "
                     "folder, e.g. ~/.local/share/parlour on Linux)"),
    ] = None,
) -> None:
    """Play every pairing of agents (seats rotated), then rate them.

    Writes results.jsonl (one game record per line: replay any with parlour.GameRecord),
    standings.json and ratings.png to --out, and prints win rates and Elo ratings with 95%
    intervals. Results repeat exactly for the same --seed when every agent has an iteration
    budget (e.g. hard:iterations=3000); time budgets depend on the machine.
    """
    params: dict[str, Any] = parse_params(param)
    configured = build_game(game, params)
    if players is not None and players != configured.num_players():
        if "players" not in configured.parameters:
            err_console.print(f"[red]error:[/] {configured.name} is for exactly "
                              f"{configured.num_players()} players")
            raise typer.Exit(2)
        configured = build_game(game, {**params, "players": players})
    names = [a.strip() for a in agents.split(",") if a.strip()]
    try:
        tournament = plan(configured, names, games, seed=seed)
    except ValueError as exc:
        err_console.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    use_ray = ray or ray_address is not None
    total = len(tournament.matches)
    folder = out or arena_dir() / f"{configured.name}-{datetime.now(UTC):%Y%m%d-%H%M%S}"
    console.print(
        f"[bold]{configured.get_type().long_name}[/] ({configured}), {len(names)} agents, "
        f"{total} games on {'Ray' if use_ray else 'local processes'}; seed {seed}"
    )
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task("games", total=total)
        try:
            run(
                tournament,
                workers=workers,
                use_ray=use_ray,
                ray_address=ray_address,
                progress=lambda _line: bar.advance(task),
            )
        except RuntimeError as exc:
            err_console.print(f"[red]error:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None
    standings = tournament.standings
    assert standings is not None
    console.print(records_table(standings, presentation(configured).points_label))
    console.print(pairwise_table(standings))
    console.print(ratings_table(standings))
    summary = {
        "game": configured.name,
        "params": configured.non_default_parameters(),
        "players": configured.num_players(),
        "games_per_table": games,
        "seed": seed,
        "backend": "ray" if use_ray else "processes",
    }
    written = [("results", RESULTS), ("standings", STANDINGS), ("plot", PLOT)]
    try:
        save(folder, tournament.lines, standings, summary)
    except MissingExtraError as exc:  # results and standings are saved; the plot needs matplotlib
        console.print(f"[yellow]no plot:[/] {escape(str(exc))}", soft_wrap=True)
        written.pop()
    # one path a line, never wrapped by Rich: a path must copy and paste whole
    for label, name in written:
        console.print(f"{label + ':':<11}[cyan]{escape(str(folder / name))}[/]", soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command()(arena)
