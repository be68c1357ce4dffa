"""``hard`` in Stomp the Plank: solved tables, card counting, and a model of the opponent.

Stomp the Plank is mostly luck, so the strongest player is the one that makes every decision
exactly right for the opponent it actually faces. ``PlankHard`` decides each draw-or-stop
(P3) by an exact look-ahead over the rest of its turn, with every card's chance read from the
public draw-pile counts (P1, P7), and judges where the turn ends by a solved endless-deck table:

- **two players**: the table is a *best response* to a model of the opponent. The agent keeps
  a posterior over models -- ``random`` (draws or stops with chance 1/2), ``plank-stop-1`` ..
  ``plank-stop-5``, ``plank-risk``, the steady ``medium`` of :mod:`parlour.agents.plank_levels`
  and minimax play (the solved game's own choices) -- from the
  opponent's decisions seen in this game (the public history of the player's view; a
  deterministic model is allowed a 5% slip, minimax 10%). Once one model holds at least
  ``confidence`` (0.8) of the posterior it best-responds to that model, solved by dynamic
  programming over the game's transitions (:class:`~parlour.games.stomp_the_plank.loads.
  LoadModel`) with the opponent following the model; until then it plays the safe minimax
  policy (the solved game, the opponent taken as perfect).
- **three and four players**: the max^n table of :mod:`parlour.games.stomp_the_plank.loads`.

Rules come from the game: the look-ahead and the tables apply ``LoadModel``'s stop, step and
last-spot transitions and ``reveals`` (the chance of each card from the pile's counts); this
module only decides. It reads nothing but the player's view (the pile's *counts* are public,
its order does not exist).

Time per move: the current turn's tree has at most a few hundred distinct nodes (treasures
with the same count and place are alike), a few milliseconds; a table is solved once per
process and configuration: two players a few milliseconds, a best response about 0.1 s,
three players 0.05 s, four players about 4 s (860 625 tables of loads and steps) on the
development machine: that one is solved in a background thread, and moves made before it is
ready stop on spot 2, or at once where a stop tips another plank (the rule of
:class:`~parlour.agents.plank_levels.PlankTarget` with target 2: the max^n policy with four
players is nearly that rule, and it beats ``plank-risk``'s rule there, issue 16's ladder);
``wait=true`` waits instead, for exact replays. Configurations
the tables do not cover (``step_weight=0``, huge planks) fall back to MCTS.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache
from typing import Any

from parlour.agents.base import Agent, register_strength
from parlour.agents.mcts import MCTSAgent
from parlour.agents.plank_levels import (
    MEDIUM_PUSH,
    MEDIUM_TARGET,
    PlankTarget,
    draw_chance,
    plank_game,
)
from parlour.agents.plank_strategies import PlankRisk
from parlour.agents.playerview import PlayerView
from parlour.core import Game
from parlour.games.stomp_the_plank import (
    DRAW,
    STOP,
    TREASURES,
    StompThePlankGame,
    StompThePlankState,
)
from parlour.games.stomp_the_plank.deck import COPIES
from parlour.games.stomp_the_plank.loads import (
    LoadModel,
    Loads,
    MaxnTable,
    Next,
    Over,
    maxn_table,
    reveals,
    table_size,
    tabulable,
)

GAME = "stomp-the-plank"
CONFIDENCE = 0.8
"""Posterior mass one model needs before the agent best-responds to it."""
QUICK_TARGET = 2
"""While a large table is being solved, stop on this spot (or on a stop that tips a plank)."""


# -- opponent models -----------------------------------------------------------------------------

class OpponentModel:
    """How an opponent decides at a choice (P3): the chance that they draw.

    ``table_draw`` answers in the endless-deck abstraction (loads from the opponent's side, the
    opponent first), for the best-response tables; ``seen_draw`` answers at a real decision of
    the game (the public state replayed from the history), for the posterior.
    """

    name = "model"
    slip = 0.05
    """Chance that a deterministic model's player does otherwise, so one surprise does not
    rule a model out for ever."""

    def table_draw(self, lm: LoadModel, cards: int, loads: Loads, supply: int | None) -> float:
        raise NotImplementedError

    def seen_draw(self, state: StompThePlankState, player: int) -> float:
        raise NotImplementedError


class RandomModel(OpponentModel):
    name = "random"
    slip = 0.0

    def table_draw(self, lm, cards, loads, supply):
        return 0.5

    def seen_draw(self, state, player):
        return 0.5


class StopAfterModel(OpponentModel):
    def __init__(self, k: int) -> None:
        self.k = k
        self.name = f"plank-stop-{k}"

    def table_draw(self, lm, cards, loads, supply):
        return 1.0 if cards < self.k else 0.0

    def seen_draw(self, state, player):
        return 1.0 if len(state.pontoon()) < self.k else 0.0


class RiskModel(OpponentModel):
    """``plank-risk``: its own rule on the real view. In the tables, the rule is asked with
    the draw pile the agent sees now (``pile``; a full deck if None), the pontoon's cards taken
    from the most common treasures: the next turns' piles are close to today's."""

    name = "plank-risk"

    def __init__(self, pile: tuple[int, ...] | None = None) -> None:
        self.rule = PlankRisk.wants_to_draw
        counts = sorted(pile or (COPIES,) * len(TREASURES), reverse=True)
        self.pile = tuple(counts) if sum(counts) else (COPIES,) * len(TREASURES)
        self.asked: dict[tuple, float] = {}

    def table_draw(self, lm, cards, loads, supply):
        # The rule sees its own balance only as "a step tips me or not", the others' only up
        # to the largest stop, the supply only up to what a stop hands out: ask once per kind.
        most = max(lm.crates) + 1
        kind = (cards, lm.tip_at - loads[0] <= lm.step_weight,
                tuple(min(lm.tip_at - load, most) for load in loads[1:]),
                None if supply is None else min(supply, most * len(loads)))
        if kind not in self.asked:
            self.asked[kind] = self._ask(lm, cards, loads, supply)
        return self.asked[kind]

    def _ask(self, lm, cards, loads, supply):
        n = len(loads)
        pontoon = list(TREASURES[:cards])
        unseen = {t: max(c - (t in pontoon), 0) for t, c in zip(TREASURES, self.pile, strict=True)}
        view = {
            "crates": list(lm.crates), "spots": lm.spots, "tip_at": lm.tip_at,
            "step_weight": lm.step_weight, "players": n,
            "supply": lm.supply if supply is None else supply,
            "planks": [{"balance": lm.tip_at - load} for load in loads],
            "unseen": unseen, "draw_pile": sum(unseen.values()),
            "discards": dict.fromkeys(TREASURES, 0), "pontoon": pontoon,
        }
        return 1.0 if self.rule(view, 0) else 0.0

    def seen_draw(self, state, player):
        return 1.0 if self.rule(state.view(player), player) else 0.0


class MinimaxModel(OpponentModel):
    """Perfect play with an endless deck (the solved game); ``hard``-like players."""

    name = "minimax"
    slip = 0.10

    def table_draw(self, lm, cards, loads, supply):
        stop, draw = maxn_table(lm).turn(loads, supply, cards)
        # A tie is a pass that hands the turn to a player who will draw (the solved game's
        # passes settle so): perfect play is just as well off drawing now, and does.
        return 1.0 if stop is None or draw[0] >= stop[0] - 1e-12 else 0.0

    def seen_draw(self, state, player):
        lm = LoadModel.of(state.get_game())
        loads, supply = lm.start_of(_planks(state), player, state.supply)
        return self.table_draw(lm, len(state.pontoon()), loads, supply)


class MediumModel(OpponentModel):
    """``medium``, the steady player of :mod:`parlour.agents.plank_levels`: its own rule
    (stop on spot 3, one turn in three on spot 4, at once on a stop that tips a plank)."""

    name = "medium"

    def table_draw(self, lm, cards, loads, supply):
        target = min(MEDIUM_TARGET, len(lm.crates))
        return draw_chance(lm, loads, supply, cards, target, MEDIUM_PUSH)

    def seen_draw(self, state, player):
        lm = LoadModel.of(state.get_game())
        loads, _supply = lm.start_of(_planks(state), player, state.supply)
        target = min(MEDIUM_TARGET, len(lm.crates))
        return draw_chance(lm, loads, state.supply, len(state.pontoon()), target, MEDIUM_PUSH)


MODELS: tuple[OpponentModel, ...] = (
    RandomModel(), MinimaxModel(), RiskModel(), *(StopAfterModel(k) for k in range(1, 6)),
    MediumModel(),
)
PRIOR = {"random": 0.25, "minimax": 0.25, "plank-risk": 0.15, "medium": 0.07}
"""Prior weights; the five ``plank-stop-K`` share the rest."""


def _prior(name: str) -> float:
    return PRIOR.get(name, (1.0 - sum(PRIOR.values())) / 5)


def _planks(state: StompThePlankState) -> list[tuple[int, int]]:
    n = state.get_game().num_players()
    return [state.plank(p) for p in range(n)]


# -- best response to a model: two players -------------------------------------------------------

class BestResponse:
    """The hero's expected return when it plays best against ``model`` (endless deck).

    ``hero_start(hero, opp, supply)`` / ``opp_start(...)``: at the start of the hero's / the
    opponent's turn, by the two loads. Solved on demand with memory; a pass (a stop worth no
    crates) leads to the same loads with the other to move, and the two are settled together
    by iteration from "both pass for ever" (0, the turn limit).
    """

    def __init__(self, lm: LoadModel, model: OpponentModel | None) -> None:
        self.lm, self.model = lm, model  # model None: the opponent minimises (minimax)
        self.memo: dict[tuple[Loads, int | None], tuple[float, float]] = {}
        self.choices: dict[tuple[int, Loads, int | None], float] = {}

    def hero_start(self, hero: int, opp: int, supply: int | None) -> float:
        return self._pair(hero, opp, supply)[0]

    def opp_start(self, hero: int, opp: int, supply: int | None) -> float:
        return self._pair(hero, opp, supply)[1]

    def after_hero(self, outcome: Over | Next, passing: float | None = None) -> float:
        """Hero's return after a transition of the hero's turn (hero first in its frame)."""
        if isinstance(outcome, Over):
            return outcome.returns[0]
        opp, hero = outcome.loads
        return self.opp_start(hero, opp, outcome.supply) if passing is None else passing

    def _pair(self, hero: int, opp: int, supply: int | None) -> tuple[float, float]:
        key = ((hero, opp), supply)
        if key in self.memo:
            return self.memo[key]
        lm = self.lm
        mine, theirs = (hero, opp), (opp, hero)

        def is_pass(outcome: Over | Next, loads: Loads) -> bool:
            return (isinstance(outcome, Next) and outcome.supply == supply
                    and outcome.loads == loads[1:] + loads[:1])

        def hero_turn(k: int, x: float) -> float:
            p = lm.match_chance(k)
            fresh = 1.0 if k + 1 == lm.spots else hero_turn(k + 1, x)
            draw = fresh if not k else p * self.after_hero(lm.step(mine, supply)) + (1 - p) * fresh
            if not k:
                return draw
            out = lm.stop(mine, supply, k)
            stop = x if is_pass(out, mine) else self.after_hero(out)
            return max(stop, draw)

        def after_opp(outcome: Over | Next) -> float:
            if isinstance(outcome, Over):
                return outcome.returns[1]
            h, o = outcome.loads
            return self.hero_start(h, o, outcome.supply)

        def opp_turn(k: int, y: float) -> float:
            p = lm.match_chance(k)
            fresh = -1.0 if k + 1 == lm.spots else opp_turn(k + 1, y)
            draw = fresh if not k else p * after_opp(lm.step(theirs, supply)) + (1 - p) * fresh
            if not k:
                return draw
            out = lm.stop(theirs, supply, k)
            stop = y if is_pass(out, theirs) else after_opp(out)
            if self.model is None:
                return min(stop, draw)
            asked = (k, theirs, supply)
            if asked not in self.choices:
                self.choices[asked] = self.model.table_draw(lm, k, theirs, supply)
            q = self.choices[asked]
            return q * draw + (1 - q) * stop

        y = 0.0
        for _ in range(200):
            x = opp_turn(0, y)
            new = hero_turn(0, x)
            if abs(new - y) < 1e-13:
                y = new
                break
            y = new
        result = (y, opp_turn(0, y))
        self.memo[key] = result
        return result


@lru_cache(maxsize=32)
def best_response(lm: LoadModel, name: str, pile: tuple[int, ...] | None = None) -> BestResponse:
    """One table per configuration and model (and, for ``plank-risk``, the pile it is asked
    with, as sorted counts), shared by the agents of a process."""
    if name == "plank-risk" and pile is not None:
        return BestResponse(lm, RiskModel(pile))
    model = None if name == "safe" else next(m for m in MODELS if m.name == name)
    return BestResponse(lm, model)


# -- tables too large to solve inside one move ------------------------------------------------

SOLVE_AT_ONCE = 100_000
"""Tables up to this many entries are solved on the spot (milliseconds); larger ones (four
players: 860 625) in a background thread, so no move waits for them."""
_builder: ThreadPoolExecutor | None = None
_building: dict[LoadModel, Future[MaxnTable]] = {}
_lock = threading.Lock()


def ready_maxn_table(lm: LoadModel, wait: bool) -> MaxnTable | None:
    """The max^n table, or None while a large one is still being solved (started here)."""
    global _builder
    if wait or table_size(lm) <= SOLVE_AT_ONCE:
        return maxn_table(lm)
    with _lock:
        if lm not in _building:
            if _builder is None:
                _builder = ThreadPoolExecutor(1, thread_name_prefix="plank-table")
            _building[lm] = _builder.submit(maxn_table, lm)
        future = _building[lm]
    return future.result() if future.done() else None


# -- the current turn, exactly ------------------------------------------------------------------

def turn_options(lm: LoadModel, loads: Loads, supply: int | None, pile: tuple[int, ...],
                 pontoon: tuple[int, ...],
                 after: Callable[[Over | Next], float]) -> tuple[float | None, float]:
    """``(stop, draw)``: the mover's value of stopping now (None before the first card) and of
    drawing, over the real draw pile; ``after`` values a transition that ends the turn.

    Treasures that lie alike (same count in the pile, on the pontoon or not) give the same
    values, so nodes are remembered by that shape.
    """
    memo: dict[tuple, float] = {}
    stop_memo: dict[int, float] = {}

    def stop_value(k: int) -> float:
        if k not in stop_memo:
            stop_memo[k] = after(lm.stop(loads, supply, k))
        return stop_memo[k]

    step_value = after(lm.step(loads, supply))

    def draw_value(pile: tuple[int, ...], pontoon: tuple[int, ...]) -> float:
        k = len(pontoon)
        total = 0.0
        for t, p, left in reveals(pile, pontoon):
            if t in pontoon:
                total += p * step_value  # P4
            elif k + 1 == lm.spots:
                total += p * 1.0  # P2: the last spot wins
            else:
                total += p * best(left, (*pontoon, t))
        return total

    def best(pile: tuple[int, ...], pontoon: tuple[int, ...]) -> float:
        shape = (tuple(sorted((c, t in pontoon) for t, c in enumerate(pile))), len(pontoon))
        if shape not in memo:
            memo[shape] = max(stop_value(len(pontoon)), draw_value(pile, pontoon))
        return memo[shape]

    stop = stop_value(len(pontoon)) if pontoon else None
    return stop, draw_value(pile, pontoon)


# -- the agent ------------------------------------------------------------------------------------

class PlankHard(Agent):
    """The strongest Stomp the Plank player (see the module's docstring)."""

    name = "hard"
    game: StompThePlankGame

    def __init__(self, game: Game, seed: int | None = None, confidence: float = CONFIDENCE,
                 model: str | None = None, mix: bool = True, risk_pile: bool = False,
                 wait: bool = False, **fallback: Any) -> None:
        if game.name != GAME:
            raise ValueError(f"PlankHard plays only {GAME}, not {game.name}")
        rules = plank_game(game)
        super().__init__(rules, seed)
        self.lm = LoadModel.of(rules)
        self.confidence = float(confidence)
        self.fixed_model = model  # a model name to trust from the start (tests, studies)
        self.mix, self.risk_pile, self.wait = mix, risk_pile, wait
        self.fallback = None if tabulable(self.lm) else MCTSAgent(game, seed, **(
            fallback or {"time": 1.0}))
        self.quick = PlankTarget(game, seed, target=QUICK_TARGET)  # while a table is solved
        self.restart()

    def restart(self) -> None:
        self._seen: list[int] = []
        self._replay: StompThePlankState | None = None
        self.log_likelihood = dict.fromkeys((m.name for m in MODELS), 0.0)
        if self.fallback is not None:
            self.fallback.restart()

    # -- the posterior --------------------------------------------------------------------
    def posterior(self) -> dict[str, float]:
        logs = {m.name: math.log(_prior(m.name)) + self.log_likelihood[m.name] for m in MODELS}
        top = max(logs.values())
        weights = {k: math.exp(v - top) for k, v in logs.items()}
        total = sum(weights.values())
        return {k: w / total for k, w in weights.items()}

    def observe(self, view: PlayerView) -> None:
        """Replay the public history since the last call, scoring the other player's choices."""
        first = view.information_state_string().split("\n", 1)[0]
        history = [int(a) for a in first.removeprefix("history:").split()]
        if self._replay is None or history[:len(self._seen)] != self._seen:
            self.restart()
            self._replay = self.game.new_initial_state()
        state = self._replay
        for action in history[len(self._seen):]:
            mover = state.current_player()
            if mover >= 0 and mover != view.player and state.turn_in_progress():
                for model in MODELS:
                    p = model.seen_draw(state, mover)
                    p = (1 - model.slip) * p + model.slip * 0.5
                    likely = p if action == DRAW else 1.0 - p
                    self.log_likelihood[model.name] += math.log(max(likely, 1e-12))
            state.apply_action(action)
        self._seen = history

    def belief(self) -> str:
        """The model the agent best-responds to now ("safe": minimax)."""
        if self.fixed_model is not None:
            return self.fixed_model
        name, mass = max(self.posterior().items(), key=lambda kv: kv[1])
        return name if mass >= self.confidence else "safe"

    # -- deciding -------------------------------------------------------------------------
    def act(self, view: PlayerView) -> int:
        if self.fallback is not None:
            return self.fallback.act(view)
        seen = view.view()
        if seen["phase"] != "choose":
            return DRAW  # P3: the first card is always drawn
        me, n = view.player, seen["players"]
        planks = [(p["crates"], p["step"]) for p in seen["planks"]]
        loads, supply = self.lm.start_of(planks, me, seen["supply"])
        pile = tuple(seen["unseen"][t] for t in TREASURES)
        pontoon = tuple(TREASURES.index(t) for t in seen["pontoon"])
        if n == 2:
            self.observe(view)
            stop_total = draw_total = 0.0
            for name, mass in self.weights().items():
                # The pile as the turn began (this turn's cards back in): one table a turn.
                began = tuple(c + (t in pontoon) for t, c in enumerate(pile))
                shape = tuple(sorted(began, reverse=True)) if self.risk_pile else None
                table = best_response(self.lm, name, shape if name == "plank-risk" else None)
                stop, draw = turn_options(self.lm, loads, supply, pile, pontoon, table.after_hero)
                stop_total += mass * (stop if stop is not None else -2.0)
                draw_total += mass * draw
            return DRAW if draw_total > stop_total + 1e-12 else STOP
        maxn = ready_maxn_table(self.lm, self.wait)
        if maxn is None:  # the table is being solved (the first seconds of a process)
            return self.quick.act(view)

        def after(outcome: Over | Next) -> float:
            return maxn.after(outcome)[0]

        stop, draw = turn_options(self.lm, loads, supply, pile, pontoon, after)
        return DRAW if stop is None or draw > stop + 1e-12 else STOP

    def weights(self) -> dict[str, float]:
        """The models to best-respond to, by weight: the posterior (models under 1% left
        out), or, with ``mix=false``, the single believed model."""
        if self.fixed_model is not None or not self.mix:
            return {self.belief(): 1.0}
        posterior = {k: v for k, v in self.posterior().items() if v >= 0.01}
        total = sum(posterior.values())
        return {k: v / total for k, v in posterior.items()}


def plank_hard(game: Game, seed: int | None = None, **options: Any) -> Agent:
    """``hard`` for Stomp the Plank (registered as that game's own ``hard``)."""
    return PlankHard(game, seed, **options)


register_strength("stomp-the-plank", "hard", plank_hard)


__all__ = ["MODELS", "BestResponse", "PlankHard", "best_response", "turn_options"]
