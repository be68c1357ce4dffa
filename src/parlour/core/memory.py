"""What one seat remembers of a game it plays from afar: the views it was sent, in order.

A bot on a server holds no state, only the views the server sends its seat (G-3). In a game
of perfect information the latest view is the whole position, and nothing needs remembering.
In a game with hidden information a view shows the present, and a player also knows what it
was shown before (OpenSpiel's perfect recall): in GobbleStones' bluffing variant, the tiles a
caught bluff turned up and sent back to a rack. :meth:`parlour.core.Game.seat_memory` makes
the game's own memory; the client feeds it every view its seat receives
(:meth:`SeatMemory.observe`) and hands it to :meth:`parlour.core.Game.state_from_view`, which
rebuilds a state from the latest view and the memory. The client never knows what a game
remembers: the game does.

A memory holds only what the views showed, so a state rebuilt with it holds nothing the seat
was not shown. A view missed (the server replaces a state still waiting to be sent by a newer
one; a bot restarted mid-game starts with an empty memory) is simply not remembered: the
rebuilt state then agrees with what the memory does hold.
"""

from __future__ import annotations

from parlour.core.infostate import View


class SeatMemory:
    """One seat's memory of one game (the base remembers nothing: enough for every game
    whose view shows the whole position)."""

    def observe(self, view: View) -> None:
        """Remember what ``view`` (the seat's latest view, in the order received) shows."""
