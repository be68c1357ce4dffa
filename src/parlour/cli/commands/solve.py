"""``parlour solve clobber``: who wins a position with perfect play, and the winning moves."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from parlour.analysis import GAMES, ClobberSolver, SolverTimeout, openings
from parlour.analysis.checkpoint import CheckpointError
from parlour.cli.common import build_game, console, err_console
from parlour.games.clobber import ClobberGame

COLOURS = {"o": "White (o)", "x": "Black (x)"}
VALUE_MAX_STONES = 12
"""``--value`` computes canonical forms only for regions this small (the cost is exponential)."""


def solve(
    game: Annotated[str, typer.Argument(help="the game to solve (clobber)")],
    position: Annotated[
        str | None,
        typer.Option(
            help="position text (C6): ranks from the top joined by /, a space, o or x to move"
        ),
    ] = None,
    size: Annotated[
        str | None, typer.Option(help="solve the start position of this board, e.g. 3x6")
    ] = None,
    first: Annotated[
        str | None, typer.Option(help="who moves first from the start position: white or black")
    ] = None,
    graph: Annotated[
        str | None, typer.Option(help="play on a graph (C7): edges like 'a-b b-c'")
    ] = None,
    cannibal: Annotated[bool, typer.Option(help="Cannibal Clobber (C8)")] = False,
    all_moves: Annotated[bool, typer.Option("--all", help="list every winning move")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    time_limit: Annotated[
        float | None, typer.Option(help="give up (with a message, never a guess) after S seconds")
    ] = None,
    value: Annotated[
        bool, typer.Option(help="also print the combinatorial game value (small positions)")
    ] = False,
    engine: Annotated[str, typer.Option(help="search engine: auto, c or python")] = "auto",
    ray: Annotated[
        bool, typer.Option("--ray", help="spread the search over Ray workers (the ray extra)")
    ] = False,
    ray_address: Annotated[
        str | None,
        typer.Option(help="with --ray: an existing Ray cluster (else a local instance)"),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1, help="with --ray: how many workers (default: one per CPU, or the cluster's)"
        ),
    ] = None,
    checkpoint: Annotated[
        Path | None,
        typer.Option(
            help="save what is proved to this file every 5 minutes and when stopped; "
            "solving again with it resumes"
        ),
    ] = None,
    records: Annotated[bool, typer.Option(
        help="answer at once where the shipped data (the opening book, the hunt's records) "
        "decides the position"
    )] = True,
) -> None:
    """Solve a Clobber position exactly: the winner with perfect play and the winning moves."""
    if game.strip().lower() not in GAMES:
        err_console.print(f"[red]error:[/] only {', '.join(GAMES)} can be solved, not "
                          f"{escape(game)!r}")
        raise typer.Exit(2)
    if engine not in ("auto", "c", "python"):
        err_console.print("[red]error:[/] --engine must be auto, c or python")
        raise typer.Exit(2)
    if time_limit is not None and time_limit <= 0:
        err_console.print("[red]error:[/] --time-limit must be a positive number of seconds")
        raise typer.Exit(2)
    if (ray_address is not None or workers is not None) and not ray:
        err_console.print("[red]error:[/] --ray-address and --workers go with --ray")
        raise typer.Exit(2)
    if ray and checkpoint is not None:
        err_console.print("[red]error:[/] --checkpoint keeps a local solve; leave out --ray")
        raise typer.Exit(2)
    params: dict[str, Any] = {"cannibal": cannibal}
    for key, given in (("position", position), ("size", size), ("first", first), ("graph", graph)):
        if given is not None:
            params[key] = given
    configured = build_game("clobber", params)
    assert isinstance(configured, ClobberGame)
    state = configured.new_initial_state()
    if records and _answer_from_records(state, configured, all_moves, as_json, value):
        return
    if ray:
        options = {
            "engine": engine, "workers": workers, "address": ray_address, "disk_cache": True
        }
        _solve_on_ray(state, configured, all_moves, as_json, time_limit, value, options)
        return
    try:
        solver = ClobberSolver(
            configured,
            engine=engine,
            disk_cache=True,
            tt_bits=table_bits(state),
        )
    except RuntimeError as exc:
        err_console.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None

    status = (
        err_console.status("solving…", spinner="dots")
        if err_console.is_terminal
        else nullcontext()
    )
    with status as live:

        def progress(nodes: int, seconds: float) -> None:
            if live is not None:
                live.update(f"solving… {nodes:,} positions searched, {seconds:.0f} s")

        try:
            with stop_on_sigterm():
                solution = solver.solve(
                    state,
                    all_moves=all_moves,
                    time_limit=time_limit,
                    progress=progress,
                    checkpoint=checkpoint,
                )
        except SolverTimeout as exc:
            err_console.print(f"[red]no answer:[/] {escape(str(exc))}")
            if checkpoint is not None:
                err_console.print(f"what was proved is saved in {escape(str(checkpoint))}")
            raise typer.Exit(1) from None
        except CheckpointError as exc:
            err_console.print(f"[red]error:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            if checkpoint is None:
                raise
            err_console.print(
                f"stopped; what was proved is saved in {escape(str(checkpoint))} "
                "(run the same command again to resume)"
            )
            raise typer.Exit(130) from None

    cgt_value = _value_text(state, configured) if value else None
    if as_json:
        _print_json(solution.as_dict(), value, cgt_value)
        return
    _print_answer(configured, state, solution, all_moves)
    if value:
        console.print(f"value (Left = Black x): {cgt_value}")
    console.print(
        f"[dim]{solution.nodes:,} position{'' if solution.nodes == 1 else 's'} searched in "
        f"{solution.seconds:.2f} s "
        f"({solution.engine} engine)[/]"
    )
    if solution.engine == "python" and configured.grid is not None and engine == "auto":
        console.print(
            "[dim]the compiled engine is not built, so the slower pure-Python engine ran; "
            "reinstall parlour where a C compiler is present for the fast one[/]"
        )


def _print_answer(configured: Any, state: Any, solution: Any, all_moves: bool) -> None:
    mover, winner = COLOURS[solution.to_move], COLOURS[solution.winner]
    console.print(f"{configured}: {escape(solution.position)}")
    if solution.mover_wins:
        moves = ", ".join(solution.winning_moves)
        label = "winning moves" if all_moves else "a winning move"
        console.print(
            f"[bold]{mover}[/] to move [green]wins[/] with perfect play; {label}: {moves}"
        )
    elif state.is_terminal():
        console.print(f"[bold]{mover}[/] to move has no move and [red]loses[/]: {winner} has won")
    else:
        console.print(
            f"[bold]{mover}[/] to move [red]loses[/] against perfect play: "
            f"{winner} wins whatever {mover} plays"
        )


def _answer_from_records(
    state: Any, configured: ClobberGame, all_moves: bool, as_json: bool, value: bool
) -> bool:
    """Answer from the shipped data (the opening book and the hunt's proofs:
    :mod:`parlour.analysis.openings`) when it decides the position (with ``--all``: every
    move of it); whether it was answered."""
    started = time.monotonic()
    if bin(state.stones(0) | state.stones(1)).count("1") <= openings.SEARCH_FIRST_STONES:
        return False  # searched in a fraction of a second, every winning move
    proof = openings.lookup(state)
    if proof is None:
        return False
    mover = "ox"[state.to_move]
    if all_moves and not proof.complete:
        undecided = len(state.legal_actions()) - len(proof.winning_moves)
        known = ", ".join(proof.winning_moves) or "a move"
        err_console.print(
            f"{escape(openings.describe(proof))}: {COLOURS[mover]} wins with {known}; the data "
            f"does not decide {undecided} other moves, so they are searched (leave out --all for "
            "the answer at once)"
        )
        return False
    winner = mover if proof.mover_wins else "xo"[state.to_move]
    moves = proof.winning_moves if all_moves else proof.winning_moves[:1]
    cgt_value = _value_text(state, configured) if value else None
    if as_json:
        _print_json({
            "winner": winner, "winning_moves": list(moves), "nodes": 0,
            "seconds": round(time.monotonic() - started, 4),
            "proved_by": list(openings.hunt_records(proof.records)),
            "book": openings.RECORD in proof.records, "complete": proof.complete,
        }, value, cgt_value)
        return True
    console.print(f"{configured}: {escape(state.position())}")
    if proof.mover_wins and moves:
        label = "winning moves" if all_moves else "a winning move"
        console.print(f"[bold]{COLOURS[mover]}[/] to move [green]wins[/] with perfect play; "
                      f"{label}: {', '.join(moves)}")
    elif proof.mover_wins:
        console.print(f"[bold]{COLOURS[mover]}[/] to move [green]wins[/] with perfect play "
                      "(the data does not say with which move: --no-records searches for one)")
    else:
        console.print(f"[bold]{COLOURS[mover]}[/] to move [red]loses[/] against perfect play: "
                      f"{COLOURS[winner]} wins whatever {COLOURS[mover]} plays")
    if value:
        console.print(f"value (Left = Black x): {cgt_value}")
    console.print(f"[dim]{escape(openings.describe(proof))}; no search[/]")
    return True


def _solve_on_ray(
    state: Any,
    configured: ClobberGame,
    all_moves: bool,
    as_json: bool,
    time_limit: float | None,
    value: bool,
    options: dict[str, Any],
) -> None:
    """``--ray``: the same answer, the search spread over Ray workers."""
    from parlour.analysis.distributed import RayClobberSolver
    from parlour.core.extras import MissingExtraError

    status = (
        err_console.status("starting Ray…", spinner="dots")
        if err_console.is_terminal
        else nullcontext()
    )
    with status as live:
        try:
            solver = RayClobberSolver(configured, **options)
        except MissingExtraError as exc:
            err_console.print(f"[red]error:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None
        except ConnectionError as exc:
            err_console.print(f"[red]error:[/] cannot reach the Ray cluster: {escape(str(exc))}")
            raise typer.Exit(2) from None
        except ValueError as exc:  # more workers than the cluster has CPUs
            err_console.print(f"[red]error:[/] {escape(str(exc))}")
            raise typer.Exit(2) from None

        def progress(nodes: int, seconds: float) -> None:
            if live is not None:
                live.update(
                    f"solving on {solver.workers} Ray workers… "
                    f"{nodes:,} positions searched, {seconds:.0f} s"
                )

        with solver:
            try:
                found = solver.solve(
                    state, all_moves=all_moves, time_limit=time_limit, progress=progress
                )
            except SolverTimeout as exc:
                err_console.print(f"[red]no answer:[/] {escape(str(exc))}")
                raise typer.Exit(1) from None
    cgt_value = _value_text(state, configured) if value else None
    if as_json:
        _print_json(found.as_dict(), value, cgt_value)
        return
    solution, stats = found.solution, found.stats
    _print_answer(configured, state, solution, all_moves)
    if value:
        console.print(f"value (Left = Black x): {cgt_value}")
    console.print(
        f"[dim]{solution.nodes:,} position{'' if solution.nodes == 1 else 's'} searched in "
        f"{solution.seconds:.2f} s by {stats.workers} Ray worker"
        f"{'' if stats.workers == 1 else 's'} ({_count(stats.tasks, 'task')}, "
        f"{stats.cancelled} cancelled, {_count(stats.splits, 'split')})[/]"
    )


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def table_bits(state: Any) -> int:
    """Transposition-table size for a solve: 2^22 entries (32 MB) for small positions, up to
    2^28 (2 GB) for 30 stones or more; memory is touched only as the search fills the table."""
    stones = bin(state.stones(0) | state.stones(1)).count("1")
    return 22 if stones <= 20 else 24 if stones <= 26 else 27 if stones < 30 else 28


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """SIGTERM stops a solve as Ctrl-C does (so that a checkpoint is saved)."""
    def interrupt(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _print_json(data: dict[str, Any], value: bool, cgt_value: str | None) -> None:
    """The ``--json`` answer of a local or a Ray solve, with the value when it was asked for."""
    if value:
        data["value"] = cgt_value
    print(json.dumps(data))


def _value_text(state: Any, configured: Any) -> str:
    """The position's canonical form in CGSuite's notation (Left is Black)."""
    from parlour.analysis.values import ValueTooLarge, cgt_value

    try:
        return cgt_value(state, max_stones=VALUE_MAX_STONES)
    except ValueTooLarge:
        return f"not computed (a region has more than {VALUE_MAX_STONES} stones)"


def register(app: typer.Typer) -> None:
    app.command("solve")(solve)
