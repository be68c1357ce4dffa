"""Stomp the Plank notation (``draw``/``stop``, treasure names for cards) and the text board."""

from __future__ import annotations

import pytest
from rich.console import Console

import parlour
from parlour.cli.boards import render_board
from parlour.core import CHANCE_PLAYER, NotationError
from parlour.games.stomp_the_plank import DRAW, STOP

from .plank_support import game, play


def test_player_notation_reads_draw_and_stop():
    state = play(game().new_initial_state(), "draw", "sword")
    assert state.string_to_action("draw") == DRAW == state.string_to_action(" D ")
    assert state.string_to_action("Stop") == STOP == state.string_to_action("s")
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["draw", "stop"]
    with pytest.raises(NotationError):
        state.string_to_action("hold")


def test_chance_notation_names_the_treasure():
    state = play(game().new_initial_state(), "draw")
    assert state.string_to_action("Spyglass") == 6
    assert state.action_to_string(6) == "spyglass"
    assert state.action_to_string(1, CHANCE_PLAYER) == "ruby"
    with pytest.raises(NotationError):
        state.string_to_action("draw")


def test_repr_pastes_back():
    state = play(game(players=3).new_initial_state(), "draw", "map")
    assert eval(repr(state), {"parlour": parlour}).position() == state.position()


def test_observation_string_and_rich_board_show_pontoon_and_planks():
    g = game(players=3)
    state = g.state_from_position(
        "turn=4 active=2 phase=choose pontoon=coins,hook discards=1,0,0,0,0,0,0 supply=53 "
        "planks=3/1,4/0,0/2"
    )
    text = state.observation_string(0)
    assert "coins" in text and "hook" in text
    # P5 defaults (tip_at=15, step_weight=3): balances 15 - 3 - 3, 15 - 4, 15 - 6.
    assert "crates  3  step 1  balance   9" in text and "crates  4  step 0  balance  11" in text
    assert "crates  0  step 2  balance   9" in text
    console = Console(width=120, record=True, color_system=None)
    console.print(render_board(state, 1))
    board = console.export_text()
    for part in ("spot 6", "WIN", "coins", "hook", "Player 2 (you)", "supply 53/60"):
        assert part in board  # players named as they count, from 1
    assert "Player 3: draw or stop" in board


def test_rich_board_shows_the_end():
    state = game().state_from_position(
        "turn=8 active=1 phase=over end=tip-stop pontoon=coins,ruby,map discards=0,0,0,0,0,0,0 "
        "supply=40 planks=20/0,0/0"
    )
    console = Console(width=120, record=True, color_system=None)
    console.print(render_board(state, None))
    assert "Player 1 tipped under the crates" in console.export_text()
