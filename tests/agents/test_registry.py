"""Agents by name: the registry, specs with options, and the named strengths."""

from __future__ import annotations

import pytest

import parlour
from parlour.agents import (
    GreedyAgent,
    MCTSAgent,
    RandomAgent,
    agent_descriptions,
    agent_names,
    knowledge_for,
    make_agent,
    parse_agent_spec,
)
from parlour.agents.clobber_search import HARD_SECONDS, ClobberSearchAgent
from parlour.agents.strengths import EASY_EPSILON, HARD_CEILING, MEDIUM_SECONDS


@pytest.fixture
def clobber():
    return parlour.load_game("clobber")


def test_the_documented_agents_are_registered() -> None:
    assert {"random", "greedy", "mcts", "easy", "medium", "hard"} <= set(agent_names())
    assert all(agent_descriptions()[name] for name in ("random", "easy", "medium", "hard"))


def test_a_spec_splits_into_name_and_typed_options() -> None:
    assert parse_agent_spec("mcts:iterations=400:c=1.2:solver=false:x=abc") == (
        "mcts",
        {"iterations": 400, "c": 1.2, "solver": False, "x": "abc"},
    )
    assert parse_agent_spec(" hard ") == ("hard", {})


def test_options_reach_the_agent(clobber) -> None:
    agent = make_agent("mcts:iterations=7:c=0.5", clobber, 1)
    assert isinstance(agent, MCTSAgent)
    assert (agent.iterations, agent.time, agent.c) == (7, None, 0.5)
    assert agent.name == "mcts:iterations=7:c=0.5"
    keyword = make_agent("mcts", clobber, 1, iterations=9)
    assert keyword.iterations == 9 and keyword.name == "mcts:iterations=9"


def test_named_strengths_are_the_documented_agents_and_budgets(clobber) -> None:
    easy, medium, hard = (make_agent(n, clobber, 0) for n in ("easy", "medium", "hard"))
    assert isinstance(easy, GreedyAgent) and easy.epsilon == EASY_EPSILON
    assert isinstance(medium, MCTSAgent) and medium.time == MEDIUM_SECONDS
    # hard plays Clobber with its own program (proofs, then compiled MCTS); MCTS elsewhere
    assert isinstance(hard, ClobberSearchAgent) and hard.time == HARD_SECONDS
    assert medium.iterations is None and hard.iterations is None


@pytest.mark.parametrize("name", ["stomple", "gobblestones"])
def test_stomple_and_gobblestones_strengths_search_fixed_iterations(name: str) -> None:
    game = parlour.load_game(name, players=3)
    medium, hard = make_agent("medium", game, 0), make_agent("hard", game, 0)
    budget = knowledge_for(game).search_iterations
    assert budget is not None
    assert isinstance(medium, MCTSAgent) and isinstance(hard, MCTSAgent)
    assert (medium.iterations, medium.time) == (budget[0], MEDIUM_SECONDS)
    assert (hard.iterations, hard.time) == (budget[1], HARD_CEILING)
    assert hard.iterations >= 10 * medium.iterations
    easy = make_agent("easy", game, 0)
    assert isinstance(easy, GreedyAgent)
    assert easy.epsilon == (0.5 if name == "gobblestones" else EASY_EPSILON)
    # a budget given replaces the normal one whole: iterations alone reproduce from the seed
    assert (make_agent("hard:iterations=50", game, 0).time, make_agent("hard:time=0.1", game,
                                                                        0).iterations) == (
        None, None)


def test_an_iteration_budget_replaces_a_strengths_time_budget(clobber) -> None:
    hard = make_agent("hard:iterations=50", clobber, 0)
    assert (hard.iterations, hard.time) == (50, None)
    assert make_agent("hard:time=0.01", clobber, 0).time == 0.01


def test_an_unknown_agent_names_the_known_ones(clobber) -> None:
    with pytest.raises(ValueError, match=r"known agents: .*hard"):
        make_agent("grandmaster", clobber)


@pytest.mark.parametrize(
    "spec", ["random:depth=3", "mcts:iterations", "mcts:iterations=0", "greedy:epsilon=2"]
)
def test_bad_options_are_value_errors(clobber, spec: str) -> None:
    with pytest.raises(ValueError):
        make_agent(spec, clobber)


def test_random_is_the_base_agent(clobber) -> None:
    assert isinstance(make_agent("random", clobber, 0), RandomAgent)


def test_the_registry_says_which_games_an_agent_plays() -> None:
    from parlour.agents import agent_games, agents_for, plays

    assert agent_games("hard") is None  # the strengths play every game
    assert agent_games("plank-risk") == frozenset({"stomp-the-plank"})
    assert plays("hard:time=0.1", "clobber") and not plays("plank-stop-2", "clobber")
    assert "perfect" in agents_for("clobber") and "perfect" not in agents_for("stomple")
    for game in parlour.list_games():
        offered = agents_for(game)
        assert {"random", "easy", "medium", "hard"} <= set(offered)
        assert all(plays(name, game) for name in offered)
    with pytest.raises(ValueError, match="unknown agent"):
        agent_games("nobody")


def test_the_registry_says_which_configurations_an_agent_plays() -> None:
    """``net`` plays the configurations a network ships for: Clobber 5x6, not 6x6, and no
    GobbleStones; agents without a ``fits`` play every configuration of their games."""
    from parlour.agents import plays_configuration

    assert plays_configuration("net", parlour.load_game("clobber"))
    assert not plays_configuration("net", parlour.load_game("clobber", size="6x6"))
    assert not plays_configuration("net", parlour.load_game("gobblestones"))
    assert not plays_configuration("net", parlour.load_game("stomple"))
    assert plays_configuration("hard", parlour.load_game("clobber", size="6x6"))


def test_an_agent_refuses_a_game_it_does_not_play(clobber) -> None:
    with pytest.raises(ValueError, match="plays only stomp-the-plank"):
        make_agent("plank-risk", clobber, 1)
