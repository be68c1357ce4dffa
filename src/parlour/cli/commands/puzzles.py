"""``parlour puzzles clobber``: the shipped puzzles, and ``--generate N`` to make new ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from parlour.cli.common import build_game, console, err_console

DEFAULT_AGENTS = "hard:time=0.25,hard:time=0.5"
"""The arena games puzzles come from: the strongest Clobber agent with two thinking times (it
plays proven moves wherever its solver finishes, as ``perfect`` does, six times faster)."""
DEFAULT_SIZES = ["4x6", "5x5", "5x6", "6x6"]
GAMES_PER_BATCH = 8
MAX_GAMES_PER_PUZZLE = 20
"""``--generate N`` plays at most this many games per puzzle asked for, then stops."""


def puzzles(
    game: Annotated[str, typer.Argument(help="the game (clobber)")],
    generate: Annotated[
        int | None, typer.Option(help="make N new puzzles from arena games (or --games)")
    ] = None,
    size: Annotated[
        list[str] | None,
        typer.Option(help="boards to play on (repeat it; default 4x6, 5x5, 5x6 and 6x6)")
    ] = None,
    agents: Annotated[str, typer.Option(help="the two agents of the arena games")] = (
        DEFAULT_AGENTS
    ),
    games: Annotated[
        list[Path] | None,
        typer.Option(help="take the positions from these game records instead (an arena's "
                     "results.jsonl, or saved records)"),
    ] = None,
    from_db: Annotated[
        str | None,
        typer.Option("--from-db", help="take the positions from the finished Clobber games of "
                     "a parlour server's database instead (an SQLAlchemy URL, or an SQLite "
                     "file)"),
    ] = None,
    add: Annotated[
        bool, typer.Option(help="with --from-db: also add the puzzles to that database, "
                           "where its server serves them (rated on the shipped set's scale)"),
    ] = False,
    merge: Annotated[
        list[Path] | None,
        typer.Option(help="instead: merge puzzle files (a stopped run's .partial too), drop "
                     "repeated positions, grade them again and write --out"),
    ] = None,
    seed: Annotated[int, typer.Option(help="seed of the arena games")] = 0,
    per_game: Annotated[int, typer.Option(help="at most this many puzzles from one game")] = 3,
    workers: Annotated[int | None, typer.Option(help="parallel arena games")] = None,
    out: Annotated[
        Path, typer.Option(help="where --generate writes the puzzles (.jsonl, or .jsonl.gz)")
    ] = Path("clobber-puzzles.jsonl.gz"),
    rating: Annotated[float, typer.Option(help="without --generate: show a puzzle for this "
                                           "rating")] = 1500.0,
    solution: Annotated[bool, typer.Option(help="also show the shown puzzle's line")] = False,
) -> None:
    """Clobber puzzles: positions from real games where exactly one move wins.

    Without --generate, shows one of the puzzles that ship with parlour. With --generate N,
    plays arena games between strong agents (or reads --games, or a server database's
    finished games with --from-db), keeps the positions where the solver proves exactly one
    winning move, grades them by difficulty and writes them to --out.
    """
    from parlour.analysis.puzzles import GAMES

    if game.strip().lower() not in GAMES:
        err_console.print(f"[red]error:[/] puzzles are made for {', '.join(GAMES)}, not "
                          f"{escape(game)}")
        raise typer.Exit(2)
    if merge:
        _merge(merge, out)
        return
    if generate is None:
        _show(rating, solution)
        return
    if not 1 <= generate <= 100_000:
        err_console.print("[red]error:[/] --generate takes 1 to 100,000 puzzles")
        raise typer.Exit(2)
    if from_db is not None:
        _from_db(from_db, generate, per_game, out, add)
        return
    from parlour.analysis.puzzle_maker import PuzzleMaker, grade
    from parlour.analysis.puzzles import save

    maker = PuzzleMaker()
    partial = out.with_name(out.name + ".partial")
    with err_console.status("making puzzles...") as status, partial.open("w") as kept:

        def progress(found: int, played: int) -> None:
            status.update(f"{found:,} of {generate:,} puzzles from {played:,} games")
            if not err_console.is_terminal:
                err_console.print(f"{found:,} of {generate:,} puzzles from {played:,} games")

        def found_one(puzzle: Any) -> None:  # kept as found: a stopped run loses nothing
            kept.write(json.dumps(puzzle.as_dict()) + "\n")
            kept.flush()

        records = _records(games) if games else _arena_games(
            size or DEFAULT_SIZES, agents, seed, workers, generate * MAX_GAMES_PER_PUZZLE)
        found = maker.from_games(records, generate, per_game=per_game, progress=progress,
                                 found_one=found_one)
    graded = grade(found)
    save(graded, out)
    partial.unlink()
    console.print(f"{len(graded):,} puzzles ({maker.tried:,} positions solved) written to "
                  f"[cyan]{escape(str(out))}[/]", soft_wrap=True)
    if len(graded) < generate:
        err_console.print(f"[yellow]only {len(graded):,} of {generate:,}:[/] the games ran out "
                          "(give more games or boards)")


FROM_DB_GAMES = 100_000
"""``--from-db`` reads at most this many finished games (the most recently finished first)."""


def _from_db(url: str, generate: int, per_game: int, out: Path, add: bool) -> None:
    """Puzzles from a server database's finished Clobber games, read through the server's
    own store (never a game still being played); with ``add``, stored there too."""
    import math

    from parlour.analysis.puzzle_maker import grade
    from parlour.analysis.puzzles import Puzzle, save, shipped
    from parlour.server.persistence.config import normalise_db_url
    from parlour.server.persistence.store import Store
    from parlour.server.study.puzzle_mining import finished_games, mine, record_mined
    from parlour.server.study.puzzles import PuzzleBook

    try:
        store = Store(normalise_db_url(url))
    except Exception as exc:  # a URL the database layer cannot open
        err_console.print(f"[red]error:[/] cannot open the database: {escape(str(exc))}")
        raise typer.Exit(2) from None
    book = PuzzleBook(store)
    try:
        known = [(p.id, p.position, list(p.line)) for p in shipped()]
        if add:  # the database's puzzles are not made again (the file has what the games give)
            known += book.known("clobber")
        games = finished_games(store, limit=FROM_DB_GAMES, unmined=False)
        found: list[Puzzle] = []
        added = 0
        with err_console.status("making puzzles...") as status:
            for played, game in enumerate(games, 1):
                result = mine(game, known, math.inf, None, per_game, fresh=played == 1)
                puzzles = result["puzzles"][: generate - len(found)]
                found += [Puzzle.from_dict(p["puzzle"]) for p in puzzles]
                if add:
                    added += record_mined(store, game, {**result, "puzzles": puzzles}, book)
                status.update(f"{len(found):,} of {generate:,} puzzles from {played:,} games")
                if len(found) >= generate:
                    break
    finally:
        store.close()
    graded = grade(found)
    save(graded, out)
    console.print(f"{len(graded):,} puzzles from {len(games):,} finished games written to "
                  f"[cyan]{escape(str(out))}[/]" + (f"; {added:,} added to the database"
                                                    if add else ""), soft_wrap=True)
    if len(graded) < generate:
        err_console.print(f"[yellow]only {len(graded):,} of {generate:,}:[/] the finished "
                          "games ran out")


def _merge(paths: list[Path], out: Path) -> None:
    from parlour.analysis.puzzle_maker import grade, unique
    from parlour.analysis.puzzles import PuzzleError, load, save

    puzzles = []
    for path in paths:
        try:
            puzzles += load(path)
        except PuzzleError as exc:
            err_console.print(f"[red]error:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None
    kept = grade(unique(puzzles))
    save(kept, out)
    console.print(f"{len(kept):,} puzzles ({len(puzzles) - len(kept):,} repeated positions "
                  f"dropped) written to [cyan]{escape(str(out))}[/]", soft_wrap=True)


def _records(paths: list[Path]) -> Any:
    """Game records from files: JSON lines (arena results) or one record a file."""
    from parlour.core import GameRecord

    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            err_console.print(f"[red]error:[/] cannot read {escape(str(path))}: {exc}")
            raise typer.Exit(2) from None
        stripped = text.lstrip()
        if stripped.startswith("{") and "\n{" not in stripped.rstrip():
            yield GameRecord.from_json(text)
            continue
        for line in text.splitlines():
            if line.strip():
                yield GameRecord.from_json(line)


def _arena_games(sizes: list[str], agents: str, seed: int, workers: int | None,
                 most: int) -> Any:
    """Arena games between ``agents``, in batches, the boards taking turns."""
    from parlour.arena import plan, run

    names = [a.strip() for a in agents.split(",") if a.strip()]
    boards = [build_game("clobber", {"size": s}) for s in sizes]
    played = 0
    batch = 0
    while played < most:
        board = boards[batch % len(boards)]
        try:
            tournament = plan(board, names, GAMES_PER_BATCH, seed=seed + batch)
        except ValueError as exc:
            err_console.print(f"[red]error:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None
        run(tournament, workers=workers)
        for line in tournament.lines:
            played += 1
            yield json.loads(json.dumps(line))
        batch += 1


def _show(rating: float, solution: bool) -> None:
    import parlour
    from parlour.analysis.puzzles import next_puzzle, shipped

    everything = shipped()
    puzzle = next_puzzle(everything, rating)
    state = parlour.load_game("clobber", position=puzzle.position).new_initial_state()
    low, high = min(p.rating for p in everything), max(p.rating for p in everything)
    console.print(f"{len(everything):,} puzzles ship with parlour (ratings {low:.0f} to "
                  f"{high:.0f}). Puzzle {puzzle.id}, rated {puzzle.rating:.0f}:", soft_wrap=True)
    console.print(escape(str(state)))
    side = "White (o)" if puzzle.to_move == "o" else "Black (x)"
    moves = puzzle.player_moves
    console.print(f"{side} to move: find the only winning move"
                  + (f" ({moves} moves to find)." if moves > 1 else "."))
    console.print(f"position: {puzzle.position}", soft_wrap=True)
    if solution:
        console.print("line: " + " ".join(puzzle.line))


def register(app: typer.Typer) -> None:
    app.command()(puzzles)
