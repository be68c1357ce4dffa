"""Time controls: a limit per move, or a chess clock (initial time plus an increment a turn).

The server is the only authority. A clock is never stored as a running number: it is computed
from the times at which the table's actions were stored (each action row keeps its commit
time), so a table rebuilt after a restart or a SIGKILL has exactly the clock it had, and a
deadline that passed while the server was down is simply in the past. The deadline of the turn
in progress is also written beside the table (``deadline_at``), only so that a scan can find
the tables whose time ran out without loading them.

A player's time runs from the moment they became the one to act (the commit that made them so)
until the commit that ends their turn; chance events cost nobody time (they are drawn in the
same transaction as the move that causes them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from parlour.i18n import Message, message_n
from parlour.server.messages.schemas import ClockState, TimeControl

MIN_SECONDS = 5.0
"""The shortest time control a table may have (a move needs a round trip and a click)."""
MAX_SECONDS = 7 * 24 * 3600.0
"""The longest: a week a move (or a week on the clock) for the slowest correspondence games."""
MAX_INCREMENT = 24 * 3600.0
BLUFF_DECISION_SECONDS = 20.0
"""A GobbleStones bluff decision (challenge or trust) has its own short limit at a table with
a clock; when it runs out the player trusts."""


class ClockError(ValueError):
    """A time control that cannot be used (its message says why)."""


@dataclass(frozen=True)
class ClockConfig:
    """``per_move`` seconds for every turn, or ``initial`` seconds plus ``increment`` a turn."""

    per_move: float | None = None
    initial: float | None = None
    increment: float = 0.0

    @classmethod
    def parse(cls, data: Any) -> ClockConfig | None:
        """Check a ``clock`` object from a request; ``None`` means no clock."""
        if data is None:
            return None
        if not isinstance(data, dict) or not data:
            raise ClockError(
                Message('a clock is {"per_move": s} or {"initial": s, "increment": s}'))
        keys = set(data)
        unknown = keys - {"per_move", "initial", "increment"}
        if unknown:
            raise ClockError(Message("unknown clock field(s): {fields}",
                                     fields=", ".join(sorted(unknown))))
        for key, value in data.items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ClockError(Message("clock {key} is a number of seconds", key=key))
        if "per_move" in data:
            if keys != {"per_move"}:
                raise ClockError(Message("a per-move limit takes no initial time or increment"))
            return cls(per_move=cls._within(float(data["per_move"]), "per_move"))
        if "initial" not in data:
            raise ClockError(Message("a chess clock needs its initial time"))
        increment = float(data.get("increment", 0))
        if not 0 <= increment <= MAX_INCREMENT:
            raise ClockError(Message(
                "the increment is 0 to {max_increment:g} seconds",
                max_increment=MAX_INCREMENT))
        return cls(initial=cls._within(float(data["initial"]), "initial"), increment=increment)

    @staticmethod
    def _within(value: float, name: str) -> float:
        if not MIN_SECONDS <= value <= MAX_SECONDS:
            raise ClockError(Message(
                "clock {name} must be {min_seconds:g} s to {max_seconds:g} s",
                name=name, min_seconds=MIN_SECONDS, max_seconds=MAX_SECONDS))
        return value

    def to_json(self) -> TimeControl:
        if self.per_move is not None:
            return {"per_move": self.per_move}
        assert self.initial is not None
        return {"initial": self.initial, "increment": self.increment}

    def describe(self) -> str:
        """In a player's words: "30 s a move", "5 min + 3 s"."""
        if self.per_move is not None:
            return Message("{span} a move", span=_span(self.per_move))
        assert self.initial is not None
        if self.increment:
            return Message("{initial} + {increment}", initial=_span(self.initial),
                           increment=_span(self.increment))
        return _span(self.initial)


def clock_label(clock: Mapping[str, object] | None) -> str | None:
    """A stored clock (``ClockConfig.to_json``) in a player's words, ``None`` for none."""
    config = ClockConfig.parse(clock)
    return None if config is None else config.describe()


def _span(seconds: float) -> str:
    for unit, size in (("day", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size and seconds % size == 0:
            count = int(seconds // size)
            if unit == "day":
                return message_n("{n} day", "{n} days", count)
            return Message("{n} h", n=count) if unit == "h" else Message("{n} min", n=count)
    shown = f"{seconds:g}"
    return Message("{n} s", n=shown)


@dataclass
class Clock:
    """A table's clock as the stored action times make it."""

    config: ClockConfig
    players: int
    remaining: list[float] = field(default_factory=list)
    """Chess clock: each player's time left at the start of the turn now running."""
    running: int | None = None
    turn_started: float | None = None
    decision: bool = False

    def __post_init__(self) -> None:
        if not self.remaining:
            start = self.config.initial if self.config.initial is not None else 0.0
            self.remaining = [start] * self.players

    def advance(self, when: float, to_act: int | None, decision: bool = False) -> None:
        """At ``when`` the player to act became ``to_act`` (``None``: nobody's time runs)."""
        if to_act == self.running:
            return
        chess = self.config.initial is not None
        if chess and self.running is not None and self.turn_started is not None:
            used = max(0.0, when - self.turn_started)
            self.remaining[self.running] += self.config.increment - used
        self.running = to_act
        self.turn_started = when if to_act is not None else None
        self.decision = decision

    def deadline(self) -> float | None:
        if self.running is None or self.turn_started is None:
            return None
        limit = (self.config.per_move if self.config.per_move is not None
                 else self.remaining[self.running])
        if self.decision:
            limit = min(limit, BLUFF_DECISION_SECONDS)
        return self.turn_started + limit

    def payload(self, now: float) -> ClockState:
        """What every listener is told: the figures to tick from, and the server's time."""
        left = list(self.remaining)
        chess = self.config.initial is not None
        if chess and self.running is not None and self.turn_started is not None:
            left[self.running] -= now - self.turn_started
        deadline = self.deadline()
        return {
            **self.config.to_json(),
            "label": self.config.describe(),
            "remaining": [round(max(0.0, x), 3) for x in left]
            if self.config.initial is not None else None,
            "running": self.running,
            "deadline": deadline,
            "left": None if deadline is None else round(max(0.0, deadline - now), 3),
            "now": now,
        }
