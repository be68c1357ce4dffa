"""GobbleStones random playouts in Python, fast: ``State.random_playout``'s actions for the
same numbers, without building a list of legal actions at each step.

The compiled twin of these rules (``_cplayout.c``, through ``compiled.py``) plays the same
actions where it was built; this is the fallback, and the reference the tests hold it to. The
normal game only: the bluffing variant takes ``State.random_playout``'s general loop.
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.core import pick_chance_outcome
from parlour.games.gobblestones import chance, turns
from parlour.games.gobblestones.board import PANEL, PANEL_STEPS
from parlour.games.gobblestones.fields import Fields
from parlour.games.gobblestones.legal import ActionCodes, next_bits
from parlour.games.gobblestones.plays import select_square
from parlour.games.gobblestones.snapshot import Phase


def python_playout(
    f: Fields,
    codes: ActionCodes,
    max_turns: int,
    history: list[int],
    random: Callable[[], float],
    limit: int | None,
) -> int:
    """Play on from ``f`` (written in place, the actions appended to ``history``), at most
    ``limit`` actions, one ``random()`` per action: a player's action is
    ``legal[int(r * len(legal))]`` with ``legal`` the squares the next tile may take
    (ascending) then ``pass`` or ``end``, read off the turn's bitboards; a colour by chance is
    picked from the counts its law is made of (``chance.colour_counts``: the bag, or the
    colours left in the board square being built). The actions played, as a count."""
    f.legal = f.legal_set = None
    colour_counts = chance.colour_counts
    pass_action, end_action = codes.PASS, codes.END
    done = 0
    budget = -1 if limit is None else limit
    while done != budget:
        phase = f.phase
        if phase is Phase.PLAY:  # the whole play, tile by tile, as far as the budget goes
            colours = f.colour
            while done != budget:
                bits, can_end = next_bits(f)
                count = bits.bit_count()
                k = int(random() * (count + (can_end if f.pending else 1)))
                done += 1
                if k < count:
                    square = select_square(bits, k) if count > 1 else bits.bit_length() - 1
                    turns.place(f, square, colours[square])
                    history.append(square)
                    continue
                if f.pending:
                    turns.commit(f, max_turns, face_down=False)
                    history.append(end_action)
                else:
                    turns.after_play(f, max_turns, 0)
                    history.append(pass_action)
                break
            continue
        if phase is Phase.END:
            break
        if phase is not Phase.BOARD:  # the deal, or a draw after a play
            colour_square = False
        elif f.board_steps % PANEL_STEPS < PANEL * PANEL:  # a square's colour (B1)
            colour_square = True
        else:  # a board square's values
            action = pick_chance_outcome(chance.chance_outcomes(f), random())
            if chance.value_board_square(f, action):
                turns.start_deal(f, max_turns)
            history.append(action)
            done += 1
            continue
        # pick_chance_outcome on the law chance_outcomes gives (the same arithmetic on the
        # same numbers), without building the list of outcomes
        counts, total = colour_counts(f)
        r = random()
        action = -1
        for c, k in enumerate(counts):
            if k:
                action = c
                r -= k / total
                if r < 0:
                    break
        if colour_square:
            chance.colour_square(f, action)
        else:
            turns.draw_tile(f, max_turns, action)
        history.append(action)
        done += 1
    return done
