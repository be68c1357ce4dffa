"""Random playouts per second through parlour's per-move API, for every registered game.

Chance events are drawn by their probabilities, player actions uniformly among the legal ones,
exactly as an agent or a test would drive a game, so any slowdown of a game shows here::

    python bench/playouts.py                    # every game, default parameters
    python bench/playouts.py --all-configs      # every configuration the conformance suite plays
    python bench/playouts.py --game stomple --seconds 5
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import parlour
from parlour.games import conformance_configs


def configs(name: str, every: bool) -> list[dict]:
    if not every:
        return [{}]
    return [config for _name, config in conformance_configs(name)]


def measure(name: str, config: dict, seconds: float, seed: int = 0) -> tuple[float, float, float]:
    """``(games per second, actions per second, mean actions per game)`` over ``seconds``."""
    game = parlour.load_game(name, **config)
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or games == 0:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        state.returns()
        games += 1
    return games / elapsed, actions / elapsed, actions / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per configuration")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--all-configs", action="store_true",
                        help="every CONFORMANCE_CONFIGS entry, not only the defaults")
    args = parser.parse_args(argv)
    names = args.game or parlour.list_games()
    print(f"parlour {parlour.__version__}: random playouts via the per-move API, "
          f"{args.seconds:g} s each")
    print(f"{'game':<42} {'games/s':>10} {'actions/s':>11} {'actions/game':>13}")
    for name in names:
        for config in configs(name, args.all_configs):
            label = str(parlour.load_game(name, **config))
            label = label if len(label) <= 42 else label[:39] + "..."
            games, actions, length = measure(name, config, args.seconds)
            print(f"{label:<42} {games:>10,.1f} {actions:>11,.0f} {length:>13,.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
