"""Issue 16's speed figures: GobbleStones and Stomple, today's code against the reference.

Both sides run in this one process, in alternating slices (reference, today, reference, ...),
so that a busy machine weighs on both alike; the ratio is the figure. The reference is the
code at ``reference.REFERENCE``, loaded from git (``bench/reference.py``)::

    python bench/engine_speed.py                   # playouts and search, 1 s slices
    python bench/engine_speed.py --slices 6 --slice 2

**Random playouts** (whole games from the start, the board drawn by chance; and the play phase
alone, from a dealt position, which is what a search plays out), each driven three ways:

* ``per-move API``: ``bench/playouts.py``'s loop (``legal_actions``, ``chance_outcomes``,
  ``random.choices``, the checked ``apply_action``), on the reference and on today's engine;
* ``random_playout``: ``State.random_playout`` (one random number per action). The reference
  engine has no override, so it runs the general loop, the one the reference MCTS used for its
  playouts; today's engines override it. Both play the same actions for the same numbers (the
  tests check it), so the two columns time the very same games.

**Search**: MCTS iterations per second (information-set MCTS in GobbleStones) at fixed
positions, the reference agent on the reference engine against today's agent on today's engine,
with the same settings (``time``, ``reuse=false``) and the same playout depth (the reference's:
GobbleStones 30 plies, Stomple 60); GobbleStones also with each side's own default (today it
judges leaves without a playout, so its iterations are cheaper still); and GobbleStones'
bluffing variant at its first decision, each side with its own default.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import parlour
import reference
from parlour.agents import make_agent


def api_loop(state: Any, rng: random.Random) -> None:
    """``bench/playouts.py``'s loop: the per-move API as a caller drives it."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def fast_loop(state: Any, rng: random.Random) -> None:
    state.random_playout(rng.random)


def _dealt(game: Any, seed: int) -> Any:
    """A state whose first player decision is next (board and deal drawn with ``seed``)."""
    state, rng = game.new_initial_state(), random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choices(*zip(*state.chance_outcomes(), strict=True))[0])
    return state


def timed_games(start: Callable[[], Any], loop: Callable[[Any, random.Random], None],
                seconds: float, rng: random.Random) -> tuple[int, float]:
    games, began = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - began) < seconds or games == 0:
        loop(start(), rng)
        games += 1
    return games, elapsed


def side_by_side(runs: dict[str, Callable[[float], tuple[int, float]]], slices: int,
                 seconds: float) -> dict[str, float]:
    """Per label, units per second over ``slices`` alternating slices of ``seconds``."""
    done = dict.fromkeys(runs, 0)
    spent = dict.fromkeys(runs, 0.0)
    for _ in range(slices):
        for label, run in runs.items():
            units, elapsed = run(seconds)
            done[label] += units
            spent[label] += elapsed
    return {label: done[label] / spent[label] for label in runs}


def playout_rates(name: str, params: dict[str, Any], slices: int, seconds: float,
                  phase_only: bool) -> dict[str, float]:
    ref = reference.load()
    old_game, new_game = ref.game(name, **params), parlour.load_game(name, **params)
    if phase_only:
        old_start, new_start = _dealt(old_game, 7), _dealt(new_game, 7)
        assert old_start.history() == new_start.history()
        old_make, new_make = old_start.clone, new_start.clone
    else:
        old_make, new_make = old_game.new_initial_state, new_game.new_initial_state
    rng = random.Random(16)

    def run(make: Callable[[], Any], loop: Callable[[Any, random.Random], None]):
        return lambda seconds: timed_games(make, loop, seconds, rng)

    return side_by_side({
        "api reference": run(old_make, api_loop),
        "api today": run(new_make, api_loop),
        "playout reference": run(old_make, fast_loop),
        "playout today": run(new_make, fast_loop),
    }, slices, seconds)


def _position(game: Any, seed: int, decisions: int) -> list[int]:
    """The history of a random game up to its ``decisions``-th player decision with a choice."""
    state, rng = game.new_initial_state(), random.Random(seed)
    seen = 0
    while True:
        if state.is_chance_node():
            state.apply_action(rng.choices(*zip(*state.chance_outcomes(), strict=True))[0])
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            if seen == decisions:
                return state.history()
            seen += 1
        state.apply_action(rng.choice(legal))


def search_rates(name: str, params: dict[str, Any], decisions: int, slices: int,
                 seconds: float, depth: int | None = None) -> dict[str, float]:
    """MCTS iterations per second at one position: reference agent and engine, and today's;
    ``depth``: both with this ``rollout_depth`` (default: each with its game's own)."""
    ref = reference.load()
    new_game = parlour.load_game(name, **params)
    history = _position(new_game, 3, decisions)
    extra = {} if depth is None else {"rollout_depth": depth}
    spec = f"mcts:time={seconds}:reuse=false" + ("" if depth is None else f":rollout_depth={depth}")
    sides = {
        "reference": (ref.game(name, **params), lambda g: ref.mcts(g, 0, time=seconds,
                                                                     reuse=False, **extra)),
        "today": (new_game, lambda g: make_agent(spec, g, 0)),
    }

    def run(game: Any, make: Callable[[Any], Any]) -> Callable[[float], tuple[int, float]]:
        def one(_seconds: float) -> tuple[int, float]:
            state = game.new_state_from_actions(history)
            agent = make(game)
            agent.step(state)
            return agent.last_search["iterations"], agent.last_search["seconds"]
        return one

    return side_by_side({label: run(*side) for label, side in sides.items()}, slices, seconds)


CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("gobblestones", {"players": 2}),
    ("gobblestones", {"players": 4}),
    ("stomple", {"players": 2}),
    ("stomple", {"players": 4}),
]


BLUFF_CONFIGS: list[dict[str, Any]] = [
    {"players": 2, "bluff": True},
    {"players": 4, "bluff": True},
]
"""GobbleStones' bluffing variant, searched at its first decision only."""

SAME_DEPTH = {"gobblestones": 30, "stomple": 60}
"""The reference's playout depths (its knowledge of each game)."""
DEFAULT_DIFFERS = {"gobblestones"}
"""Games whose MCTS today judges leaves differently by default (GobbleStones: no playout)."""


def report(slices: int, seconds: float) -> None:
    print(f"reference: {reference.REFERENCE} (git); {slices} alternating slices of "
          f"{seconds:g} s per column")
    print("\n## Random playouts, games per second")
    print(f"  {'game':28s} {'from':6s} {'API ref':>9s} {'API now':>9s} {'x':>5s}   "
          f"{'playout ref':>11s} {'playout now':>11s} {'x':>5s}   {'now playout / ref API':>21s}")
    for name, params in CONFIGS:
        phases = (False, True) if name == "gobblestones" else (False,)
        for phase_only in phases:
            r = playout_rates(name, params, slices, seconds, phase_only)
            label = f"{name} {params['players']}p"
            print(f"  {label:28s} {'deal' if phase_only else 'start':6s} "
                  f"{r['api reference']:9.1f} {r['api today']:9.1f} "
                  f"{r['api today'] / r['api reference']:5.1f}   "
                  f"{r['playout reference']:11.1f} {r['playout today']:11.1f} "
                  f"{r['playout today'] / r['playout reference']:5.1f}   "
                  f"{r['playout today'] / r['api reference']:21.1f}", flush=True)
    print("\n## MCTS iterations per second (reuse=false; IS-MCTS in GobbleStones)")
    print("   same playouts on both sides (GobbleStones: 30 plies, the reference's default; "
          "Stomple: 60), then each side's own default (GobbleStones today: none)")
    for name, params in CONFIGS:
        for depth in ((SAME_DEPTH[name], None) if name in DEFAULT_DIFFERS else (None,)):
            for decisions in (0, 20):
                r = search_rates(name, params, decisions, slices, seconds, depth)
                label = (f"{name} {params['players']}p, decision {decisions}, "
                         f"{'defaults' if depth is None else f'depth {depth}'}")
                print(f"  {label:46s} reference {r['reference']:7.0f} it/s   today "
                      f"{r['today']:7.0f} it/s   {r['today'] / r['reference']:5.1f}x",
                      flush=True)
    print("   GobbleStones' bluffing variant (B9), each side's own default")
    for params in BLUFF_CONFIGS:
        r = search_rates("gobblestones", params, 0, slices, seconds)
        label = f"gobblestones bluff {params['players']}p, decision 0, defaults"
        print(f"  {label:46s} reference {r['reference']:7.0f} it/s   today "
              f"{r['today']:7.0f} it/s   {r['today'] / r['reference']:5.1f}x", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slices", type=int, default=3)
    parser.add_argument("--slice", type=float, default=1.0, help="seconds per slice")
    args = parser.parse_args()
    report(args.slices, args.slice)


if __name__ == "__main__":
    main()
