"""Position text for Stomp the Plank: every part of a state, as one line a person can read.

Fields are ``key=value`` tokens separated by spaces, always written in this order::

    turn=1 active=0 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=60 planks=0/0,0/0

- ``turn``: the turn number, from 1 (it counts toward ``max_turns``).
- ``active``: the seat whose turn it is (for a finished game: whose turn it was).
- ``phase``: ``start`` (the active player must draw, P3), ``choose`` (draw or stop),
  ``card`` (a card is about to be revealed: a chance node), or ``over``.
- ``end`` (only when ``phase=over``): ``tip-stop`` (planks tipped under crates, P6),
  ``tip-step`` (the active player's plank tipped as they stepped, P4), ``last-spot`` (a card
  on the pontoon's last spot, P2) or ``turn-limit`` (``max_turns`` ran out, no one lost).
- ``pontoon``: the cards on the pontoon from spot 1, by treasure name, joined by commas;
  ``-`` when empty. Once the game is over it keeps the cards of the final turn.
- ``discards``: how many of each treasure lie in the discard pile, in the order coins, ruby,
  map, compass, sword, hook, spyglass.
- ``supply``: crates left in the supply (P5).
- ``planks``: ``crates/step`` for each seat from 0, joined by commas.

The draw pile is not written: it is the rest of the deck, 7 of each treasure less those on
the pontoon and in the discards (P1). Its order does not exist in the state (see
:mod:`parlour.games.stomp_the_plank.deck`), so the text is the *whole* state.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from parlour.core import parse_position_error
from parlour.games.stomp_the_plank.deck import TREASURES, treasure_index

PHASES = ("start", "choose", "card", "over")
ENDS = ("tip-stop", "tip-step", "last-spot", "turn-limit")
KEYS = ("turn", "active", "phase", "end", "pontoon", "discards", "supply", "planks")


@dataclass(frozen=True)
class Position:
    """A state's contents as an immutable value (the parsed form of the position text)."""

    turn: int
    active: int
    phase: str
    end: str | None
    pontoon: tuple[int, ...]
    discards: tuple[int, ...]
    supply: int
    planks: tuple[tuple[int, int], ...]

    def text(self) -> str:
        parts = [f"turn={self.turn}", f"active={self.active}", f"phase={self.phase}"]
        if self.end is not None:
            parts.append(f"end={self.end}")
        pontoon = ",".join(TREASURES[t] for t in self.pontoon) or "-"
        parts.append(f"pontoon={pontoon}")
        parts.append("discards=" + ",".join(map(str, self.discards)))
        parts.append(f"supply={self.supply}")
        parts.append("planks=" + ",".join(f"{c}/{s}" for c, s in self.planks))
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read the syntax of a position text; the game checks that it makes sense."""
        fields: dict[str, str] = {}
        for token in text.split():
            key, eq, value = token.partition("=")
            if not eq or key not in KEYS:
                raise _error(text, f"{token!r} is not one of the fields {', '.join(KEYS)}")
            if key in fields:
                raise _error(text, f"field {key!r} is given twice")
            fields[key] = value
        missing = [k for k in KEYS if k != "end" and k not in fields]
        if missing:
            raise _error(text, f"missing field(s) {', '.join(missing)}")
        phase = fields["phase"]
        if phase not in PHASES:
            raise _error(text, f"phase must be one of {', '.join(PHASES)}")
        end = fields.get("end")
        if (phase == "over") != (end is not None):
            raise _error(text, "a finished game (phase=over) and only it gives end=...")
        if end is not None and end not in ENDS:
            raise _error(text, f"end must be one of {', '.join(ENDS)}")
        try:
            pontoon = (
                ()
                if fields["pontoon"] == "-"
                else tuple(treasure_index(n) for n in fields["pontoon"].split(","))
            )
        except KeyError:
            raise _error(
                text, f"pontoon cards are treasure names: {', '.join(TREASURES)}"
            ) from None
        discards = _numbers(text, "discards", fields["discards"])
        if len(discards) != len(TREASURES):
            raise _error(text, f"discards gives {len(TREASURES)} counts, one per treasure")
        planks = []
        for part in fields["planks"].split(","):
            crates, slash, step = part.partition("/")
            if not slash:
                raise _error(text, f"a plank is written crates/step, not {part!r}")
            planks.append(
                (_number(text, "planks", crates), _number(text, "planks", step))
            )
        return cls(
            turn=_number(text, "turn", fields["turn"]),
            active=_number(text, "active", fields["active"]),
            phase=phase,
            end=end,
            pontoon=pontoon,
            discards=discards,
            supply=_number(text, "supply", fields["supply"]),
            planks=tuple(planks),
        )


def _number(text: str, key: str, value: str) -> int:
    if not (value.isascii() and value.isdigit()):
        raise _error(text, f"{key} holds whole numbers (0 or more), not {value!r}")
    return int(value)


def _numbers(text: str, key: str, value: str) -> tuple[int, ...]:
    return tuple(_number(text, key, v) for v in value.split(","))


_error = partial(parse_position_error, "stomp-the-plank")
