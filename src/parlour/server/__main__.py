"""``python -m parlour.server [options]``: the web table; ``parlour serve`` runs this too.

The server's own entry point: it reads its options with :mod:`argparse` and needs nothing of
the command-line package (the server sits beside the CLI, not above it). ``parlour serve``
hands its arguments to :func:`main`, so the options are defined once, here.
"""

from __future__ import annotations

import argparse
import logging
import sys

from parlour.server import default_db_url, normalise_db_url, run


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
    return out


def main(argv: list[str] | None = None, prog: str = "python -m parlour.server") -> int:
    """Serve until interrupted; ``argv`` defaults to the command line's arguments."""
    args = parser(prog).parse_args(argv)
    url = normalise_db_url(args.db) if args.db else default_db_url()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    shown = url.split("@")[-1] if "@" in url else url
    print(f"parlour: serving http://{args.host}:{args.port}/  (database: {shown})", flush=True)
    run(
        args.host,
        args.port,
        url,
        open_browser=args.open_browser,
        ai_mode=args.ai,
        ai_delay=args.ai_delay,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
