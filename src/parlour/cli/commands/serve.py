"""``parlour serve``: the web table, on localhost, with no setup."""

from __future__ import annotations

import typer
from rich.markup import escape

from parlour.cli.common import err_console
from parlour.core.extras import MissingExtraError


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", help="Address to listen on."),
        port: int = typer.Option(8000, help="Port to listen on."),
        db: str | None = typer.Option(
            None,
            help="Database URL (e.g. postgresql://user@host/parlour). "
            "Default: $PARLOUR_DB, else SQLite in your data directory.",
        ),
        open_browser: bool = typer.Option(
            True, "--open/--no-open", help="Open the lobby in a web browser."
        ),
        ai: str = typer.Option(
            "process", help="Where computer players think: 'process' (workers) or 'thread'."
        ),
        ai_delay: float = typer.Option(
            0.3, help="Seconds a computer player waits before moving, so people can follow."
        ),
    ) -> None:
        """Play in the browser: a lobby, live tables, AI seats, replays and rematches."""
        try:
            from parlour.server import serve as serve_table
        except MissingExtraError as exc:
            err_console.print(f"[red]error:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None
        serve_table(host, port, db, open_browser=open_browser, ai_mode=ai, ai_delay=ai_delay)
