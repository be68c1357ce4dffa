"""Sampling the GobbleStones worlds one player cannot tell apart (``State.sample_world``).

What a player cannot see: the colours of the tiles the other players drew (B2, B6), the bag's
contents, and in the bluffing variant (B9) the colours others placed face down and that no
challenge revealed. A sampled world is a whole **history**: the true one with those hidden
actions replaced, so that it replays exactly (G-1), every player's information state is that
of a real game, and the sampling player's is unchanged.

How the hidden actions are drawn (constraint-aware sequential sampling):

* the actions are walked in order, tracking every rack and the bag by colour;
* a hidden draw takes colour ``c`` with probability proportional to the tiles of ``c`` left in
  the bag (the chance law, G-1), among the colours that keep the rest of the history possible:
  the bag must still hold every tile the sampling player will draw later, and the drawer's rack
  must still be able to supply every tile of a known colour they will place (each later
  placement is checked against the tiles in hand plus the draws before it, earliest first);
* a hidden face-down colour (B9) is one of the mover's tiles, chosen by how many they hold,
  among the colours that keep their later placements possible;
* the result is checked in full (no rack or bag ever below zero; a player part-way through a
  play can still finish it, B4); a draw that fails the check is redrawn from scratch.

After :data:`ATTEMPTS` failed draws :class:`WorldSamplingError` is raised. It is never the true
state returned in disguise. Once the game is over, ruling G-5 turns every rack and face-down
tile up, so nothing is hidden and the world is a copy. The look-ahead keeps failures rare: the
tests sample worlds along random games of every configuration, at every seat, without one.

What a draw works out from the history alone (each seat's events, the peak demand of its known
placements, the look-ahead's answers for a given rack) is kept with the history's script, so
the many draws of one search work it out once; the worlds drawn are the same (tested).

The distribution is the chance law restricted step by step to consistent choices; it is not
the exact posterior (which weighs a choice by how many completions it leaves), a deliberate
trade of exactness for speed that every information-set search in parlour shares.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, Self, TypeVar
from weakref import WeakKeyDictionary

from parlour.core import ParlourError
from parlour.core.infostate import Recordable, RecordedGame, root_of
from parlour.games.gobblestones.board import NUM_COLOURS, SQUARES, TILES_PER_COLOUR
from parlour.games.gobblestones.snapshot import Phase, Snapshot, Tiles


class _Game(RecordedGame, Protocol):
    @property
    def bluff(self) -> bool: ...
    @property
    def place_actions(self) -> int: ...
    @property
    def CHALLENGE(self) -> int: ...
    def num_players(self) -> int: ...


class Sampled(Recordable, Protocol):
    """What sampling asks of a GobbleStones state: its public API only
    (:class:`~parlour.games.gobblestones.GobbleStonesState` is the one there is; it calls this
    module, which therefore names what it needs rather than importing it)."""

    @property
    def phase(self) -> Phase: ...
    @property
    def turn(self) -> int: ...
    @property
    def drawer(self) -> int: ...
    @property
    def pending(self) -> Tiles: ...
    @property
    def last_challenge(self) -> tuple[int, int, bool, Tiles] | None: ...
    def get_game(self) -> _Game: ...
    def snapshot(self) -> Snapshot: ...
    def is_terminal(self) -> bool: ...
    def legal_actions(self, player: int | None = None) -> list[int]: ...
    def other_world(self, *, history: list[int] | None = None, start: Self | None = None,
                    **hidden: Any) -> Self: ...


S = TypeVar("S", bound=Sampled)

_SCRIPTS: WeakKeyDictionary[Any, tuple[int, tuple[int, ...], _Script[Any]]] = (
    WeakKeyDictionary()
)
"""What ``sample_world`` read from a state's history, for one player: a state asked again
(a search samples many worlds from one position) reuses it. Kept here, not on the state, so
that this module writes no field of the state's."""

ATTEMPTS = 200
"""Full redraws tried before :class:`WorldSamplingError` is raised."""
LOOKAHEAD = 60
"""How many of a player's later events each hidden choice checks it keeps possible."""

DRAW, PLACE, RETURN = "draw", "place", "return"


class WorldSamplingError(ParlourError):
    """No consistent world was found in :data:`ATTEMPTS` draws (the state is unchanged).

    Raised instead of ever handing back the true state: an information-set search that meets
    it should treat the sample as missing (for example, skip the iteration)."""


@dataclass
class _Event:
    kind: str  # DRAW / PLACE / RETURN
    seat: int
    index: int  # position in the history (-1: hidden content of the starting position)
    colour: int  # the true colour (RETURN: unused)
    hidden: bool
    square: int = -1
    colours: tuple[int, ...] = ()  # RETURN: the colours that went back to the rack


@dataclass
class _Script(Generic[S]):
    """Everything about a history that sampling needs, read once by replaying it."""

    root: S
    root_snap: Snapshot
    """The starting position's contents (hidden ones included)."""
    final: Snapshot
    """The contents of the state sampled from."""
    events: list[_Event] = field(default_factory=list)
    root_pool: list[int] = field(default_factory=lambda: [0] * NUM_COLOURS)
    root_racks: list[list[int]] = field(default_factory=list)
    # What every draw from this history re-derives, kept (a search draws hundreds of worlds
    # from one script): per seat its events' numbers; the sampler's own draws by colour; per
    # (seat, events done) the peak demand of its known placements (``_peak``); and the answers
    # of ``_possible`` by (seat, events done, change, rack).
    by_seat: list[list[int]] | None = None
    own_draws: list[int] = field(default_factory=lambda: [0] * NUM_COLOURS)
    peaks: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    answers: dict[tuple[int, ...], tuple[bool, ...]] = field(default_factory=dict)


def _script(state: S, player: int) -> _Script[S]:
    CHALLENGE, DEAL, PLAY, DRAW_PHASE = Phase.CHALLENGE, Phase.DEAL, Phase.PLAY, Phase.DRAW

    root = root_of(state)
    game = state.get_game()
    bluff = game.bluff
    start, final = root.snapshot(), state.snapshot()
    script = _Script(root, start, final)
    # The hidden content of the starting position (a position text can hold other racks,
    # face-down tiles and a play in progress): pooled with the bag and dealt first.
    pool = list(start.bag)
    racks = [list(r) for r in start.racks]
    for seat in range(game.num_players()):
        if seat == player:
            continue
        for c in range(NUM_COLOURS):
            pool[c] += racks[seat][c]
            for _ in range(racks[seat][c]):
                script.events.append(_Event(DRAW, seat, -1, c, True))
            racks[seat][c] = 0
    for square, owner in start.owner.items():
        if owner != player:
            colour = start.tile[square]
            pool[colour] += 1
            script.events.append(_Event(DRAW, owner, -1, colour, True))
            script.events.append(_Event(PLACE, owner, -1, colour, True, square))
    if bluff and start.turn != player:
        for square, colour in start.pending:
            pool[colour] += 1
            script.events.append(_Event(DRAW, start.turn, -1, colour, True))
            script.events.append(_Event(PLACE, start.turn, -1, colour, True, square))
    script.root_pool = pool
    script.root_racks = racks

    cursor = root.clone()
    board = final.colour  # a tile is placed once the board is drawn: it is the final board
    play: list[_Event] = []  # the placements of the play being made
    for index, action in enumerate(state.history()):
        phase = cursor.phase
        if phase == PLAY and not cursor.pending:
            play = []
        if phase in (DEAL, DRAW_PHASE):
            seat = cursor.drawer
            script.events.append(_Event(DRAW, seat, index, action, seat != player))
        elif phase == PLAY and 0 <= action < game.place_actions:
            colour, square = divmod(action, SQUARES)
            if not bluff:
                colour = board[square]
            seat = cursor.turn
            event = _Event(PLACE, seat, index, colour, bluff and seat != player, square)
            script.events.append(event)
            play.append(event)
        elif phase == CHALLENGE and action == game.CHALLENGE:
            for event in play:
                event.hidden = False  # B9: a challenge shows the play's tiles to everyone
            mover, pending = cursor.turn, [c for _s, c in cursor.pending]
            cursor.apply_trusted_action(action)
            last = cursor.last_challenge
            if last is not None and not last[2]:
                # B9: a wrong play's tiles go back to the mover's rack, colours seen by all
                script.events.append(_Event(RETURN, mover, index, -1, False,
                                            colours=tuple(pending)))
            continue
        cursor.apply_trusted_action(action)
    return script


def sample_world(state: S, player: int, rng: random.Random) -> S:
    """A world ``player`` cannot tell from ``state``, drawn as the module docstring explains."""
    if state.is_terminal():
        return state.clone()  # G-5: at the end every rack and face-down tile is turned up
    history = tuple(state.history())
    cached = _SCRIPTS.get(state)
    script: _Script[S]
    if cached is not None and cached[0] == player and cached[1] == history:
        script = cached[2]
    else:
        script = _script(state, player)
        _SCRIPTS[state] = (player, history, script)
    for _attempt in range(ATTEMPTS):
        world = _attempt_world(state, player, script, rng)
        if world is not None:
            return world
    raise WorldSamplingError(
        f"gobblestones: no world consistent with player {player}'s view found in {ATTEMPTS} "
        "draws"
    )


def _attempt_world(state: S, player: int, script: _Script[S], rng: random.Random) -> S | None:
    events = script.events
    n = state.get_game().num_players()
    bag = list(script.root_pool)
    racks = [list(r) for r in script.root_racks]
    if script.by_seat is None:
        _prepare(script, n)
    assert script.by_seat is not None
    own_later = list(script.own_draws)  # the sampling player's later draws, by colour
    position = [0] * n  # per seat: how many of its events are done
    # the sampler's own draws are known (own_later): only the others' needs are counted here
    deficit = [
        [0] * NUM_COLOURS if seat == player else _deficit(racks[seat], _peak(script, seat, 0))
        for seat in range(n)
    ]
    owed = [sum(d[c] for d in deficit) for c in range(NUM_COLOURS)]  # summed over the seats
    chosen: dict[int, int] = {}  # event number -> colour drawn / placed
    for k, e in enumerate(events):
        seat = e.seat
        position[seat] += 1
        done = position[seat]
        if e.kind == DRAW:
            if e.hidden:
                # the bag must keep what the sampler's own draws and every other seat's known
                # placements still need from it; the drawer must still make its placements
                mine = deficit[seat]
                fits = _possible_after(script, seat, done, racks[seat], +1)
                options = [
                    c for c in range(NUM_COLOURS)
                    if bag[c] - 1 >= own_later[c] + owed[c] - (mine[c] > 0) and fits[c]
                ]
                if not options:
                    return None
                c = _pick(rng, options, bag)
                chosen[k] = c
            else:
                c = e.colour
                own_later[c] -= 1
            bag[c] -= 1
            racks[seat][c] += 1
            if bag[c] < 0:
                return None
        elif e.kind == PLACE:
            if e.hidden:
                rack = racks[seat]
                fits = _possible_after(script, seat, done, rack, -1)
                options = [c for c in range(NUM_COLOURS) if rack[c] and fits[c]]
                if not options:
                    return None
                c = _pick(rng, options, rack)
                chosen[k] = c
            else:
                c = e.colour
            racks[seat][c] -= 1
            if racks[seat][c] < 0:
                return None
        else:
            for c in e.colours:
                racks[seat][c] += 1
        if seat != player:
            new = _deficit(racks[seat], _peak(script, seat, done))
            old = deficit[seat]
            for c in range(NUM_COLOURS):
                owed[c] += new[c] - old[c]
            deficit[seat] = new
    return _build(state, player, script, chosen, racks, bag)


ANSWERS = 200_000
"""``_possible`` answers a script keeps (they start again when full)."""


def _prepare(script: _Script[Any], n: int) -> None:
    """The parts of every draw that depend on the script alone: each seat's events, the
    sampler's own (known) draws by colour."""
    by_seat: list[list[int]] = [[] for _ in range(n)]
    own = [0] * NUM_COLOURS
    for k, e in enumerate(script.events):
        by_seat[e.seat].append(k)
        if e.kind == DRAW and not e.hidden:
            own[e.colour] += 1
    script.by_seat, script.own_draws = by_seat, own


def _peak(script: _Script[Any], seat: int, done: int) -> list[int]:
    """Per colour, the most tiles the seat's known placements after its first ``done`` events
    take beyond what it gets back (B9 returns) before them: what its rack must cover."""
    key = (seat, done)
    peak = script.peaks.get(key)
    if peak is None:
        assert script.by_seat is not None
        events = script.events
        demand = [0] * NUM_COLOURS
        peak = [0] * NUM_COLOURS
        for k in script.by_seat[seat][done:]:
            e = events[k]
            if e.kind == PLACE and not e.hidden:
                demand[e.colour] += 1
                peak[e.colour] = max(peak[e.colour], demand[e.colour])
            elif e.kind == RETURN:
                for c in e.colours:
                    demand[c] -= 1
        script.peaks[key] = peak
    return peak


def _deficit(rack: list[int], peak: list[int]) -> list[int]:
    """Per colour, how many more tiles the seat must still draw for its known placements."""
    return [max(0, peak[c] - rack[c]) for c in range(NUM_COLOURS)]


def _possible_after(script: _Script[Any], seat: int, done: int, rack: list[int],
                    change: int) -> tuple[bool, ...]:
    """Per colour ``c``, :func:`_possible` for ``rack`` with ``change`` tiles of ``c`` and the
    seat's events after its first ``done``; remembered (draws from one script ask the same
    questions again and again)."""
    key = (seat, done, change, *rack)
    answers = script.answers
    known = answers.get(key)
    if known is None:
        assert script.by_seat is not None
        if len(answers) >= ANSWERS:
            answers.clear()
        later, events = script.by_seat[seat][done:], script.events
        known = answers[key] = tuple(
            _possible(rack, c, change, later, events) for c in range(NUM_COLOURS)
        )
    return known


def _pick(rng: random.Random, options: list[int], weights: list[int]) -> int:
    total = sum(weights[c] for c in options)
    r = rng.random() * total
    for c in options:
        r -= weights[c]
        if r < 0:
            return c
    return options[-1]


def _possible(rack: list[int], colour: int, change: int, later: list[int],
              events: list[_Event]) -> bool:
    """Whether, after ``rack[colour] += change``, the seat can still make its next known-colour
    placements: each is paid from the rack or, failing that, from a draw made before it."""
    r = list(rack)
    r[colour] += change
    window = [events[k] for k in later[:LOOKAHEAD]]
    spare = 0  # draws so far whose colour is still free
    for e in window:
        if e.kind == DRAW:
            spare += 1
        elif e.kind == PLACE:
            if e.hidden:
                # any colour: which tile pays is chosen when it is sampled; left out here so
                # the check never refuses a possible choice (an impossible one is redrawn)
                continue
            elif r[e.colour] > 0:
                r[e.colour] -= 1
            elif spare:
                spare -= 1
            else:
                return False
        else:
            for c in e.colours:
                r[c] += 1
    return True


def _build(
    state: S, player: int, script: _Script[S], chosen: dict[int, int],
    racks: list[list[int]], bag: list[int],
) -> S | None:
    """The world: the true state with the hidden parts (and hidden actions) replaced."""
    final = script.final
    if any(min(r) < 0 for r in racks) or min(bag) < 0:
        return None
    placed = sum(1 for t in final.tile if t >= 0) + len(final.pending)
    if sum(bag) + sum(map(sum, racks)) + placed != TILES_PER_COLOUR * NUM_COLOURS:
        return None
    history = state.history()
    latest: dict[int, int] = {}  # square -> colour of the latest placement there
    for k, e in enumerate(script.events):
        colour = chosen.get(k, e.colour)
        if e.kind == PLACE:
            latest[e.square] = colour
            if e.index >= 0 and k in chosen:
                history[e.index] = colour * SQUARES + e.square
        elif e.kind == DRAW and e.index >= 0 and k in chosen:
            history[e.index] = colour
    tile = list(final.tile)
    for square, owner in final.owner.items():
        if owner != player:
            tile[square] = latest[square]
    hidden: dict[str, Any] = {"racks": racks, "bag": bag, "tile": tile}
    if state.get_game().bluff and final.turn != player:
        hidden["pending"] = [(s, latest[s]) for s, _c in final.pending]
    root = None
    if any(e.index < 0 for e in script.events):
        root = _world_root(script, player, chosen)
    world = state.other_world(history=history, start=root, **hidden)
    if (
        final.phase == Phase.PLAY and final.turn != player and final.pending
        and not world.legal_actions()
    ):
        return None  # B4: the mover could not finish the play they started
    return world


def _world_root(script: _Script[S], player: int, chosen: dict[int, int]) -> S:
    """The starting position with its hidden content as sampled."""
    start = script.root_snap
    racks = [list(r) if seat == player else [0] * NUM_COLOURS
             for seat, r in enumerate(start.racks)]
    bag = list(script.root_pool)
    tile = list(start.tile)
    pending = list(start.pending)
    for k, e in enumerate(script.events):
        if e.index >= 0:
            break
        colour = chosen.get(k, e.colour)
        if e.kind == DRAW:
            racks[e.seat][colour] += 1
            bag[colour] -= 1
        else:
            racks[e.seat][colour] -= 1
            if e.square in start.owner:
                tile[e.square] = colour
            else:
                pending = [(s, colour if s == e.square else c) for s, c in pending]
    return script.root.other_world(racks=racks, bag=bag, tile=tile, pending=pending)
