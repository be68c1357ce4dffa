"""parlour.batch's two ways in, ``engine`` and ``play_random``, for every game; what they say
to a wrong argument."""

from __future__ import annotations

import numpy as np
import pytest

import parlour
import parlour.batch
from parlour.batch import BatchEngine, ClobberBatch, GobbleStonesBatch, PlankBatch, StompleBatch
from parlour.core import UnknownGameError

from .test_clobber_batch import _OtherGame

ENGINE_OF = {"clobber": ClobberBatch, "gobblestones": GobbleStonesBatch,
             "stomp-the-plank": PlankBatch, "stomple": StompleBatch}


@pytest.mark.parametrize("name", parlour.list_games())
def test_every_game_has_an_engine_by_name_or_by_game(name: str) -> None:
    by_name = parlour.batch.engine(name, 5, seed=1)
    by_game = parlour.batch.engine(parlour.load_game(name), 5, seed=1)
    assert type(by_name) is type(by_game) is ENGINE_OF[name]
    assert isinstance(by_name, BatchEngine)
    assert by_name.batch_size == 5 and by_name.game == parlour.load_game(name)
    np.testing.assert_array_equal(by_name.random_actions(), by_game.random_actions())


@pytest.mark.parametrize("name", parlour.list_games())
def test_play_random_plays_every_game_and_replays_from_its_seed(name: str) -> None:
    game = parlour.load_game(name)
    returns = parlour.batch.play_random(name, 12, seed=4)
    assert returns.shape == (12, game.num_players()) and returns.dtype == np.float32
    assert set(np.unique(returns)) <= {-1.0, 0.0, 1.0}
    np.testing.assert_array_equal(returns, parlour.batch.play_random(game, 12, seed=4))
    np.testing.assert_array_equal(returns, ENGINE_OF[name].play_random(game, 12, seed=4))
    assert parlour.batch.play_random(name, 0).shape == (0, game.num_players())


def test_parameters_come_with_a_name() -> None:
    returns = parlour.batch.play_random("stomple", 6, seed=0, players=3)
    assert returns.shape == (6, 3)
    assert parlour.batch.engine("gobblestones", 2, players=4).players == 4
    with pytest.raises(TypeError, match="either in the game or as keywords"):
        parlour.batch.play_random(parlour.load_game("stomple"), 6, players=3)


@pytest.mark.parametrize(
    ("game", "error", "message"),
    [
        (42, TypeError, "expected a game name .* or a configured parlour Game, got int 42"),
        (ClobberBatch, TypeError, "expected a game name"),
        ("chess", UnknownGameError, "unknown game 'chess'"),
        (_OtherGame(), ValueError, "no batched engine plays 'other'; parlour.batch plays "
                                   "clobber, gobblestones, stomp-the-plank, stomple"),
    ],
    ids=["a number", "an engine class", "an unknown name", "a game with no engine"],
)
def test_a_wrong_game_says_what_was_expected(game, error, message) -> None:
    for call in (parlour.batch.play_random, parlour.batch.engine):
        with pytest.raises(error, match=message):
            call(game, 3)


@pytest.mark.parametrize(
    ("count", "error", "message"),
    [("10", TypeError, "must be a whole number, got '10'"),
     (2.5, TypeError, "must be a whole number, got 2.5"),
     (True, TypeError, "must be a whole number, got True"),
     (-1, ValueError, "must be at least 0, got -1")],
)
def test_a_wrong_count_says_what_was_expected(count, error, message) -> None:
    with pytest.raises(error, match=f"n_games {message}"):
        parlour.batch.play_random("clobber", count)
    with pytest.raises(error, match=f"n {message}"):
        parlour.batch.engine("clobber", count)
    with pytest.raises(error, match=f"PlankBatch: batch_size {message}"):
        PlankBatch("stomp-the-plank", count)


def test_a_numpy_count_is_a_count() -> None:
    assert parlour.batch.engine("stomple", np.int64(3)).batch_size == 3


def test_step_checks_the_shapes_it_is_given() -> None:
    batch = parlour.batch.engine("stomp-the-plank", 3, seed=0)
    with pytest.raises(ValueError, match="expected 3 actions"):
        batch.step([0, 0])
    with pytest.raises(ValueError, match="'where' needs 3 booleans"):
        batch.step([0, 0, 0], where=[True, False])


def test_the_engines_differ_only_where_their_games_do() -> None:
    """Every engine takes ``where`` (Clobber too: the games outside it stand still) and gives
    tensors from a seat per game."""
    batch = parlour.batch.engine("clobber", 4, seed=2, rows=3, columns=4)
    before = batch.stones.copy()
    batch.step(batch.random_actions(), where=[True, False, True, False])
    assert (batch.stones[:, :, [1, 3]] == before[:, :, [1, 3]]).all()
    assert (batch.stones[:, :, [0, 2]] != before[:, :, [0, 2]]).any()
    seats = np.array([0, 1, 1, 0])
    tensors = batch.observation_tensor(seats)
    for i, seat in enumerate(seats):
        np.testing.assert_array_equal(tensors[i], batch.state(i).observation_tensor(int(seat)))
    plank = parlour.batch.engine("stomp-the-plank", 3, seed=0)
    tensors = plank.observation_tensor(np.array([1, 0, 1]))
    np.testing.assert_array_equal(tensors[2], plank.state(2).observation_tensor(1))
