"""GobbleStones' compiled information-set search against the Python loop it replaces.

``MCTSAgent`` runs GobbleStones' information-set iterations in C when they were built
(``GobbleStonesState.compiled_search``). The compiled iterations must be the Python loop's
(``MCTSAgent._iterate_information_set``) exactly: for the same seed the same worlds drawn, the
same tree, the same statistics at the root (visits and summed returns, float for float) and so
the same move, at every kind of decision (first play, part-way through a play, near the end, 2-4
players, with and without playouts; in the bluffing variant, B9, also the decision to challenge
or trust, leaves judged without a playout). It sees only worlds drawn from the agent's view:
never the true state, and two states the player cannot tell apart get the same search.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parlour
import parlour.games.gobblestones.compiled as engine
from parlour.agents import MCTSAgent, make_agent
from parlour.core import State
from parlour.games.gobblestones import GobbleStonesState

from .helpers import player_states

pytestmark = pytest.mark.skipif(
    engine._cplayout is None, reason="the compiled engine was not built (no C compiler)"
)


def search(state: State, spec: str, seed: int, compiled: bool,
           monkeypatch: pytest.MonkeyPatch) -> tuple[int, Any, dict[str, Any]]:
    """The move, the root's statistics and ``last_search`` of one search from ``state``."""
    seen: dict[str, Any] = {}
    choose = MCTSAgent._choose

    def recording(self, root, legal):
        seen["root"] = (list(root.actions), list(root.n), list(root.w), root.visits)
        return choose(self, root, legal)

    monkeypatch.setattr(MCTSAgent, "_choose", recording)
    engine.COMPILED_SEARCH[0] = compiled
    try:
        agent = make_agent(spec, state.get_game(), seed)
        action = agent.step(state)
    finally:
        engine.COMPILED_SEARCH[0] = True
    return action, seen.get("root"), agent.last_search


def same_search(state: State, spec: str, seed: int, monkeypatch: pytest.MonkeyPatch,
                compiled: bool = True) -> None:
    """The search with the compiled iterations (when ``compiled``: they must be used) and with
    the Python loop choose alike, statistic for statistic."""
    fast = search(state, spec, seed, True, monkeypatch)
    plain = search(state, spec, seed, False, monkeypatch)
    if fast[2]["iterations"]:  # not a move that wins at once (no search at all)
        assert fast[2]["compiled"] == compiled and not plain[2]["compiled"]
    assert fast[:2] == plain[:2]  # the move, and every root statistic, float for float
    assert fast[2]["iterations"] == plain[2]["iterations"]
    assert fast[0] in state.legal_actions()


CONFIGS = [{"players": 2}, {"players": 3}, {"players": 4},
           {"players": 2, "bluff": True}, {"players": 4, "bluff": True}]


@pytest.mark.parametrize("params", CONFIGS, ids=lambda p: "".join(f"{k}{v}" for k, v in p.items()))
@pytest.mark.parametrize("spec", [
    "mcts:iterations=250",                       # the default: leaves judged without a playout
    "mcts:iterations=120:rollout_depth=30",      # the reference's playouts
    "mcts:iterations=40:rollout_depth=5000:c=0.5",  # playouts to the end
])
def test_compiled_search_is_the_python_loop(params, spec, monkeypatch):
    game = parlour.load_game("gobblestones", **params)
    states = player_states(game, 8, seed=params["players"])
    assert any(s.turn_in_progress() for s in states)  # part-way through a play, too
    if params.get("bluff"):  # B9: deciding to challenge or trust, too
        assert any(s.phase == "challenge" for s in states)
    compiled = not params.get("bluff") or "rollout_depth" not in spec  # bluff: no playouts
    for seed, state in enumerate(states):
        same_search(state, spec, seed, monkeypatch, compiled)


def test_compiled_search_at_the_first_decision_and_near_the_end(monkeypatch):
    """The first play (B3: through a centre square) and the last turns, where the bag runs
    dry (a draw of a single colour left is seen by all) and the tree meets the game's end."""
    game = parlour.load_game("gobblestones", players=2)
    rng = random.Random(11)
    state = game.new_initial_state()
    first, late = None, []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
            continue
        if len(state.legal_actions()) > 1:
            first = first or state.clone()
            if sum(state.bag().values()) < 6:
                late.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    assert first is not None and late
    for seed, position in enumerate([first, *late[-4:]]):
        same_search(position, "mcts:iterations=300", seed, monkeypatch)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    bluff=st.booleans(),
    game_seed=st.integers(0, 10_000),
    agent_seed=st.integers(0, 10_000),
    iterations=st.integers(1, 150),
    depth=st.sampled_from([0, 0, 5, 30]),
)
def test_compiled_search_equals_the_python_loop_anywhere(players, bluff, game_seed, agent_seed,
                                                          iterations, depth):
    game = parlour.load_game("gobblestones", players=players, bluff=bluff)
    state = player_states(game, 1, seed=game_seed)[0]
    depth = 0 if bluff else depth
    with pytest.MonkeyPatch.context() as monkeypatch:
        same_search(state, f"mcts:iterations={iterations}:rollout_depth={depth}", agent_seed,
                    monkeypatch)


def test_compiled_search_sees_only_worlds_drawn_from_the_view(monkeypatch):
    """Every world handed to the compiled search was drawn by ``sample_world`` (never the true
    state), and two true states the player cannot tell apart give the same search."""
    game = parlour.load_game("gobblestones", players=2)
    state = player_states(game, 1, seed=5)[0]
    player = state.current_player()
    handed: list[State] = []
    drawn: list[State] = []
    add, sample = engine.CompiledSearch.add_world, GobbleStonesState.sample_world

    def keeping(self, world):
        handed.append(world)
        return add(self, world)

    def sampling(self, who, rng):
        assert who == player
        world = sample(self, who, rng)
        drawn.append(world)
        return world

    monkeypatch.setattr(engine.CompiledSearch, "add_world", keeping)
    monkeypatch.setattr(GobbleStonesState, "sample_world", sampling)
    agent = make_agent("mcts:iterations=80", game, 3)
    agent.step(state)
    assert agent.last_search["compiled"] and handed
    assert all(any(w is d for d in drawn) for w in handed)
    assert all(w is not state for w in handed)

    # the same position with the other player's hidden tiles redrawn: the player's view is
    # the same, and so is the whole search
    other = state.sample_world(player, random.Random(99))
    assert other.view(player) == state.view(player)
    assert other.history() != state.history()  # hidden draws differ
    monkeypatch.undo()
    first = search(state, "mcts:iterations=150", 7, True, monkeypatch)
    second = search(other, "mcts:iterations=150", 7, True, monkeypatch)
    assert first[:2] == second[:2]


def test_time_budget_and_the_searches_without_a_compiled_loop(monkeypatch):
    """A timed search runs compiled and plays a legal move; playouts in the bluffing variant
    (B9) and a switched-off compiled search run the Python loop."""
    game = parlour.load_game("gobblestones", players=3)
    state = player_states(game, 1, seed=2)[0]
    agent = make_agent("mcts:time=0.05", game, 0)
    assert agent.step(state) in state.legal_actions()
    assert agent.last_search["compiled"] and agent.last_search["iterations"] > 0
    assert agent.last_search["root_visits"] == agent.last_search["iterations"]

    bluff = parlour.load_game("gobblestones", players=2, bluff=True)
    position = player_states(bluff, 1, seed=2)[0]
    me = position.current_player()
    assert position.compiled_search(me, c=1.4, rollout_depth=0, scale=25.0) is not None
    assert position.compiled_search(me, c=1.4, rollout_depth=30, scale=25.0) is None
    assert position.compiled_search(1 - me, c=1.4, rollout_depth=0, scale=25.0) is None
    agent = make_agent("mcts:time=0.05", bluff, 0)
    assert agent.step(position) in position.legal_actions()
    assert agent.last_search["compiled"]
    agent = make_agent("mcts:iterations=30:rollout_depth=30", bluff, 0)
    assert agent.step(position) in position.legal_actions()
    assert not agent.last_search["compiled"]

    assert not search(state, "mcts:iterations=30", 0, False, monkeypatch)[2]["compiled"]


def test_the_compiled_search_directly():
    """``CompiledSearch`` on its own: every iteration visits the root once, its children are
    legal actions, and a ``random()`` outside [0, 1) is refused rather than read past a list."""
    game = parlour.load_game("gobblestones", players=2)
    state = player_states(game, 1, seed=4)[0]
    me = state.current_player()
    search = state.compiled_search(me, c=1.4, rollout_depth=0, scale=25.0)
    assert search is not None
    rng = random.Random(0)
    worlds = [search.add_world(state.sample_world(me, rng)) for _ in range(3)]
    assert worlds == [0, 1, 2]
    for k in range(90):
        search.iterate(worlds[k % 3], rng.random)
    actions, visits, wins, total = search.root()
    assert total == 90 == sum(visits)
    assert set(actions) <= set(state.legal_actions())
    assert all(-v <= w <= v for v, w in zip(visits, wins, strict=True))

    fresh = state.compiled_search(me, c=1.4, rollout_depth=0, scale=25.0)
    assert fresh is not None
    number = fresh.add_world(state.sample_world(me, rng))
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        fresh.iterate(number, lambda: 1.0)
    with pytest.raises(IndexError):
        fresh.iterate(number + 1, rng.random)
