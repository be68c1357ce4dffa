"""``parlour play GAME``: play in the terminal against agents or hot-seat."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from parlour.agents import agent_names, agents_for, make_agent
from parlour.cli.common import build_game, console, err_console, parse_params, save_record
from parlour.cli.session import Seat, TerminalGame
from parlour.i18n import _


def play(
    game: Annotated[str, typer.Argument(help="clobber, stomple, stomp-the-plank, gobblestones")],
    vs: Annotated[
        str,
        typer.Option(
            help="who fills the other seats: an agent name or 'human', comma-separated "
            "for several seats"
        ),
    ] = "random",
    seat: Annotated[int, typer.Option(help="your seat (0 moves first)")] = 0,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    size: Annotated[str | None, typer.Option(help="Clobber board, e.g. 5x6, 6x7, 10x10")] = None,
    first: Annotated[
        str | None, typer.Option(help="Clobber: who moves first, white or black")
    ] = None,
    position: Annotated[str | None, typer.Option(help="start from a position text")] = None,
    param: Annotated[list[str] | None, typer.Option(help="any game parameter, key=value")] = None,
    seed: Annotated[int | None, typer.Option(help="seed for chance and agents")] = None,
    record: Annotated[Path | None, typer.Option(help="where to save the game record")] = None,
    name: Annotated[
        str | None, typer.Option(help="your name at the table (default: the game's name for "
                                 "your seat, e.g. White)")
    ] = None,
) -> None:
    """Play a game in the terminal. Type [cyan]help[/] at the prompt for commands."""
    params: dict[str, Any] = parse_params(param)
    for key, value in (
        ("players", players),
        ("size", size),
        ("first", first),
        ("position", position),
    ):
        if value is not None:
            params[key] = value
    configured = build_game(game, params)
    n = configured.num_players()
    if not 0 <= seat < n:
        err_console.print(f"[red]error:[/] --seat must be 0..{n - 1}")
        raise typer.Exit(2)
    others = [v.strip() for v in vs.split(",") if v.strip()]
    if len(others) == 1:
        others *= n - 1
    if len(others) != n - 1:
        err_console.print(
            f"[red]error:[/] --vs names {len(others)} seats; this game has {n - 1} other seats"
        )
        raise typer.Exit(2)
    seats: list[Seat] = []
    for i in range(n):
        who = "human" if i == seat else others.pop(0)
        if who == "human":
            seats.append(Seat((name or "").strip()[:24] if i == seat else ""))
            continue
        if who not in agent_names() and who.split(":")[0] not in agent_names():
            err_console.print(
                f"[red]error:[/] unknown opponent {who!r}; choose human or one "
                f"of: {', '.join(agents_for(configured.name))}"
            )
            raise typer.Exit(2)
        try:
            agent = make_agent(who, configured, None if seed is None else seed + i)
        except ValueError as exc:
            err_console.print(f"[red]error:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None
        seats.append(Seat(who, agent))
    session = TerminalGame(configured, seats, console, seed=seed)
    console.print(
        f"[bold]{configured.get_type().long_name}[/] — {configured}. "
        + _("Type [cyan]help[/] for commands.")
    )
    session.run()
    path = save_record(session.record(), record)
    console.print(_("game record saved to [cyan]{path}[/] (replay: parlour replay {path})").format(
        path=path))


def register(app: typer.Typer) -> None:
    app.command()(play)
