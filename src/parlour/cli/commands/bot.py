"""``parlour bot --server URL --token TOKEN --agent SPEC``: an agent playing on a server as a
bot account, through the Bot API (docs/bots.md; :mod:`parlour.client`)."""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Annotated

import typer
from rich.markup import escape

from parlour.cli.common import console, err_console
from parlour.core.extras import MissingExtraError

KINDS = frozenset({"rated", "casual"})


def bot(
    server: Annotated[str, typer.Option(help="the server's address, e.g. http://127.0.0.1:8000")],
    token: Annotated[
        str, typer.Option(envvar="PARLOUR_TOKEN", help="a bot:play token of a bot account "
                          "(or $PARLOUR_TOKEN, which keeps it out of the process list)")],
    agent: Annotated[str, typer.Option(
        help="random, a strength (easy, medium, hard), a spec like mcts:iterations=400, or "
        "module.path:ClassName for your own parlour Agent")] = "random",
    accept: Annotated[str, typer.Option(help="challenges to accept: rated, casual or both")
                      ] = "rated,casual",
    games: Annotated[str | None, typer.Option(
        help="games to accept, comma-separated (default: every game the agent plays)")] = None,
    max_games: Annotated[int, typer.Option(help="games played at once at most")] = 8,
    stop_after: Annotated[int | None, typer.Option(
        help="stop once this many games have finished")] = None,
    seed: Annotated[int | None, typer.Option(help="the agent's seed")] = None,
    transport: Annotated[str, typer.Option(
        help="how the streams come: ndjson (HTTP lines) or websocket")] = "ndjson",
    quiet: Annotated[bool, typer.Option("--quiet", help="print warnings only")] = False,
) -> None:
    """Play on a server as a bot: accept challenges, play every game at once, come back after
    a drop; Ctrl-C or SIGTERM stops it cleanly."""
    try:
        from parlour.client import BotClient, BotRunner, seat_player
    except MissingExtraError as exc:
        err_console.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    if transport not in ("ndjson", "websocket"):
        raise typer.BadParameter("--transport takes ndjson or websocket")
    kinds = {k.strip() for k in accept.split(",") if k.strip()}
    if not kinds or kinds - KINDS:
        raise typer.BadParameter("--accept takes rated, casual or rated,casual")
    try:
        factory = seat_player(agent, seed)
    except (ValueError, ImportError) as exc:
        err_console.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO,
                        format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    chosen = None if games is None else [g.strip() for g in games.split(",") if g.strip()]

    async def main() -> int:
        client = BotClient(server, token, transport=transport)
        runner = BotRunner(client, agent, factory, accept=kinds, games=chosen,
                           max_games=max_games, stop_after=stop_after)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, runner.stop)
        try:
            tally = await runner.run()
        finally:
            await client.close()
        console.print(f"parlour bot: {tally.accepted} accepted, {tally.declined} declined, "
                      f"{len(tally.finished)} games finished, {tally.moves} moves")
        if runner.fatal:
            err_console.print(f"[red]error:[/] {escape(runner.fatal)}")
            return 1
        return 0

    raise typer.Exit(asyncio.run(main()))


def register(app: typer.Typer) -> None:
    app.command()(bot)
