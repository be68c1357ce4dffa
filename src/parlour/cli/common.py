"""Pieces the commands share: building a game from options, where records go, the console."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs
import typer
from rich.console import Console
from rich.markup import escape

import parlour
from parlour.core import Game, GameRecord, ParlourError
from parlour.i18n import _, text_of, translate

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def error_text(problem: BaseException | str) -> str:
    """A command-line error as the terminal prints it (Rich markup), in the reader's
    language: "error: ..." ("erreur : ...")."""
    text = translate(text_of(problem)) if isinstance(problem, BaseException) else problem
    return _("[red]error:[/] {message}").format(message=escape(text))


def parse_params(pairs: list[str] | None) -> dict[str, str]:
    """``["rows=3", "cannibal=true"]`` -> ``{"rows": "3", "cannibal": "true"}``."""
    params: dict[str, str] = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise typer.BadParameter(_("write parameters as key=value, not {pair!r}").format(
                pair=pair))
        params[key.strip()] = value.strip()
    return params


def build_game(name: str, params: dict[str, Any]) -> Game:
    """Load a game, turning a bad name or parameter into a clean command-line error."""
    try:
        return parlour.load_game(name, **params)
    except ParlourError as exc:
        err_console.print(error_text(exc))
        raise typer.Exit(2) from None


def records_dir() -> Path:
    path = Path(platformdirs.user_data_dir("parlour")) / "records"
    path.mkdir(parents=True, exist_ok=True)
    return path


def arena_dir() -> Path:
    """Where ``parlour arena`` writes its folders unless told (not the current directory)."""
    path = Path(platformdirs.user_data_dir("parlour")) / "arena"
    path.mkdir(parents=True, exist_ok=True)
    return path


def save_record(record: GameRecord, path: Path | None) -> Path:
    if path is None:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        path = records_dir() / f"{record.game}-{stamp}.json"
    return record.save(path)
