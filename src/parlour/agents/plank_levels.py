"""``easy`` and ``medium`` in Stomp the Plank: two stopping rules a person would play.

Stomp the Plank is decided mostly by the draw, so a searching player (MCTS) at a quarter of a
second a move and a careful greedy one play about as well as ``hard`` does (issue 16 measured
``hard`` against the MCTS ``medium`` at 37-57% and ``medium`` against the greedy ``easy`` at
55%): the names did not mean what they say. Here each strength is a rule of thumb of a
recognisable kind of player instead, chosen by measurement (``bench/agents_strength.py
ladder --game stomp-the-plank``; the figures are in docs/agents.md):

- ``medium`` (:func:`plank_medium`), the **steady player**: draws until three cards lie on the
  pontoon and stops there, handing every other player the 2 crates of spot 3 (P3), except that
  one turn in three (``MEDIUM_PUSH``) it feels lucky and pushes on for the 3 crates of spot 4.
  A sensible habit (a third card is drawn with five of seven treasures still fresh, a fourth
  with only four), imperfect in the ways a casual player is: it does not count the cards
  still in the pile (P1, P7), ignores how close its own plank is to tipping (P4, P5), never
  adapts to the table, and its lucky pushes are the slack a strong player profits from (they
  were chosen by measurement: without them ``hard`` beat the rule 63.0% of 1 000 games, under
  the ladder's 65%; pushing one turn in four, 66.2%; one in three, 68.0%, while the rule still
  beats ``easy`` 76.6% and ``random`` 54.7%).
- ``easy`` (:func:`plank_easy`), the **greedy beginner**: plays for the 5 crates of spot 5 every
  turn, drawing until five cards lie on the pontoon whatever the risk; the chance of getting
  there is below one in five, so it is caught (a step toward the water, P4) most turns. That
  is the classic beginner's mistake in a push-your-luck game, not a thrown game: each turn aims
  at the biggest stop the pontoon offers.

Both see what any player sees: a stop that tips another plank wins at once (P6), so they take
it as soon as it is there, whatever their target (crates handed out clockwise while the
supply lasts, P10, by the game's own :class:`~parlour.games.stomp_the_plank.loads.LoadModel`).
A push (``medium``'s lucky turns; ``push`` for any target) never goes onto the last spot.
Both decide from the player's view alone, in microseconds, and play every player count. With
a shorter pontoon (a ``crates`` parameter with fewer numbers) their target is at most its
last paying spot: neither draws for the last spot (P2) by default. An explicit ``target``
(``easy:target=4``) may name the last spot itself (``target=6`` with the default pontoon:
draw until caught or on the last spot, a study opponent, not a strength).
"""

from __future__ import annotations

from typing import Any

from parlour.agents.base import Agent, register_strength
from parlour.agents.playerview import PlayerView
from parlour.core import Game
from parlour.games.stomp_the_plank import DRAW, STOP, StompThePlankGame
from parlour.games.stomp_the_plank.loads import LoadModel, Loads, Over

GAME = "stomp-the-plank"
MEDIUM_TARGET = 3
"""``medium`` stops on spot 3 (2 crates with the default pontoon)."""
MEDIUM_PUSH = 1 / 3
"""...and pushes on to spot 4 one turn in three."""
EASY_TARGET = 5
"""``easy`` plays for spot 5 (5 crates with the default pontoon)."""


class PlankTarget(Agent):
    """Draw until ``target`` cards lie on the pontoon, then stop (with chance ``push``, draw
    once more first); stop at once, whatever the target, when a stop now tips another plank
    (a win, P6). A target at or past the last spot (P2) draws until caught or the last spot
    is filled.

    ``time`` and ``iterations`` are accepted and ignored (a rule of thumb has no search budget
    to scale; ``bench/agents_strength.py ladder --scale`` passes them to every strength).
    """

    def __init__(self, game: Game, seed: int | None = None, target: int = MEDIUM_TARGET,
                 push: float = 0.0, time: float | None = None,
                 iterations: int | None = None) -> None:
        rules = plank_game(game)
        super().__init__(rules, seed)
        if int(target) < 1:
            raise ValueError("a player draws at least one card (P3): target >= 1")
        if not 0.0 <= float(push) <= 1.0:
            raise ValueError("push is a chance, between 0 and 1")
        self.lm = LoadModel.of(rules)
        self.target = min(int(target), self.lm.spots)
        self.push = float(push)
        self.name = f"plank-target-{self.target}"

    def act(self, view: PlayerView) -> int:
        seen = view.view()
        if seen["phase"] != "choose":
            return DRAW  # P3: the first card of a turn is always drawn
        me = view.player
        planks = [(p["crates"], p["step"]) for p in seen["planks"]]
        loads = tuple(self.lm.load(*planks[(me + i) % len(planks)]) for i in range(len(planks)))
        p = draw_chance(self.lm, loads, seen["supply"], len(seen["pontoon"]), self.target,
                        self.push)
        if 0.0 < p < 1.0:
            return DRAW if self.rng.random() < p else STOP
        return DRAW if p else STOP


def draw_chance(lm: LoadModel, loads: Loads, supply: int | None, cards: int, target: int,
                push: float) -> float:
    """The chance that :class:`PlankTarget` draws with ``cards`` on the pontoon, planks by
    ``loads`` (its own first, then clockwise) and ``supply`` (None: it cannot run short).

    Also the opponent model ``hard`` keeps of ``medium`` (:mod:`parlour.agents.plank_hard`).
    """
    if not cards:
        return 1.0  # P3
    outcome = lm.stop(loads, supply, cards)  # P3, P10: as the game hands the crates out
    if isinstance(outcome, Over) and outcome.returns[0] > 0:
        return 0.0  # the stop tips another plank: a win (P6)
    if cards < target:
        return 1.0
    if cards == target and target < lm.spots - 1:
        return push  # one spot further, never onto the last spot (P2)
    return 0.0


def plank_medium(game: Game, seed: int | None = None, **options: Any) -> Agent:
    """``medium`` for Stomp the Plank: the steady player (stop on spot 3, one turn in three on
    spot 4; see the module)."""
    options.setdefault("target", min(MEDIUM_TARGET, _last_paying_spot(game)))
    options.setdefault("push", MEDIUM_PUSH)
    return PlankTarget(game, seed, **options)


def plank_easy(game: Game, seed: int | None = None, **options: Any) -> Agent:
    """``easy`` for Stomp the Plank: the greedy beginner (play for spot 5; see the module)."""
    options.setdefault("target", min(EASY_TARGET, _last_paying_spot(game)))
    return PlankTarget(game, seed, **options)


register_strength("stomp-the-plank", "easy", plank_easy)
register_strength("stomp-the-plank", "medium", plank_medium)


def _last_paying_spot(game: Game) -> int:
    """The last spot a stop can be made on: one before the last spot, which wins (P2)."""
    return len(plank_game(game).crates)


def plank_game(game: Game) -> StompThePlankGame:
    """``game``, which these rules of thumb (and ``hard``) play only if it is Stomp the Plank."""
    if not isinstance(game, StompThePlankGame):
        raise ValueError(f"this rule plays only {GAME}, not {game.name}")
    return game


__all__ = ["EASY_TARGET", "MEDIUM_PUSH", "MEDIUM_TARGET", "PlankTarget", "draw_chance",
           "plank_easy", "plank_game", "plank_medium"]
