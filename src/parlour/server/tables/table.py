"""One live table in memory: its game, state, seats and listeners, and the messages it sends.

A :class:`Table` holds what the database holds about a table (rebuilt from it by replaying the
stored actions and events, :mod:`parlour.server.tables.replay`) plus who is listening. Every
message a seat or a spectator receives is built here from that seat's view
(:mod:`parlour.server.messages.views`, G-3). Nothing here changes a table: every change goes
through a unit of work
(:mod:`parlour.server.tables.unit`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from dataclasses import dataclass, field

from parlour import i18n
from parlour.core import CHANCE_PLAYER, Game, State, presentation
from parlour.i18n import Message
from parlour.server.ai import WEB_AGENTS
from parlour.server.messages.outgoing import Connection, encode
from parlour.server.messages.schemas import Result, StateMessage, UndoRequest
from parlour.server.messages.views import Note, is_public, public_params, state_payload, turn_log
from parlour.server.names import seat_display_name, shown_name
from parlour.server.persistence.records import EventData, HandData, SeatData
from parlour.server.tables.clocks import Clock

log = logging.getLogger("parlour.server")

ARCHIVED = Message("this table was archived: it can be replayed, not played")
"""What every change to an archived table is refused with (code ``archived``)."""
NOTICES = 5
"""How many of a table's recent notices (a computer player's move cut short...) each state
message carries."""


@dataclass
class Table:
    """One game in progress (or finished): its configuration, state, notes and listeners."""

    id: str
    game: Game
    seed: int
    seats: tuple[SeatData, ...]
    hands: tuple[HandData, ...]
    state: State
    notes: list[Note]
    acks: dict[str, int]
    rematch_id: str | None = None
    rematch_tokens: dict[int, str] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    ai_task: asyncio.Task[None] | None = None
    notices: list[str] = field(default_factory=list)
    last_active: float = field(default_factory=time.monotonic)
    custom_start: bool = False
    presence_task: asyncio.Task[None] | None = None
    # around the game: seats, clocks, resignations, undo (parlour.server.tables.seats, .timeouts...)
    clock: Clock | None = None
    events: list[EventData] = field(default_factory=list)
    outcome: Result | None = None
    """A result the table decided (a loss on time, a resignation), over the game's own."""
    covered: set[int] = field(default_factory=set)
    """Seats the computer plays this turn because their time ran out."""
    taken_over: set[int] = field(default_factory=set)
    """Seats the computer holds until their owner claims them back (or for good: resigned)."""
    resigned: set[int] = field(default_factory=set)
    timeouts: dict[int, int] = field(default_factory=dict)
    """Time-outs in a row per seat."""
    listed: bool = False
    archived: bool = False
    undo_request: UndoRequest | None = None
    timer: asyncio.Task[None] | None = None
    created_at: float = 0.0
    created_by: str | None = None
    """The client (address hash) that created the table: its computer players' thinking is
    counted against that client's share (:mod:`parlour.server.fairness`)."""
    rated: bool = False
    """The game changes its players' ratings when it ends (accounts only, issue 29)."""
    awaited: set[int] = field(default_factory=set)
    """Invited seats whose player has not opened their link yet: until every one has
    (an ``arrive`` event each), nobody moves and no clock runs."""
    expires_at: float | None = None
    """When the table ends unplayed if an invited seat is still awaited (creation plus
    ``Limits.invitation_seconds``)."""

    @property
    def version(self) -> int:
        return self.state.move_number()

    @property
    def title(self) -> str:
        return self.game.get_type().long_name

    def seat_names(self) -> list[str]:
        """Each seat as players call it: a name, a computer's strength, or "Player 2"."""
        return [self.seat_name(s.seat) for s in self.seats]

    @property
    def over(self) -> bool:
        """The game ended by its rules, or the table decided it (time, resignation)."""
        return self.outcome is not None or self.state.is_terminal()

    @property
    def has_people(self) -> bool:
        """Whether a person plays at this table (else only computers do)."""
        return any(s.kind == "human" for s in self.seats)

    @property
    def started(self) -> bool:
        """Every seat is taken: an open table waits for players from the lobby, an invitation
        table for its invited players to arrive, before anyone moves or any clock runs."""
        return not self.awaited and all(s.kind != "open" for s in self.seats)

    def to_act(self) -> int | None:
        """The seat whose time runs now, if any."""
        if self.over or not self.started:
            return None
        player = self.state.current_player()
        return player if player >= 0 else None

    def deciding(self) -> bool:
        """The player to act makes a decision with its own short limit (a bluff: B9)."""
        return deciding(self.state)

    def tick(self, when: float) -> None:
        """The clock after a change at ``when`` (a stored move, an event)."""
        running = self.to_act()
        if self.clock is not None:
            self.clock.advance(when, running, self.deciding())
        self.covered &= {running} if running is not None else set()

    def deadline(self) -> float | None:
        """When the running turn's time is up; none while the computer plays that seat (its
        own move deadline bounds it), so a turn times out once. While invited seats are
        awaited, it is when the invitation expires."""
        if self.over:
            return None
        if self.awaited:
            return self.expires_at
        if self.clock is None:
            return None
        running = self.clock.running
        if running is not None and (running in self.covered or running in self.taken_over):
            return None
        return self.clock.deadline()

    def params_json(self) -> str:
        return json.dumps(self.game.non_default_parameters(), sort_keys=True)

    def hand_by_token(self, token: str) -> HandData | None:
        for hand in self.hands:
            if secrets.compare_digest(hand.token, token):
                return hand
        return None

    def online(self, seat: int) -> bool:
        return any(c.hand is not None and seat in c.hand.seats for c in self.connections)

    def presence(self) -> tuple[bool, ...]:
        return tuple(self.online(s.seat) for s in self.seats)

    def seat_name(self, seat: int) -> str:
        """How messages name a seat: the computer's strength, else "Player N" counted from 1
        as players count (the API's ``seat`` fields count from 0, as OpenSpiel does)."""
        held = self.seats[seat]
        if held.kind == "ai" and held.agent:
            return WEB_AGENTS.get(held.agent, Message("Computer ({strength})",
                                                      strength=held.agent))
        if held.kind == "open":
            return Message("Free seat {n}", n=seat + 1)
        # a person's chosen name, when they gave one
        return shown_name(held.name) if held.name else Message("Player {n}", n=seat + 1)

    def notice(self, text: str) -> None:
        """Tell everyone at the table something the game itself does not show."""
        self.notices = [*self.notices, text][-NOTICES:]

    def focus(self, hand: HandData | None) -> int | None:
        """Whose eyes a hand sees through: the seat to act if it holds it, else its first."""
        if hand is None or not hand.seats:
            return None
        current = self.state.current_player()
        return current if current in hand.seats else hand.seats[0]

    def last_player_note(self) -> Note | None:
        for note in reversed(self.notes):
            if note.player != CHANCE_PLAYER:
                return note
        return None

    def message(self, hand: HandData | None, viewer: int | None = None) -> StateMessage:
        """The full state message for a hand (or a spectator): built from one seat's view."""
        if viewer is None:
            viewer = self.focus(hand)
        public = is_public(self.game)
        body: StateMessage = {
            "type": "state",
            "table": self.id,
            "game": self.game.name,
            "title": self.game.get_type().long_name,
            "params": public_params(self.game),
            "public": public,
            "num_players": self.game.num_players(),
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "agent": s.agent,
                    "label": self.seat_name(s.seat),
                    "name": seat_display_name(s.kind, s.agent, s.name),
                    "online": self.online(s.seat),
                    "account": s.account is not None,
                    "bot": s.bot,
                }
                for s in self.seats
            ],
            "custom_start": self.custom_start,
            "notices": list(self.notices),
            "started": self.started,
            "awaited": sorted(self.awaited),
            "expires_at": self.expires_at if self.awaited and not self.over else None,
            "listed": self.listed,
            "rated": self.rated,
            "archived": self.archived,
            "taken_over": sorted(self.taken_over),
            "resigned": sorted(self.resigned),
            "undo": self.undo_request,
            "hand": None if hand is None else {"seats": list(hand.seats), "role": hand.role},
            "log": turn_log(self.game, self.notes, viewer, self._scores()),
            "watch": f"/watch/{self.id}",
            "rematch": None,
            **state_payload(self.state, viewer, self.last_player_note(),
                            ended=self.outcome is not None),
            "clock": None if self.clock is None else self.clock.payload(time.time()),
        }
        if self.outcome is not None:  # the table decided the game: nobody moves any more
            body["terminal"] = True
            body["legal"] = []
            body["result"] = self.outcome
            body["to_act"] = -4
        elif not self.started:
            body["legal"] = []
        if hand is None:
            body["rematch"] = f"/watch/{self.rematch_id}" if self.rematch_id else None
        elif hand.hand in self.rematch_tokens:
            body["rematch"] = f"/play/{self.rematch_tokens[hand.hand]}"
        if hand is not None and hand.creator:
            body["invites"] = [
                {"seats": list(h.seats), "url": f"/play/{h.token}"}
                for h in self.hands
                if h.role == "invite"
            ]
        return body

    def _scores(self) -> tuple[float, ...] | None:
        try:
            return tuple(self.state.scores())
        except (ValueError, NotImplementedError):
            return None

    def broadcast(self) -> None:
        """Send every listener its own message (built once per hand, encoded once per hand
        and language)."""
        built: dict[int | None, StateMessage] = {}
        cache: dict[tuple[int | None, str], str] = {}
        for conn in list(self.connections):
            hand = None if conn.hand is None else conn.hand.hand
            key = (hand, conn.language)
            if key not in cache:
                if hand not in built:
                    built[hand] = self.message(conn.hand)
                cache[key] = encode(i18n.localise(built[hand], conn.language))
            conn.send_encoded("state", cache[key])


def invited_seats(hands: tuple[HandData, ...]) -> set[int]:
    """The seats whose players were sent an invitation link (each must arrive)."""
    return {seat for hand in hands if hand.role == "invite" for seat in hand.seats}


def deciding(state: State) -> bool:
    """Whether the player to act must make a decision with its own short time limit (a
    GobbleStones bluff, B9: challenge or trust), which defaults when it runs out."""
    return presentation(state.game).timeout_decision(state) is not None


def to_act(state: State) -> int | None:
    """Who acts next, as the store keeps it: a seat, -1 for chance, ``None`` at the end."""
    return None if state.is_terminal() else state.current_player()
