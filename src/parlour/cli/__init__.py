"""The ``parlour`` command line (Typer + Rich).

Each command lives in its own module under :mod:`parlour.cli.commands` and exposes
``register(app)``; they are found by listing that package, so a new command touches no
shared file.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Annotated

import typer

from parlour import i18n
from parlour._version import __version__
from parlour.cli import commands as _commands

app = typer.Typer(
    name="parlour",
    help="Play, study and solve Clobber, Stomple, Stomp the Plank and GobbleStones.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"parlour {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    pass


for _module in sorted(pkgutil.iter_modules(_commands.__path__), key=lambda m: m.name):
    importlib.import_module(f"{_commands.__name__}.{_module.name}").register(app)


def main() -> None:
    i18n.set_language(i18n.from_environment())  # the platform's locale: LANGUAGE, LC_ALL, LANG
    app()
