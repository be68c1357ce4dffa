"""Agents decide from their player's view only (G-3).

Three kinds of proof: a tripwire state that fails on any method outside the view-safe set;
the PlayerView offering no way to the state; and the decisive test -- two states that look
the same to the player (a state and a world sampled from its view, or the same position
reached by another history) get the same decision from agents with the same seed.
"""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.agents import PlayerView, make_agent
from parlour.core import State

from .helpers import imperfect, player_states

SPECS = ["random", "easy", "greedy:budget=200", "mcts:iterations=40"]
"""Every kind of agent, with small budgets (an iteration budget is reproducible from a seed)."""

VIEW_SAFE = {
    "current_player",
    "legal_actions",
    "view",
    "observation_string",
    "observation_tensor",
    "information_state_string",
    "action_to_string",
    "sample_world",
    "get_game",
}


class Tripwire:
    """A state that answers only view-safe calls, and only about the player to act."""

    def __init__(self, state: State) -> None:
        self._state = state
        self.touched: set[str] = set()

    def __getattr__(self, name: str):
        if name not in VIEW_SAFE:
            raise AssertionError(f"an agent reached for state.{name}")
        self.touched.add(name)
        method = getattr(self._state, name)
        mover = self._state.current_player()

        def checked(*args, **kwargs):
            if name in {"view", "observation_string", "observation_tensor",
                        "information_state_string", "sample_world"}:
                assert args and args[0] == mover, f"{name} asked about player {args[:1]}"
            return method(*args, **kwargs)

        return checked


@pytest.mark.parametrize("name", parlour.list_games())
@pytest.mark.parametrize("spec", SPECS)
def test_agents_use_only_view_safe_calls(name: str, spec: str) -> None:
    game = parlour.load_game(name)
    for state in player_states(game, 3, seed=11):
        wire = Tripwire(state)
        action = make_agent(spec, game, 3).step(wire)
        assert action in state.legal_actions()


def test_a_player_view_offers_no_way_to_the_state() -> None:
    state = parlour.load_game("clobber").new_initial_state()
    view = PlayerView(state)
    for hidden in ("history", "position", "returns", "scores", "clone", "apply_action", "child",
                   "state", "_state"):
        assert not hasattr(view, hidden)
    assert view.view() == state.view(0)
    with pytest.raises(PermissionError):
        view.view(1)


def test_step_refuses_a_chance_node_or_the_end() -> None:
    game = parlour.load_game("stomp-the-plank")
    state = game.new_initial_state()
    state.apply_action(0)  # draw: now the card is a chance event
    assert state.is_chance_node()
    with pytest.raises(ValueError, match="player is to move"):
        make_agent("random", game, 0).step(state)


HIDDEN = [name for name in parlour.list_games() if imperfect(parlour.load_game(name))]
HIDDEN_CONFIGS = [(name, {}) for name in HIDDEN] + [
    (name, {"players": 3}) for name in HIDDEN
] + ([("gobblestones", {"bluff": True})] if "gobblestones" in HIDDEN else [])


@pytest.mark.parametrize(("name", "params"), HIDDEN_CONFIGS, ids=str)
def test_states_that_look_the_same_get_the_same_decision(name: str, params: dict) -> None:
    """A state and a world sampled from the mover's view (hidden parts redealt)."""
    game = parlour.load_game(name, **params)
    differs = 0
    for k, state in enumerate(player_states(game, 8, seed=5)):
        me = state.current_player()
        twin = state.sample_world(me, random.Random(1000 + k))
        assert twin.view(me) == state.view(me)
        differs += twin.position() != state.position()
        for spec in SPECS:
            ours = make_agent(spec, game, 77).step(state)
            theirs = make_agent(spec, game, 77).step(twin)
            assert ours == theirs, f"{spec} decided differently on an identical-looking state"
    assert differs, "the sampled worlds should differ from the real state in what is hidden"


@pytest.mark.parametrize("name", [n for n in parlour.list_games() if n not in HIDDEN])
def test_a_position_reached_another_way_gets_the_same_decision(name: str) -> None:
    """Perfect information: the same position without its history looks the same."""
    game = parlour.load_game(name)
    for state in player_states(game, 4, seed=9):
        twin = game.state_from_position(state.position())
        me = state.current_player()
        assert twin.view(me) == state.view(me) and twin.history() != state.history()
        for spec in SPECS:
            assert make_agent(spec, game, 5).step(state) == make_agent(spec, game, 5).step(twin)
