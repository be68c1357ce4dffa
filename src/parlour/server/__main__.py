"""``python -m parlour.server [options]``: the web table, the same as ``parlour serve``.

Its own entry point: it reads its options with :mod:`argparse` and needs nothing of the
command-line package (the server sits beside the CLI, not above it).
"""

from __future__ import annotations

import argparse
import sys

from parlour.core.extras import MissingExtraError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m parlour.server",
        description="Play in the browser: a lobby, live tables, AI seats, replays and rematches.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument(
        "--db",
        default=None,
        help="database URL (e.g. postgresql://user@host/parlour); "
        "default: $PARLOUR_DB, else SQLite in your data directory",
    )
    parser.add_argument(
        "--open",
        dest="open_browser",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="open the lobby in a web browser",
    )
    parser.add_argument(
        "--ai",
        default="process",
        choices=("process", "thread"),
        help="where computer players think: worker processes or a thread",
    )
    parser.add_argument(
        "--ai-delay",
        type=float,
        default=0.3,
        help="seconds a computer player waits before moving, so people can follow",
    )
    args = parser.parse_args(argv)
    try:
        from parlour.server import serve
    except MissingExtraError as exc:  # says which extra to install
        print(f"error: {exc}", file=sys.stderr)
        return 2
    serve(
        args.host,
        args.port,
        args.db,
        open_browser=args.open_browser,
        ai_mode=args.ai,
        ai_delay=args.ai_delay,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
