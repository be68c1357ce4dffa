"""Ratings: Glicko-2 (:mod:`parlour.ratings`) stored in the transaction that ends a rated game,
and the profiles and leaderboards read from them.

:meth:`Ratings.record_end` is one of the store's ``on_end`` hooks: it runs inside the very
transaction that marks a table finished (a final move, a chance event, a loss on time or by
resignation), whichever process stores it. It writes every seat's result and, for a rated table
whose seats are all accounts, each player's new rating and a change row whose primary key
``(table, seat)`` the database refuses twice: the update is stored exactly once, and if the
end itself is refused nothing of it is.

A game is one rating period (as lichess and most online servers do): every player is updated
against the others' ratings from before the game, pair by pair by placing
(:func:`parlour.ratings.rate_game`). A player who has not played for a while has their
deviation widened first, one Glicko-2 "no games" step per :data:`PERIOD_DAYS` days away.

A rated table's end rates nobody (issue 62), and says why in ``parlour_tables.unrated``, when
a player never moved (a resignation or a loss on time before one's first move is no game:
lichess aborts it), when two of its players have had ``rated_pair_games_per_day`` rated games
against each other in the last 24 hours (two accounts of one person farming a rating), or
when a seat's account is gone (deleted: :data:`UNRATED`). The result stands as a casual
game's. The players' account rows are locked first, in account order, so that a deletion or
another game of the same pair ending at once on another process is counted one at a time.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, aliased

from parlour.core import game_class
from parlour.i18n import Message
from parlour.ratings import (
    NEW_RATING,
    NEW_RD,
    NEW_VOLATILITY,
    glicko2_update,
    rate_game,
)
from parlour.server.accounts.models import AccountRow, RatingChangeRow, RatingRow, ResultRow
from parlour.server.messages.ratings import (
    Leaderboard,
    LeaderboardEntry,
    Pool,
    PoolRating,
    Profile,
    RatingChange,
    RatingPoint,
    RecentGame,
    RecentPlayer,
    TableRatings,
)
from parlour.server.names import DELETED
from parlour.server.persistence.records import GameEnd
from parlour.server.persistence.store import Store

PROVISIONAL_RD = 110.0
"""A rating whose deviation is over this is provisional (shown "1520?")."""
PERIOD_DAYS = 7.0
"""A week without rated games widens the deviation by one Glicko-2 rating period."""
MAX_IDLE_PERIODS = 520
"""At most ten years of widening (the deviation reaches 350 long before)."""
LEADERBOARD = 100
"""Players listed on a leaderboard, established and provisional each."""
PROFILE_GAMES = 20
HISTORY_POINTS = 500
"""Points of a rating history plot (the latest)."""
PAIR_WINDOW = 86400.0
"""The window in which rated games between the same two accounts are counted (a day)."""
UNRATED = {
    "unplayed": Message("Not rated: the game ended before every player had moved"),
    "pair": Message("Not rated: these players have had today's rated games against each "
                    "other already"),
    "deleted": Message("Not rated: a player's account was deleted"),
    "seats": Message("Not rated: every seat of a rated game is a signed-in player's"),
}
"""Why a rated table's end changed no rating, by the code stored with it."""


def pool_of(game: str, players: int) -> str:
    """The rating pool of a game at a player count: ``clobber``, ``stomple``, ``stomple-3p``."""
    return game if players == 2 else f"{game}-{players}p"


def parse_pool(pool: str) -> tuple[str, int]:
    """``(game, players)`` of a pool name; ``ValueError`` for none."""
    game, players = pool, 2
    head, _, tail = pool.rpartition("-")
    if head and tail.endswith("p") and tail[:-1].isdigit():
        game, players = head, int(tail[:-1])
    kind = game_class(game).game_type  # UnknownGameError (a ValueError) for no such game
    if not kind.min_num_players <= players <= kind.max_num_players or (
            players == 2 and pool != game):
        raise ValueError(f"no rating pool {pool!r}")
    return game, players


def pool_title(pool: str) -> str:
    game, players = parse_pool(pool)
    title = game_class(game).game_type.long_name
    return title if players == 2 else f"{title}, {players} players"


def shown(rating: float, rd: float) -> str:
    """A rating as players read it: "1520", or "1520?" while provisional."""
    return f"{round(rating)}{'?' if rd > PROVISIONAL_RD else ''}"


def places(end: GameEnd) -> list[float]:
    """Each seat's placing (higher is better): its return, then its points; a seat that
    resigned is placed below everyone who did not."""
    keys = [(-1 if s in end.resigned else 0, r, end.scores[s] if s < len(end.scores) else 0.0)
            for s, r in enumerate(end.returns)]
    order = sorted(set(keys))
    return [float(order.index(k)) for k in keys]


def outcomes(end: GameEnd) -> list[str]:
    placed = places(end)
    if len(set(placed)) == 1:
        return ["draw"] * len(placed)
    best = max(placed)
    return ["win" if p == best else "loss" for p in placed]


def widened(rating: float, rd: float, volatility: float, idle: float) -> tuple[float, float]:
    """The deviation after ``idle`` seconds without rated games (no games, period by period)."""
    periods = min(MAX_IDLE_PERIODS, int(idle // (PERIOD_DAYS * 86400)))
    for _ in range(periods):
        _, rd, _ = glicko2_update(rating, rd, volatility, [])
        if rd >= NEW_RD:
            return rating, NEW_RD
    return rating, rd


class Ratings:
    """Results and ratings, stored with each game's end; profiles and leaderboards."""

    def __init__(self, store: Store, pair_games_per_day: int = 3) -> None:
        self.store = store
        self.pair_games_per_day = pair_games_per_day
        """Rated games between two accounts a day that rate (0: no cap)."""
        store.on_end.append(self.record_end)

    # -- at a game's end (inside its transaction) ----------------------------------------------
    def record_end(self, connection: Any, table_id: str, end: GameEnd, now: float) -> None:
        table = self.store.players.game_and_rated(connection, table_id)
        seats = self.store.players.seat_accounts(connection, table_id)
        if table is None or len(seats) != len(end.returns):
            return
        game, rated = table
        labels = outcomes(end)
        connection.execute(delete(ResultRow).where(ResultRow.table_id == table_id))
        connection.execute(insert(ResultRow), [
            {"table_id": table_id, "seat": seat, "account_id": account, "outcome": labels[seat],
             "game_return": end.returns[seat], "created_at": now}
            for seat, account in seats
        ])
        if not rated:
            return
        why = self._unrated(connection, table_id, [a for _seat, a in seats], now)
        if why is not None:
            self.store.players.set_unrated(connection, table_id, why)
            return
        self._rate(connection, table_id, pool_of(game, len(seats)),
                   [a for _seat, a in seats if a is not None], end, labels, now)

    def _unrated(self, connection: Any, table_id: str, accounts: list[int | None],
                 now: float) -> str | None:
        """Why this rated game's end rates nobody (a key of :data:`UNRATED`), or ``None``."""
        if any(a is None for a in accounts):  # a deleted account's seat, or an old guest's
            return "deleted" if self.store.players.seats_named(connection, table_id, DELETED) \
                else "seats"
        held = [int(a) for a in accounts if a is not None]
        if len(set(held)) < len(held):
            return "seats"
        # the players' rows, locked in one order: a deletion, or another game of theirs
        # ending on another process, waits for this one (and sees its changes)
        live = connection.execute(
            select(AccountRow.id).where(AccountRow.id.in_(held),
                                        AccountRow.deleted_at.is_(None))
            .order_by(AccountRow.id).with_for_update()).scalars().all()
        if len(live) < len(held):
            return "deleted"
        moved = self.store.players.players_moved(connection, table_id)
        if not moved.issuperset(range(len(held))):
            return "unplayed"
        if self.pair_games_per_day and any(
                self._pair_games(connection, one, other, now) >= self.pair_games_per_day
                for one, other in combinations(sorted(held), 2)):
            return "pair"
        return None

    @staticmethod
    def _pair_games(connection: Any, one: int, other: int, now: float) -> int:
        """Rated games of ``one`` against ``other`` that changed ratings in the last day."""
        mine, theirs = aliased(RatingChangeRow), aliased(RatingChangeRow)
        return int(connection.execute(
            select(func.count(func.distinct(mine.table_id))).select_from(mine)
            .join(theirs, (theirs.table_id == mine.table_id) & (theirs.account_id == other))
            .where(mine.account_id == one, mine.created_at > now - PAIR_WINDOW)).scalar() or 0)

    def _rate(self, connection: Any, table_id: str, pool: str, accounts: list[int],
              end: GameEnd, labels: list[str], now: float) -> None:
        dialect = connection.dialect.name
        upsert: Any = postgresql.insert if dialect == "postgresql" else sqlite.insert
        connection.execute(upsert(RatingRow).values([
            {"account_id": a, "pool": pool, "rating": NEW_RATING, "rd": NEW_RD,
             "volatility": NEW_VOLATILITY, "games": 0, "wins": 0, "draws": 0, "losses": 0,
             "updated_at": now} for a in sorted(accounts)
        ]).on_conflict_do_nothing(index_elements=["account_id", "pool"]))
        # lock the players' rows in one order (no deadlock between two games ending at once)
        rows = {row.account_id: row for row in connection.execute(
            select(RatingRow).where(RatingRow.pool == pool,
                                    RatingRow.account_id.in_(accounts))
            .order_by(RatingRow.account_id).with_for_update()).all()}
        before = []
        for account in accounts:
            row = rows[account]
            idle = now - row.updated_at if row.games else 0.0
            rating, rd = widened(row.rating, row.rd, row.volatility, idle)
            before.append((rating, rd, row.volatility))
        after = rate_game(before, places(end))
        changes = []
        for seat, account in enumerate(accounts):
            rating, rd, volatility = after[seat]
            label = labels[seat]
            counted = {"wins": int(label == "win"), "draws": int(label == "draw"),
                       "losses": int(label == "loss")}
            connection.execute(
                update(RatingRow)
                .where(RatingRow.account_id == account, RatingRow.pool == pool)
                .values(rating=rating, rd=rd, volatility=volatility, updated_at=now,
                        games=RatingRow.games + 1,
                        **{k: getattr(RatingRow, k) + v for k, v in counted.items()}))
            changes.append({"table_id": table_id, "seat": seat, "account_id": account,
                            "pool": pool, "before": before[seat][0],
                            "before_rd": before[seat][1], "after": rating, "after_rd": rd,
                            "after_volatility": volatility, "created_at": now})
        # the primary key (table, seat) refuses a second update: the end is then refused whole
        connection.execute(insert(RatingChangeRow), changes)

    # -- reading -------------------------------------------------------------------------------
    def table_changes(self, table_id: str) -> TableRatings:
        """What a finished rated game changed: ``changes``, one per seat, or ``unrated``, why
        it changed nothing (in the reader's words), ``None`` while nothing is known."""
        with Session(self.store.engine) as session:
            why = self.store.players.unrated(session, table_id)
            rows = session.execute(
                select(RatingChangeRow, AccountRow.username)
                .join(AccountRow, AccountRow.id == RatingChangeRow.account_id)
                .where(RatingChangeRow.table_id == table_id).order_by(RatingChangeRow.seat)
            ).all()
        changes: list[RatingChange] = [{"seat": c.seat, "username": name, "pool": c.pool,
                    "before": round(c.before), "after": round(c.after),
                    "change": round(c.after) - round(c.before),
                    "rd": round(c.after_rd), "shown": shown(c.after, c.after_rd)}
                   for c, name in rows]
        return {"changes": changes, "unrated": UNRATED.get(why) if why else None}

    def profile(self, username_key: str) -> Profile | None:
        with Session(self.store.engine) as session:
            account = session.scalar(select(AccountRow).where(
                AccountRow.username_key == username_key, AccountRow.deleted_at.is_(None)))
            if account is None:
                return None
            ratings = session.scalars(select(RatingRow).where(
                RatingRow.account_id == account.id).order_by(RatingRow.pool)).all()
            history = session.scalars(
                select(RatingChangeRow).where(RatingChangeRow.account_id == account.id)
                .order_by(RatingChangeRow.created_at.desc()).limit(HISTORY_POINTS)).all()
            totals = session.execute(
                select(ResultRow.outcome, func.count()).where(ResultRow.account_id == account.id)
                .group_by(ResultRow.outcome)).all()
            games = self._recent(session, account.id)
        counts = {outcome: int(n) for outcome, n in totals}
        plot: dict[str, list[RatingPoint]] = {}
        for change in reversed(history):
            plot.setdefault(change.pool, []).append(
                {"at": change.created_at, "rating": round(change.after, 1),
                 "rd": round(change.after_rd, 1)})
        return {
            "username": account.username,
            "bot": bool(account.bot),
            "created_at": account.created_at,
            "ratings": {r.pool: self._rating(r) for r in ratings},
            "totals": {"games": sum(counts.values()), "wins": counts.get("win", 0),
                       "draws": counts.get("draw", 0), "losses": counts.get("loss", 0)},
            "history": plot,
            "games": games,
        }

    @staticmethod
    def _rating(r: RatingRow) -> PoolRating:
        game, players = parse_pool(r.pool)
        return {"rating": round(r.rating, 1), "rd": round(r.rd, 1),
                "volatility": round(r.volatility, 6), "games": r.games, "wins": r.wins,
                "draws": r.draws, "losses": r.losses, "provisional": r.rd > PROVISIONAL_RD,
                "shown": shown(r.rating, r.rd), "game": game, "players": players,
                "title": pool_title(r.pool)}

    def _recent(self, session: Session, account_id: int) -> list[RecentGame]:
        mine = self.store.players.seats_held(session, account_id, PROFILE_GAMES)
        ids = [t for t, _s, _row in mine]
        if not ids:
            return []
        held_seats = self.store.players.seats_of(session, ids)
        owners = {a for _t, s in held_seats if (a := s.account) is not None}
        bots = dict(session.execute(select(AccountRow.id, AccountRow.bot).where(
            AccountRow.id.in_(owners))).all()) if owners else {}
        seats = [((table_id, seat), bots.get(seat.account) if seat.account is not None
                  else None) for table_id, seat in held_seats]
        results = {(r.table_id, r.seat): r.outcome for r in session.scalars(
            select(ResultRow).where(ResultRow.table_id.in_(ids)))}
        changes = {c.table_id: c for c in session.scalars(select(RatingChangeRow).where(
            RatingChangeRow.table_id.in_(ids), RatingChangeRow.account_id == account_id))}
        players: dict[str, list[RecentPlayer]] = {}
        for (held_at, held), bot in sorted(seats, key=lambda r: r[0][1].seat):
            players.setdefault(held_at, []).append({
                "name": held.name or (f"Computer ({held.agent})" if held.kind == "ai"
                                      else f"Player {held.seat + 1}"),
                "account": held.account is not None, "bot": bool(bot),
                "you": held.account == account_id})
        listed: list[RecentGame] = []
        for table_id, seat, table in mine:
            change = changes.get(table_id)
            listed.append({
                "table": table_id, "game": table.game,
                "title": game_class(table.game).game_type.long_name,
                "rated": bool(table.rated) and not table.unrated,
                "finished": bool(table.finished),
                "outcome": results.get((table_id, seat)),
                "change": None if change is None else round(change.after) - round(change.before),
                "players": players.get(table_id, []),
                "watch": f"/watch/{table_id}",
                "at": table.updated_at or table.created_at,
            })
        return listed

    def leaderboard(self, pool: str, bots: bool = False) -> Leaderboard:
        """The pool's people, or with ``bots`` its bots: each has a leaderboard of its own
        (issue 31)."""
        kind = AccountRow.bot.is_(True) if bots else AccountRow.bot.is_not(True)
        with Session(self.store.engine) as session:
            query = (select(RatingRow, AccountRow.username, AccountRow.bot)
                     .join(AccountRow, AccountRow.id == RatingRow.account_id)
                     .where(RatingRow.pool == pool, AccountRow.deleted_at.is_(None),
                            RatingRow.games > 0, kind))
            established = session.execute(
                query.where(RatingRow.rd <= PROVISIONAL_RD)
                .order_by(RatingRow.rating.desc()).limit(LEADERBOARD)).all()
            provisional = session.execute(
                query.where(RatingRow.rd > PROVISIONAL_RD)
                .order_by(RatingRow.rating.desc()).limit(LEADERBOARD)).all()

        def entry(r: RatingRow, name: str | None, bot: bool) -> LeaderboardEntry:
            return {"username": name, "bot": bool(bot), "rating": round(r.rating, 1),
                    "rd": round(r.rd, 1), "games": r.games,
                    "low": round(r.rating - 2 * r.rd), "high": round(r.rating + 2 * r.rd),
                    "shown": shown(r.rating, r.rd)}

        game, players = parse_pool(pool)
        return {"pool": pool, "game": game, "players_per_game": players,
                "title": pool_title(pool), "bots": bots,
                "players": [entry(r, name, bot) for r, name, bot in established],
                "provisional": [entry(r, name, bot) for r, name, bot in provisional]}

    def pools(self) -> list[Pool]:
        with Session(self.store.engine) as session:
            rows = session.execute(select(RatingRow.pool, func.count()).where(
                RatingRow.games > 0).group_by(RatingRow.pool)).all()
        return [{"pool": p, "title": pool_title(p), "players": int(n)} for p, n in rows]

    def rating_of(self, account_id: int, pool: str) -> tuple[float, float]:
        with Session(self.store.engine) as session:
            row = session.get(RatingRow, (account_id, pool))
        return (NEW_RATING, NEW_RD) if row is None else (row.rating, row.rd)

