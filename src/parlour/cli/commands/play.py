"""``parlour play GAME``: play in the terminal against agents or hot-seat."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from parlour.agents import agent_names, agents_for, make_agent
from parlour.cli.common import (
    build_game,
    console,
    err_console,
    error_text,
    parse_params,
    save_record,
)
from parlour.cli.session import Seat, TerminalGame
from parlour.i18n import N_, _


def play(
    game: Annotated[
        str, typer.Argument(help=N_("clobber, stomple, stomp-the-plank, gobblestones"))
    ],
    vs: Annotated[
        str,
        typer.Option(
            help=N_("who fills the other seats: an agent name or 'human', comma-separated "
                    "for several seats")
        ),
    ] = "random",
    seat: Annotated[int, typer.Option(help=N_("your seat (0 moves first)"))] = 0,
    players: Annotated[int | None, typer.Option(help=N_("number of players"))] = None,
    size: Annotated[
        str | None, typer.Option(help=N_("Clobber board, e.g. 5x6, 6x7, 10x10"))
    ] = None,
    first: Annotated[
        str | None, typer.Option(help=N_("Clobber: who moves first, white or black"))
    ] = None,
    position: Annotated[str | None, typer.Option(help=N_("start from a position text"))] = None,
    param: Annotated[
        list[str] | None, typer.Option(help=N_("any game parameter, key=value"))
    ] = None,
    seed: Annotated[int | None, typer.Option(help=N_("seed for chance and agents"))] = None,
    record: Annotated[Path | None, typer.Option(help=N_("where to save the game record"))] = None,
    name: Annotated[
        str | None, typer.Option(help=N_("your name at the table (default: the game's name "
                                    "for your seat, e.g. White)"))
    ] = None,
) -> None:
    """Play a game in the terminal (its help: :data:`HELP`)."""
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
        err_console.print(error_text(_("--seat must be 0..{last}").format(last=n - 1)))
        raise typer.Exit(2)
    others = [v.strip() for v in vs.split(",") if v.strip()]
    if len(others) == 1:
        others *= n - 1
    if len(others) != n - 1:
        err_console.print(error_text(
            _("--vs names {named} seats; this game has {n} other seats").format(
                named=len(others), n=n - 1)))
        raise typer.Exit(2)
    seats: list[Seat] = []
    for i in range(n):
        who = "human" if i == seat else others.pop(0)
        if who == "human":
            seats.append(Seat((name or "").strip()[:24] if i == seat else ""))
            continue
        if who not in agent_names() and who.split(":")[0] not in agent_names():
            err_console.print(error_text(
                _("unknown opponent {who!r}; choose human or one of: {agents}").format(
                    who=who, agents=", ".join(agents_for(configured.name)))))
            raise typer.Exit(2)
        try:
            agent = make_agent(who, configured, None if seed is None else seed + i)
        except ValueError as exc:
            err_console.print(error_text(exc))
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


HELP = N_("Play a game in the terminal. Type [cyan]help[/] at the prompt for commands.")


def register(app: typer.Typer) -> None:
    app.command(help=HELP)(play)
