"""The other groups' queries over the tables' rows, by player: an account's seats and links
(its games, deleting it, a bot's games at once), what a game's end reads to rate it, and the
finished games puzzles are mined from.

Each method takes the caller's session (or connection), so that it runs inside the caller's
transaction with the caller's own rows (accounts, results, pairings): the groups above keep
their transactions whole while only this module writes SQL over the table rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from parlour.server.persistence.records import SeatData, TableSummary
from parlour.server.persistence.repository import Repository
from parlour.server.persistence.rows import ActionRow, HandRow, SeatRow, TableRow


def summary_of(row: TableRow) -> TableSummary:
    return TableSummary(row.id, row.game, dict(row.params), bool(row.finished),
                        bool(row.archived), row.to_act, bool(row.rated), row.unrated,
                        row.clock, bool(row.listed), row.created_at, row.updated_at)


def seat_of(row: SeatRow) -> SeatData:
    return SeatData(row.seat, row.kind, row.agent, row.name, row.account_id, bool(row.bot))


class PlayersRepo(Repository):
    """Tables, seats and links read and changed by account, in the caller's transaction."""

    # -- an account's seats and links -------------------------------------------------------
    @staticmethod
    def seats_and_hands(session: Session, account_id: int) -> int:
        """How many seats and links the account holds, at any table."""
        seats = session.scalar(select(func.count()).select_from(SeatRow)
                               .where(SeatRow.account_id == account_id)) or 0
        hands = session.scalar(select(func.count()).select_from(HandRow)
                               .where(HandRow.account_id == account_id)) or 0
        return int(seats) + int(hands)

    @staticmethod
    def unfinished_seats(session: Session, account_id: int, limit: int
                         ) -> list[tuple[TableSummary, int]]:
        """The account's seats at unfinished, unarchived tables, oldest table first."""
        rows = session.execute(
            select(TableRow, SeatRow.seat).join(SeatRow, SeatRow.table_id == TableRow.id)
            .where(SeatRow.account_id == account_id, TableRow.finished.is_(False),
                   TableRow.archived.is_not(True))
            .order_by(TableRow.created_at).limit(limit)).all()
        return [(summary_of(row), seat) for row, seat in rows]

    @staticmethod
    def games_at_once(session: Session, account_id: int) -> int:
        """How many seats the account holds at unfinished tables."""
        return int(session.scalar(
            select(func.count()).select_from(SeatRow)
            .join(TableRow, TableRow.id == SeatRow.table_id)
            .where(SeatRow.account_id == account_id, TableRow.finished.is_(False))) or 0)

    @staticmethod
    def seats_of(session: Session, table_ids: Sequence[str]) -> list[tuple[str, SeatData]]:
        """``(table id, seat)`` of every seat of the tables, in seat order."""
        if not table_ids:
            return []
        rows = session.scalars(select(SeatRow).where(SeatRow.table_id.in_(list(table_ids)))
                               .order_by(SeatRow.table_id, SeatRow.seat)).all()
        return [(row.table_id, seat_of(row)) for row in rows]

    @staticmethod
    def tokens_of(session: Session, table_ids: Sequence[str], account_id: int
                  ) -> list[tuple[str, str]]:
        """``(table id, token)`` of the account's links at the tables."""
        if not table_ids:
            return []
        return [(h.table_id, h.token) for h in session.scalars(select(HandRow).where(
            HandRow.table_id.in_(list(table_ids)), HandRow.account_id == account_id)).all()]

    @staticmethod
    def token_of(session: Session, table_id: str, account_id: int) -> str | None:
        """The account's link at the table, if it has one."""
        return session.scalar(select(HandRow.token).where(
            HandRow.table_id == table_id, HandRow.account_id == account_id))

    @staticmethod
    def seats_held(session: Session, account_id: int, limit: int
                   ) -> list[tuple[str, int, TableSummary]]:
        """``(table id, seat, table)`` of the account's seats, last changed first."""
        rows = session.execute(
            select(SeatRow.table_id, SeatRow.seat, TableRow)
            .join(TableRow, TableRow.id == SeatRow.table_id)
            .where(SeatRow.account_id == account_id)
            .order_by(func.coalesce(TableRow.updated_at, TableRow.created_at).desc())
            .limit(limit)).all()
        return [(table_id, seat, summary_of(row)) for table_id, seat, row in rows]

    @staticmethod
    def links_held(session: Session, account_id: int, limit: int
                   ) -> list[tuple[str, tuple[int, ...], TableSummary]]:
        """``(token, its seats, table)`` of the account's links, last changed first."""
        rows = session.execute(
            select(HandRow, TableRow).join(TableRow, TableRow.id == HandRow.table_id)
            .where(HandRow.account_id == account_id)
            .order_by(func.coalesce(TableRow.updated_at, TableRow.created_at).desc())
            .limit(limit)
        ).all()
        return [(hand.token, tuple(hand.seats), summary_of(table)) for hand, table in rows]

    @staticmethod
    def join_links(session: Session, account_id: int, tokens: Sequence[str]
                   ) -> tuple[int, list[tuple[str, int]]]:
        """Give the account the links ``tokens`` that nobody else's holds, and the seat of a
        one-seat link at an unrated table where it holds none yet; returns how many links it
        joined and ``(table id, seat)`` of each seat it now holds."""
        joined = 0
        seated: list[tuple[str, int]] = []
        hands = session.scalars(select(HandRow).where(HandRow.token.in_(list(tokens)))).all()
        for hand in hands:
            if hand.account_id not in (None, account_id):
                continue
            hand.account_id = account_id
            joined += 1
            if len(hand.seats) != 1:
                continue
            seat = session.get(SeatRow, (hand.table_id, hand.seats[0]))
            if session.scalar(select(TableRow.rated).where(TableRow.id == hand.table_id)):
                continue  # a rated seat is its account's from the start, never a link's
            taken = session.scalar(select(func.count()).select_from(SeatRow).where(
                SeatRow.table_id == hand.table_id, SeatRow.account_id == account_id))
            if seat is not None and seat.account_id is None and not taken:
                seat.account_id = account_id
                seated.append((hand.table_id, seat.seat))
        return joined, seated

    @staticmethod
    def forget_account(connection: Any, account_id: int, name: str) -> list[str]:
        """A deleted account's seats renamed ``name`` and its seats and links let go;
        returns the tables it had seats at."""
        tables = list(connection.execute(select(SeatRow.table_id).where(
            SeatRow.account_id == account_id)).scalars())
        connection.execute(update(SeatRow).where(SeatRow.account_id == account_id)
                           .values(name=name, account_id=None))
        connection.execute(update(HandRow).where(HandRow.account_id == account_id)
                           .values(account_id=None))
        return tables

    # -- a table as its end and the tournaments read it -------------------------------------
    @staticmethod
    def summary(session: Any, table_id: str) -> TableSummary | None:
        row = session.get(TableRow, table_id)
        return None if row is None else summary_of(row)

    @staticmethod
    def game_and_rated(connection: Any, table_id: str) -> tuple[str, bool] | None:
        """The table's game and whether it is rated (``None``: no such table)."""
        row = connection.execute(
            select(TableRow.game, TableRow.rated).where(TableRow.id == table_id)).first()
        return None if row is None else (row.game, bool(row.rated))

    @staticmethod
    def seat_accounts(connection: Any, table_id: str) -> list[tuple[int, int | None]]:
        """``(seat, account)`` of each seat of the table, in seat order."""
        return [(seat, account) for seat, account in connection.execute(
            select(SeatRow.seat, SeatRow.account_id).where(SeatRow.table_id == table_id)
            .order_by(SeatRow.seat)).all()]

    @staticmethod
    def seats_named(connection: Any, table_id: str, name: str) -> int:
        return int(connection.execute(select(func.count()).select_from(SeatRow).where(
            SeatRow.table_id == table_id, SeatRow.name == name)).scalar() or 0)

    @staticmethod
    def players_moved(connection: Any, table_id: str) -> set[int]:
        """The seats that made a move at the table."""
        return set(connection.execute(select(ActionRow.player).distinct().where(
            ActionRow.table_id == table_id, ActionRow.player >= 0)).scalars())

    @staticmethod
    def moves_by(session: Any, table_id: str, seat: int) -> int:
        return int(session.scalar(select(func.count()).select_from(ActionRow).where(
            ActionRow.table_id == table_id, ActionRow.player == seat)) or 0)

    @staticmethod
    def last_move_at(session: Any, table_id: str) -> float | None:
        """When a player last moved at the table (chance left out)."""
        return session.scalar(select(func.max(ActionRow.created_at)).where(
            ActionRow.table_id == table_id, ActionRow.player >= 0))

    @staticmethod
    def set_unrated(connection: Any, table_id: str, why: str) -> None:
        connection.execute(update(TableRow).where(TableRow.id == table_id).values(unrated=why))

    @staticmethod
    def unrated(session: Any, table_id: str) -> str | None:
        return session.scalar(select(TableRow.unrated).where(TableRow.id == table_id))

    # -- finished games, for puzzles ----------------------------------------------------------
    @staticmethod
    def finished_games(session: Session, game: str, rules_version: int, limit: int,
                       without: Any = None) -> list[tuple[TableSummary, tuple[int, ...], int]]:
        """``(table, its actions, seats held by accounts)`` of the game's finished tables
        under ``rules_version``, last changed first; with ``without`` (a row class with a
        ``table_id``) only the tables that have no such row."""
        query = select(TableRow).where(
            TableRow.game == game, TableRow.finished.is_(True),
            func.coalesce(TableRow.rules_version, 1) == rules_version)
        if without is not None:
            query = query.where(~select(without.table_id)
                                .where(without.table_id == TableRow.id).exists())
        rows = session.scalars(query.order_by(
            func.coalesce(TableRow.updated_at, TableRow.created_at).desc(), TableRow.id)
            .limit(limit)).all()
        found = []
        for row in rows:
            actions = tuple(session.scalars(select(ActionRow.action).where(
                ActionRow.table_id == row.id).order_by(ActionRow.seq)))
            accounts = session.scalar(select(func.count()).select_from(SeatRow).where(
                SeatRow.table_id == row.id, SeatRow.account_id.is_not(None))) or 0
            found.append((summary_of(row), actions, int(accounts)))
        return found
