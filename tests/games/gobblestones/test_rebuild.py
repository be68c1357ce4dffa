"""A GobbleStones state rebuilt from one seat's views (``Game.state_from_view``, for bots).

Along seeded random games of every configuration, each seat's views are handed over as JSON
(what a bot receives: no state, only views) to the seat's memory and to the rebuild: the
rebuilt state shows the seat exactly its view (G-3) with the same legal moves, it really
samples what the seat cannot see, it depends on the views alone, and a caught bluff's tiles
(B9) stay where the seat saw them go.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import parlour
from parlour.agents import PlayerView, make_agent
from parlour.core import pick_chance_outcome
from parlour.games.gobblestones.rebuild import GobbleStonesMemory

CONFIGS = [(players, bluff) for bluff in (False, True) for players in (2, 3, 4)]


def as_sent(view: dict[str, Any]) -> dict[str, Any]:
    """The view as it reaches a bot: through JSON."""
    loaded: dict[str, Any] = json.loads(json.dumps(view))
    return loaded


def play_along(players: int, bluff: bool, seed: int):
    """A seeded random game: yields ``(true state, [each seat's memory after its view])``."""
    game = parlour.load_game("gobblestones", players=players, bluff=bluff)
    rng = random.Random(seed)
    state = game.new_initial_state()
    memories = [game.seat_memory(p) for p in range(players)]
    while True:
        for p in range(players):
            memories[p].observe(as_sent(state.view(p)))
        yield state, memories
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(pick_chance_outcome(state.chance_outcomes(), rng.random()))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def hidden_parts(state, player: int) -> tuple[Any, ...]:
    """What ``player`` cannot see of a state: the others' racks, the others' face-down tiles
    and, bluffing, another seat's play (the bag is the rest)."""
    snap = state.snapshot()
    racks = tuple(r for seat, r in enumerate(snap.racks) if seat != player)
    down = tuple(sorted((s, snap.tile[s]) for s, o in snap.owner.items() if o != player))
    play = snap.pending if snap.bluff and snap.turn != player else ()
    return racks, down, play


@pytest.mark.parametrize(("players", "bluff"), CONFIGS)
def test_the_rebuilt_state_shows_the_seat_its_view_and_its_moves(players: int, bluff: bool):
    """G-3: ``view(rebuilt, p) == view(true, p)`` at every step, for every seat, with the same
    player to act and, for the seat to act, the same legal actions."""
    rng = random.Random(7)
    steps = 0
    for state, memories in play_along(players, bluff, seed=100 + players + 10 * bluff):
        steps += 1
        for p in range(players):
            view = as_sent(state.view(p))
            rebuilt = state.get_game().state_from_view(view, p, memories[p], rng)
            assert rebuilt.view(p) == view
            assert rebuilt.current_player() == state.current_player()
            if state.current_player() == p:
                assert rebuilt.legal_actions() == state.legal_actions()
    assert steps > 250  # a whole game, board and deal included


@pytest.mark.parametrize(("players", "bluff"), CONFIGS)
def test_the_rebuild_samples_what_the_seat_cannot_see(players: int, bluff: bool):
    """Rebuilt twice from one view, the hidden parts differ (it deals at random, it does not
    copy anything), while the view stays the same."""
    differed = 0
    for seed in range(200, 220):  # a random bluffing game may end after a few turns
        for state, memories in play_along(players, bluff, seed=seed):
            if state.is_chance_node() or state.snapshot().turns < 2 or state.is_terminal():
                continue
            p = (state.current_player() + 1) % players
            view = as_sent(state.view(p))
            rng = random.Random(1)
            deals = {
                hidden_parts(state.get_game().state_from_view(view, p, memories[p], rng), p)
                for _ in range(12)
            }
            differed += len(deals) > 1
            if differed >= 5:
                return
    pytest.fail("the rebuilt states did not differ")


@pytest.mark.parametrize(("players", "bluff"), [(2, True), (3, False)])
def test_the_rebuild_reads_the_views_alone(players: int, bluff: bool):
    """Two worlds the seat cannot tell apart (the true one and one sampled for the seat)
    give the same rebuilt state for the same random numbers: nothing of the true state but
    its view reaches the rebuild."""
    checked = differed = 0
    for seed in range(300, 320):  # a random bluffing game may end after a few turns
        for state, memories in play_along(players, bluff, seed=seed):
            if state.is_chance_node() or state.is_terminal() or state.snapshot().turns < 2:
                continue
            p = (state.current_player() + 1) % players
            other = state.sample_world(p, random.Random(checked))
            differed += hidden_parts(other, p) != hidden_parts(state, p)
            game = state.get_game()
            one = game.state_from_view(as_sent(state.view(p)), p, memories[p], random.Random(5))
            two = game.state_from_view(as_sent(other.view(p)), p, memories[p], random.Random(5))
            assert one.position() == two.position()
            checked += 1
            if checked % 10 == 0:
                break  # on to another game
        if checked == 20:
            break
    assert checked == 20 and differed > 10


def kept_tiles(state, player: int, memory: GobbleStonesMemory) -> list[tuple[int, Counter[str],
                                                                              Counter[str]]]:
    """Per caught bluff (B9) of another seat the memory holds: the tiles that must still be
    the mover's (returned, less those a later challenge found laid correctly) and the tiles
    the mover has where they may be (rack, play under way, face-down tiles laid since)."""
    snap = state.snapshot()
    out = []
    for k, c in enumerate(memory.challenges):
        if c.correct or c.mover == player:
            continue
        must = Counter(letter for _sq, letter in c.tiles)
        for later in memory.challenges[k + 1:]:
            if later.mover == c.mover and later.correct:
                must.subtract(letter for _sq, letter in later.tiles)
        must = +must
        have = Counter(dict(zip("RYGBP", snap.racks[c.mover], strict=True)))
        if snap.turn == c.mover:
            have.update("RYGBP"[colour] for _s, colour in snap.pending)
        for square, owner in snap.owner.items():
            name = f"{'abcdefghijklmno'[square % 15]}{15 - square // 15}"
            if owner == c.mover and name not in c.down_before:
                have["RYGBP"[snap.tile[square]]] += 1
        out.append((c.mover, must, have))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_caught_bluffs_tiles_stay_with_its_mover(players: int):
    """B9: the tiles of a play caught wrong went back to the mover's rack before everyone's
    eyes; every rebuilt state (and every world the rebuilt state samples for an agent) keeps
    them there, or among the tiles the mover has laid face down since. The true games satisfy
    the same rule (the memory claims nothing false)."""
    rng = random.Random(11)
    caught = 0
    for state, memories in play_along(players, True, seed=400 + players):
        if state.is_terminal():
            break
        for p in range(players):
            memory = memories[p]
            assert isinstance(memory, GobbleStonesMemory)
            truth = kept_tiles(state, p, memory)
            if not truth:
                continue
            caught += 1
            for _mover, must, have in truth:
                assert not must - have  # the real game
            rebuilt = state.get_game().state_from_view(as_sent(state.view(p)), p, memory, rng)
            world = rebuilt.sample_world(p, rng)
            assert world.view(p) == state.view(p)
            for sampled in (rebuilt, world):
                for _mover, must, have in kept_tiles(sampled, p, memory):
                    assert not must - have
    assert caught > 20


@pytest.mark.parametrize("spec", ["random", "easy", "medium:time=0.05", "hard:iterations=60",
                                  "mcts:iterations=50"])
def test_agents_decide_unchanged_from_a_rebuilt_state(spec: str):
    """The agents determinise through their PlayerView: on a rebuilt state they choose one
    of the seat's real legal moves, in the play and in a challenge round (B9)."""
    game = parlour.load_game("gobblestones", players=3, bluff=True)
    agent = make_agent(spec, game, 3)
    rng = random.Random(3)
    phases: set[str] = set()
    for state, memories in play_along(3, True, seed=500):
        if state.is_terminal() or len(phases) == 2:
            break
        p = state.current_player()
        if p < 0 or state.phase.value in phases or state.snapshot().turns < 3:
            continue
        rebuilt = game.state_from_view(as_sent(state.view(p)), p, memories[p], rng)
        assert agent.step(PlayerView(rebuilt, p)) in state.legal_actions()
        phases.add(state.phase.value)
    assert phases == {"play", "challenge"}


def test_a_view_of_another_game_or_seat_is_refused():
    game = parlour.load_game("gobblestones")
    view = game.new_initial_state().view(0)
    with pytest.raises(ValueError):
        game.state_from_view(view, 1)
    with pytest.raises(ValueError):
        parlour.load_game("gobblestones", players=3).state_from_view(view, 0)
