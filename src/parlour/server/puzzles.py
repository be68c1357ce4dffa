"""Puzzles on the web: the puzzle set served, and the puzzle ratings of accounts.

The puzzles are :mod:`parlour.analysis.puzzles`' (the set that ships with parlour, each line
proved by the solver when it was made); nothing here searches. A guest's puzzle rating lives in
their browser (``localStorage``): the browser sends it with an answer and keeps the rating the
server works out. An account's lives here, in ``parlour_puzzle_ratings``, and moves once per
puzzle: the first finished attempt of an account at a puzzle is stored in
``parlour_puzzle_attempts`` under the primary key ``(account, game, puzzle)``, so the database
refuses a second rating of the same puzzle whichever process tries (a puzzle tried again, or
its answer found by probing after a failure, changes nothing).

A puzzle's own rating is the one it was graded with (its solver effort and its line's length);
attempts on the web do not move it, so that every process and every guest sees the same.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from sqlalchemy import Boolean, Float, Integer, String, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from parlour.analysis import puzzles as library
from parlour.ratings import NEW_RATING, NEW_RD, NEW_VOLATILITY
from parlour.server.store import Base, Store

SEEN_REMEMBERED = 2_000
"""The most recent attempts of an account that :meth:`PuzzleRatings.seen` reads (the next
puzzle avoids them)."""

Rating = tuple[float, float, float]
"""A Glicko-2 rating: (rating, deviation, volatility)."""


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
    """What an attempt did to a rating: before and after (equal when it was not rated)."""

    before: Rating
    after: Rating
    rated: bool

    def as_dict(self) -> dict[str, Any]:
        rating, rd, volatility = self.after
        return {"rating": rating, "rd": rd, "volatility": volatility,
                "change": rating - self.before[0], "rated": self.rated}


class PuzzleSet:
    """One game's puzzles, by id: the shipped set unless another is given."""

    def __init__(self, game: str, puzzles: Sequence[library.Puzzle] | None = None) -> None:
        self.game = game
        self._given = None if puzzles is None else list(puzzles)

    @cached_property
    def puzzles(self) -> list[library.Puzzle]:
        return library.shipped() if self._given is None else self._given

    @cached_property
    def by_id(self) -> dict[str, library.Puzzle]:
        return {p.id: p for p in self.puzzles}

    def next(self, rating: float, seen: Sequence[str]) -> library.Puzzle:
        return library.next_puzzle(self.puzzles, rating, seen=seen)


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
        is not rated (the database refuses its row)."""
        now = time.time()
        try:
            with Session(self.store.engine) as session, session.begin():
                row = session.get(PuzzleRatingRow, (account_id, game), with_for_update=True)
                before = ((NEW_RATING, NEW_RD, NEW_VOLATILITY) if row is None
                          else (row.rating, row.rd, row.volatility))
                after, _ = library.rate_attempt(before, puzzle, solved)
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
        except IntegrityError:
            current = self.rating_of(account_id, game)
            return Rated(current, current, rated=False)
        return Rated(before, after, rated=True)


def guest_attempt(player: Rating, puzzle: library.Puzzle, solved: bool) -> Rated:
    """A guest's new rating (the browser keeps it): nothing is stored."""
    after, _ = library.rate_attempt(player, puzzle, solved)
    return Rated(player, after, rated=True)
