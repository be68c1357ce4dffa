"""The ``position`` parameter starts a game from a position text (``parlour play --position``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.core import InvalidParameterError, Utility

from .plank_support import game, play

TEXT = ("turn=4 active=2 phase=choose pontoon=coins,hook discards=1,0,0,0,0,0,0 supply=53 "
        "planks=3/1,4/0,0/2")


def test_position_parameter_starts_there_and_sets_the_players():
    g = game(position=TEXT)
    assert g.num_players() == 3
    assert g.get_type().utility == Utility.GENERAL_SUM  # G-4, read from the position
    state = g.new_initial_state()
    assert state.position() == TEXT and state.current_player() == 2
    play(state, "stop")  # P2: two cards, one crate each
    assert state.plank(0) == (4, 1) and state.plank(1) == (5, 0)
    assert game(position=TEXT, players=3).new_initial_state().position() == TEXT


@pytest.mark.parametrize(
    ("params", "why"),
    [
        ({"players": 2}, "3 planks"),
        ({"supply": 50}, "P5"),
        ({"max_turns": 3}, "turn 4"),
    ],
)
def test_position_parameter_must_fit_the_other_parameters(params, why):
    with pytest.raises(InvalidParameterError) as err:
        game(position=TEXT, **params)
    assert why in str(err.value)


def test_the_rules_page_examples_are_valid_positions():
    """Every position line shown in docs/rules/stomp-the-plank.md reads and writes back."""
    page = Path(__file__).resolve().parents[3] / "docs" / "rules" / "stomp-the-plank.md"
    examples = [line.strip() for line in page.read_text(encoding="utf-8").splitlines()
                if line.startswith("    turn=")]
    assert len(examples) == 2
    for text in examples:
        players = text.split("planks=")[1].count("/")
        state = game(players=players).state_from_position(text)
        assert state.position() == text
