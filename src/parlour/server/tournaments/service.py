"""Tournaments as people meet them: creating one, joining it, starting it, and reading it back
(standings, rounds, games), every step a transaction on the database so that any server
process answers the same.

The rounds themselves are run by :mod:`parlour.server.tournaments.runner`; the points of each
game are written by :meth:`Tournaments.record_end`, one of the store's ``on_end`` hooks, in the
very transaction that ends the game (whichever process ends it, exactly once).
"""

from __future__ import annotations

import math
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from parlour.core import ParlourError, load_game
from parlour.core.presentation import settings_words
from parlour.games.wording import refusal_text
from parlour.i18n import Message, message_n
from parlour.server.accounts.models import AccountRow, RatingChangeRow
from parlour.server.accounts.ratings import places, pool_of
from parlour.server.messages.schemas import ClockJSON, Params
from parlour.server.messages.tournaments import (
    Entrant,
    Membership,
    PlayedRound,
    RatingPoint,
    Results,
    Tournament,
    TournamentGame,
    TournamentListing,
    TournamentSummary,
    YourPart,
    YourTable,
)
from parlour.server.messages.views import HIDDEN_PARAMS
from parlour.server.names import DELETED, clean_name
from parlour.server.persistence.records import GameEnd
from parlour.server.persistence.store import Store
from parlour.server.refusals import Refusal
from parlour.server.tables.clocks import ClockConfig, clock_label
from parlour.server.tournaments.models import EntrantRow, PairingRow, RoundRow, TournamentRow
from parlour.server.tournaments.pairing import Game, Pairing, Round
from parlour.server.tournaments.standings import FORMATS, SWISS, TIEBREAK, standings

MAX_PLAYERS = 64
"""Players in one tournament (a Swiss of 64 pairs in well under a second)."""
MAX_ROUNDS = 30
"""Rounds of a Swiss, or of a round robin cut short."""
MAX_ROUND_ROBIN_PLAYERS = 24
"""A full round robin of 24 players is 23 rounds: beyond, choose a Swiss."""
DEFAULT_SWISS_ROUNDS = 5
GRACE_SECONDS = (5.0, 3600.0)
DEFAULT_GRACE = 120.0
"""Seconds a player may leave their first turn of a game unplayed before forfeiting it."""
MAX_AHEAD = 30 * 86400.0
"""A start time at most 30 days ahead."""
MAX_OPEN_PER_CREATOR = 5
"""Tournaments one account has open or running at once."""
NAME_LENGTH = 64
LISTED = 50
"""Tournaments the lobby lists in each of upcoming, running and recently finished."""

OPEN, RUNNING, FINISHED = "open", "running", "finished"


class TournamentError(Refusal):
    """A request the tournament refuses, with the HTTP status that says why."""


@dataclass(frozen=True)
class Spec:
    """A tournament as asked for (checked by :meth:`Tournaments.create`)."""

    game: str
    params: Params
    format: str
    rounds: int | None = None
    clock: ClockJSON | None = None
    rated: bool = False
    starts_at: float | None = None
    name: str | None = None
    max_players: int | None = None
    """At most this many players (default: the format's limit)."""
    grace: float = DEFAULT_GRACE


def game_points(end: GameEnd) -> list[float]:
    """Each seat's points from how a game ended: the share of the others it placed above
    (a tie counts half), so 1 / 0.5 / 0 between two players.

    >>> game_points(GameEnd((1.0, -1.0), (0.0, 0.0)))
    [1.0, 0.0]
    >>> game_points(GameEnd((1.0, 0.0, 0.0), (0.0, 0.0, 0.0)))
    [1.0, 0.25, 0.25]
    """
    placed = places(end)
    others = len(placed) - 1
    return [sum(1.0 if p > q else 0.5 if p == q else 0.0
                for j, q in enumerate(placed) if j != i) / others
            for i, p in enumerate(placed)]


class Tournaments:
    """Creating, joining, starting and reading tournaments."""

    def __init__(self, store: Store, rating_of: Callable[[int, str], tuple[float, float]]
                 ) -> None:
        self.store = store
        self.rating_of = rating_of
        store.on_end.append(self.record_end)

    # -- creating ------------------------------------------------------------------------------
    async def create(self, spec: Spec, creator: int) -> str:
        checked = self._check(spec)
        return await self.store.run(self._insert, checked, creator)

    def _check(self, spec: Spec) -> dict[str, Any]:
        if spec.format not in FORMATS:
            raise TournamentError(Message("format: choose {formats}",
                                          formats=" or ".join(FORMATS)))
        try:
            game = load_game(spec.game, **spec.params)
            clock = ClockConfig.parse(spec.clock)
        except (ParlourError, ValueError) as exc:
            raise TournamentError(refusal_text(exc)) from None
        if any(k in spec.params for k in HIDDEN_PARAMS):
            raise TournamentError(Message("a tournament starts every game from the game's own "
                                          "start, not a set-up position"))
        if spec.rated and clock is None:
            raise TournamentError(Message(
                "a rated tournament needs a clock: choose a time control"))
        k = game.num_players()
        cap = MAX_ROUND_ROBIN_PLAYERS if spec.format != SWISS else MAX_PLAYERS
        max_players = cap if spec.max_players is None else spec.max_players
        if not k <= max_players <= cap:
            raise TournamentError(
                Message("max_players: {k} to {cap} for a Swiss", k=k, cap=cap)
                if spec.format == SWISS else
                Message("max_players: {k} to {cap} for a round robin", k=k, cap=cap))
        if spec.rounds is not None and not 1 <= spec.rounds <= MAX_ROUNDS:
            raise TournamentError(Message("rounds: 1 to {n}", n=MAX_ROUNDS))
        if not GRACE_SECONDS[0] <= spec.grace <= GRACE_SECONDS[1]:
            raise TournamentError(Message("grace: {least:g} to {most:g} seconds",
                                          least=GRACE_SECONDS[0], most=GRACE_SECONDS[1]))
        now = time.time()
        if spec.starts_at is not None and not now - 60 <= spec.starts_at <= now + MAX_AHEAD:
            raise TournamentError(Message("starts_at: a time from now to 30 days ahead"))
        kind = game.get_type()
        format_name = "round robin" if spec.format != SWISS else "Swiss"
        name = clean_name(spec.name[:NAME_LENGTH * 4] if spec.name else None)
        return {
            "game": game.name, "params": game.non_default_parameters(), "k": k,
            "format": spec.format, "rounds": spec.rounds, "rated": spec.rated,
            "clock": None if clock is None else clock.to_json(), "starts_at": spec.starts_at,
            "name": (name or f"{kind.long_name} {format_name}")[:NAME_LENGTH],
            "max_players": max_players, "grace": spec.grace,
        }

    def _insert(self, c: dict[str, Any], creator: int) -> str:
        with Session(self.store.engine) as session, session.begin():
            mine = session.scalar(select(func.count()).select_from(TournamentRow).where(
                TournamentRow.created_by == creator,
                TournamentRow.status.in_((OPEN, RUNNING)))) or 0
            if mine >= MAX_OPEN_PER_CREATOR:
                raise TournamentError(Message(
                    "you have {n} tournaments open or running: let one finish first", n=mine), 429)
            tid = secrets.token_urlsafe(9)
            session.add(TournamentRow(
                id=tid, name=c["name"], game=c["game"], params=c["params"],
                players_per_table=c["k"], format=c["format"], rounds=c["rounds"] or 0,
                clock=c["clock"], rated=c["rated"], grace=c["grace"],
                max_players=c["max_players"], created_by=creator, created_at=time.time(),
                starts_at=c["starts_at"], status=OPEN, round=0))
            return tid

    # -- joining -------------------------------------------------------------------------------
    async def join(self, tournament_id: str, account_id: int) -> Membership:
        """``account_id`` joins the tournament (any way the account signed in: a session, or
        a bot's token); joining twice is no change."""
        return await self.store.run(self._join, tournament_id, account_id)

    def _join(self, tid: str, account_id: int) -> Membership:
        with Session(self.store.engine) as session, session.begin():
            row = session.get(TournamentRow, tid, with_for_update=True)
            if row is None:
                raise TournamentError(Message("no tournament {id}", id=repr(tid)), 404)
            if session.get(EntrantRow, (tid, account_id)) is not None:
                return {"joined": True, "players": self._count(session, tid)}
            if row.status != OPEN:
                raise TournamentError(Message(
                    "this tournament has started: joining is closed"), 409)
            count = self._count(session, tid)
            if count >= row.max_players:
                raise TournamentError(message_n(
                    "this tournament is full: {n} player", "this tournament is full: {n} players",
                    row.max_players), 409)
            session.add(EntrantRow(tournament_id=tid, account_id=account_id,
                                   joined_at=time.time()))
        return {"joined": True, "players": count + 1}

    async def leave(self, tournament_id: str, account_id: int) -> Membership:
        return await self.store.run(self._leave, tournament_id, account_id)

    def _leave(self, tid: str, account_id: int) -> Membership:
        with Session(self.store.engine) as session, session.begin():
            row = session.get(TournamentRow, tid, with_for_update=True)
            if row is None:
                raise TournamentError(Message("no tournament {id}", id=repr(tid)), 404)
            if row.status != OPEN:
                raise TournamentError(Message(
                    "this tournament has started: its players play on"), 409)
            entrant = session.get(EntrantRow, (tid, account_id))
            if entrant is not None:
                session.delete(entrant)
        return {"joined": False}

    @staticmethod
    def withdraw(connection: Any, account_id: int, _now: float) -> None:
        """An account being deleted (in that transaction) leaves every tournament not started
        yet; in a running one it stays in the pairings and forfeits each game at once, as a
        no-show (:mod:`parlour.server.tournaments.runner`)."""
        connection.execute(delete(EntrantRow).where(
            EntrantRow.account_id == account_id,
            EntrantRow.tournament_id.in_(select(TournamentRow.id).where(
                TournamentRow.status == OPEN))))

    @staticmethod
    def _count(session: Session, tid: str) -> int:
        return session.scalar(select(func.count()).select_from(EntrantRow).where(
            EntrantRow.tournament_id == tid)) or 0

    # -- starting (its creator, or the runner at ``starts_at``) -------------------------------
    def start(self, tid: str, by: int | None) -> bool:
        """Seed the players and mark the tournament running (round 0: the runner pairs round
        1). ``by`` is the account asking (``None``: the runner at ``starts_at``). Returns
        whether this call started it; too few players at ``starts_at`` cancels it."""
        with Session(self.store.engine) as session, session.begin():
            row = session.get(TournamentRow, tid, with_for_update=True)
            if row is None:
                raise TournamentError(Message("no tournament {id}", id=repr(tid)), 404)
            if by is not None and by != row.created_by:
                raise TournamentError(Message("only the tournament's creator starts it"), 403)
            if row.status != OPEN:
                if by is None:
                    return False
                raise TournamentError(Message("this tournament has started already"), 409)
            entrants = list(session.scalars(select(EntrantRow).where(
                EntrantRow.tournament_id == tid)))
            least = max(2, row.players_per_table)
            if len(entrants) < least:
                if by is not None:
                    raise TournamentError(Message(
                        "a tournament needs at least {least} players to start; it has {n}",
                        least=least, n=len(entrants)), 409)
                row.status, row.finished_at = FINISHED, time.time()
                row.cancelled = CANCELLED.format(least=least)
                return False
            pool = pool_of(row.game, row.players_per_table)
            rated = [(self.rating_of(e.account_id, pool)[0], e.joined_at, e) for e in entrants]
            rated.sort(key=lambda x: (-x[0], x[1]))
            for seed, (rating, _, entrant) in enumerate(rated):
                entrant.seed, entrant.rating = seed, rating
            row.rounds = self._rounds(row, len(entrants))
            row.status, row.started_at = RUNNING, time.time()
        return True

    @staticmethod
    def _rounds(row: TournamentRow, count: int) -> int:
        if row.format == SWISS:
            return row.rounds or DEFAULT_SWISS_ROUNDS
        k = row.players_per_table
        if k == 2:
            full = count - 1 if count % 2 == 0 else count
        else:
            full = math.ceil((count - 1) / (k - 1))
        return min(row.rounds, full) if row.rounds else full

    # -- a game's end (inside its transaction) --------------------------------------------------
    def record_end(self, connection: Any, table_id: str, end: GameEnd, now: float) -> None:
        connection.execute(update(PairingRow).where(
            PairingRow.table_id == table_id, PairingRow.ended_at.is_(None)
        ).values(points=game_points(end), ended_at=now))

    # -- reading -------------------------------------------------------------------------------
    async def read(self, tid: str, viewer: int | None = None) -> Tournament | None:
        return await self.store.run(self._read, tid, viewer)

    def _read(self, tid: str, viewer: int | None) -> Tournament | None:
        with Session(self.store.engine) as session:
            row = session.get(TournamentRow, tid)
            if row is None:
                return None
            entrants = list(session.scalars(select(EntrantRow).where(
                EntrantRow.tournament_id == tid).order_by(EntrantRow.seed,
                                                          EntrantRow.joined_at)))
            pairings = list(session.scalars(select(PairingRow).where(
                PairingRow.tournament_id == tid).order_by(PairingRow.round, PairingRow.board)))
            byes = {r.round: r.byes for r in session.scalars(select(RoundRow).where(
                RoundRow.tournament_id == tid))}
            ids = {e.account_id for e in entrants} | {row.created_by}
            names = {a.id: (a.username or DELETED, a.bot) for a in session.scalars(
                select(AccountRow).where(AccountRow.id.in_(ids)))}
            out: Tournament = {
                **summary(row, len(entrants), names),
                **self._results(row, entrants, pairings, byes, names),
                "entrants": [self._entrant(e, names) for e in entrants],
            }
            if viewer is not None:
                out["you"] = self._you(session, row, entrants, pairings, viewer)
            if row.rated and row.status == FINISHED:
                out["ratings"] = self._ratings(session, pairings, names)
            return out

    @staticmethod
    def _entrant(e: EntrantRow, names: dict[int, tuple[str, bool]]) -> Entrant:
        name, bot = names.get(e.account_id, (DELETED, False))
        return {"player": name, "bot": bot, "seed": None if e.seed is None else e.seed + 1,
                "rating": None if e.rating is None else round(e.rating)}

    @staticmethod
    def _results(row: TournamentRow, entrants: list[EntrantRow], pairings: list[PairingRow],
                 byes: dict[int, list[int]], names: dict[int, tuple[str, bool]]
                 ) -> Results:
        def name(a: int) -> str:
            return names.get(a, (DELETED, False))[0]

        rounds = played_rounds(pairings, byes)
        seeded = [e.account_id for e in entrants]
        tiebreak = TIEBREAK[row.format]
        table: list[Mapping[str, object]] = []
        for place, s in enumerate(standings(seeded, rounds, row.format), start=1):
            table.append({"place": place, "player": name(s.player),
                          "bot": names.get(s.player, ("", False))[1], "points": s.points,
                          tiebreak: round(s.tiebreak, 4), "games": s.games, "wins": s.wins,
                          "draws": s.draws, "losses": s.losses, "byes": s.byes})
        games: list[TournamentGame] = [{"round": p.round, "board": p.board + 1, "table": p.table_id,
                  "players": [name(a) for a in p.players], "points": p.points,
                  "forfeits": [name(a) for a in p.forfeits or []],
                  "over": p.ended_at is not None, "watch": f"/watch/{p.table_id}"}
                 for p in pairings]
        by_round: list[PlayedRound] = [{"round": r, "byes": [name(a) for a in byes.get(r, [])],
                     "games": [g for g in games if g["round"] == r]}
                    for r in sorted(byes)]
        return {"standings": table, "games": games, "rounds_played": by_round,
                "tiebreak": tiebreak}

    def _you(self, session: Session, row: TournamentRow, entrants: list[EntrantRow],
             pairings: list[PairingRow], viewer: int) -> YourPart:
        joined = any(e.account_id == viewer for e in entrants)
        mine = {p.table_id: p for p in pairings if viewer in p.players}
        hands = self.store.players.tokens_of(session, list(mine), viewer)
        tables: list[YourTable] = [
            {"round": mine[table].round, "table": table, "url": f"/play/{token}",
             "over": mine[table].ended_at is not None}
            for table, token in sorted(hands, key=lambda h: mine[h[0]].round)]
        return {"joined": joined, "creator": viewer == row.created_by,
                "can_join": row.status == OPEN and not joined,
                "can_start": row.status == OPEN and viewer == row.created_by,
                "tables": tables}

    @staticmethod
    def _ratings(session: Session, pairings: list[PairingRow],
                 names: dict[int, tuple[str, bool]]) -> dict[str, list[RatingPoint]]:
        """Each player's rating after each of their games of the tournament (the plot at the
        end), from the changes stored with each game's end."""
        rounds = {p.table_id: p.round for p in pairings}
        rows = session.scalars(select(RatingChangeRow).where(
            RatingChangeRow.table_id.in_(list(rounds))).order_by(RatingChangeRow.created_at))
        out: dict[str, list[RatingPoint]] = {}
        for r in rows:
            name = names.get(r.account_id, (DELETED, False))[0]
            points = out.setdefault(name, [])
            if not points:
                points.append({"round": rounds[r.table_id] - 1, "rating": r.before,
                               "rd": r.before_rd, "at": r.created_at})
            points.append({"round": rounds[r.table_id], "rating": r.after, "rd": r.after_rd,
                           "at": r.created_at})
        return out

    async def listing(self) -> TournamentListing:
        return await self.store.run(self._listing)

    def _listing(self) -> TournamentListing:
        with Session(self.store.engine) as session:
            out: TournamentListing = {}
            for status, order in ((OPEN, TournamentRow.starts_at),
                                  (RUNNING, TournamentRow.started_at.desc()),
                                  (FINISHED, TournamentRow.finished_at.desc())):
                rows = list(session.scalars(select(TournamentRow).where(
                    TournamentRow.status == status).order_by(order).limit(LISTED)))
                counts = dict(session.execute(select(
                    EntrantRow.tournament_id, func.count()).where(
                    EntrantRow.tournament_id.in_([r.id for r in rows])).group_by(
                    EntrantRow.tournament_id)).tuples().all())
                creators = {r.created_by for r in rows}
                names = {a.id: (a.username or DELETED, a.bot) for a in
                         session.scalars(select(AccountRow).where(AccountRow.id.in_(creators)))}
                out[{OPEN: "upcoming"}.get(status, status)] = [
                    summary(r, counts.get(r.id, 0), names) for r in rows]
            return out


CANCELLED = "fewer than {least} players had joined at the start"
"""Why a tournament was called off, as stored (in English; :func:`cancelled_reason` reads it)."""


def cancelled_reason(stored: str | None) -> str | None:
    """A stored reason for calling a tournament off, as a message in the reader's language."""
    found = re.fullmatch(r"fewer than (\d+) players had joined at the start", stored or "")
    if found is None:
        return stored
    return message_n("fewer than {n} player had joined at the start",
                     "fewer than {n} players had joined at the start", int(found.group(1)))


def summary(row: TournamentRow, players: int, names: dict[int, tuple[str, bool]]
            ) -> TournamentSummary:
    """A tournament's own fields, as the API and the lobby show them."""
    kind = load_game(row.game, **row.params).get_type()
    return {"id": row.id, "name": row.name, "game": row.game, "game_title": kind.long_name,
            "params": row.params, "settings": settings_words(row.game, row.params),
            "players_per_table": row.players_per_table,
            "format": row.format, "rounds": row.rounds or None, "round": row.round,
            "clock": row.clock, "clock_label": clock_label(row.clock), "rated": row.rated,
            "status": row.status,
            "starts_at": row.starts_at, "started_at": row.started_at,
            "finished_at": row.finished_at, "cancelled": cancelled_reason(row.cancelled),
            "created_by": names.get(row.created_by, (DELETED, False))[0],
            "players": players, "max_players": row.max_players, "grace": row.grace,
            "url": f"/tournaments/{row.id}"}


def played_rounds(pairings: list[PairingRow], byes: dict[int, list[int]]) -> list[Round]:
    """The rounds as the pairing rules and standings read them."""
    out = []
    for r in sorted(byes):
        games = tuple(Game(tuple(p.players), None if p.ended_at is None or p.points is None
                           else tuple(p.points)) for p in pairings if p.round == r)
        out.append(Round(games, tuple(byes[r])))
    return out


def round_inputs(session: Session, row: TournamentRow) -> tuple[list[int], list[Round]]:
    """What pairing the next round of a running tournament needs: its players in seed order
    and the rounds so far."""
    entrants = [e.account_id for e in session.scalars(select(EntrantRow).where(
        EntrantRow.tournament_id == row.id).order_by(EntrantRow.seed))]
    pairings = list(session.scalars(select(PairingRow).where(
        PairingRow.tournament_id == row.id)))
    byes = {r.round: r.byes for r in session.scalars(select(RoundRow).where(
        RoundRow.tournament_id == row.id))}
    return entrants, played_rounds(pairings, byes)


def store_round(session: Session, tid: str, after: int, pairing: Pairing, now: float) -> bool:
    """Store round ``after + 1`` of a running tournament with its tables' ids, or nothing if
    another process stored it first (the round number moves by one conditional update).
    Returns whether this call stored it."""
    moved = session.execute(update(TournamentRow).where(
        TournamentRow.id == tid, TournamentRow.status == RUNNING,
        TournamentRow.round == after).values(round=after + 1))
    if not getattr(moved, "rowcount", 0):
        return False
    session.add(RoundRow(tournament_id=tid, round=after + 1, byes=list(pairing.byes),
                         started_at=now))
    for board, players in enumerate(pairing.tables):
        session.add(PairingRow(tournament_id=tid, round=after + 1, board=board,
                               table_id=secrets.token_urlsafe(9), players=list(players),
                               made=False, forfeits=[]))
    try:
        session.flush()
    except IntegrityError:
        session.rollback()
        return False
    return True
