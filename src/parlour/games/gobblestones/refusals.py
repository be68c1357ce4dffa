"""Why a GobbleStones action is refused (G-2): the rule it breaks, in the player's words.

Only asked about an action that is not legal (``State.apply_action`` raises with this
reason); the whole play is checked from scratch by ``plays.play_problem``, which names the
rule, and what it cannot name is told here.
"""

from __future__ import annotations

from parlour.games.gobblestones.board import MAX_PLAY, SQUARES, TILE_COLOURS
from parlour.games.gobblestones.fields import Fields
from parlour.games.gobblestones.legal import ActionCodes, rack_at_turn_start, tiles_of
from parlour.games.gobblestones.plays import play_problem
from parlour.games.gobblestones.snapshot import Phase
from parlour.i18n import Message, Seat


def illegal_reason(f: Fields, codes: ActionCodes, action: int) -> tuple[str, str]:
    """The ruling and the message for ``action``, an action that is not legal now."""
    if f.phase == Phase.CHALLENGE:
        return "B9", Message("{decider} must first decide to challenge or trust {mover}'s play",
                             decider=Seat(f.decider), mover=Seat(f.turn))
    if action in (codes.CHALLENGE, codes.TRUST):
        return "B9", Message("there is no play to challenge now")
    pending = f.pending
    squares = [s for s, _c in pending]
    rack = rack_at_turn_start(f)
    if action == codes.PASS:
        return "B4", Message("you have placed tiles this turn: finish the play with 'end'")
    if action == codes.END:
        if not pending:
            return "B4", Message("no tile is placed yet: to place none, 'pass'")
        problem = play_problem(squares, f.occupied, f.colour, tiles_of(f, squares), rack)
        return problem or ("B4", Message("these tiles do not form a legal play"))
    colour, square = divmod(action, SQUARES)
    if len(pending) >= MAX_PLAY:
        return "B4", Message("a play places at most {n} tiles: finish it with 'end'",
                             n=MAX_PLAY)
    if f.bluff and not f.racks[f.turn][colour]:
        return "B4", Message("your rack has no {colour} tile left to place",
                             colour=TILE_COLOURS[colour])
    squares.append(square)
    problem = play_problem(squares, f.occupied, f.colour, tiles_of(f, squares), rack,
                           complete=False)
    if problem:
        return problem
    if pending and square < max(squares[:-1]):
        return "B4", Message(
            "enter a play's tiles in board order (top to bottom, left to right); "
            "type the whole play, e.g. 'h8-h11', to have it ordered for you"
        )
    if f.occupied == 0:
        return "B3", Message(
            "no legal play through these squares covers the centre of a board square, "
            "as the game's first play must"
        )
    return "B4", Message(
        "no legal play through these squares can touch a tile already on the board with "
        "the tiles in your rack"
    )
