"""Helpers for comparing parlour's MCTS with OpenSpiel's on Clobber (used by agents_strength.py).

Clobber's action ids are OpenSpiel's (ruling C4), so one game is played on both engines at once:
each side's bot reads its own engine's state, and every action is applied to both (a
differential check in passing: the legal actions must agree at every ply).
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import parlour
from parlour.agents import make_agent

UCT_C = 2.0
"""OpenSpiel's customary exploration constant (its examples and mcts_test use 2)."""


class TimedMCTSBot(mcts.MCTSBot):
    """OpenSpiel's Python ``MCTSBot`` (random rollouts), stopped by a wall-clock budget per move.

    ``mcts_search`` stops early when its root is marked solved; after the deadline we mark the
    root (with a value no code reads) so that the search ends after the current simulation.
    The search itself is OpenSpiel's, unchanged.
    """

    def __init__(self, game, seconds: float, seed: int) -> None:
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        super().__init__(
            game, UCT_C, 10**9, evaluator, solve=True, random_state=np.random.RandomState(seed)
        )
        self.seconds = seconds
        self.deadline = 0.0
        self.simulations = 0

    def _apply_tree_policy(self, root, state):
        self.simulations += 1
        if root.outcome is None and time.perf_counter() >= self.deadline:
            root.outcome = _STOP
        return super()._apply_tree_policy(root, state)

    def mcts_search(self, state):
        self.deadline = time.perf_counter() + self.seconds
        root = super().mcts_search(state)
        if root.outcome is _STOP:
            root.outcome = None
        return root


_STOP = [0.0, 0.0]


class TimedCppBot:
    """OpenSpiel's C++ ``pyspiel.MCTSBot`` (random rollouts) with its own wall-clock limit.

    ``max_wall_clock_time`` stops the C++ search after the budget; the simulation count is
    read off the root that ``mcts_search`` returns (``step`` plays its best child, as here).
    """

    def __init__(self, game, seconds: float, seed: int) -> None:
        self.bot = pyspiel.MCTSBot(
            game, pyspiel.RandomRolloutEvaluator(1, seed), UCT_C, 10**8, 1000, True, seed,
            False, pyspiel.ChildSelectionPolicy.UCT, seconds,
        )
        self.simulations = 0
        self.empty_roots = 0

    def step(self, state) -> int:
        for _attempt in range(3):
            root = self.bot.mcts_search(state)
            self.simulations += root.explore_count
            best = root.best_child()
            if best is not None:
                return best.action
            # Rarely (on a heavily loaded machine) the C++ search returns a root without
            # children; search again rather than end the match.
            self.empty_roots += 1
        raise RuntimeError("OpenSpiel's MCTSBot returned no move three times in a row")


def play_pair(ours_spec: str, theirs: str, seconds: float, seed: int, ours_white: bool,
              rows: int = 5, columns: int = 6) -> dict:
    """One game on the rows x columns board; returns who won and each side's thinking time."""
    game = parlour.load_game("clobber", rows=rows, columns=columns)
    spiel_game = pyspiel.load_game(f"clobber(rows={rows},columns={columns})")
    ours = make_agent(ours_spec, game, seed)
    bot_class = TimedMCTSBot if theirs == "python" else TimedCppBot
    other = bot_class(spiel_game, seconds, seed + 1)
    state, spiel_state = game.new_initial_state(), spiel_game.new_initial_state()
    our_seat = 0 if ours_white else 1
    spent = [0.0, 0.0]
    longest = [0.0, 0.0]
    moves = [0, 0]
    iterations = 0
    while not state.is_terminal():
        assert sorted(state.legal_actions()) == sorted(spiel_state.legal_actions())
        player = state.current_player()
        start = time.perf_counter()
        if player == our_seat:
            action = ours.step(state)
            iterations += ours.last_search.get("iterations", 0)
        else:
            action = other.step(spiel_state)
        spent[player] += time.perf_counter() - start
        longest[player] = max(longest[player], time.perf_counter() - start)
        moves[player] += 1
        state.apply_action(action)
        spiel_state.apply_action(action)
    assert spiel_state.is_terminal()
    won = state.returns()[our_seat] > 0
    return {
        "won": won,
        "ours_seconds_per_move": spent[our_seat] / max(1, moves[our_seat]),
        "theirs_seconds_per_move": spent[1 - our_seat] / max(1, moves[1 - our_seat]),
        "ours_longest_move": longest[our_seat],
        "theirs_longest_move": longest[1 - our_seat],
        "ours_iterations": iterations,
        "theirs_simulations": other.simulations,
        "ours_moves": moves[our_seat],
        "theirs_moves": moves[1 - our_seat],
    }


def iterations_per_second(seconds: float = 2.0, rows: int = 5, columns: int = 6) -> dict:
    """Search rate from the start position: ours, OpenSpiel Python and OpenSpiel C++."""
    game = parlour.load_game("clobber", rows=rows, columns=columns)
    spiel_game = pyspiel.load_game(f"clobber(rows={rows},columns={columns})")
    ours = make_agent(f"mcts:time={seconds}:reuse=false", game, 0)
    ours.step(game.new_initial_state())
    our_rate = ours.last_search["iterations"] / ours.last_search["seconds"]
    python_bot = TimedMCTSBot(spiel_game, seconds, 0)
    start = time.perf_counter()
    python_bot.step(spiel_game.new_initial_state())
    python_rate = python_bot.simulations / (time.perf_counter() - start)
    cpp = TimedCppBot(spiel_game, seconds, 0)
    start = time.perf_counter()
    cpp.step(spiel_game.new_initial_state())
    cpp_rate = cpp.simulations / (time.perf_counter() - start)
    return {"parlour": our_rate, "openspiel_python": python_rate, "openspiel_cpp": cpp_rate}


if __name__ == "__main__":
    print(iterations_per_second(1.0))
    print(play_pair("mcts:time=0.05", "python", 0.05, 1, True))
    print(play_pair("mcts:time=0.05", "cpp", 0.05, 1, False))
