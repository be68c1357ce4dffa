"""New tables: the lobby's choices turned into seats and secret links, the per-client quota,
the first chance events, and rematches.

A table is stored whole (its seats, its hands with their tokens, its first chance events,
drawn from a fresh secret seed) in one transaction before its creator gets a link.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace

from parlour.agents import plays, plays_configuration
from parlour.core import Game, Information, ParlourError, load_game
from parlour.games.wording import refusal_text
from parlour.i18n import Message
from parlour.server.ai import WEB_AGENTS
from parlour.server.limits import Limits, RateLimiter
from parlour.server.messages.schemas import ClockJSON, Params
from parlour.server.messages.views import HIDDEN_PARAMS, Note
from parlour.server.names import NameRefused, clean_name, computer_name, person_name
from parlour.server.persistence.records import ActionData, HandData, SeatData
from parlour.server.persistence.store import Store
from parlour.server.tables.clocks import Clock, ClockConfig
from parlour.server.tables.registry import Registry
from parlour.server.tables.replay import resolve_chance
from parlour.server.tables.seats import RATED_PEOPLE
from parlour.server.tables.table import Table, invited_seats, to_act
from parlour.server.tables.unit import Changes

log = logging.getLogger("parlour.server")

SEAT_CHOICES = ("me", "invite", "hotseat", "ai", "open")
"""How the lobby fills a seat: the creator's own seat, a private link, another player at the
creator's screen, a computer player (with an agent name), or a free seat that anyone may take
from the public lobby (open tables only)."""

Player = tuple[int, str]
"""A signed-in player: their account id and username."""


class CreateError(ParlourError):
    """A table that cannot be created as asked (bad game, parameters or seats)."""


class QuotaError(ParlourError):
    """A client over one of its limits (tables created too fast, too many open)."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TableMaker:
    """Creates tables for the lobby and rematches for finished ones."""

    def __init__(
        self,
        store: Store,
        changes: Changes,
        registry: Registry,
        limits: Limits,
        allows_agent: Callable[[str | None], bool],
    ) -> None:
        self.store = store
        self.changes = changes
        self.registry = registry
        self.limits = limits
        self.allows_agent = allows_agent
        self._creations = RateLimiter(
            limits.tables_burst, limits.tables_per_minute / 60.0, limits.rate_keys
        )

    def plan_seats(
        self,
        game: Game,
        seat_kinds: Sequence[tuple[str, str | None]] | None,
        names: Sequence[str | None] | None = None,
        creator: Player | None = None,
    ) -> tuple[list[SeatData], list[HandData]]:
        """Seats and hands for the lobby's choices.

        The creator's hand (always hand 0) holds the "me" and "hot-seat" seats; each invited
        seat gets a hand, and so a link, of its own. A creator who keeps no seat still gets a
        hand with none: it sees what a spectator sees plus the invitation links. A signed-in
        creator's (``creator``: account and username) "me" seat is their account's.
        """
        n = game.num_players()
        kinds = list(seat_kinds) if seat_kinds else [("me", None)] + [("invite", None)] * (n - 1)
        if len(kinds) != n:
            raise CreateError(Message("{game} has {n} seats; {filled} were filled", game=str(game),
                                      n=n, filled=len(kinds)))
        seats = [self._seat(game, seat, kind, agent, names) for seat, (kind, agent)
                 in enumerate(kinds)]
        if creator is not None:
            seats = [SeatData(s.seat, s.kind, s.agent, creator[1], creator[0])
                     if kinds[s.seat][0] == "me" else s for s in seats]
        own = tuple(i for i, (kind, _) in enumerate(kinds) if kind in ("me", "hotseat"))
        role = ("me" if any(kinds[i][0] == "me" for i in own) else "hotseat") if own else "host"
        hands = [HandData(secrets.token_urlsafe(24), 0, own, role, True,
                          creator[0] if creator is not None else None)]
        for seat, (kind, _) in enumerate(kinds):
            if kind == "invite":
                hands.append(
                    HandData(secrets.token_urlsafe(24), len(hands), (seat,), "invite", False)
                )
        return seats, hands

    def _seat(self, game: Game, seat: int, kind: str, agent: str | None,
              names: Sequence[str | None] | None) -> SeatData:
        if kind not in SEAT_CHOICES:
            raise CreateError(Message("seat {n}: choose one of {choices}", n=seat + 1,
                                      choices=", ".join(SEAT_CHOICES)))
        if kind == "ai":
            if agent is None or not self.allows_agent(agent):
                raise CreateError(Message(
                    "seat {n}: no computer player {agent!r} here; choose one of {choices}",
                    n=seat + 1, agent=agent, choices=", ".join(WEB_AGENTS)))
            if not plays(agent, game.name):
                raise CreateError(Message(
                    "seat {n}: the computer player {agent!r} cannot play {game}", n=seat + 1,
                    agent=agent, game=game.get_type().long_name))
            if not plays_configuration(agent, game):
                raise CreateError(Message(
                    "seat {n}: {computer} cannot play {game} with these settings", n=seat + 1,
                    computer=computer_name(agent), game=game.get_type().long_name))
            return SeatData(seat, "ai", agent)
        if kind == "open":
            return SeatData(seat, "open", None)
        try:
            name = person_name(names[seat]) if names and seat < len(names) else None
        except NameRefused as exc:
            raise CreateError(Message("seat {n}: {why}", n=seat + 1, why=exc.args[0])) from None
        return SeatData(seat, "human", None, name)

    async def create(
        self,
        game_name: str,
        params: Params,
        seat_kinds: Sequence[tuple[str, str | None]] | None = None,
        client: str | None = None,
        *,
        names: Sequence[str | None] | None = None,
        listed: bool = False,
        clock: ClockJSON | None = None,
        creator: Player | None = None,
        rated: bool = False,
    ) -> Table:
        """Create and store a table for the lobby's choices (``client``: the creator's
        address hash, for the per-client limits). A ``listed`` (open) table shows its free
        seats in the public lobby; ``clock`` is a time control (:class:`ClockConfig`); ``names``
        are the players' display names; ``creator`` the signed-in creator. A ``rated`` table
        (:func:`check_rated`) changes its players' ratings when it ends."""
        if client is not None:
            self.check_quota(client)
        try:
            game = load_game(game_name, **params)
            config = ClockConfig.parse(clock)
        except (ParlourError, ValueError) as exc:
            raise CreateError(refusal_text(exc)) from None
        if listed and seat_kinds is None:
            seat_kinds = [("me", None)] + [("open", None)] * (game.num_players() - 1)
        seats, hands = self.plan_seats(game, seat_kinds, names, creator)
        self._check_secrets(game, params, seats, hands, listed)
        if rated:
            check_rated(game, seats, hands, config, creator)
        if client is not None:
            count = await self.store.run(self.store.open_tables_created_by, client)
            if count >= self.limits.open_tables_per_client:
                raise QuotaError(
                    Message("you have {n} unfinished tables: finish or leave some before "
                            "starting more", n=count),
                    retry_after=60,
                )
        return await self._create(game, seats, hands, None, client, listed=listed,
                                  clock=config, rated=rated)

    @staticmethod
    def _check_secrets(game: Game, params: Params, seats: Sequence[SeatData],
                       hands: Sequence[HandData], listed: bool) -> None:
        """Free seats belong to open tables, and a set-up position of a game with hidden
        information (which shows every rack to whoever wrote it) only to tables where nobody
        else takes a seat: hot-seat or against the computer."""
        if any(s.kind == "open" for s in seats) and not listed:
            raise CreateError(Message('a free seat is for an open table: send "open": true'))
        invited = any(h.role == "invite" for h in hands)
        if listed and invited:
            raise CreateError(
                Message("an open table fills its free seats from the lobby: no invites"))
        hidden = [k for k in HIDDEN_PARAMS if k in params]
        if hidden and (invited or listed) and game.get_type().information != Information.PERFECT:
            title = game.get_type().long_name
            if listed:
                raise CreateError(Message(
                    "a {game} table that starts from a set-up position cannot be open to the "
                    "lobby: the position shows every player's hidden tiles or cards to whoever "
                    "wrote it. Play it hot-seat or against the computer", game=title))
            raise CreateError(Message(
                "a {game} table that starts from a set-up position cannot have invited "
                "players: the position shows every player's hidden tiles or cards to whoever "
                "wrote it. Play it hot-seat or against the computer", game=title))

    def check_quota(self, client: str) -> None:
        """The table-creation rate for one client (raises :class:`QuotaError`)."""
        if not self._creations.allow(client):
            wait = self._creations.retry_after(client)
            raise QuotaError(
                Message("too many new tables in a short time: try again in {wait} s",
                        wait=wait), retry_after=wait
            )

    async def _create(
        self,
        game: Game,
        seats: Sequence[SeatData],
        hands: Sequence[HandData],
        rematch_of: str | None,
        client: str | None = None,
        *,
        listed: bool = False,
        clock: ClockConfig | None = None,
        rated: bool = False,
        table_id: str | None = None,
    ) -> Table:
        table_id = table_id or secrets.token_urlsafe(9)
        seed = secrets.randbits(63)
        now = time.time()
        state = game.new_initial_state()
        rows: list[ActionData] = []
        notes: list[Note] = []
        resolve_chance(state, seed, rows, notes, now)
        table = Table(table_id, game, seed, tuple(seats), tuple(hands), state, notes, {},
                      listed=listed, created_at=now, created_by=client, rated=rated,
                      clock=None if clock is None else Clock(clock, game.num_players()),
                      awaited=invited_seats(tuple(hands)),
                      expires_at=now + self.limits.invitation_seconds)
        table.custom_start = any(k in game.non_default_parameters() for k in HIDDEN_PARAMS)
        table.tick(now)
        await self.store.run(
            lambda: self.store.create_table(
                table_id, game.name, game.non_default_parameters(), seed, seats, hands, rows,
                rematch_of, state.is_terminal(),
                None if table.awaited else to_act(state),  # nobody's turn before the friends
                client,
                listed=listed, clock=None if clock is None else dict(clock.to_json()),
                created_at=now, rules_version=game.rules_version, rated=rated,
            )
        )
        self.registry.remember(table)
        log.info("table %s created: %s", table_id, game)
        if table.deadline() is not None:
            with contextlib.suppress(Exception):  # for the scan only: the rows hold the clock
                await self.store.run(self.store.set_deadline, table.id, table.deadline())
        self.changes.settled(table)
        return table

    async def create_paired(
        self,
        game_name: str,
        params: Params,
        players: Sequence[tuple[int | None, str]],
        clock: ClockJSON | None,
        rated: bool,
        bots: Collection[int] = (),
        table_id: str | None = None,
    ) -> tuple[str, list[str]]:
        """A table for people the matchmaker or a tournament paired, or a challenge's two
        players (``players``: each one's account, or ``None`` for a guest, and name, in seat
        order; ``bots``: the accounts among them that are bots): one seat link each, nobody its
        creator. Returns the table's id and the seat links. A ``table_id`` chosen beforehand (a
        tournament's pairing) makes a second creation after a crash fail on the table's primary
        key instead of making a second table."""
        game = load_game(game_name, **params)
        config = ClockConfig.parse(clock)
        seats = [SeatData(i, "human", None, clean_name(name), account, account in bots)
                 for i, (account, name) in enumerate(players)]
        hands = [HandData(secrets.token_urlsafe(24), i, (i,), "matched", False, account)
                 for i, (account, _name) in enumerate(players)]
        if rated:
            first = players[0]
            check_rated(game, seats, hands, config,
                        None if first[0] is None else (first[0], first[1]))
        table = await self._create(game, seats, hands, None, clock=config, rated=rated,
                                   table_id=table_id)
        return table.id, [f"/play/{h.token}" for h in hands]

    async def rematch(self, table: Table) -> Table:
        """The same game again with the same people, every seat moved one place on (so who
        starts rotates). Asked twice, it returns the same rematch."""
        async with self.changes.at(table) as unit:
            if table.rematch_id:
                found = await self.registry.table(table.rematch_id)
                if found is not None:
                    return found
            n = len(table.seats)
            seats = sorted(
                (replace(s, seat=(s.seat + 1) % n) for s in table.seats),
                key=lambda s: s.seat,
            )
            hands = [
                HandData(secrets.token_urlsafe(24), h.hand,
                         tuple(sorted((s + 1) % n for s in h.seats)), h.role, h.creator,
                         h.account)
                for h in table.hands
            ]
            new = await self._create(
                table.game, seats, hands, table.id, table.created_by,
                clock=None if table.clock is None else table.clock.config,
                # rated again only while every seat is still an account's (none deleted)
                rated=table.rated and all(s.account is not None for s in table.seats),
            )
            held = await self.store.run(self.store.set_rematch, table.id, new.id)
            await self.registry.link_rematch(table, held)
            unit.show()
        return self.registry.tables.get(held) or new


def check_rated(game: Game, seats: Sequence[SeatData], hands: Sequence[HandData],
                clock: ClockConfig | None, creator: Player | None) -> None:
    """A rated table is for accounts only, from the game's own start, with a clock, never
    against the computer, and each seat is its own player's (no hot-seat, no invitation link
    a guest could open: the other seats are taken from the lobby by signed-in players)."""
    if creator is None:
        raise CreateError(Message("sign in to play rated games: ratings belong to accounts"))
    if clock is None:
        raise CreateError(Message("a rated game needs a clock: choose a time control"))
    if any(k in game.non_default_parameters() for k in HIDDEN_PARAMS):
        raise CreateError(Message(
            "a rated game starts from the game's own start, not a set-up position"))
    if any(s.kind == "ai" for s in seats):
        raise CreateError(RATED_PEOPLE)
    if any(len(h.seats) > 1 for h in hands) or any(h.role == "invite" for h in hands):
        raise CreateError(Message(
            "in a rated game every player sits on their own account: no hot-seat and no "
            "invitation links (open the table and others take its seats from the lobby)"
        ))
    if not any(s.account == creator[0] for s in seats):
        raise CreateError(Message("a rated game's creator plays in it: keep a seat for yourself"))
