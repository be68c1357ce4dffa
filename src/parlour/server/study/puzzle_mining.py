"""Puzzles from the server's own finished games, made as the arena's are.

Every position of a finished Clobber game played here (people, bots, the computer) is a
candidate, and :class:`~parlour.analysis.puzzle_maker.PuzzleMaker` keeps it when the solver
proves that exactly one move wins and refutes every other; the puzzle is rated on the shipped
set's scale (:func:`~parlour.analysis.puzzle_maker.place`) and added to ``parlour_puzzles``,
where ``GET /api/puzzles/clobber/next`` finds it among the shipped ones. A puzzle records the
game and the move number it comes from; it links the game's replay only when that game was
public already (listed in the lobby, or played by an account, whose profile lists it).

Fair play: only a game that is over is read (``finished``); a game still being played never
becomes a puzzle, not even its early positions. Clobber hides nothing, so a finished game's
positions reveal nothing a player could not see.

Two ways in:

- ``parlour puzzles clobber --generate N --from-db URL`` reads a server database's finished
  games (:func:`finished_games`) and makes puzzles from them in its own process;
- on a running server, :class:`Miner` mines newly finished games in the background, in a
  worker process of its own (niced, killed past its deadline), within the limits
  ``puzzle_mining_seconds_per_hour`` (the solver's time an hour, counted across the cluster
  from the database: 0 turns the mining off), ``puzzle_game_seconds`` (one game) and
  ``puzzle_position_seconds`` (one candidate position, all its solves together). One process
  of a cluster mines at a time: it holds a lease in ``parlour_claims`` that it renews before
  each game; when it stops, the lease expires and another process takes over.
  ``parlour_puzzle_mined`` records each game mined (once: its primary key) and the solver
  time it took.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Float, Integer, String, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from parlour.analysis.puzzles import GAMES as PUZZLE_GAMES
from parlour.core import load_game
from parlour.server.fairness import JobClass
from parlour.server.limits import Limits
from parlour.server.messages.schemas import Params
from parlour.server.periodic import every
from parlour.server.persistence.rows import Base
from parlour.server.persistence.store import Store
from parlour.server.study.puzzles import NewPuzzle, PuzzleBook, _insert

log = logging.getLogger("parlour.server")

GAME = PUZZLE_GAMES[0]
"""The game whose finished games are mined (the one with puzzles, as
:mod:`parlour.analysis.puzzles` says)."""
PER_GAME = 3
"""Puzzles one game gives at most (as ``--per-game``'s default)."""
TICK = 10.0
"""Seconds between two looks for newly finished games."""
BATCH = 20
"""Finished games read at one look (the newest first)."""
GRACE = 15.0
"""Seconds past a game's time after which its worker is killed (a solve overshoots its limit
by a check interval at most; this covers the worker's start and the known puzzles' keys)."""
LEASE = f"puzzle-miner:{GAME}"
"""The ``parlour_claims`` row that makes one process of a cluster the miner."""
WORKER_JOBS = 100
"""Games a mining worker mines before a fresh one replaces it (the solver's tables)."""
NICE = 10
"""The mining worker's niceness: the tables' computer players come first."""


class MinedRow(Base):
    """A finished game the mining has read (once), with what it found and the time it took."""

    __tablename__ = "parlour_puzzle_mined"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    mined_at: Mapped[float] = mapped_column(Float, index=True)
    seconds: Mapped[float] = mapped_column(Float)
    tried: Mapped[int] = mapped_column(Integer)
    found: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True)
class FinishedGame:
    """A finished game as the database holds it: enough to replay it."""

    table_id: str
    game: str
    params: Params
    actions: tuple[int, ...]
    public: bool
    """Listed in the lobby, or played by an account: its replay may be linked."""


def finished_games(store: Store, *, limit: int, unmined: bool = True,
                   game: str = GAME) -> list[FinishedGame]:
    """Up to ``limit`` finished games of ``game``, the most recently finished first;
    ``unmined``: only the games the mining has not read yet. A game stored under another
    version of the rules is left out (its actions could mean another game)."""
    version = load_game(game).rules_version
    with Session(store.engine) as session:
        rows = store.players.finished_games(session, game, version, limit,
                                            MinedRow if unmined else None)
        return [FinishedGame(row.id, row.game, row.params, actions,
                             row.listed or accounts > 0) for row, actions, accounts in rows]


def record_mined(store: Store, game: FinishedGame, result: dict[str, Any],
                 book: PuzzleBook) -> int:
    """Store what mining ``game`` found: its puzzles (one already stored is left out) and the
    game's row in ``parlour_puzzle_mined`` (a second is left out). Returns puzzles added."""
    from parlour.analysis.puzzles import Puzzle

    added = book.add(game.game, [
        NewPuzzle(Puzzle.from_dict(found["puzzle"]), game.table_id, int(found["ply"]),
                  game.public) for found in result["puzzles"]])
    statement = _insert(store.engine)(MinedRow).values(
        table_id=game.table_id, game=game.game, mined_at=time.time(),
        seconds=float(result["seconds"]), tried=int(result["tried"]),
        found=len(result["puzzles"])).on_conflict_do_nothing(index_elements=["table_id"])
    with store.engine.begin() as connection:
        connection.execute(statement)
    return added


def spent_last_hour(store: Store, now: float | None = None) -> float:
    """The solver's seconds the mining spent in the last hour, every process together."""
    since = (now or time.time()) - 3600.0
    with Session(store.engine) as session:
        return float(session.scalar(select(func.coalesce(func.sum(MinedRow.seconds), 0.0))
                                    .where(MinedRow.mined_at >= since)) or 0.0)


# -- the work itself (in a worker process, or the command line's own) --------------------------
_maker: Any = None
_known: set[str] = set()


def _maker_for(position_seconds: float | None, fresh: bool) -> Any:
    global _maker
    from parlour.analysis.puzzle_maker import PuzzleMaker

    if fresh or _maker is None or _maker.position_seconds != position_seconds:
        _known.clear()
        _maker = PuzzleMaker(position_seconds=position_seconds)
    return _maker


def _positions(game: FinishedGame) -> Iterator[tuple[Any, int]]:
    state: Any = load_game(game.game, **game.params).new_initial_state()
    for ply, action in enumerate(game.actions):
        if state.is_terminal():
            return
        yield state, ply
        state = state.child(action)


def mine(game: FinishedGame, known: list[tuple[str, str, list[str]]], seconds: float,
         position_seconds: float | None, per_game: int = PER_GAME,
         fresh: bool = False) -> dict[str, Any]:
    """The puzzles of one finished game, within ``seconds`` (``position_seconds`` for one
    candidate): ``puzzles`` (each ``{"ply", "puzzle"}``, rated on the shipped set's scale),
    ``tried`` (positions solved) and ``seconds`` (the time it took). ``known`` lists the
    puzzles made already (``(id, position, line)``): their positions and their lines' steps
    are not made again, turned, mirrored or elsewhere on the board."""
    from parlour.analysis.puzzle_maker import place, remember
    from parlour.analysis.puzzles import shipped

    started = time.monotonic()
    maker = _maker_for(position_seconds, fresh)
    for puzzle_id, position, line in known:
        if puzzle_id not in _known:
            remember(maker, position, line)
            _known.add(puzzle_id)
    tried = maker.tried
    params = load_game(game.game, **game.params)
    grid = getattr(params, "grid", None)
    label = (f"{grid.rows}x{grid.columns} game played on this server" if grid is not None
             else "a game played on this server")
    found = []
    for ply, puzzle in maker.from_positions(_positions(game), label, per_game,
                                            started + seconds):
        placed = place(puzzle, shipped())
        _known.add(placed.id)
        found.append({"ply": ply, "puzzle": placed.as_dict()})
    return {"puzzles": found, "tried": maker.tried - tried,
            "seconds": round(time.monotonic() - started, 3)}


def mine_in_worker(game: FinishedGame, known: list[tuple[str, str, list[str]]],
                   seconds: float, position_seconds: float) -> dict[str, Any]:
    """:func:`mine` as the mining worker's job: the worker lowers its priority first."""
    global _niced
    if not _niced:
        with contextlib.suppress(OSError):
            os.nice(NICE)
        _niced = True
    return mine(game, known, seconds, position_seconds)


_niced = False


# -- on a running server -----------------------------------------------------------------------
class Miner:
    """The background mining of a running server (one process of a cluster at a time)."""

    def __init__(self, store: Store, book: PuzzleBook, limits: Limits, owner: str,
                 runner_factory: Callable[..., Any] | None = None) -> None:
        from parlour.server.ai import AIRunner

        self.store = store
        self.book = book
        self.limits = limits
        self.owner = owner
        deadline = limits.puzzle_game_seconds + limits.puzzle_position_seconds + GRACE
        self.lease_seconds = 2 * deadline
        self.runner = (runner_factory or AIRunner)(
            "process", workers=1, deadline=deadline, job=mine_in_worker, max_jobs=WORKER_JOBS)
        self.mined = 0
        self.added = 0

    @property
    def on(self) -> bool:
        return self.limits.puzzle_mining_seconds_per_hour > 0

    async def run(self) -> None:
        if not self.on:
            return
        try:
            await every(TICK, self.tick, "mining finished games for puzzles")
        finally:
            self.runner.close()

    async def _lease(self) -> bool:
        return await self.store.run(self.store.claim, LEASE, self.owner, 0, self.lease_seconds)

    async def tick(self) -> None:
        """Mine the newly finished games, while this process holds the lease and the hour's
        solver time lasts."""
        from parlour.server.ai import AIFailure, AITimeout

        per_hour = self.limits.puzzle_mining_seconds_per_hour
        if not await self._lease():
            return
        spent = await self.store.run(spent_last_hour, self.store)
        if per_hour - spent < 1.0:
            return
        games = await self.store.run(lambda: finished_games(self.store, limit=BATCH))
        for game in games:
            left = per_hour - spent
            if left < 1.0 or not await self._lease():
                return
            known = await self.store.run(self.book.known, game.game)
            seconds = min(left, self.limits.puzzle_game_seconds)
            try:
                result = await self.runner.run(game, known, seconds,
                                               self.limits.puzzle_position_seconds,
                                               client="puzzles", job_class=JobClass.BACKGROUND)
            except AITimeout:
                result = {"puzzles": [], "tried": 0, "seconds": self.runner.deadline}
                log.warning("mining table %s for puzzles ran out of time", game.table_id)
            except AIFailure as exc:
                result = {"puzzles": [], "tried": 0, "seconds": seconds}
                log.warning("mining table %s for puzzles failed: %s", game.table_id, exc.reason)
            added = await self.store.run(record_mined, self.store, game, result, self.book)
            spent += float(result["seconds"])
            self.mined += 1
            self.added += added
            if added:
                log.info("%d puzzle(s) from table %s", added, game.table_id)
