"""Information states follow OpenSpiel's meaning: perfect recall of what the player saw.

For every game and conformance configuration: histories that differ only in what a player
cannot see give that player equal information states (string and tensor); histories that
differ in something they saw (their own deal, the order of their draws, a public action) give
different ones; every world ``sample_world`` draws shares the player's information state and
replays exactly from its own history (G-1).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import parlour
from parlour.core import Information, State
from parlour.games import conformance_configs
from parlour.games.gobblestones.board import SQUARES
from parlour.games.gobblestones.worlds import WorldSamplingError

CASES = conformance_configs()
IDS = [f"{name}-{i}" for i, (name, _c) in enumerate(CASES)]


def _random_game(game: parlour.core.Game, seed: int, steps: int) -> State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _same(a: State, b: State, player: int) -> bool:
    same_string = a.information_state_string(player) == b.information_state_string(player)
    same_tensor = np.array_equal(a.information_state_tensor(player),
                                 b.information_state_tensor(player))
    assert same_string == same_tensor, "string and tensor disagree on the information state"
    return same_string


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_tensor_has_one_size_and_strings_grow_with_the_history(name: str, config: dict) -> None:
    game = parlour.load_game(name, **config)
    shape = game.information_state_tensor_shape()
    state = _random_game(game, 0, 0)
    seen: set[str] = set()
    rng = random.Random(3)
    while not state.is_terminal():
        for p in range(game.num_players()):
            tensor = state.information_state_tensor(p)
            assert tensor.shape == shape and tensor.dtype == np.float32
        text = state.information_state_string(0)
        assert text not in seen, "perfect recall: a longer history is a new information state"
        seen.add(text)
        if len(seen) > 60:
            break
        action = (state.sample_chance_outcome(rng) if state.is_chance_node()
                  else rng.choice(state.legal_actions()))
        state.apply_action(action)


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_a_public_action_changes_every_information_state(name: str, config: dict) -> None:
    """Two different public actions (a move every player sees) give different states."""
    game = parlour.load_game(name, **config)
    for seed in range(40):
        state = _random_game(game, seed, seed if seed < 20 else random.Random(seed).randrange(300))
        rng = random.Random(seed)
        while state.is_chance_node():  # on to the next player's decision
            state.apply_action(state.sample_chance_outcome(rng))
        if not state.is_player_node():
            continue
        legal = state.legal_actions()
        public = {}
        for action in legal:
            public.setdefault(state.public_action_string(action), action)
        if len(public) < 2:
            continue
        a, b = list(public.values())[:2]
        left, right = state.child(a), state.child(b)
        for p in range(game.num_players()):
            assert not _same(left, right, p)
        return
    pytest.skip("no state with two publicly different actions in 40 random games")


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_sampled_worlds_share_the_player_information_state(name: str, config: dict) -> None:
    game = parlour.load_game(name, **config)
    rng = random.Random(11)
    checked = 0
    for seed in range(6):
        state = _random_game(game, seed, 40 + 60 * seed)
        for p in range(game.num_players()):
            for _ in range(2):
                world = state.sample_world(p, rng)
                assert _same(world, state, p)
                assert world.view(p) == state.view(p)
                # the world is a real game: its own history replays to it (G-1)
                root = getattr(state, "_info_root", None)
                replay = root.clone() if root is not None else game.new_initial_state()
                if getattr(world, "_info_root", None) is not None:
                    replay = world._info_root.clone()
                for action in world.history():
                    replay.apply_action(action)
                assert replay.position() == world.position()
                checked += 1
    assert checked


# -- GobbleStones: what a player cannot see, and what they can --------------------------------

def _dealt(game: parlour.core.Game, deal: list[int]) -> State:
    """A GobbleStones game on a fixed board with the racks dealt in the given colour order."""
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node() and state.phase == "board":
        state.apply_action(state.sample_chance_outcome(rng))
    for colour in deal:
        state.apply_action(colour)
    return state


@pytest.mark.parametrize("bluff", [False, True])
def test_the_issue_example_own_deal_order_is_remembered(bluff: bool) -> None:
    """Issue 19: a first rack dealt R,Y,G,B,P or P,B,G,Y,R ends with the same rack and the
    same public plays, yet the player saw the tiles come in a different order."""
    game = parlour.load_game("gobblestones", bluff=bluff)
    other = [0, 0, 1, 1, 2]
    a = _dealt(game, [0, 1, 2, 3, 4, *other])
    b = _dealt(game, [4, 3, 2, 1, 0, *other])
    assert a.view(0) == b.view(0)  # the observation alone cannot tell them apart
    assert a.information_state_string(0) != b.information_state_string(0)
    assert not np.array_equal(a.information_state_tensor(0), b.information_state_tensor(0))
    assert _same(a, b, 1)  # player 1 saw only "draw" five times


@pytest.mark.parametrize("bluff", [False, True])
def test_another_players_deal_is_invisible(bluff: bool) -> None:
    game = parlour.load_game("gobblestones", bluff=bluff, players=3)
    mine = [0, 1, 2, 3, 4]
    a = _dealt(game, [*mine, 0, 0, 1, 1, 2, 3, 3, 4, 4, 4])
    b = _dealt(game, [*mine, 4, 2, 1, 3, 0, 2, 2, 2, 2, 1])
    assert _same(a, b, 0)
    assert not _same(a, b, 1)
    assert not _same(a, b, 2)


def _one_tile_play(state: State) -> int:
    """A square where one tile makes a whole play (B3, B4)."""
    game = state.get_game()
    for action in state.legal_actions():
        if action < game.place_actions and game.END in state.child(action).legal_actions():
            return action % SQUARES
    raise AssertionError("no one-tile play")


def test_a_face_down_colour_is_seen_only_by_its_owner() -> None:
    """B9: the same squares played face down with different colours."""
    game = parlour.load_game("gobblestones", bluff=True)
    state = _dealt(game, [0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
    square = _one_tile_play(state)
    twins = [state.child(c * SQUARES + square) for c in range(5)
             if c * SQUARES + square in state.legal_actions()]
    assert len(twins) >= 2
    a, b = twins[0], twins[1]
    for s in (a, b):
        s.apply_action(game.END)
    assert _same(a, b, 1)  # the opponent saw two face-down tiles on the same square
    assert not _same(a, b, 0)  # the mover knows which colour they put down


def test_a_challenge_reveals_the_colours() -> None:
    """B9: once challenged, the tiles are shown to everyone, so the states part."""
    game = parlour.load_game("gobblestones", bluff=True)
    state = _dealt(game, [0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
    square = _one_tile_play(state)
    twins = [state.child(c * SQUARES + square) for c in range(5)
             if c * SQUARES + square in state.legal_actions()]
    a, b = twins[0], twins[1]
    for s in (a, b):
        s.apply_action(game.END)
        s.apply_action(game.CHALLENGE)
    assert not _same(a, b, 1)


@pytest.mark.parametrize("config", [{}, {"players": 3}, {"players": 4, "bluff": True}], ids=str)
def test_worlds_keep_the_players_tiles_and_vary_the_others(config: dict) -> None:
    """The sampled others' racks differ between worlds; the sampler's own rack never does."""
    game = parlour.load_game("gobblestones", **config)
    state = _random_game(game, 5, 400)
    rng = random.Random(2)
    racks = set()
    for _ in range(30):
        world = state.sample_world(0, rng)
        assert world.rack(0) == state.rack(0)
        assert sum(world.bag().values()) == sum(state.bag().values())
        racks.add(tuple(tuple(world.rack(p).values()) for p in range(1, game.num_players())))
    assert len(racks) > 1


def test_world_sampling_error_is_a_value_error() -> None:
    """sample_world raises this documented error rather than return the true state."""
    assert issubclass(WorldSamplingError, ValueError)


def test_perfect_information_games_use_the_history() -> None:
    for name in ("clobber", "stomple", "stomp-the-plank"):
        game = parlour.load_game(name)
        assert game.get_type().information is Information.PERFECT
        state = _random_game(game, 1, 12)
        assert state.information_state_string(0).startswith(
            "history: " + " ".join(map(str, state.history()))
        )
