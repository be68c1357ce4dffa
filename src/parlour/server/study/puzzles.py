"""Puzzles on the web: the puzzles served and their ratings, and the puzzle ratings of accounts.

The puzzles are :mod:`parlour.analysis.puzzles`' (each line proved by the solver when it was
made; nothing here searches), kept in ``parlour_puzzles``: the set that ships with parlour,
stocked at start-up (a row per puzzle, added once whichever process starts first), and the
puzzles mined from the server's own finished games (:mod:`parlour.server.study.puzzle_mining`). A
puzzle's row holds its Glicko-2 rating, which starts from its grading (the solver's effort and
its line's length) and moves with the rated attempts of accounts, as on lichess: a solve is a
win for the player, a miss a win for the puzzle. The next puzzle is chosen near the player's
rating among the puzzles' current ratings.

A guest's puzzle rating lives in their browser (``localStorage``): the browser sends it with an
answer and keeps the rating the server works out; a guest's attempts never move a puzzle's
rating (a browser can send any rating, and answer again and again). An account's lives here, in
``parlour_puzzle_ratings``, and moves once per puzzle: the first finished attempt of an account
at a puzzle is stored in ``parlour_puzzle_attempts`` under the primary key ``(account, game,
puzzle)``, so the database refuses a second rating of the same puzzle whichever process tries
(a puzzle tried again, or its answer found by probing after a failure, changes nothing); the
puzzle's rating moves in the same transaction.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    Index,
    Integer,
    String,
    Text,
    func,
    select,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from parlour.analysis import puzzles as library
from parlour.core import game_class
from parlour.ratings import NEW_RATING, NEW_RD, NEW_VOLATILITY
from parlour.server.accounts.models import AccountRow
from parlour.server.persistence.rows import Base
from parlour.server.persistence.store import Store

SEEN_REMEMBERED = 2_000
"""The most recent attempts of an account that :meth:`PuzzleRatings.seen` reads (the next
puzzle avoids them)."""
PROVISIONAL_RD = 110.0
"""A puzzle rating whose deviation is over this is shown provisional ("1520?"), as a game
rating is."""

Rating = tuple[float, float, float]
"""A Glicko-2 rating: (rating, deviation, volatility)."""


class PuzzleRow(Base):
    """One puzzle: its position and proved line, where it comes from, and its own rating."""

    __tablename__ = "parlour_puzzles"
    __table_args__ = (Index("ix_parlour_puzzles_game_rating", "game", "rating"),)

    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    position: Mapped[str] = mapped_column(Text)
    line: Mapped[list[str]] = mapped_column(JSON)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    nodes: Mapped[int] = mapped_column(BigInteger)
    moves: Mapped[int] = mapped_column(Integer)
    source: Mapped[str] = mapped_column(String(200))
    """In words: the arena game (boards and agents) or "a game played on this server"."""
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """The server game the position comes from (none: an arena game)."""
    ply: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The move number of that game at which the position stood."""
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    """That game was public already (listed in the lobby, or played by an account, whose
    profile lists it): the puzzle links its replay. A private table's id is not given away."""
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True)
class Stored:
    """A puzzle as the database has it: its current rating, its attempts and its source."""

    puzzle: library.Puzzle
    attempts: int = 0
    solved: int = 0
    table_id: str | None = None
    ply: int | None = None
    public: bool = False

    @property
    def id(self) -> str:
        return self.puzzle.id

    def source(self) -> dict[str, Any]:
        """Where the position comes from, as the API tells it: an arena game, or a game on
        this server (with its replay's address when that game was public)."""
        if self.table_id is None:
            return {"kind": "arena", "text": self.puzzle.source, "replay": None, "ply": None}
        return {"kind": "server", "text": self.puzzle.source, "ply": self.ply,
                "replay": f"/watch/{self.table_id}" if self.public else None}

    def rating(self) -> dict[str, Any]:
        p = self.puzzle
        return {"rating": p.rating, "rd": p.rd, "volatility": p.volatility,
                "provisional": p.rd > PROVISIONAL_RD, "attempts": self.attempts,
                "solved": self.solved}


def _stored(row: PuzzleRow) -> Stored:
    puzzle = library.Puzzle(
        id=row.id, position=row.position, line=tuple(row.line), rating=row.rating, rd=row.rd,
        volatility=row.volatility, nodes=row.nodes, moves=row.moves, source=row.source)
    return Stored(puzzle, row.attempts, row.solved, row.table_id, row.ply, bool(row.public))


def _insert(engine: Any) -> Callable[..., Any]:
    insert: Callable[..., Any] = (postgresql.insert if engine.dialect.name == "postgresql"
                                  else sqlite.insert)
    return insert


@dataclass(frozen=True)
class NewPuzzle:
    """A puzzle to add, with the server game it comes from (none: an arena game)."""

    puzzle: library.Puzzle
    table_id: str | None = None
    ply: int | None = None
    public: bool = False


class PuzzleBook:
    """Every game's puzzles in the store (its methods run on the store's thread)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def stock(self, game: str, puzzles: Sequence[library.Puzzle]) -> int:
        """Add the puzzles the database does not have yet (the shipped set at start-up): a
        row the database has already keeps its rating. Returns how many were added."""
        return self.add(game, [NewPuzzle(p) for p in puzzles])

    def add(self, game: str, puzzles: Sequence[NewPuzzle]) -> int:
        """Add puzzles; one with the id of a stored puzzle (the same position) is left out,
        by the database, so that two processes adding the same puzzle add it once."""
        if not puzzles:
            return 0
        with Session(self.store.engine) as session:
            have = set(session.scalars(select(PuzzleRow.id).where(PuzzleRow.game == game)))
        now = time.time()
        rows = [{
            "game": game, "id": n.puzzle.id, "position": n.puzzle.position,
            "line": list(n.puzzle.line), "rating": n.puzzle.rating, "rd": n.puzzle.rd,
            "volatility": n.puzzle.volatility, "nodes": n.puzzle.nodes,
            "moves": n.puzzle.moves, "source": n.puzzle.source[:200], "table_id": n.table_id,
            "ply": n.ply, "public": n.public, "attempts": 0, "solved": 0, "created_at": now,
        } for n in puzzles if n.puzzle.id not in have]
        if not rows:
            return 0
        statement = _insert(self.store.engine)(PuzzleRow).on_conflict_do_nothing(
            index_elements=["game", "id"])
        added = 0
        with self.store.engine.begin() as connection:
            for start in range(0, len(rows), 500):
                result = connection.execute(statement, rows[start:start + 500])
                added += max(int(result.rowcount or 0), 0)
        return added

    def count(self, game: str) -> int:
        with Session(self.store.engine) as session:
            return int(session.scalar(select(func.count()).select_from(PuzzleRow)
                                      .where(PuzzleRow.game == game)) or 0)

    def get(self, game: str, puzzle_id: str) -> Stored | None:
        with Session(self.store.engine) as session:
            row = session.get(PuzzleRow, (game, puzzle_id))
            return None if row is None else _stored(row)

    def from_table(self, table_id: str) -> list[Stored]:
        """The puzzles made from one server game."""
        with Session(self.store.engine) as session:
            return [_stored(r) for r in session.scalars(
                select(PuzzleRow).where(PuzzleRow.table_id == table_id).order_by(PuzzleRow.ply))]

    def known(self, game: str) -> list[tuple[str, str, list[str]]]:
        """Every puzzle's ``(id, position, line)``: the mining leaves out their positions and
        the positions along their lines (turned, mirrored or placed elsewhere too)."""
        with Session(self.store.engine) as session:
            return [(i, p, list(line)) for i, p, line in session.execute(
                select(PuzzleRow.id, PuzzleRow.position, PuzzleRow.line)
                .where(PuzzleRow.game == game))]

    def next(self, game: str, rating: float, seen: Iterable[str],
             rng: random.Random | None = None) -> Stored:
        """One of the :data:`~parlour.analysis.puzzles.NEAREST` puzzles rated nearest
        ``rating`` that are not in ``seen``, at random (all of them again once every puzzle
        is seen). Two index range reads, above and below the rating."""
        done = list(dict.fromkeys(seen))
        with Session(self.store.engine) as session:
            near = self._near(session, game, rating, done)
            if not near:
                near = self._near(session, game, rating, [])
            if not near:
                raise library.PuzzleError("there are no puzzles")
            near.sort(key=lambda r: (abs(r.rating - rating), r.id))
            return _stored((rng or random).choice(near[:library.NEAREST]))

    @staticmethod
    def _near(session: Session, game: str, rating: float, done: list[str]) -> list[PuzzleRow]:
        query = select(PuzzleRow).where(PuzzleRow.game == game)
        if done:
            query = query.where(PuzzleRow.id.not_in(done))
        above = session.scalars(query.where(PuzzleRow.rating >= rating)
                                .order_by(PuzzleRow.rating, PuzzleRow.id)
                                .limit(library.NEAREST)).all()
        below = session.scalars(query.where(PuzzleRow.rating < rating)
                                .order_by(PuzzleRow.rating.desc(), PuzzleRow.id)
                                .limit(library.NEAREST)).all()
        return [*above, *below]


class PuzzleRatingRow(Base):
    """An account's puzzle rating for one game's puzzles."""

    __tablename__ = "parlour_puzzle_ratings"

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float)


class PuzzleAttemptRow(Base):
    """An account's first finished attempt at a puzzle, and the rating change it made."""

    __tablename__ = "parlour_puzzle_attempts"

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    solved: Mapped[bool] = mapped_column(Boolean)
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float, index=True)


@dataclass(frozen=True)
class Rated:
    """What an attempt did to a rating: before and after (equal when it was not rated), and
    the puzzle's own rating before and after (none when it did not move)."""

    before: Rating
    after: Rating
    rated: bool
    puzzle_before: Rating | None = None
    puzzle_after: Rating | None = None

    def as_dict(self) -> dict[str, Any]:
        rating, rd, volatility = self.after
        return {"rating": rating, "rd": rd, "volatility": volatility,
                "change": rating - self.before[0], "rated": self.rated}

    def puzzle_dict(self) -> dict[str, Any] | None:
        """The puzzle's new rating and its change (``None``: it did not move)."""
        if self.puzzle_before is None or self.puzzle_after is None:
            return None
        rating, rd, volatility = self.puzzle_after
        return {"rating": rating, "rd": rd, "volatility": volatility,
                "change": rating - self.puzzle_before[0]}


class PuzzleRatings:
    """Accounts' puzzle ratings and attempts in the store (its methods run on its thread:
    ``await store.run(ratings.record, ...)``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def rating_of(self, account_id: int, game: str) -> Rating:
        with Session(self.store.engine) as session:
            row = session.get(PuzzleRatingRow, (account_id, game))
        if row is None:
            return (NEW_RATING, NEW_RD, NEW_VOLATILITY)
        return (row.rating, row.rd, row.volatility)

    def summary(self, account_id: int, game: str) -> dict[str, Any]:
        """The account's rating, attempts and puzzles solved."""
        with Session(self.store.engine) as session:
            row = session.get(PuzzleRatingRow, (account_id, game))
        rating = self.rating_of(account_id, game)
        return {"rating": rating[0], "rd": rating[1], "volatility": rating[2],
                "attempts": 0 if row is None else row.attempts,
                "solved": 0 if row is None else row.solved}

    def seen(self, account_id: int, game: str) -> list[str]:
        """The puzzles the account has finished, the latest first."""
        query = (select(PuzzleAttemptRow.puzzle_id)
                 .where(PuzzleAttemptRow.account_id == account_id,
                        PuzzleAttemptRow.game == game)
                 .order_by(PuzzleAttemptRow.created_at.desc()).limit(SEEN_REMEMBERED))
        with Session(self.store.engine) as session:
            return list(session.scalars(query))

    def record(self, account_id: int, game: str, puzzle: library.Puzzle, solved: bool) -> Rated:
        """Rate the account's attempt, once per puzzle: a second attempt at the same puzzle
        is not rated (the database refuses its row). The puzzle's own rating moves in the
        same transaction, against the player's rating before the attempt (the rows are
        locked in one order, the player's then the puzzle's, so two answers never deadlock)."""
        now = time.time()
        try:
            with Session(self.store.engine) as session, session.begin():
                row = session.get(PuzzleRatingRow, (account_id, game), with_for_update=True)
                stored = session.get(PuzzleRow, (game, puzzle.id), with_for_update=True)
                if stored is not None:  # the puzzle as it is rated now, by every process
                    puzzle = replace(puzzle, rating=stored.rating, rd=stored.rd,
                                     volatility=stored.volatility)
                before = ((NEW_RATING, NEW_RD, NEW_VOLATILITY) if row is None
                          else (row.rating, row.rd, row.volatility))
                after, puzzle_after = library.rate_attempt(before, puzzle, solved)
                session.add(PuzzleAttemptRow(
                    account_id=account_id, game=game, puzzle_id=puzzle.id, solved=solved,
                    before=before[0], after=after[0], created_at=now))
                session.flush()  # the primary key refuses a puzzle rated before, here
                if row is None:
                    row = PuzzleRatingRow(account_id=account_id, game=game, attempts=0,
                                          solved=0)
                    session.add(row)
                row.rating, row.rd, row.volatility = after
                row.attempts += 1
                row.solved += int(solved)
                row.updated_at = now
                if stored is not None:
                    stored.rating, stored.rd, stored.volatility = puzzle_after
                    stored.attempts += 1
                    stored.solved += int(solved)
        except IntegrityError:
            current = self.rating_of(account_id, game)
            return Rated(current, current, rated=False)
        return Rated(before, after, rated=True,
                     puzzle_before=(puzzle.rating, puzzle.rd, puzzle.volatility),
                     puzzle_after=puzzle_after if stored is not None else None)

    def profile(self, username_key: str) -> dict[str, dict[str, Any]]:
        """A player's puzzle ratings for their public profile, by game (empty for a player
        who has not finished a puzzle)."""
        query = (select(PuzzleRatingRow)
                 .join(AccountRow, AccountRow.id == PuzzleRatingRow.account_id)
                 .where(AccountRow.username_key == username_key,
                        AccountRow.deleted_at.is_(None))
                 .order_by(PuzzleRatingRow.game))
        with Session(self.store.engine) as session:
            rows = session.scalars(query).all()
        return {r.game: {"rating": round(r.rating, 1), "rd": round(r.rd, 1),
                         "provisional": r.rd > PROVISIONAL_RD,
                         "shown": f"{round(r.rating)}{'?' if r.rd > PROVISIONAL_RD else ''}",
                         "attempts": r.attempts, "solved": r.solved,
                         "title": game_class(r.game).game_type.long_name,
                         "page": f"/puzzles/{r.game}"}
                for r in rows}


def guest_attempt(player: Rating, puzzle: library.Puzzle, solved: bool) -> Rated:
    """A guest's new rating (the browser keeps it): nothing is stored."""
    after, _ = library.rate_attempt(player, puzzle, solved)
    return Rated(player, after, rated=True)
