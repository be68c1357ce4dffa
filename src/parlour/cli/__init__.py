"""The ``parlour`` command line (Typer + Rich).

Each command lives in its own module under :mod:`parlour.cli.commands` and exposes
``register(app)``; they are found by listing that package, so a new command touches no
shared file.
"""

from __future__ import annotations

import importlib
import pkgutil

import typer

from parlour.cli import commands as _commands

app = typer.Typer(
    name="parlour",
    help="Play, study and solve Clobber, Stomple, Stomp the Plank and GobbleStones.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for _module in sorted(pkgutil.iter_modules(_commands.__path__), key=lambda m: m.name):
    importlib.import_module(f"{_commands.__name__}.{_module.name}").register(app)


def main() -> None:
    app()
