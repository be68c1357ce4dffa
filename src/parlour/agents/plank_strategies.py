"""Reference strategies for Stomp the Plank (ruling P8), usable as ``--vs`` opponents.

- ``plank-stop-K`` (K = 1..5): draw until K cards are on the pontoon, then stop. A match
  ends the turn earlier, of course. ``plank-stop-1`` only ever draws the one card it must
  (P3), which with the default crates gives nothing: it is the "never push" baseline.
- ``plank-risk``: weighs the risk of a match from the unseen cards. Before each decision it
  values stopping (the crates of the spot reached, or a win if they tip a plank) against
  drawing, looking ahead to the end of the pontoon: each further draw matches with the
  chance ``unseen cards of the treasures on the pontoon / unseen cards``, a match costs one
  step (or the game, when that step would tip its own plank), and the last spot wins.

Both decide from the player's view alone (a :class:`PlayerView`), as every agent must.
They are the strategies ``bench/plank_report.py`` simulates to check the default parameters.
"""

from __future__ import annotations

from functools import cache

from parlour.agents.base import Agent, register_agent
from parlour.agents.playerview import PlayerView
from parlour.core import Game
from parlour.games.stomp_the_plank import DRAW, STOP, TREASURES

GAME = "stomp-the-plank"


def _check_game(game: Game, name: str) -> None:
    if game.name != GAME:
        raise ValueError(f"agent {name!r} plays only {GAME}, not {game.name}")


class PlankStopAfter(Agent):
    """Draw until ``k`` cards lie on the pontoon, then stop."""

    def __init__(self, game: Game, seed: int | None = None, k: int = 3) -> None:
        _check_game(game, f"plank-stop-{k}")
        super().__init__(game, seed)
        if k < 1:
            raise ValueError("a player draws at least one card (P3)")
        self.k = k
        self.name = f"plank-stop-{k}"

    def act(self, view: PlayerView) -> int:
        seen = view.view()
        if seen["phase"] == "choose" and len(seen["pontoon"]) >= self.k:
            return STOP
        return DRAW


class PlankRisk(Agent):
    """Stop or draw by comparing the value of stopping with the expected value of drawing.

    Values are counted in crates given to each other player: stopping on spot ``k`` is worth
    its crates; a stop that tips another plank, or a card on the last spot, is worth a win
    (``tip_at`` crates); a match costs ``step_weight`` crates of one's own balance, or a loss
    (``tip_at``) when that step tips one's own plank. The chance of a match on the next draw
    is read from the unseen counts (the discards, when the pile is empty and about to be
    reshuffled, P7). The look-ahead assumes the player will again choose the better of
    stopping and drawing after each card, so it is an optimal-stopping rule for the turn.
    """

    name = "plank-risk"

    def __init__(self, game: Game, seed: int | None = None) -> None:
        _check_game(game, self.name)
        super().__init__(game, seed)

    def act(self, view: PlayerView) -> int:
        seen = view.view()
        if seen["phase"] != "choose":
            return DRAW  # P3: the first card is always drawn
        return DRAW if self.wants_to_draw(seen, view.player) else STOP

    @staticmethod
    def wants_to_draw(view: dict, me: int) -> bool:
        crates, spots = view["crates"], view["spots"]
        tip_at, weight = view["tip_at"], view["step_weight"]
        planks = view["planks"]
        n = view["players"]
        win = float(tip_at)
        my_balance = planks[me]["balance"]
        match_cost = win if my_balance <= weight else float(weight)
        others = [planks[(me + i) % n]["balance"] for i in range(1, n)]
        supply = view["supply"]

        def stop_value(spot: int) -> float:
            give = crates[spot - 1]
            left = supply
            for balance in others:  # clockwise, while the supply lasts (P5)
                taken = min(give, left)
                left -= taken
                if taken >= balance:
                    return win
            return float(min(give, supply))

        source = view["unseen"] if view["draw_pile"] else view["discards"]
        pile = tuple(source[t] for t in TREASURES)
        start = frozenset(TREASURES.index(t) for t in view["pontoon"])

        @cache
        def draw_value(on_pontoon: frozenset[int], spot: int) -> float:
            """Expected value of drawing with ``spot`` cards down, ``on_pontoon`` their types.

            The cards drawn since ``start`` are exactly the types added to it, so the pile
            they leave is known: one fewer of each.
            """
            left = [c - (t in on_pontoon and t not in start) for t, c in enumerate(pile)]
            total = sum(left)
            value = 0.0
            for t, count in enumerate(left):
                if not count:
                    continue
                p = count / total
                if t in on_pontoon:
                    value -= p * match_cost
                elif spot + 1 == spots:
                    value += p * win
                else:
                    value += p * best(on_pontoon | {t}, spot + 1)
            return value

        @cache
        def best(on_pontoon: frozenset[int], spot: int) -> float:
            return max(stop_value(spot), draw_value(on_pontoon, spot))

        spot = len(view["pontoon"])
        return draw_value(start, spot) > stop_value(spot)


for _k in range(1, 6):
    register_agent(
        f"plank-stop-{_k}",
        lambda game, seed=None, _k=_k: PlankStopAfter(game, seed, k=_k),
        f"Stomp the Plank: draw until {_k} card{'s are' if _k > 1 else ' is'} on the pontoon, "
        "then stop",
        games=("stomp-the-plank",), instant=True,
    )
register_agent("plank-risk", PlankRisk,
               "Stomp the Plank: stop or draw by the risk of a match among the unseen cards",
               games=("stomp-the-plank",), instant=True)

__all__ = ["PlankRisk", "PlankStopAfter"]
