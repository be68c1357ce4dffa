"""The suite every game runs: random playouts through the whole API.

Each game package lists the configurations to play in ``CONFORMANCE_CONFIGS``; a new game is
covered as soon as it registers. One concept per test, as in python-chess.
"""

from __future__ import annotations

import json
import random

import pytest

import parlour
from parlour.core import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    GameRecord,
    IllegalActionError,
    Information,
    InvalidParameterError,
    State,
    UnknownGameError,
    Utility,
    game_class,
)
from parlour.games import conformance_configs

GAMES_PER_CONFIG = 6


CASES = conformance_configs()
IDS = [f"{name}-{i}" for i, (name, _config) in enumerate(CASES)]


def _random_states(name: str, config: dict, games: int = GAMES_PER_CONFIG, seed: int = 0):
    """Every state of ``games`` seeded random playouts (chance sampled by its probabilities)."""
    game = parlour.load_game(name, **config)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        yield state
        while not state.is_terminal():
            if state.is_chance_node():
                action = state.sample_chance_outcome(rng)
            else:
                action = rng.choice(state.legal_actions())
            state = state.child(action)
            yield state


def _sample(name: str, config: dict, k: int = 60, seed: int = 1) -> list[State]:
    """Up to ``k`` states spread over random playouts."""
    states = list(_random_states(name, config, games=3, seed=seed))
    rng = random.Random(seed)
    return states if len(states) <= k else rng.sample(states, k)


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_random_playouts_keep_the_api_consistent(name: str, config: dict) -> None:
    game = parlour.load_game(name, **config)
    n, size = game.num_players(), game.num_distinct_actions()
    player_moves = 0
    for state in _random_states(name, config):
        current = state.current_player()
        assert state.is_terminal() == (current == TERMINAL_PLAYER)
        assert state.is_chance_node() == (current == CHANCE_PLAYER)
        if state.is_terminal():
            assert state.legal_actions() == []
            returns = state.returns()
            assert len(returns) == n
            assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
            if game.get_type().utility == Utility.ZERO_SUM:
                assert sum(returns) == 0
            assert any(r > 0 for r in returns), "G-4: every finished game has a winner"
            player_moves = 0
            continue
        assert state.returns() == [0.0] * n
        legal = state.legal_actions()
        assert legal, "a non-terminal state always has an action"
        assert legal == sorted(set(legal))
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == legal
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert all(0 < p <= 1 for _, p in outcomes)
            assert all(0 <= a < game.max_chance_outcomes() for a in legal)
        else:
            assert 0 <= current < n
            assert all(0 <= a < size for a in legal)
            mask = state.legal_actions_mask()
            assert len(mask) == size and sum(mask) == len(legal)
            assert all(mask[a] for a in legal)
            assert state.legal_actions((current + 1) % n) == [] or n == 1
            player_moves += 1
            assert player_moves <= game.max_game_length()


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_every_legal_action_round_trips_through_its_notation(name: str, config: dict) -> None:
    for state in _sample(name, config):
        if not state.is_player_node():
            continue
        for action in state.legal_actions():
            text = state.action_to_string(action)
            assert state.string_to_action(text) == action, text


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_position_text_round_trips(name: str, config: dict) -> None:
    game = parlour.load_game(name, **config)
    for state in _sample(name, config):
        copy = game.state_from_position(state.position())
        assert copy.position() == state.position()
        assert copy.current_player() == state.current_player()
        assert copy.legal_actions() == state.legal_actions()
        assert copy.returns() == state.returns()


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_clone_is_independent(name: str, config: dict) -> None:
    for state in _sample(name, config, k=20):
        if state.is_terminal():
            continue
        before, history = state.position(), state.history()
        twin = state.clone()
        assert twin.position() == before
        twin.apply_action(twin.legal_actions()[-1])
        assert state.position() == before
        assert state.history() == history
        assert twin.history() == [*history, twin.history()[-1]]


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_record_round_trips_to_an_identical_state(name: str, config: dict, tmp_path) -> None:
    *_, final = _random_states(name, config, games=1, seed=7)
    names = tuple(f"Ada {i + 1}" for i in range(final.game.num_players()))
    record = GameRecord.from_state(final, players=names, seed=7)
    path = record.save(tmp_path / "game.json")
    loaded = GameRecord.load(path)
    assert loaded == record and loaded.players == names
    replayed = loaded.final_state()
    assert replayed.position() == final.position()
    assert replayed.history() == final.history()
    assert replayed.returns() == final.returns()


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_illegal_action_names_a_rule_and_changes_nothing(name: str, config: dict) -> None:
    game = parlour.load_game(name, **config)
    checked = 0
    for state in _sample(name, config, k=30):
        if not state.is_player_node():
            continue
        illegal = set(range(game.num_distinct_actions())) - set(state.legal_actions())
        if not illegal:
            continue
        before, history = state.position(), state.history()
        with pytest.raises(IllegalActionError) as err:
            state.apply_action(min(illegal))
        assert err.value.rule, "G-2: the error names the rule it breaks"
        assert isinstance(err.value, ValueError)
        assert state.position() == before and state.history() == history
        checked += 1
    assert checked, "no state with an illegal action was sampled"


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_no_action_after_the_end(name: str, config: dict) -> None:
    *_, final = _random_states(name, config, games=1, seed=3)
    assert final.is_terminal()
    with pytest.raises(IllegalActionError):
        final.apply_action(0)


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_views_are_json_and_tensors_have_the_declared_shape(name: str, config: dict) -> None:
    game = parlour.load_game(name, **config)
    for state in _sample(name, config, k=20):
        for player in [None, *range(game.num_players())]:
            view = state.view(player)
            assert json.loads(json.dumps(view)) == view
            assert isinstance(state.observation_string(player), str)
        for player in range(game.num_players()):
            tensor = state.observation_tensor(player)
            assert tuple(tensor.shape) == game.observation_tensor_shape()


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_views_hide_only_what_sampled_worlds_may_change(name: str, config: dict) -> None:
    """G-3: every world consistent with a player's view shows that player the same view.

    For games with hidden information we also require that the sampled worlds really differ
    somewhere, so a view that leaked the hidden part would have been caught.
    """
    game = parlour.load_game(name, **config)
    rng = random.Random(5)
    differed = False
    for state in _sample(name, config, k=25):
        for player in range(game.num_players()):
            for _ in range(3):
                world = state.sample_world(player, rng)
                assert world.view(player) == state.view(player)
                assert world.current_player() == state.current_player()
                if state.is_player_node() and state.current_player() == player:
                    assert world.legal_actions() == state.legal_actions()
                differed |= world.position() != state.position()
    if game.get_type().information == Information.IMPERFECT:
        assert differed, "sample_world never changed a hidden part"


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_replay_from_actions_is_exact(name: str, config: dict) -> None:
    """G-1: randomness is explicit chance actions, so the actions alone replay a game."""
    game = parlour.load_game(name, **config)
    *_, final = _random_states(name, config, games=1, seed=11)
    assert game.new_state_from_actions(final.history()).position() == final.position()


@pytest.mark.parametrize("name", parlour.list_games())
def test_unknown_parameter_error_lists_the_valid_ones(name: str) -> None:
    with pytest.raises(InvalidParameterError) as err:
        parlour.load_game(name, no_such_parameter=1)
    for valid in game_class(name).parameters:
        assert valid in str(err.value)


def test_unknown_game_error_lists_the_known_games() -> None:
    with pytest.raises(UnknownGameError) as err:
        parlour.load_game("chess")
    assert isinstance(err.value, ValueError)
    for name in parlour.list_games():
        assert name in str(err.value)


POINT_OF_VIEW = ("player", "rack", "your_colour")
"""View keys that say who is looking: the seat, and what is that seat's own (GobbleStones: its
rack; Stomple: its stomper's colour, which everyone sees on the board anyway)."""


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_g5_at_the_end_every_player_sees_what_everyone_sees(name: str, config: dict) -> None:
    """G-5: once the game is over nothing stays hidden: every player's view is the spectator's
    but for the point of view, and no world but the true one is consistent with it.

    Before the end, ``test_views_hide_only_what_sampled_worlds_may_change`` checks the other
    half: the views still hide what the rules hide.
    """
    game = parlour.load_game(name, **config)
    rng = random.Random(13)
    for seed in (7, 8):
        *_, final = _random_states(name, config, games=1, seed=seed)
        assert final.is_terminal()
        spectator = {k: v for k, v in final.view(None).items() if k not in POINT_OF_VIEW}
        for player in range(game.num_players()):
            view = final.view(player)
            assert {k: v for k, v in view.items() if k not in POINT_OF_VIEW} == spectator
            if view.get("racks") is not None:
                assert view["racks"][player] == view["rack"]
            world = final.sample_world(player, rng)
            assert world.position() == final.position(), "G-5: nothing left to guess"


TIE_POSSIBLE = {"gobblestones"}
"""Games whose two-player games can end in a shared win (B8: equal points share it)."""


@pytest.mark.parametrize("name", parlour.list_games())
def test_g4_two_player_games_are_zero_sum_unless_they_can_end_in_a_shared_win(name: str) -> None:
    """G-4: GobbleStones (ties share the win) is general-sum with two players; the others are
    zero-sum with two (their returns then always add up to 0, checked over random playouts in
    ``test_random_playouts_keep_the_api_consistent``)."""
    two = {"players": 2} if "players" in game_class(name).parameters else {}
    game = parlour.load_game(name, **two)
    assert game.num_players() == 2
    if name in TIE_POSSIBLE:
        assert game.get_type().utility == Utility.GENERAL_SUM
        assert game.utility_sum() is None
    else:
        assert game.get_type().utility == Utility.ZERO_SUM
        assert game.utility_sum() == 0.0
