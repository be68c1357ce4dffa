"""``easy`` and ``medium`` in Stomp the Plank: two stopping rules a person would play.

Stomp the Plank is decided mostly by the draw, so a searching player (MCTS) at a quarter of a
second a move and a careful greedy one play about as well as ``hard`` does (issue 16 measured
``hard`` against the MCTS ``medium`` at 37-57% and ``medium`` against the greedy ``easy`` at
55%): the names did not mean what they say. Here each strength is a rule of thumb of a
recognisable kind of player instead, chosen by measurement (``bench/agents_strength.py
ladder --game stomp-the-plank``; the figures are in docs/agents.md):

- ``medium`` (:func:`plank_medium`), the **steady player**: draws until three cards lie on the
  pontoon, then stops, which hands every other player the 2 crates of spot 3 (P3). A sensible
  habit: a third card is drawn with five of seven treasures still fresh, a fourth with only
  four. It is imperfect on purpose in the ways a casual player is: it does not count the cards
  still in the pile (P1, P7), ignores how close its own plank is to tipping (P4, P5), and
  never adapts to the table.
- ``easy`` (:func:`plank_easy`), the **greedy beginner**: plays for the 5 crates of spot 5 every
  turn, drawing until five cards lie on the pontoon whatever the risk; the chance of getting
  there is below one in five, so it is caught (a step toward the water, P4) most turns. That
  is the classic beginner's mistake in a push-your-luck game, not a thrown game: each turn aims
  at the biggest stop the pontoon offers.

Both see what any player sees: a stop that tips another plank wins at once (P6), so they take
it as soon as it is there, whatever their target (crates handed out clockwise while the
supply lasts, P10, by the game's own :class:`~parlour.games.stomp_the_plank.loads.LoadModel`).
Both decide from the player's view alone, in microseconds, and play every player count. With
a shorter pontoon (a ``crates`` parameter with fewer numbers) their target is at most its
last paying spot: neither draws for the last spot (P2) by default. An explicit ``target``
(``easy:target=4``) may name the last spot itself (``target=6`` with the default pontoon:
draw until caught or on the last spot, a study opponent, not a strength).
"""

from __future__ import annotations

from typing import Any

from parlour.agents.base import Agent
from parlour.agents.playerview import PlayerView
from parlour.core import Game
from parlour.games.stomp_the_plank import DRAW, STOP
from parlour.games.stomp_the_plank.loads import LoadModel, Over

GAME = "stomp-the-plank"
MEDIUM_TARGET = 3
"""``medium`` stops on spot 3 (2 crates with the default pontoon)."""
EASY_TARGET = 5
"""``easy`` plays for spot 5 (5 crates with the default pontoon)."""


class PlankTarget(Agent):
    """Draw until ``target`` cards lie on the pontoon, then stop; stop at once, whatever the
    target, when a stop now tips another plank (a win, P6). A target at or past the last spot
    (P2) draws until caught or the last spot is filled.

    ``time`` and ``iterations`` are accepted and ignored (a rule of thumb has no search budget
    to scale; ``bench/agents_strength.py ladder --scale`` passes them to every strength).
    """

    def __init__(self, game: Game, seed: int | None = None, target: int = MEDIUM_TARGET,
                 time: float | None = None, iterations: int | None = None) -> None:
        if game.name != GAME:
            raise ValueError(f"this rule plays only {GAME}, not {game.name}")
        super().__init__(game, seed)
        if int(target) < 1:
            raise ValueError("a player draws at least one card (P3): target >= 1")
        self.lm = LoadModel.of(game)
        self.target = min(int(target), self.lm.spots)
        self.name = f"plank-target-{self.target}"

    def act(self, view: PlayerView) -> int:
        seen = view.view()
        if seen["phase"] != "choose":
            return DRAW  # P3: the first card of a turn is always drawn
        cards = len(seen["pontoon"])
        if cards >= self.target or self.stop_wins(seen, view.player):
            return STOP
        return DRAW

    def stop_wins(self, seen: dict, me: int) -> bool:
        """Does a stop now tip another plank (and so win, P6)? Asked of the game's own stop
        transition (P3, P10)."""
        planks = [(p["crates"], p["step"]) for p in seen["planks"]]
        loads = tuple(self.lm.load(*planks[(me + i) % len(planks)]) for i in range(len(planks)))
        outcome = self.lm.stop(loads, seen["supply"], len(seen["pontoon"]))
        return isinstance(outcome, Over) and outcome.returns[0] > 0


def plank_medium(game: Game, seed: int | None = None, **options: Any) -> Agent:
    """``medium`` for Stomp the Plank: the steady player (stop on spot 3; see the module)."""
    options.setdefault("target", min(MEDIUM_TARGET, _last_paying_spot(game)))
    return PlankTarget(game, seed, **options)


def plank_easy(game: Game, seed: int | None = None, **options: Any) -> Agent:
    """``easy`` for Stomp the Plank: the greedy beginner (play for spot 5; see the module)."""
    options.setdefault("target", min(EASY_TARGET, _last_paying_spot(game)))
    return PlankTarget(game, seed, **options)


def _last_paying_spot(game: Game) -> int:
    """The last spot a stop can be made on: one before the last spot, which wins (P2)."""
    return len(game.crates)  # type: ignore[attr-defined]


__all__ = ["EASY_TARGET", "MEDIUM_TARGET", "PlankTarget", "plank_easy", "plank_medium"]
