"""``parlour serve``: the web table, on localhost, with no setup."""

from __future__ import annotations

import logging
from typing import Annotated

import typer

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> float:
    """``30d``, ``12h``, ``90m``, ``3600s`` (or plain seconds) as seconds."""
    text = text.strip().lower()
    unit = UNITS.get(text[-1:])
    number = text[:-1] if unit else text
    try:
        value = float(number) * (unit or 1)
    except ValueError:
        raise ValueError(f"{text!r} is not a duration: write 30d, 12h, 90m or 3600s") from None
    if value <= 0:
        raise ValueError("the duration must be positive")
    return value


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
        ai_deadline: float = typer.Option(
            5.0, help="Seconds a computer player may think about one move before it is stopped."
        ),
        limit: Annotated[
            list[str] | None,
            typer.Option(
                "--limit",
                help="Change a limit, NAME=VALUE (repeatable), e.g. tables_per_minute=30; "
                "see docs/web.md for every limit.",
            ),
        ] = None,
        allow_origin: Annotated[
            list[str] | None,
            typer.Option(
                "--allow-origin",
                help="Another site (https://host:port) whose pages may call this server.",
            ),
        ] = None,
        trusted_proxy: Annotated[
            list[str] | None,
            typer.Option(
                "--trusted-proxy",
                help="Address of a reverse proxy whose X-Forwarded-For names the real client.",
            ),
        ] = None,
        archive_after: Annotated[
            str | None,
            typer.Option(
                "--archive-after",
                help="Archive (read-only, still replayable) a table nobody has been at and "
                "nothing has happened at for this long: 30d, 12h, 90m or 3600s.",
            ),
        ] = None,
    ) -> None:
        """Play in the browser: a lobby, live tables, AI seats, replays and rematches."""
        from parlour.server import default_db_url, normalise_db_url, run
        from parlour.server.limits import Limits

        url = normalise_db_url(db) if db else default_db_url()
        limit, allow_origin, trusted_proxy = limit or [], allow_origin or [], trusted_proxy or []
        try:
            archive_seconds = None if archive_after is None else parse_duration(archive_after)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--archive-after") from None
        try:
            Limits.from_text(",".join(limit), Limits.from_env())
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--limit") from None
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
        shown = url.split("@")[-1] if "@" in url else url
        typer.echo(f"parlour: serving http://{host}:{port}/  (database: {shown})")
        run(
            host,
            port,
            url,
            open_browser=open_browser,
            ai_mode=ai,
            ai_delay=ai_delay,
            ai_deadline=ai_deadline,
            limits=",".join(limit) or None,
            allowed_origins=tuple(allow_origin),
            trusted_proxies=tuple(trusted_proxy),
            archive_after=archive_seconds,
        )
