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
from parlour.cli.locale import localised
from parlour.i18n import N_

app = typer.Typer(
    name="parlour",
    help=N_("Play, study and solve Clobber, Stomple, Stomp the Plank and GobbleStones."),
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
            "--version", callback=_print_version, is_eager=True,
            help=N_("Print the version and exit.")
        ),
    ] = False,
) -> None:
    pass


for _module in sorted(pkgutil.iter_modules(_commands.__path__), key=lambda m: m.name):
    importlib.import_module(f"{_commands.__name__}.{_module.name}").register(app)


def main() -> None:
    """The ``parlour`` command: in the platform's language (LANGUAGE, LC_ALL, LC_MESSAGES,
    LANG), its help included (:mod:`parlour.cli.locale`)."""
    i18n.set_language(i18n.from_environment())
    localised(app)(prog_name="parlour")
