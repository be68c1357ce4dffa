"""A GobbleStones state rebuilt from one seat's views (``Game.state_from_view``), for a bot.

A bot on a server holds no state, only the views its seat is sent (G-3). A view shows the
board, every tile on it, the seat's own rack, every rack's size, the bag's size, the scores,
the phase and the last challenge: everything but the colours of the tiles the seat cannot see
(the other racks, the bag, the others' face-down tiles and, bluffing, the colours of another
seat's play). So the state is the position the view shows with those colours dealt at random
from the tiles the seat has not seen (20 of each colour in all, B2), written as a position
text and read back by the game: it shows the seat exactly its view, with the same legal moves.

What a seat also knows from earlier views is what a caught bluff turned up (B9): the tiles of
a wrong play went back to the mover's rack in everyone's sight. :class:`GobbleStonesMemory`
keeps every challenge the seat's views showed (the view holds the last one); a deal keeps the
mover's returned tiles in their rack, or among the face-down tiles they have laid since (a tile
laid face down may be any tile of the rack), less those a later challenge found correct. The
deal is otherwise uniform over the unseen tiles: the law of the bag (G-1) given what the seat
saw, which in GobbleStones is the tiles' whereabouts, not their order.

The rebuilt state keeps how it was dealt: its ``sample_world`` for that seat deals again from
the same view and memory (so an agent's sampled worlds keep the remembered tiles too); once an
agent plays moves on it, it samples as every state does (:mod:`.worlds`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from parlour.core import NotationError, SeatMemory, View
from parlour.games.gobblestones.board import COLOURS, NUM_COLOURS, SIZE, TILES_PER_COLOUR
from parlour.games.gobblestones.views import HIDDEN
from parlour.games.gobblestones.worlds import WorldSamplingError

S = TypeVar("S")
S_co = TypeVar("S_co", covariant=True)


class _Game(Protocol[S_co]):
    """What this module asks of the game (``GobbleStonesGame``, which calls this module and
    so is named by what it offers rather than imported)."""

    @property
    def bluff(self) -> bool: ...
    def num_players(self) -> int: ...
    def state_from_position(self, text: str) -> S_co: ...

ATTEMPTS = 200
"""Deals tried before giving up (a deal fails only when another seat is part-way through a
play that its dealt rack could not finish, B4)."""


@dataclass(frozen=True)
class Challenge:
    """One challenge a view showed (B9): the mover, whether the play was right, its tiles
    (square name, colour letter), and the squares the mover had face down when it was seen."""

    mover: int
    correct: bool
    tiles: tuple[tuple[str, str], ...]
    down_before: frozenset[str]


@dataclass
class GobbleStonesMemory(SeatMemory):
    """What a GobbleStones seat remembers of its earlier views: the challenges they showed,
    in order (a view holds only the last; a repeat of the same one tells nothing new)."""

    challenges: list[Challenge] = field(default_factory=list)
    _last: Any = None

    def observe(self, view: View) -> None:
        last = view.get("last_challenge")
        if last is None or last == self._last:
            return
        self._last = last
        mover = last["player"]
        down = frozenset(sq for sq, owner in view["owners"].items() if owner == mover)
        self.challenges.append(Challenge(
            mover, bool(last["correct"]), tuple((sq, c) for sq, c in last["tiles"]), down))


Slot = tuple[str, Any]
"""Where an unseen tile goes: ``("rack", seat)``, ``("tile", square name)``, ``("play", i)``
or ``("bag", None)``."""


def deal_for(game: _Game[S], view: View, player: int, memory: SeatMemory | None) -> Deal[S]:
    """The deals of ``view`` for ``player`` with what ``memory`` holds (the module docstring);
    ``ValueError`` for a view that is not one of ``player``'s in ``game``."""
    if view.get("game") != "gobblestones" or view.get("player") != player:
        raise ValueError(f"gobblestones: not a view of seat {player}")
    if view["players"] != game.num_players() or view["bluff"] != game.bluff:
        raise ValueError(f"gobblestones: the view is not of {game}")
    base = memory if isinstance(memory, GobbleStonesMemory) else GobbleStonesMemory()
    seen = GobbleStonesMemory(list(base.challenges), base._last)
    seen.observe(view)  # the view's own last challenge, should the memory have missed it
    return Deal(game, dict(view), player, seen.challenges)


class Deal(Generic[S]):
    """The unseen tiles of one seat's view and the slots they fill; each :meth:`state` is a
    new deal (``WorldSamplingError`` if none fits in :data:`ATTEMPTS` tries)."""

    def __init__(self, game: _Game[S], view: View, player: int,
                 challenges: Sequence[Challenge]) -> None:
        self.game, self.view, self.player = game, view, player
        self.challenges = tuple(challenges)
        revealed = view["racks"] is not None  # G-5: the game is over, every rack turned up
        pool = [TILES_PER_COLOUR] * NUM_COLOURS
        slots: list[Slot] = []
        for r, row in enumerate(view["tiles"]):
            for c, mark in enumerate(row):
                if mark == HIDDEN:
                    slots.append(("tile", _name(r, c)))
                elif mark != ".":
                    pool[COLOURS.index(mark.upper())] -= 1
        for i, (_square, colour) in enumerate(view["play"]):
            if colour == HIDDEN:
                slots.append(("play", i))
            else:
                pool[COLOURS.index(colour)] -= 1
        racks = view["racks"] if revealed else [
            view["rack"] if seat == player else None for seat in range(view["players"])]
        for seat, rack in enumerate(racks):
            if rack is None:
                slots.extend([("rack", seat)] * view["rack_sizes"][seat])
            else:
                for letter in rack:
                    pool[COLOURS.index(letter)] -= 1
        slots.extend([("bag", None)] * view["bag"])
        if min(pool) < 0 or sum(pool) != len(slots):
            raise ValueError("gobblestones: the view does not account for the 100 tiles (B2)")
        self.pool, self.slots = pool, slots

    def state(self, rng: random.Random) -> S:
        for _attempt in range(ATTEMPTS):
            colours = self._deal(rng)
            try:
                state = self.game.state_from_position(self._position(colours))
            except NotationError:
                continue  # another seat's play under way that this deal could not finish
            return state
        raise WorldSamplingError(
            f"gobblestones: no deal fits seat {self.player}'s view in {ATTEMPTS} tries")

    def _deal(self, rng: random.Random) -> list[int]:
        """A colour for every slot: first the remembered tiles, then the rest at random."""
        dealt = [-1] * len(self.slots)
        pool = list(self.pool)
        for index, need in self._kept():
            free = [i for i in index if dealt[i] < 0]
            have = [0] * NUM_COLOURS
            for i in index:
                if dealt[i] >= 0:
                    have[dealt[i]] += 1
            want = [c for c in range(NUM_COLOURS) for _ in range(max(0, need[c] - have[c]))]
            if len(want) > len(free) or any(want.count(c) > pool[c] for c in set(want)):
                continue  # not met (a view was missed): what is remembered, not what is not
            for i, c in zip(rng.sample(free, len(want)), want, strict=True):
                dealt[i] = c
                pool[c] -= 1
        rest = [c for c in range(NUM_COLOURS) for _ in range(pool[c])]
        rng.shuffle(rest)
        it = iter(rest)
        return [c if c >= 0 else next(it) for c in dealt]

    def _kept(self) -> list[tuple[list[int], list[int]]]:
        """Per caught bluff, latest first: the slots its tiles may be in now (the mover's rack,
        their play under way, the face-down tiles they laid since) and how many of each colour
        must be there (the returned tiles, less those a later challenge showed laid)."""
        if self.view["racks"] is not None:
            return []
        owners = self.view["owners"]
        out = []
        for k in range(len(self.challenges) - 1, -1, -1):
            c = self.challenges[k]
            if c.correct or c.mover == self.player:
                continue
            need = [0] * NUM_COLOURS
            for _square, letter in c.tiles:
                need[COLOURS.index(letter)] += 1
            for later in self.challenges[k + 1:]:
                if later.mover == c.mover and later.correct:
                    for _square, letter in later.tiles:
                        need[COLOURS.index(letter)] = max(0, need[COLOURS.index(letter)] - 1)
            index = [
                i for i, (kind, where) in enumerate(self.slots)
                if (kind == "rack" and where == c.mover)
                or (kind == "play" and self.view["turn"] == c.mover)
                or (kind == "tile" and owners.get(where) == c.mover
                    and where not in c.down_before)
            ]
            out.append((index, need))
        return out

    def _position(self, colours: list[int]) -> str:
        """The position text of the view with ``colours`` in its slots."""
        view, n = self.view, self.view["players"]
        tiles = [list(row) for row in view["tiles"]]
        play = [list(t) for t in view["play"]]
        racks = [list(view["racks"][s]) if view["racks"] is not None
                 else (list(view["rack"]) if s == self.player else []) for s in range(n)]
        bag = [0] * NUM_COLOURS
        for (kind, where), c in zip(self.slots, colours, strict=True):
            letter = COLOURS[c]
            if kind == "tile":
                r, col = SIZE - int(where[1:]), ord(where[0]) - ord("a")
                tiles[r][col] = letter.lower()
            elif kind == "play":
                play[where][1] = letter
            elif kind == "rack":
                racks[where].append(letter)
            else:
                bag[c] += 1
        scores = view["scores"]
        if view["phase"] == "end":  # the end bonus (B8) is added to the points by the rules
            scores = [s - len(r) for s, r in zip(scores, racks, strict=True)]
        last = view["last_challenge"]
        last_text = "-" if last is None else " ".join([
            str(last["player"]), str(last["challenger"]),
            "right" if last["correct"] else "wrong",
            " ".join(f"{sq}={c}" for sq, c in last["tiles"]) or "-"])
        lines = {
            "board": "/".join(view["board"]),
            "tiles": "/".join("".join(row) for row in tiles),
            "owners": " ".join(f"{sq}={p}" for sq, p in view["owners"].items()) or "-",
            "racks": "/".join("".join(sorted(r, key=COLOURS.index)) or "-" for r in racks),
            "bag": " ".join(f"{COLOURS[c]}{k}" for c, k in enumerate(bag)),
            "points": " ".join(str(int(s)) for s in scores),
            "phase": _phase_text(view),
            "play": " ".join(f"{sq}={c}" for sq, c in play) or "-",
            "passes": str(view["passes"]),
            "turns": str(view["turns"]),
            "last": last_text,
        }
        return "\n".join(f"{key} {value}" for key, value in lines.items())


def _phase_text(view: View) -> str:
    phase = view["phase"]
    if phase in ("deal", "draw"):
        return f"{phase} {view['drawer']} {view['to_draw']}"
    if phase == "play":
        return f"play {view['turn']}"
    if phase == "challenge":
        return f"challenge {view['turn']} {view['decider']}"
    if phase == "end":
        return f"end {view['end']}"
    return "board"


def _name(row: int, col: int) -> str:
    return f"{chr(ord('a') + col)}{SIZE - row}"
