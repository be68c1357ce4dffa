"""The course of a GobbleStones game on a state's Fields (B2, B4, B6, B7, B9).

The deal goes round the seats, five tiles each; a turn lays a play tile by tile (or passes),
the play is ended, in the bluffing variant trusted or challenged by the others in turn, the
mover scores it and draws back to five; the game ends when the bag and a rack run out, when
every player in turn placed nothing with the bag empty, or at the project's turn cap
(``max_turns``). What may be played is ``legal.py``; what chance draws is ``chance.py``.
"""

from __future__ import annotations

from parlour.games.gobblestones.board import RACK_DRAW
from parlour.games.gobblestones.fields import Fields
from parlour.games.gobblestones.snapshot import Phase


def start_deal(f: Fields, max_turns: int) -> None:
    """The board is drawn: it becomes tuples (shared by copies), and the deal begins (B2)."""
    f.colour, f.value = tuple(f.colour), tuple(f.value)
    f.phase = Phase.DEAL
    f.drawer = 0
    f.to_draw = min(RACK_DRAW, sum(f.bag))
    if not f.to_draw:
        next_drawer(f, max_turns)


def next_drawer(f: Fields, max_turns: int) -> None:
    """The deal goes round the seats in order, five tiles each (B2); then seat 0 starts."""
    while True:
        if f.drawer >= f.players - 1:
            f.drawer, f.to_draw = -1, 0
            begin_turn(f, 0, max_turns)
            return
        f.drawer += 1
        f.to_draw = min(RACK_DRAW, sum(f.bag))
        if f.to_draw:
            return


def begin_turn(f: Fields, player: int, max_turns: int) -> None:
    f.turn = player
    f.plays = None
    if f.turns >= max_turns:
        finish(f, "max-turns")
    elif not any(f.racks[player]):
        finish(f, "no-tiles")  # B7: the turn of a player with no tiles
    else:
        f.phase = Phase.PLAY


def finish(f: Fields, reason: str) -> None:
    f.phase = Phase.END
    f.end = reason
    f.decider = -1
    f.drawer, f.to_draw = -1, 0


def place(f: Fields, square: int, colour: int) -> None:
    """A tile of ``colour`` from the mover's rack onto ``square``, in the play being laid
    (B4; face down in the bluffing variant, B9)."""
    f.racks[f.turn][colour] -= 1
    f.pending.append((square, colour))


def after_play(f: Fields, max_turns: int, placed: int, draw: bool = True) -> None:
    """Close a turn that left ``placed`` new tiles on the board (B6, B7)."""
    bag = sum(f.bag)
    f.passes = f.passes + 1 if placed == 0 and bag == 0 else 0
    f.turns += 1
    f.pending = []
    f.decider = -1
    f.plays = None
    player = f.turn
    need = RACK_DRAW - placed if draw else 0
    if bag < need and not any(f.racks[player]):
        finish(f, "bag")  # B7: must draw, cannot, and has no tile: the game ends at once
    elif f.passes >= f.players:
        finish(f, "passes")  # B7: every player in turn placed no tile, bag empty
    elif (count := min(need, bag)) > 0:
        f.phase, f.drawer, f.to_draw = Phase.DRAW, player, count
    else:
        begin_turn(f, (player + 1) % f.players, max_turns)


def commit(f: Fields, max_turns: int, face_down: bool, challenger: int | None = None) -> None:
    """The pending tiles stay on the board; the mover scores them (B6, B9)."""
    earned = 0
    for square, colour in f.pending:
        f.tile[square] = colour
        f.occupied |= 1 << square
        earned += f.value[square]
        if face_down:
            f.owner[square] = f.turn
    f.points[f.turn] += earned
    if challenger is not None:
        f.points[challenger] -= earned  # B9: a wrong challenge costs what the play earned
    after_play(f, max_turns, len(f.pending))


def end_play(f: Fields, max_turns: int) -> None:
    """The mover ends the play: the others decide on it in the bluffing variant (B9, from
    the mover's left), else it is scored."""
    if f.bluff:
        f.phase = Phase.CHALLENGE
        f.decider = (f.turn + 1) % f.players
    else:
        commit(f, max_turns, face_down=False)


def decide(f: Fields, max_turns: int, challenge: bool) -> None:
    """B9: the others decide in turn from the mover's left; the first to challenge does."""
    if not challenge:
        f.decider = (f.decider + 1) % f.players
        if f.decider == f.turn:
            commit(f, max_turns, face_down=True)
        return
    challenger = f.decider
    correct = all(f.colour[s] == c for s, c in f.pending)
    f.last = (f.turn, challenger, correct, tuple(f.pending))
    if correct:
        commit(f, max_turns, face_down=False, challenger=challenger)
        return
    rack = f.racks[f.turn]
    for _square, colour in f.pending:
        rack[colour] += 1  # B9: a wrong play goes back to the rack, unscored, with no draw
    after_play(f, max_turns, 0, draw=False)


def draw_tile(f: Fields, max_turns: int, colour: int) -> None:
    """The drawer takes a tile of ``colour`` from the bag (B2, B6); once they have all
    they draw, the deal goes on round the seats, or the next player's turn begins."""
    f.bag[colour] -= 1
    f.racks[f.drawer][colour] += 1
    f.to_draw -= 1
    if f.to_draw:
        return
    if f.phase is Phase.DEAL:
        next_drawer(f, max_turns)
    else:
        f.drawer = -1
        begin_turn(f, (f.turn + 1) % f.players, max_turns)
