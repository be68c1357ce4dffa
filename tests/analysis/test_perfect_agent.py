"""The ``perfect`` agent: registered, never loses a won position, falls back when it must."""

from __future__ import annotations

import pytest

import parlour
from parlour.agents import agent_names, make_agent
from parlour.agents.perfect import PerfectAgent


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))


def play(game, agents) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].step(state))
    return state.returns()


def test_perfect_is_registered():
    assert "perfect" in agent_names()
    agent = make_agent("perfect", parlour.load_game("clobber", size="2x3"), 1)
    assert isinstance(agent, PerfectAgent)


@pytest.mark.parametrize("seed", range(5))
def test_wins_every_first_player_win_as_first_player(seed):
    game = parlour.load_game("clobber", size="3x5")  # a first-player win; White moves first
    perfect = make_agent("perfect:fallback=random", game, seed)
    opponent = make_agent("random", game, seed)
    assert play(game, [perfect, opponent]) == [1.0, -1.0]
    assert perfect.fallback_turns == 0


@pytest.mark.parametrize("seed", range(5))
def test_wins_every_second_player_win_as_second_player(seed):
    game = parlour.load_game("clobber", size="3x4")  # a second-player win
    perfect = make_agent("perfect:fallback=random", game, seed)
    assert play(game, [make_agent("random", game, seed), perfect]) == [-1.0, 1.0]


def test_lost_positions_and_big_boards_go_to_the_fallback():
    game = parlour.load_game("clobber", size="3x4")  # lost for White, the first player
    perfect = make_agent("perfect:fallback=random", game, 0)
    state = game.new_initial_state()
    assert state.legal_actions().count(perfect.step(state)) == 1
    assert perfect.fallback_turns == 1 and perfect.solved_turns == 0
    big = parlour.load_game("clobber", size="10x10")
    agent = make_agent("perfect:fallback=random:max_stones=30", big, 0)
    agent.step(big.new_initial_state())
    assert agent.fallback_turns == 1


def test_prefers_the_hard_agent_as_fallback():
    agent = make_agent("perfect", parlour.load_game("clobber", size="2x3"), 0)
    expected = "hard" if "hard" in agent_names() else "random"
    assert agent.fallback.name == expected


def test_other_games_are_refused():
    with pytest.raises(ValueError, match="plays only clobber, not stomple"):
        make_agent("perfect", parlour.load_game("stomple"), 0)
