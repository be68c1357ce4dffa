"""The Gumbel search (parlour.agents.learned.search) on games whose answers are known.

A *bandit* is a root whose every action ends the game at once with a known value, so each
visited action's Q is exact and the search's choices and policy target follow from the
paper's formulas by hand. Clobber positions check the tree against the reference engine.
"""

from __future__ import annotations

import numpy as np
import pytest

import parlour
from parlour.agents.learned.games import ClobberAdapter, adapter_for
from parlour.agents.learned.gobblestones import view_planes
from parlour.agents.learned.network import Network
from parlour.agents.learned.search import (
    Described,
    GumbelConfig,
    GumbelSearch,
    Positions,
    considered_visits,
    softmax,
    take,
)
from parlour.batch import GobbleStonesBatch


class Bandit:
    """Position 0 is the root (player 0 to move); action a leads to position a + 1, over, its
    value ``values[a]`` for player 0 (so -values[a] for player 1, who would move there)."""

    def __init__(self, values: list[float], legal: list[bool] | None = None) -> None:
        self.values = np.array(values, dtype=np.float32)
        self.num_actions = len(values)
        self.observation_shape = (1,)
        self.legal = np.array(legal if legal is not None else [True] * len(values))

    def describe(self, positions: Positions) -> Described:
        ids = positions["id"]
        root = ids == 0
        legal = np.where(root[:, None], self.legal[None, :], False)
        value = np.where(root, 0.0, -self.values[np.maximum(ids - 1, 0)]).astype(np.float32)
        return Described(legal, ~root, value, np.where(root, 0, 1))

    def observe(self, positions: Positions) -> np.ndarray:
        return np.zeros((len(positions["id"]), 1), dtype=np.float32)

    def expand(self, positions: Positions, actions: np.ndarray, rng: np.random.Generator):
        kids = {"id": actions.astype(np.int64) + 1}
        return kids, self.describe(kids), np.zeros((0, 1), dtype=np.float32)


def uniform(logits: np.ndarray | None = None, value: float = 0.0):
    def evaluate(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = obs.shape[0]
        out = np.zeros((n, 4), dtype=np.float32) if logits is None else np.tile(logits, (n, 1))
        return out.astype(np.float32), np.full(n, value, dtype=np.float32)

    return evaluate


def test_sequential_halving_schedule_follows_the_paper():
    # 8 actions and 24 simulations: one visit each, then 4 actions twice, 2 actions 4 more
    # times each (the schedule DeepMind's mctx tests)
    assert considered_visits(8, 24) == (
        0, 0, 0, 0, 0, 0, 0, 0,
        1, 1, 1, 1, 2, 2, 2, 2,
        3, 3, 4, 4, 5, 5, 6, 6,
    )
    assert considered_visits(1, 3) == (0, 1, 2)
    assert considered_visits(2, 5) == (0, 0, 1, 1, 2)


@pytest.mark.parametrize("rounds", [False, True], ids=["one at a time", "rounds"])
def test_the_search_plays_the_best_action_and_targets_the_improved_policy(rounds: bool):
    game = Bandit([0.2, -0.5, 0.9, 0.1])
    config = GumbelConfig(simulations=8, considered=4, gumbel_scale=0.0, rounds=rounds)
    result = GumbelSearch(game, uniform(), config).run({"id": np.zeros(1, np.int64)},
                                                       np.random.default_rng(0))
    # schedule (0, 0, 0, 0, 1, 1, 2, 2): each action once, then the best two (by Q: actions 2
    # and 0) twice more each; the best of the most visited is played
    assert list(result.visits[0]) == [3, 1, 3, 1]
    assert result.action[0] == 2
    # every action was visited, so completed Q is the exact value of each action
    q = np.array([0.2, -0.5, 0.9, 0.1])
    np.testing.assert_allclose(result.q[0], q, atol=1e-6)
    scaled = (q - q.min()) / (q.max() - q.min())
    sigma = (50 + result.visits[0].max()) * 0.1 * scaled
    np.testing.assert_allclose(result.policy[0], softmax(sigma), rtol=1e-5)


@pytest.mark.parametrize("rounds", [False, True], ids=["one at a time", "rounds"])
def test_unvisited_actions_are_completed_with_the_mixed_value(rounds: bool):
    # 2 simulations over 4 actions: the two with the best prior are visited once each
    logits = np.array([2.0, 1.0, 0.0, 0.0], dtype=np.float32)
    game = Bandit([0.5, -0.5, 1.0, 1.0])
    config = GumbelConfig(simulations=2, considered=4, gumbel_scale=0.0, rounds=rounds)
    result = GumbelSearch(game, uniform(logits, value=0.3), config).run(
        {"id": np.zeros(1, np.int64)}, np.random.default_rng(0))
    assert list(result.visits[0]) == [1, 1, 0, 0]
    prior = softmax(logits)
    weighted = (prior[0] * 0.5 + prior[1] * -0.5) / (prior[0] + prior[1])
    mixed = (0.3 + 2 * weighted) / 3  # (raw value + sum of visits * weighted Q) / (1 + visits)
    np.testing.assert_allclose(result.q[0], [0.5, -0.5, mixed, mixed], rtol=1e-5)
    assert result.action[0] == 0  # only visited actions can be played


def test_gumbel_noise_samples_the_candidates():
    # with one simulation the search plays its first candidate, the top of g + logits:
    # a Gumbel-max sample of the prior
    logits = np.log(np.array([0.5, 0.25, 0.125, 0.125], dtype=np.float32))
    game = Bandit([0.0, 0.0, 0.0, 0.0])
    search = GumbelSearch(game, uniform(logits), GumbelConfig(1, 4, gumbel_scale=1.0))
    rng = np.random.default_rng(5)
    counts = np.zeros(4)
    for _ in range(2000):
        counts[search.run({"id": np.zeros(1, np.int64)}, rng).action[0]] += 1
    np.testing.assert_allclose(counts / counts.sum(), np.exp(logits), atol=0.035)


@pytest.mark.parametrize("rounds", [False, True], ids=["one at a time", "rounds"])
def test_illegal_actions_are_never_searched_nor_targeted(rounds: bool):
    game = Bandit([0.9, 0.1, 0.8, -0.2], legal=[False, True, True, True])
    result = GumbelSearch(game, uniform(), GumbelConfig(6, 4, 1.0, rounds=rounds)).run(
        {"id": np.zeros(3, np.int64)}, np.random.default_rng(1))
    assert (result.visits[:, 0] == 0).all() and (result.policy[:, 0] == 0).all()
    assert 0 not in set(result.action)
    np.testing.assert_allclose(result.policy.sum(axis=1), 1.0, rtol=1e-5)


def test_rounds_and_one_at_a_time_agree_on_clobber_without_noise():
    """Both orders visit the same actions as often and reach nearly the same values: only
    the re-ranking of the survivors inside a phase differs."""
    game = parlour.load_game("clobber")
    adapter = ClobberAdapter(game)
    positions = _clobber_positions(adapter, 16, 4, seed=9)
    net = Network.random(
        {"trunk": "mlp", "hidden": [32], "value_hidden": 8, "input_shape": [3, 5, 6],
         "actions": 120}, np.random.default_rng(2))
    results = [GumbelSearch(adapter, net, GumbelConfig(48, 8, 0.0, rounds=r)).run(
        positions, np.random.default_rng(0)) for r in (False, True)]
    one, many = results
    assert (one.visits.sum(axis=1) == 48).all() and (many.visits.sum(axis=1) == 48).all()
    assert (np.sort(one.visits, axis=1) == np.sort(many.visits, axis=1)).all()
    assert (one.action == many.action).mean() >= 0.75
    for result in results:
        for i, action in enumerate(result.action):
            assert result.legal[i, action]


def test_a_finished_game_is_refused_as_a_root():
    with pytest.raises(ValueError, match="finished"):
        GumbelSearch(Bandit([0.0]), uniform(), GumbelConfig(2, 1)).run(
            {"id": np.ones(1, np.int64)}, np.random.default_rng(0))


def _clobber_positions(adapter: ClobberAdapter, n: int, plies: int, seed: int):
    rng = np.random.default_rng(seed)
    positions = adapter.initial(n, rng)
    for _ in range(plies):
        legal = adapter.describe(positions).legal
        if not legal.any(axis=1).all():
            break
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in legal])
        positions = adapter.children(positions, actions, rng)
    return positions


def test_clobber_children_are_the_reference_engine_s():
    game = parlour.load_game("clobber")
    adapter = ClobberAdapter(game)
    rng = np.random.default_rng(0)
    positions = _clobber_positions(adapter, 6, 7, seed=3)
    legal = adapter.describe(positions).legal
    batch = adapter._batch(positions)
    for i in range(6):
        state = batch.state(i)
        actions = np.flatnonzero(legal[i])
        assert list(actions) == state.legal_actions()
        parents = {k: np.repeat(v[i : i + 1], actions.size, axis=0) for k, v in positions.items()}
        kids, described, obs = adapter.expand(parents, actions, rng)
        for j, action in enumerate(actions):
            child = state.child(int(action))
            assert adapter._batch({k: v[j : j + 1] for k, v in kids.items()}).state(0).position(
            ) == child.position()
            assert list(np.flatnonzero(described.legal[j])) == child.legal_actions()
            assert described.terminal[j] == child.is_terminal()
            assert described.player[j] == child.to_move
        live = np.flatnonzero(~described.terminal)
        for row, j in enumerate(live):
            child = state.child(int(actions[j]))
            np.testing.assert_array_equal(obs[row], child.observation_tensor(child.to_move))


@pytest.mark.parametrize("size,transposes", [("5x6", False), ("5x7", True), ("4x4", True)])
def test_clobber_mirror_images_carry_moves_and_tensors_over(size: str, transposes: bool):
    """Each symmetry's image, written out as a position (transposed: a board of columns x
    rows) and read by the reference rules: the same legal moves, the same tensor."""
    game = parlour.load_game("clobber", size=size)
    adapter = ClobberAdapter(game)
    positions = _clobber_positions(adapter, 8, 5, seed=4)
    batch = adapter._batch(positions)
    obs, legal = adapter.observe(positions), adapter.describe(positions).legal
    symmetries = adapter.symmetries(transposes=transposes)
    assert len(symmetries) == (7 if transposes else 3)
    for symmetry in symmetries:
        assert sorted(symmetry.actions) == list(range(adapter.num_actions))  # a permutation
        for i in range(8):
            state = batch.state(i)
            rows = state.position().split(" ")[0].split("/")
            if symmetry.transpose:
                rows = ["".join(r[c] for r in rows) for c in range(len(rows[0]))]
            if symmetry.flip_rows:
                rows = rows[::-1]
            if symmetry.flip_columns:
                rows = [r[::-1] for r in rows]
            text = "/".join(rows) + " " + state.position().split(" ")[1]
            image = parlour.load_game("clobber", position=text).new_initial_state()
            assert sorted(symmetry.actions[np.flatnonzero(legal[i])]) == image.legal_actions()
            np.testing.assert_array_equal(symmetry.observation(obs[i : i + 1])[0],
                                          image.observation_tensor(image.to_move))


def _gobblestones_positions(n: int, decisions: int, seed: int):
    adapter = adapter_for(parlour.load_game("gobblestones"))
    rng = np.random.default_rng(seed)
    positions = adapter.initial(n, rng)
    for _ in range(decisions):
        legal = adapter.describe(positions).legal
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in legal])
        positions = adapter.children(positions, actions, rng)
    return adapter, positions


def test_gobblestones_searches_worlds_its_player_cannot_tell_from_the_game():
    adapter, positions = _gobblestones_positions(4, 30, seed=5)
    worlds = adapter.search_roots(positions, np.random.default_rng(1))
    assert "state" not in worlds  # search positions: the batched engine's arrays
    described = adapter.describe(worlds)
    obs = adapter.observe(worlds)
    for i, state in enumerate(positions["state"]):
        player = state.current_player()
        world = adapter._load_arrays(take(worlds, np.array([i]))).state(0)
        assert world.current_player() == player
        assert world.view(player) == state.view(player)  # the same for the player (G-3)
        assert sorted(np.flatnonzero(described.legal[i])) == state.legal_actions()
        np.testing.assert_array_equal(obs[i], view_planes(state.view(player)))
    assert (described.player == [s.current_player() for s in positions["state"]]).all()
    # the other rack and the bag were drawn, not read: across worlds they differ somewhere
    racks = [adapter.search_roots(positions, np.random.default_rng(k))["racks"]
             for k in range(4)]
    assert any(not np.array_equal(racks[0], other) for other in racks[1:])


def test_gobblestones_mirror_images_move_squares_and_planes_together():
    adapter, positions = _gobblestones_positions(2, 12, seed=6)
    obs = adapter.observe(positions)
    size = adapter.observation_shape[1]
    squares = size * size
    for symmetry in adapter.symmetries():
        image = symmetry.observation(obs)
        assert sorted(symmetry.actions[:squares]) == list(range(squares))  # a permutation
        assert list(symmetry.actions[squares:]) == list(range(squares, adapter.num_actions))
        for square in (0, 7, 37, 112, 224):
            r, c = divmod(square, size)
            rr, cc = divmod(int(symmetry.actions[square]), size)
            np.testing.assert_array_equal(image[:, :, rr, cc], obs[:, :, r, c])


def test_gobblestones_children_replay_the_reference_engine():
    """A search position's child, made by the batched engine with the tile draws after the
    move sampled, is a position the reference engine reaches by the same move and draws."""
    adapter, positions = _gobblestones_positions(3, 20, seed=7)
    roots = adapter.search_roots(positions, np.random.default_rng(2))
    legal = adapter.describe(roots).legal
    rng = np.random.default_rng(3)
    for _step in range(12):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in legal])
        kids, described, obs = adapter.expand(roots, actions, rng)
        live = ~described.terminal
        assert obs.shape == (int(live.sum()), *adapter.observation_shape)
        for i in range(3):
            before = adapter._load_arrays(take(roots, np.array([i]))).state(0)
            after = adapter._load_arrays(take(kids, np.array([i]))).state(0)
            assert not after.is_chance_node()  # chance after the move is settled in the child
            before.apply_action(int(actions[i]))
            while before.is_chance_node():  # the draws the child made, in order
                seat = before.snapshot().drawer
                drawn = [c for c in range(5) if after.snapshot().racks[seat][c]
                         > before.snapshot().racks[seat][c]]
                before.apply_action(drawn[0])
            assert GobbleStonesBatch.reference_snapshot(before) == (
                GobbleStonesBatch.reference_snapshot(after))
        if live.all():
            roots, legal = kids, described.legal
        else:
            break
