"""The terminal in the platform's language: one place that translates what the command line
says before it runs.

Typer reads each command's help (its ``help=`` text, its options' and arguments' ``help``) when
the modules are imported, in English: the catalog cannot be chosen that early (the locale is
read in :func:`parlour.cli.main`). So :func:`localised` takes the finished Click command tree
and translates every help text the catalog holds, once, at startup; the commands themselves
only mark their help with ``N_`` (for the catalog) and never translate it themselves. Click's
and Typer's own words ("Options", "Show this message and exit.", "Missing argument...") are
read through the standard :mod:`gettext` domain, bound here to parlour's catalog (the same
locale variables choose it); the ones a player meets are marked below.
"""

from __future__ import annotations

import gettext as _gettext
from typing import Any

import typer

from parlour import i18n
from parlour.i18n import N_

FRAMEWORK_WORDS = (
    # Typer's help and errors (typer.core, typer.rich_utils): what `parlour play --help` and a
    # mistyped command show. (Typer's own copy of Click writes "Usage:" and its errors'
    # details in English, with no catalog.)
    N_("Options"), N_("Arguments"), N_("Commands"), N_("Error"), N_("[default: {}]"),
    N_("[required]"), N_("default: {default}"), N_("required"), N_("Missing command."),
    N_("Try [blue]'{command_path} {help_option}'[/] for help."),
    N_("No such command {name!r}."), N_("Aborted."), N_("Aborted!"),
    N_("Show this message and exit."),
)
"""The frameworks' own messages a player reads, marked for parlour's catalog (their msgids
are the frameworks' English, as their sources write it)."""


COMMAND_SUMMARIES = (
    N_("Play every pairing of agents (seats rotated), then rate them."),
    N_("Play on a server as a bot: accept challenges, play every game at once, come back after "
       "a drop; Ctrl-C or SIGTERM stops it cleanly."),
    N_("List the games and the parameters each one takes."),
    N_("Clobber puzzles: positions from real games where exactly one move wins."),
    N_("The server's database: schema revision, upgrades, backups and restores."),
    N_("Replay a game record move by move, as a spectator sees it."),
    N_("Play in the browser: a lobby, live tables, AI seats, replays and rematches."),
    N_("Solve a Clobber position exactly: the winner with perfect play and the winning moves."),
    N_("Train a network for GAME by self-play with Gumbel AlphaZero (needs the train extra)."),
)
"""Each command's one line in ``parlour --help``: the first paragraph of its docstring, its
whitespace made single (a command whose whole help a player reads, ``play`` and ``rules``,
marks it where it is registered). ``tests/cli/test_locale.py`` checks each is still the
docstring's."""


def summary(command: Any) -> str:
    """A command's one line, as :data:`COMMAND_SUMMARIES` writes it."""
    return " ".join((command.short_help or (command.help or "").split("\n\n")[0]).split())


def bind_framework_words() -> None:
    """Let Click's and Typer's ``gettext`` calls read parlour's catalog (the standard
    ``gettext`` module chooses the language from the same locale variables)."""
    _gettext.bindtextdomain(i18n.DOMAIN, str(i18n.LOCALE_DIR))
    _gettext.textdomain(i18n.DOMAIN)


def _translate(text: str | None) -> str | None:
    return i18n.gettext(text) if text else text


def _help_option(command: Any) -> Any:
    """The command's ``--help`` option: Typer makes it once, when first asked, in English."""
    try:
        context = command.context_class(command, info_name=command.name,
                                        **command.context_settings)
        return command.get_help_option(context)
    except Exception:  # a command without one
        return None


def translate_help(command: Any) -> None:
    """Translate, in place, the help of ``command`` (a Click command as Typer builds it, with
    its own copy of Click), its parameters, its ``--help`` and its subcommands."""
    command.help = _translate(command.help)
    command.short_help = _translate(command.short_help)
    command.epilog = _translate(command.epilog)
    for param in [*command.params, _help_option(command)]:
        if param is not None and getattr(param, "help", None):
            param.help = _translate(param.help)
    for sub in getattr(command, "commands", {}).values():
        line = summary(sub)
        translate_help(sub)
        if i18n.gettext(line) != line:
            sub.short_help = i18n.gettext(line)


def localised(app: typer.Typer) -> Any:
    """The command line of ``app`` in the current language (set it first)."""
    if i18n.current() != i18n.SOURCE_LANGUAGE:
        bind_framework_words()
    command = typer.main.get_command(app)
    translate_help(command)
    return command
