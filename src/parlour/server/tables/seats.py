"""Seats: taking a free seat of an open table, an invited player arriving, filling a seat with
the computer, starting early with the players seated so far, and players' display names.

Each is a unit of work (:mod:`~parlour.server.tables.unit`), stored before anyone is told. A seat
taken from the lobby gets a hand of its own (a new secret link), exactly like an invited seat.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from parlour.i18n import Message
from parlour.server.names import person_name
from parlour.server.persistence.records import EventData, HandData, SeatData
from parlour.server.persistence.store import Store
from parlour.server.tables.events import EventKind
from parlour.server.tables.registry import Registry
from parlour.server.tables.replay import resolve_chance
from parlour.server.tables.table import ARCHIVED, Table, to_act
from parlour.server.tables.unit import Changes, Spawn, TableWork, Unit


class SeatError(ValueError):
    """A seat that cannot be taken or filled (the message says why)."""


RATED_PEOPLE = Message("a rated game is between people: no computer players")
"""Why a rated table's seat is never the computer's (creating it, or filling a free seat)."""
RATED_ACCOUNTS = Message("sign in to take a seat at a rated table")


class Seats:
    """The seats of the tables: who sits where, and what they are called."""

    def __init__(
        self,
        store: Store,
        changes: Changes,
        registry: Registry,
        allows_agent: Callable[[str | None], bool],
        reload: TableWork,
        spawn: Spawn,
    ) -> None:
        self.store = store
        self.changes = changes
        self.registry = registry
        self.allows_agent = allows_agent
        self.reload = reload
        """Rebuild a table from the database, telling its listeners (a unit of work)."""
        self.spawn = spawn

    async def take(self, table: Table, seat: int, account: int | None = None,
                   name: str | None = None) -> HandData:
        """Give a free seat of an open table to whoever asks: a new hand (link) for it. A
        signed-in player takes it as their ``account``, under its ``name`` (issue 29).

        The seat, its event and its link are stored in one transaction (another process may
        take another seat at the same moment): the seat is either taken with its link given,
        or left free."""
        async with self.changes.at(table) as unit:
            self._check_free(table, seat, Message("that seat is not free any more: choose another"))
            if table.rated and account is None:  # every way in: the rated-table rules
                raise SeatError(RATED_ACCOUNTS)
            if account is not None and any(s.account == account for s in table.seats):
                raise SeatError(Message("you have a seat at this table already"))
            data = {} if account is None else {"account": account, "name": name}
            taken, hand = await self._store(unit, seat, "human", EventKind.JOIN, data,
                                            secrets.token_urlsafe(24), account)
            if not taken or hand is None:
                raise SeatError(Message("that seat was just taken: choose another"))
        return hand

    async def arrive(self, table: Table, hand: HandData) -> None:
        """An invited player opened their link (a websocket, or the seat's API; never the
        page itself, which a link preview fetches too): their seat is taken, and when it was
        the last one awaited the game and its clock start. Stored once per seat."""
        if not table.awaited.intersection(hand.seats) or hand.role != "invite":
            return
        async with self.changes.at(table) as unit:
            if table.archived or table.over:
                return
            for seat in sorted(table.awaited.intersection(hand.seats)):
                await unit.record(EventKind.ARRIVE, seat)
            if table.started:  # the game starts: someone's turn now (the lists of games)
                await self.store.run(self.store.set_to_act, table.id, to_act(table.state))

    @staticmethod
    def _check_free(table: Table, seat: int, message: str) -> None:
        if table.archived:
            raise SeatError(ARCHIVED)
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "open":
            raise SeatError(message)

    async def _store(self, unit: Unit, seat: int, kind: str, event_kind: EventKind,
                     data: dict[str, Any], token: str | None, account: int | None = None
                     ) -> tuple[bool, HandData | None]:
        """Store a seat taken (one transaction) and show it here: whether it was taken (not
        if someone took it first: the table is rebuilt to show that), and the new hand of a
        person (``token`` given)."""
        table = unit.table
        event = EventData(len(table.events), table.version, event_kind, seat, data,
                          time.time())
        stored = await self.store.run(self.store.take_seat, table.id, seat, kind, event, token,
                                      account)
        if stored is None:
            self.spawn(self.reload(table))
            return False, None
        event, hand = stored
        if event.seq == len(table.events):
            await unit.apply(event)
            if hand is not None:
                self.registry.add_hand(table, hand)
        else:  # other processes' events came first: the table as the database has it
            await self.changes.catch_up(table)
            unit.show()
        return True, hand

    async def fill(self, table: Table, seat: int, agent: str) -> None:
        """The creator fills a free seat with a computer player (never at a rated table: its
        seats are people's accounts, as when it was created, :func:`~.creation.check_rated`)."""
        if not self.allows_agent(agent):
            raise SeatError(Message("no computer player {agent!r} here", agent=agent))
        async with self.changes.at(table) as unit:
            self._check_free(table, seat, Message("that seat is not free any more"))
            if table.rated:
                raise SeatError(RATED_PEOPLE)
            taken, _ = await self._store(unit, seat, "ai", EventKind.FILL, {"agent": agent},
                                         None)
            if not taken:
                raise SeatError(Message("that seat was just taken"))

    async def start_early(self, table: Table) -> None:
        """The creator starts an open table with the players seated so far, where the game
        allows that many: the free seats go, the seats are renumbered in order and the deal
        is drawn again for the smaller game. Only before anyone has moved.

        The new deal is drawn from a fresh secret seed (stored in place of the old one): drawn
        from the old seed, it would hand a renumbered player the very rack the seat before
        theirs was dealt and its holder has seen."""
        async with self.changes.at(table):
            if table.archived:
                raise SeatError(ARCHIVED)
            if table.started:
                raise SeatError(Message("the game has started already"))
            if any(n.player >= 0 for n in table.notes):
                raise SeatError(Message("someone has moved already"))
            seated = [s for s in table.seats if s.kind != "open"]
            kind = table.game.get_type()
            if "players" not in type(table.game).parameters or not (
                kind.min_num_players <= len(seated) <= kind.max_num_players
            ):
                raise SeatError(Message(
                    "{game} needs {low} to {high} players: fill a free seat with the computer "
                    "instead", game=kind.long_name, low=kind.min_num_players,
                    high=kind.max_num_players))
            await self._restart(table, seated)
        await self.reload(table)

    async def _restart(self, table: Table, seated: list[SeatData]) -> None:
        renumber = {s.seat: i for i, s in enumerate(seated)}
        params = {**table.game.non_default_parameters(), "players": len(seated)}
        game = type(table.game)(**params)
        seats = tuple(replace(s, seat=renumber[s.seat]) for s in seated)
        hands = tuple(
            HandData(h.token, h.hand, tuple(renumber[x] for x in h.seats if x in renumber),
                     h.role, h.creator, h.account)
            for h in table.hands
        )
        now = time.time()
        seed = secrets.randbits(63)
        state = game.new_initial_state()
        rows: list[Any] = []
        resolve_chance(state, seed, rows, [], now)
        event = EventData(len(table.events), 0, EventKind.START, None,
                          {"players": len(seated), "seats": renumber}, now)
        await self.store.run(lambda: self.store.restart(
            table.id, game.non_default_parameters(), seed, seats, hands, rows, event,
            to_act(state), None))

    async def rename(self, table: Table, names: dict[int, str | None]) -> None:
        """Store players' display names for human seats, then show them to everyone."""
        async with self.changes.at(table) as unit:
            if table.archived:
                raise SeatError(ARCHIVED)
            names = {  # a name that reads like the computer's: NameRefused, nothing stored
                seat: person_name(name)
                for seat, name in names.items()
                if 0 <= seat < len(table.seats) and table.seats[seat].kind == "human"
                and table.seats[seat].account is None  # an account's seat keeps its username
            }
            if not names:
                return
            await self.store.run(self.store.set_seat_names, table.id, names)
            table.seats = tuple(
                replace(s, name=names.get(s.seat, s.name))
                if s.seat in names
                else s
                for s in table.seats
            )
            unit.show()
