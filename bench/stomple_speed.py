"""How fast Stomple's rules run: random playouts, and clone + apply, against Clobber 5x6.

    python bench/stomple_speed.py --seconds 3

Prints actions per second for Stomple (2 and 6 players) and for Clobber 5x6 measured in the same
run, and their ratio, so the figure means something on any machine.
"""

from __future__ import annotations

import argparse
import random
import time

import parlour


def _step(state, rng: random.Random) -> int:
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        return rng.choices(actions, probs)[0]
    return rng.choice(state.legal_actions())


def actions_per_second(game, seconds: float, clone: bool, seed: int = 0) -> float:
    """Random playouts for ``seconds``; with ``clone`` every step copies the state first."""
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            action = _step(state, rng)
            if clone:
                state = state.child(action)
            else:
                state.apply_action(action)
            done += 1
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    games = {
        "clobber 5x6 (reference)": parlour.load_game("clobber"),
        "stomple, 2 players": parlour.load_game("stomple"),
        "stomple, 6 players": parlour.load_game("stomple", players=6),
    }
    for clone in (False, True):
        mode = "clone + apply" if clone else "apply in place"
        rates = {name: actions_per_second(g, args.seconds, clone) for name, g in games.items()}
        reference = rates["clobber 5x6 (reference)"]
        for name, rate in rates.items():
            print(f"{mode:15} {name:26} {rate:10,.0f} actions/s  {rate / reference:5.2f}x clobber")


if __name__ == "__main__":
    main()
