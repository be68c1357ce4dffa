"""parlour.batch.GobbleStonesBatch: random playouts end, illegal actions are refused.

That it plays GobbleStones exactly as the reference engine does, move by move, is
``test_against_the_reference.py`` (every game's engine, one test).
"""

from __future__ import annotations

import pytest

import parlour
import parlour.batch
from parlour.batch import GobbleStonesBatch
from parlour.core import IllegalActionError


@pytest.mark.parametrize("config", [{}, {"players": 3, "bluff": True}], ids=str)
def test_random_actions_are_legal_and_playouts_end(config: dict) -> None:
    batch = GobbleStonesBatch("gobblestones", 8, seed=3, **config)
    for _ in range(20000):
        if batch.terminated().all():
            break
        batch.step(batch.random_actions())  # checked: raises if any action were illegal
    assert batch.terminated().all()
    returns = parlour.batch.play_random("gobblestones", n_games=20, seed=1, **config)
    assert returns.shape == (20, batch.players)
    assert ((returns == 1.0).sum(axis=1) >= 1).all()


def test_illegal_actions_name_the_rule_and_change_nothing() -> None:
    from parlour.games.gobblestones import EXAMPLE_BOARD

    game = parlour.load_game("gobblestones", board=EXAMPLE_BOARD)
    batch = GobbleStonesBatch(game, 2, seed=0)
    while (batch.current_player() < 0).any():
        batch.step(batch.random_actions())
    before = [batch.snapshot(i) for i in range(2)]
    with pytest.raises(IllegalActionError) as err:
        batch.step([game.PASS, game.END])  # 'end' before any tile (B4)
    assert err.value.rule == "B4"
    assert "game 1" in str(err.value)
    assert [batch.snapshot(i) for i in range(2)] == before
