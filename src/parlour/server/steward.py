"""What happens around the game at a table: seats taken from the lobby, clocks running out,
resignations, the computer taking a seat over and giving it back, chat, undo, archiving.

None of it is a rule of the game (those live in ``parlour.games``); it is the table's own
business, and it keeps the guarantees moves have: every event is stored before anyone is told
(:class:`parlour.server.store.EventRow`, replayed when a table is rebuilt), survives a SIGKILL,
and reveals nothing the game hides (chat carries only what people type; a time-out names only
the seat).

Choices (documented in docs/web.md):

- A time-out in a two-player game loses it ("lost on time"). With more players the computer
  (``medium``) plays that turn for the seat; after two time-outs in a row it keeps the seat
  until its owner comes back and claims it. A GobbleStones bluff decision has its own short
  limit and defaults to trust.
- Resigning loses a two-player game. With more players the computer takes the seat for the
  rest of the game (for every game alike, Stomple included: a seat that simply stops stomping
  would end rounds early for reasons the rules do not know).
- Undo needs the opponent's consent, exists only in two-player games of perfect information
  without a clock, and never crosses a chance event; the actions taken back are kept in the
  database (``parlour_taken_back``), so nothing stored is ever lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from parlour.core import CHANCE_PLAYER
from parlour.server.protocol import error
from parlour.server.store import ConflictError, EventData, HandData, SeatData
from parlour.server.views import is_public

if TYPE_CHECKING:
    from parlour.server.tables import Connection, Hub, Table

log = logging.getLogger("parlour.server")

COVER_AGENT = "medium"
"""The computer that plays a turn for a player whose time ran out."""
TIMEOUTS_BEFORE_TAKEOVER = 2
CHAT_LENGTH = 500
CHAT_BURST = 5
CHAT_WINDOW = 10.0
"""At most 5 chat messages per 10 seconds per seat (per connection for spectators)."""
CHAT_HISTORY = 50
DEADLINE_SCAN_SECONDS = 2.0
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


# -- replaying events (no I/O) -------------------------------------------------------------
def apply_event(table: Table, event: EventData) -> None:
    """What an event changes at a table; used live and when a table is rebuilt."""
    seat = event.seat
    kind = event.kind
    table.events.append(event)
    if kind in ("join", "fill") and seat is not None:
        seats = list(table.seats)
        agent = event.data.get("agent")
        seats[seat] = SeatData(seat, "ai" if kind == "fill" else "human", agent)
        table.seats = tuple(seats)
        if table.started:
            table.tick(event.created_at)  # the last seat taken: the clock starts
    elif kind == "timeout" and seat is not None:
        then = event.data.get("then")
        if then == "lost":
            table.outcome = _loss(table, seat, "time")
            table.notice(f"{table.seat_name(seat)} ran out of time and loses")
        elif then == "computer":
            table.covered.add(seat)
            table.timeouts[seat] = int(event.data.get("count", 1))
            table.notice(f"{table.seat_name(seat)} ran out of time: the computer plays this turn")
        elif then == "trust":
            table.notice(f"{table.seat_name(seat)} ran out of time and trusts the play")
    elif kind == "takeover" and seat is not None:
        table.taken_over.add(seat)
        table.notice(f"The computer holds {table.seat_name(seat)}'s seat until they come back")
    elif kind == "reclaim" and seat is not None:
        table.taken_over.discard(seat)
        table.timeouts.pop(seat, None)
        table.notice(f"{table.seat_name(seat)} is back")
    elif kind == "resign" and seat is not None:
        if table.game.num_players() == 2:
            table.outcome = _loss(table, seat, "resignation")
            table.notice(f"{table.seat_name(seat)} resigns")
        else:
            table.resigned.add(seat)
            table.taken_over.add(seat)
            table.notice(f"{table.seat_name(seat)} resigns: the computer plays their seat")
    elif kind == "undo":
        table.notice("A move was taken back")
    elif kind == "start":
        table.notice(f"The game starts with {event.data.get('players')} players")
        table.tick(event.created_at)


def ends_game(table: Table, event: EventData) -> bool:
    """Whether an event decides the game (a loss on time or by resignation, two players)."""
    two = table.game.num_players() == 2
    return (event.kind == "timeout" and event.data.get("then") == "lost") or (
        event.kind == "resign" and two
    )


def _loss(table: Table, loser: int, reason: str) -> dict[str, Any]:
    n = table.game.num_players()
    returns = [1.0 if p != loser else -1.0 for p in range(n)]
    scores = list(table.state.scores()) if hasattr(table.state, "scores") else []
    return {"returns": returns, "scores": scores, "reason": reason, "loser": loser}


def clean_text(text: str, limit: int) -> str:
    """Plain text a person typed: control and direction characters removed, trimmed."""
    return CONTROL.sub("", text).strip()[:limit]


class Steward:
    """The table-level operations of a :class:`~parlour.server.tables.Hub`."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._chat_times: dict[tuple[str, Any], deque[float]] = {}

    @property
    def store(self) -> Any:
        return self.hub.store

    # -- events ----------------------------------------------------------------------------
    async def record(
        self,
        table: Table,
        kind: str,
        seat: int | None,
        data: dict[str, Any] | None = None,
        *,
        seats: tuple[SeatData, ...] = (),
        hands: tuple[HandData, ...] = (),
    ) -> EventData | None:
        """Store an event (with the table's lock held), then apply it; ``None`` if another
        process stored that event number first (the caller catches up and looks again)."""
        now = time.time()
        event = EventData(len(table.events), table.version, kind, seat, data or {}, now)
        finished = True if ends_game(table, event) else None
        try:
            await self.store.run(
                lambda: self.store.add_event(
                    table.id, event, finished=finished, to_act=None,
                    deadline=None, seats=seats, hands=hands,
                )
            )
        except ConflictError:
            return None
        apply_event(table, event)
        table.tick(now)
        log.info("table %s: %s %s at move %d", table.id, kind,
                 "" if seat is None else f"seat {seat}", event.at)
        await self.save_deadline(table)
        return event

    async def save_deadline(self, table: Table) -> None:
        """Write the deadline of the turn now running (for the scan), and arm the timer."""
        deadline = table.deadline()
        with contextlib.suppress(Exception):  # the scan only: the clock itself is in the rows
            await self.store.run(self.store.set_deadline, table.id, deadline)
        self.arm(table)

    # -- clocks ----------------------------------------------------------------------------
    def arm(self, table: Table) -> None:
        """(Re)start the timer that applies the running turn's deadline."""
        if table.timer is not None and not table.timer.done():
            table.timer.cancel()
        deadline = table.deadline()
        if deadline is None:
            table.timer = None
            return
        table.timer = asyncio.create_task(self._wait(table, table.version, deadline))

    async def _wait(self, table: Table, version: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        table.timer = None  # this task now does the work: re-arming must not cancel it
        await self.time_out(table, version)

    async def scan(self) -> None:
        """Apply every deadline that passed, also of tables not in memory (and those that
        passed while the server was down): runs every couple of seconds."""
        while True:
            try:
                ids = await self.store.run(self.store.expired_deadline_ids, time.time())
                for table_id in ids:
                    table = await self.hub.table(table_id)
                    if table is not None:
                        await self.time_out(table, table.version)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("applying expired deadlines failed")
            await asyncio.sleep(DEADLINE_SCAN_SECONDS)

    async def time_out(self, table: Table, version: int) -> None:
        """The running turn's time is up (checked again under the lock): apply it once."""
        if not await self.hub.claim(table, version):
            return
        async with table.lock:
            await self.hub.catch_up(table)
            deadline = table.deadline()
            seat = table.to_act()
            if (table.version != version or deadline is None or seat is None
                    or time.time() < deadline - 0.05):
                return
            if table.deciding():
                trust = table.game.TRUST  # type: ignore[attr-defined]  # GobbleStones (B9)
                event = await self.record(table, "timeout", seat, {"then": "trust"})
                if event is not None:
                    await self.hub.store_action(table, seat, trust, f"timeout:{version}")
            elif table.game.num_players() == 2:
                await self.record(table, "timeout", seat, {"then": "lost"})
            else:
                count = table.timeouts.get(seat, 0) + 1
                await self.record(table, "timeout", seat, {"then": "computer", "count": count})
                if count >= TIMEOUTS_BEFORE_TAKEOVER and seat not in table.taken_over:
                    await self.record(table, "takeover", seat)
            table.broadcast()
        self.hub.schedule_ai(table)

    # -- seats -----------------------------------------------------------------------------
    async def take_seat(self, table: Table, seat: int) -> HandData:
        """Give a free seat of an open table to whoever asks: a new hand (link) for it."""
        async with table.lock:
            await self.hub.catch_up(table)
            if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "open":
                raise SeatError("that seat is not free any more: choose another")
            if not await self.store.run(self.store.take_seat, table.id, seat, "human", None):
                await self.hub.reload_seats(table)
                raise SeatError("that seat was just taken: choose another")
            hand = HandData(secrets.token_urlsafe(24), len(table.hands), (seat,), "joined", False)
            event = await self.record(table, "join", seat, {}, hands=(hand,))
            if event is None:
                raise SeatError("the table changed meanwhile: try again")
            table.hands = (*table.hands, hand)
            self.hub.tokens[hand.token] = table.id
            table.broadcast()
        self.hub.schedule_ai(table)
        return hand

    async def fill_seat(self, table: Table, seat: int, agent: str) -> None:
        """The creator fills a free seat with a computer player."""
        if not self.hub.allows_agent(agent):
            raise SeatError(f"no computer player {agent!r} here")
        async with table.lock:
            await self.hub.catch_up(table)
            if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "open":
                raise SeatError("that seat is not free any more")
            if not await self.store.run(self.store.take_seat, table.id, seat, "ai", agent):
                raise SeatError("that seat was just taken")
            await self.record(table, "fill", seat, {"agent": agent})
            table.broadcast()
        self.hub.schedule_ai(table)

    async def start_early(self, table: Table) -> None:
        """The creator starts an open table with the players seated so far, where the game
        allows that many: the free seats go, the seats are renumbered in order and the deal
        is drawn again for the smaller game. Only before anyone has moved.

        The new deal is drawn from a fresh secret seed (stored in place of the old one): drawn
        from the old seed, it would hand a renumbered player the very rack the seat before
        theirs was dealt and its holder has seen."""
        async with table.lock:
            await self.hub.catch_up(table)
            if table.started:
                raise SeatError("the game has started already")
            if any(n.player >= 0 for n in table.notes):
                raise SeatError("someone has moved already")
            seated = [s for s in table.seats if s.kind != "open"]
            kind = table.game.get_type()
            if "players" not in type(table.game).parameters or not (
                kind.min_num_players <= len(seated) <= kind.max_num_players
            ):
                raise SeatError(
                    f"{kind.long_name} needs {kind.min_num_players} to {kind.max_num_players} "
                    f"players: fill a free seat with the computer instead"
                )
            renumber = {s.seat: i for i, s in enumerate(seated)}
            params = {**table.game.non_default_parameters(), "players": len(seated)}
            game = type(table.game)(**params)
            seats = tuple(SeatData(renumber[s.seat], s.kind, s.agent, getattr(s, "name", None))
                          for s in seated)
            hands = tuple(
                HandData(h.token, h.hand, tuple(renumber[x] for x in h.seats if x in renumber),
                         h.role, h.creator)
                for h in table.hands
            )
            now = time.time()
            seed = secrets.randbits(63)
            state = game.new_initial_state()
            rows: list[Any] = []
            notes: list[Any] = []
            self.hub.resolve_chance(state, seed, rows, notes, now)
            event = EventData(len(table.events), 0, "start", None,
                              {"players": len(seated), "seats": renumber}, now)
            await self.store.run(lambda: self.store.restart(
                table.id, game.non_default_parameters(), seed, seats, hands, rows, event,
                None if state.is_terminal() else state.current_player(), None))
        await self.hub.reload(table.id)

    async def resign(self, table: Table, seat: int) -> dict[str, Any]:
        async with table.lock:
            await self.hub.catch_up(table)
            if table.over:
                return error("game_over", "the game is over already")
            if not table.started:
                return error("waiting", "the game has not started: leave the seat instead")
            if seat in table.resigned:
                return error("resigned", "you have resigned already")
            await self.record(table, "resign", seat)
            table.broadcast()
        self.hub.schedule_ai(table)
        return {"type": "resigned", "seat": seat}

    async def reclaim(self, table: Table, seat: int) -> dict[str, Any]:
        async with table.lock:
            await self.hub.catch_up(table)
            if seat in table.resigned:
                return error("resigned", "a resigned seat stays with the computer")
            if seat not in table.taken_over:
                return error("not_taken", "your seat is yours already")
            await self.record(table, "reclaim", seat)
            table.broadcast()
        return {"type": "reclaimed", "seat": seat}

    # -- chat ------------------------------------------------------------------------------
    async def chat(self, table: Table, conn: Connection, text: str) -> dict[str, Any] | None:
        """Store and pass on a chat message to its channel; an error reply, or ``None``."""
        body = clean_text(text, CHAT_LENGTH)
        if not body:
            return error("empty", "an empty message is not sent")
        if len(text.strip()) > CHAT_LENGTH:
            return error("too_long", f"a chat message is at most {CHAT_LENGTH} characters")
        hand = conn.hand
        channel = "players" if hand is not None and hand.seats else "spectators"
        seat = None if channel == "spectators" or hand is None else table.focus(hand)
        key = (table.id, seat if seat is not None else id(conn))
        times = self._chat_times.setdefault(key, deque(maxlen=CHAT_BURST))
        now = time.time()
        if len(times) == CHAT_BURST and now - times[0] < CHAT_WINDOW:
            wait = int(CHAT_WINDOW - (now - times[0])) + 1
            return error("rate_limited", f"at most {CHAT_BURST} messages in {CHAT_WINDOW:g} s: "
                                         f"wait {wait} s")
        times.append(now)
        name = table.seat_name(seat) if seat is not None else "Spectator"
        number = await self.store.run(
            self.store.add_chat, table.id, channel, seat, name, body, now
        )
        message = {"type": "chat", "channel": channel, "id": number, "seat": seat,
                   "name": name, "text": body, "at": now}
        for other in list(table.connections):
            other_channel = ("players" if other.hand is not None and other.hand.seats
                             else "spectators")
            if other_channel == channel:
                other.send(message)
        return None

    async def chat_history(self, table: Table, conn: Connection) -> None:
        channel = "players" if conn.hand is not None and conn.hand.seats else "spectators"
        messages = await self.store.run(self.store.chat, table.id, channel, CHAT_HISTORY)
        conn.send({"type": "chat_history", "channel": channel, "messages": messages})

    # -- undo ------------------------------------------------------------------------------
    def undo_allowed(self, table: Table) -> str | None:
        """Why undo is not offered here, or ``None``."""
        if table.game.num_players() != 2 or not is_public(table.game):
            return "undo is offered in two-player games of perfect information only"
        if table.clock is not None:
            return "undo is not offered at a table with a clock"
        if table.over:
            return "the game is over"
        return None

    def _undo_from(self, table: Table, seat: int) -> int | None:
        """The first move number of ``seat``'s last turn, if nothing since is chance."""
        notes = table.notes
        index = len(notes) - 1
        while index >= 0 and notes[index].player != seat:
            if notes[index].player == CHANCE_PLAYER:
                return None
            index -= 1
        if index < 0:
            return None
        while index > 0 and notes[index - 1].player == seat:
            index -= 1
        if any(n.player == CHANCE_PLAYER for n in notes[index:]):
            return None
        return notes[index].seq

    async def undo(self, table: Table, seat: int, answer: str) -> dict[str, Any]:
        reason = self.undo_allowed(table)
        if reason is not None:
            return error("undo_refused", reason)
        async with table.lock:
            await self.hub.catch_up(table)
            request = table.undo_request
            if answer == "ask":
                start = self._undo_from(table, seat)
                if start is None:
                    return error("undo_refused", "there is no move of yours to take back")
                table.undo_request = {"by": seat, "from": start, "version": table.version}
                table.broadcast()
                return {"type": "undo", "state": "asked"}
            if request is None or request["by"] == seat:
                return error("undo_refused", "there is no request of your opponent's to answer")
            table.undo_request = None
            if answer == "decline" or request["version"] != table.version:
                table.notice("The request to take a move back was declined"
                             if answer == "decline" else "The table moved on: no undo")
                table.broadcast()
                return {"type": "undo", "state": "declined"}
            undo_no = sum(1 for e in table.events if e.kind == "undo")
            now = time.time()
            event = EventData(len(table.events), request["from"], "undo", request["by"],
                              {"from": request["from"], "to": table.version}, now)
            await self.store.run(lambda: self.store.take_back(
                table.id, undo_no, request["from"], event, request["by"]))
        await self.hub.reload(table.id)
        return {"type": "undo", "state": "accepted"}

    # -- archiving ---------------------------------------------------------------------------
    async def archive_loop(self, after: float) -> None:
        while True:
            await asyncio.sleep(min(60.0, max(1.0, after / 10)))
            keep = [t.id for t in self.hub.tables.values() if t.connections]
            try:
                count = await self.store.run(self.store.archive_idle, time.time() - after, keep)
            except Exception:
                log.exception("archiving idle tables failed")
                continue
            if count:
                log.info("archived %d idle tables", count)
                for table in list(self.hub.tables.values()):
                    if table.id not in keep and not table.over:
                        self.hub.forget(table)  # reloaded (read-only) when opened


class SeatError(ValueError):
    """A seat that cannot be taken or filled (the message says why)."""
