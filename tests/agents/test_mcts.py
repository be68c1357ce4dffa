"""MCTS: forced wins found, proofs that agree with exhaustive search, chance nodes, reuse."""

from __future__ import annotations

import functools
import random

import pytest

import parlour
from parlour.agents import MCTSAgent, make_agent
from parlour.core import Game, State

from .helpers import imperfect, play, player_states


def exhaustive(game: Game):
    """The game-theoretic value of a Clobber position for the side to move (+1 / -1).

    A plain negamax over the game's own legal moves, memoised on the position text: the
    reference the solver's proofs are checked against.
    """

    @functools.cache
    def value(position: str) -> int:
        state = game.state_from_position(position)
        if state.is_terminal():
            return -1  # C5: no move, the side to move has lost
        return max(-value(state.child(a).position()) for a in state.legal_actions())

    return value


def winning_moves(game: Game, state: State) -> list[int]:
    value = exhaustive(game)
    return [a for a in state.legal_actions() if value(state.child(a).position()) == -1]


def random_positions(game: Game, seed: int, count: int) -> list[State]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(1, game.max_game_length())):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            found.append(state)
    return found


def test_mcts_finds_the_only_winning_move_in_small_clobber_positions() -> None:
    game = parlour.load_game("clobber", rows=3, columns=4)
    tested = 0
    for state in random_positions(game, seed=1, count=400):
        legal = state.legal_actions()
        wins = winning_moves(game, state)
        if len(legal) < 4 or len(wins) != 1:
            continue
        agent = make_agent("mcts:iterations=3000", game, tested)
        assert agent.step(state) == wins[0], state.position()
        tested += 1
        if tested == 6:
            break
    assert tested == 6


def test_the_one_winning_move_of_a_5x6_position_is_found_and_proven() -> None:
    # Found by random play and checked here by exhaustive search: Black to move has eight
    # moves, and only one of them wins.
    game = parlour.load_game("clobber")
    state = game.state_from_position(".x..x./xo..o./..oox./o.x.o./.o..x. x")
    wins = winning_moves(game, state)
    assert len(state.legal_actions()) == 8 and len(wins) == 1
    agent = make_agent("mcts:iterations=4000", game, 0)
    assert agent.step(state) == wins[0]
    assert agent.last_search["proven"] == (-1.0, 1.0)  # Black (player 1) wins


def test_solver_proofs_agree_with_exhaustive_search() -> None:
    game = parlour.load_game("clobber", rows=3, columns=4)
    value = exhaustive(game)
    proven = 0
    for k, state in enumerate(random_positions(game, seed=7, count=30)):
        agent = make_agent("mcts:iterations=1500", game, k)
        agent.step(state)
        proof = agent.last_search["proven"]
        if proof is not None:
            proven += 1
            assert proof[state.current_player()] == value(state.position())
    assert proven >= 10


def test_without_the_solver_nothing_is_proven() -> None:
    game = parlour.load_game("clobber", rows=3, columns=4)
    state = random_positions(game, seed=7, count=1)[0]
    agent = make_agent("mcts:iterations=500:solver=false", game, 0)
    agent.step(state)
    assert agent.last_search["proven"] is None


def immediate_wins(state: State) -> list[int]:
    me = state.current_player()
    top = state.get_game().max_utility()
    return [
        a for a in state.legal_actions()
        if (child := state.child(a)).is_terminal() and child.returns()[me] >= top
    ]


@pytest.mark.parametrize("name", parlour.list_games())
@pytest.mark.parametrize("spec", ["mcts:iterations=120", "greedy"])
def test_an_immediate_win_is_taken(name: str, spec: str) -> None:
    """Every game: where one action ends the game in the mover's favour, agents take one."""
    game = parlour.load_game(name)
    found = 0
    rng = random.Random(3)
    for _ in range(300):
        state = game.new_initial_state()
        while not state.is_terminal() and found < 3:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            wins = immediate_wins(state)
            if wins and len(wins) < len(state.legal_actions()):
                assert make_agent(spec, game, found).step(state) in wins
                found += 1
            state.apply_action(rng.choice(state.legal_actions()))
        if found >= 3:
            break
    if name == "gobblestones":
        return  # a play never ends the game at once in the player's favour with 2 players
    assert found >= 1, f"no state with an immediate win found in {name}"


def test_hard_beats_random_at_clobber() -> None:
    """``hard`` with an iteration budget (a small, reproducible stand-in for its second)."""
    game = parlour.load_game("clobber")
    wins = 0
    for seed in range(10):
        specs = ["hard:iterations=300", "random"]
        if seed % 2:
            specs.reverse()
        final = play(game, specs, seed)
        wins += final.returns()[specs.index("hard:iterations=300")] > 0
    assert wins >= 9


@pytest.mark.parametrize("name", parlour.list_games())
def test_hidden_information_games_search_information_sets(name: str) -> None:
    game = parlour.load_game(name)
    agent = make_agent("mcts:iterations=30", game, 0)
    assert isinstance(agent, MCTSAgent)
    assert agent.perfect == (not imperfect(game))
    assert agent.solver == agent.perfect and agent.reuse == agent.perfect


def test_the_tree_is_kept_between_moves() -> None:
    game = parlour.load_game("clobber")
    agent = make_agent("mcts:iterations=2000", game, 0)
    state = game.new_initial_state()
    state.apply_action(agent.step(state))
    kept = agent._root  # the subtree below the move played: a reply it has searched
    reply = max(zip(kept.n, kept.actions, strict=True))[1]
    state.apply_action(reply)
    agent.step(state)
    assert agent.last_search["root_visits"] > 2000  # it started from the visits already made
    fresh = make_agent("mcts:iterations=2000:reuse=false", game, 0)
    fresh.step(state)
    assert fresh.last_search["root_visits"] == 2000


def test_same_seed_same_game_and_time_budget_runs() -> None:
    game = parlour.load_game("clobber", rows=4, columns=4)
    one = play(game, ["mcts:iterations=60", "greedy"], 4).history()
    two = play(game, ["mcts:iterations=60", "greedy"], 4).history()
    assert one == two
    timed = make_agent("mcts:time=0.02", game, 0)
    assert timed.step(game.new_initial_state()) in game.new_initial_state().legal_actions()
    assert timed.last_search["iterations"] >= 1


@pytest.mark.parametrize("name", parlour.list_games())
def test_every_game_replays_the_same_with_the_same_seeds(name: str) -> None:
    game = parlour.load_game(name, **({"rounds": 1} if name == "stomple" else {}))
    specs = ["mcts:iterations=15:rollout_depth=10", "greedy:budget=50"]
    assert play(game, specs, 1).history() == play(game, specs, 1).history()


def test_player_states_helper_finds_decisions() -> None:
    assert len(player_states(parlour.load_game("clobber"), 5)) == 5


def test_information_set_mcts_beats_random_at_gobblestones() -> None:
    game = parlour.load_game("gobblestones")
    wins = 0
    for seed in range(4):
        specs = ["hard:iterations=60", "random"]
        if seed % 2:
            specs.reverse()
        wins += play(game, specs, seed).returns()[specs.index("hard:iterations=60")] > 0
    assert wins == 4


@pytest.mark.parametrize("spec", ["mcts:iterations=200", "mcts:iterations=200:time=60"])
def test_information_set_search_draws_a_fresh_world_every_few_iterations(monkeypatch,
                                                                          spec: str) -> None:
    """With an iteration budget the search draws one world in ``WORLD_EVERY`` from the view
    (a rule without a clock, so it reproduces from its seed, also when a time caps it as for
    the named strengths), and searches copies of drawn worlds in between; it never searches
    the true state."""
    from parlour.agents import mcts
    from parlour.games.gobblestones import GobbleStonesState

    game = parlour.load_game("gobblestones")
    state = player_states(game, 1, seed=3)[0]
    drawn: list[State] = []
    sample = GobbleStonesState.sample_world

    def counting(self, player, rng):
        world = sample(self, player, rng)
        drawn.append(world)
        return world

    monkeypatch.setattr(GobbleStonesState, "sample_world", counting)
    agent = make_agent(spec, game, 0)
    agent.step(state)
    assert agent.last_search["iterations"] == 200  # no action wins at once here: it searched
    assert len(drawn) == mcts.DECISIVE_WORLDS + 200 // mcts.WORLD_EVERY
    assert all(world is not state for world in drawn)
