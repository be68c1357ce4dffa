"""``python -m parlour.server [options]``: the web table; ``parlour serve`` runs this too.

The server's own entry point: it reads its options with :mod:`argparse` and needs nothing of
the command-line package (the server sits beside the CLI, not above it). ``parlour serve``
hands its arguments to :func:`main`, so the options are defined once, here.
"""

from __future__ import annotations

import argparse
import logging
import sys

from parlour.core.extras import MissingExtraError, needs_extra
from parlour.server.limits import Limits

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> float:
    """``30d``, ``12h``, ``90m``, ``3600s`` (or plain seconds) as seconds.

    >>> parse_duration("12h"), parse_duration("90")
    (43200.0, 90.0)
    """
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


def parser(prog: str = "python -m parlour.server") -> argparse.ArgumentParser:
    out = argparse.ArgumentParser(
        prog=prog,
        description="Play in the browser: a lobby, live tables, AI seats, replays and rematches.",
    )
    out.add_argument("--host", default="127.0.0.1", help="address to listen on")
    out.add_argument("--port", type=int, default=8000, help="port to listen on")
    out.add_argument(
        "--db",
        default=None,
        help="database URL (e.g. postgresql://user@host/parlour); "
        "default: $PARLOUR_DB, else SQLite in your data directory",
    )
    out.add_argument(
        "--open",
        dest="open_browser",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="open the lobby in a web browser",
    )
    out.add_argument(
        "--ai",
        default="process",
        choices=("process", "thread"),
        help="where computer players think: worker processes or a thread",
    )
    out.add_argument(
        "--ai-delay",
        type=float,
        default=0.3,
        help="seconds a computer player waits before moving, so people can follow",
    )
    out.add_argument(
        "--ai-deadline",
        type=float,
        default=5.0,
        help="seconds a computer player may think about one move before it is stopped",
    )
    out.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change a limit (repeatable), e.g. tables_per_minute=30; "
        "see docs/web.md for every limit",
    )
    out.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another site (https://host:port) whose pages may call this server (repeatable)",
    )
    out.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name this server is served as, besides the loopback names and --host (a "
        "request for any other Host is refused: DNS rebinding); repeatable",
    )
    out.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="address of a reverse proxy whose X-Forwarded-For names the real client "
        "(repeatable)",
    )
    out.add_argument(
        "--archive-after",
        metavar="DURATION",
        help="archive (read-only, still replayable) a table nobody has been at and nothing has "
        "happened at for this long: 30d, 12h, 90m or 3600s",
    )
    out.add_argument(
        "--secure-cookies",
        action="store_true",
        help="mark the session cookie Secure even over plain HTTP (the server is behind a "
        "TLS proxy); it is Secure whenever a request arrives over HTTPS",
    )
    out.add_argument(
        "--smtp",
        metavar="URL",
        help="send players who ask for it an e-mail when a correspondence game waits for them: "
        "smtp://[user:password@]host[:port][?from=address], smtps://... or smtp+starttls://...",
    )
    out.add_argument(
        "--public-url",
        metavar="URL",
        help="how this server's links start in e-mails (default http://HOST:PORT)",
    )
    out.add_argument(
        "--metrics",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="record metrics and serve them at /metrics in Prometheus's format",
    )
    out.add_argument(
        "--metrics-from",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="an address or network (10.0.0.0/8) that may read /metrics (repeatable; default: "
        "this machine only); behind a proxy the address is the client the --trusted-proxy "
        "names",
    )
    out.add_argument(
        "--log-format",
        default="text",
        choices=("text", "json"),
        help="log lines as text, or as one JSON object a line (for a log collector)",
    )
    out.add_argument(
        "--upgrade",
        action="store_true",
        help="upgrade a database at an older schema revision to this parlour's before serving "
        "(back it up first: parlour db backup); without it such a database is refused",
    )
    return out


def main(argv: list[str] | None = None, prog: str = "python -m parlour.server") -> int:
    """Serve until interrupted; ``argv`` defaults to the command line's arguments."""
    options = parser(prog)
    args = options.parse_args(argv)
    try:
        Limits.from_text(",".join(args.limit), Limits.from_env())
    except ValueError as exc:
        options.error(f"argument --limit: {exc}")
    try:
        archive = None if args.archive_after is None else parse_duration(args.archive_after)
    except ValueError as exc:
        options.error(f"argument --archive-after: {exc}")
    if args.smtp:
        from urllib.parse import urlsplit

        if urlsplit(args.smtp).scheme not in ("smtp", "smtps", "smtp+starttls"):
            options.error("argument --smtp: write smtp://host:port, smtps://... or "
                          "smtp+starttls://...")
    try:
        from parlour.server import create_app, default_db_url, normalise_db_url, run

        with needs_extra("web", "the web table"):
            import uvicorn
        del create_app, uvicorn  # loaded only to know the web extra is there
    except MissingExtraError as exc:  # no traceback: say which extra to install
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    from parlour.server.web.metrics import networks

    try:
        networks(args.metrics_from)
    except ValueError as exc:
        options.error(f"argument --metrics-from: {exc}")
    url = normalise_db_url(args.db) if args.db else default_db_url()
    from parlour.server.persistence.migrations.schema import refusal_for_serving

    if problem := refusal_for_serving(url, upgrade=args.upgrade):
        print(f"{prog}: {problem}", file=sys.stderr)
        return 2
    from parlour.server.web.logs import configure

    configure(args.log_format)
    shown = url.split("@")[-1] if "@" in url else url
    serving = f"serving http://{args.host}:{args.port}/  (database: {shown})"
    if args.log_format == "json":  # every line a JSON object
        logging.getLogger("parlour.server").info("%s", serving)
    else:
        print(f"parlour: {serving}", flush=True)
    run(
        args.host,
        args.port,
        url,
        open_browser=args.open_browser,
        ai_mode=args.ai,
        ai_delay=args.ai_delay,
        ai_deadline=args.ai_deadline,
        limits=",".join(args.limit) or None,
        allowed_origins=tuple(args.allow_origin),
        trusted_proxies=tuple(args.trusted_proxy),
        archive_after=archive,
        allowed_hosts=tuple(args.allowed_host),
        secure_cookies=args.secure_cookies,
        smtp=args.smtp,
        public_url=args.public_url,
        metrics=args.metrics,
        metrics_from=tuple(args.metrics_from) or None,
        log_format=args.log_format,
        upgrade=args.upgrade,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
