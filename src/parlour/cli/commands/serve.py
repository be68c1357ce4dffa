"""``parlour serve``: the web table, on localhost, with no setup.

The options belong to the server's own entry point (``python -m parlour.server``, see
:mod:`parlour.server.__main__`): this command hands them over unread, so both accept the same
options and show the same ``--help``.
"""

from __future__ import annotations

import typer
from rich.markup import escape

from parlour.cli.common import err_console
from parlour.core.extras import MissingExtraError


def register(app: typer.Typer) -> None:
    @app.command(
        context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
        add_help_option=False,
    )
    def serve(ctx: typer.Context) -> None:
        """Play in the browser: a lobby, live tables, AI seats, replays and rematches."""
        try:
            from parlour.server.__main__ import main
        except MissingExtraError as exc:
            err_console.print(f"[red]error:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None
        raise typer.Exit(main(list(ctx.args), prog="parlour serve"))
