"""Random playouts against an independent checker of B3-B6, plus invariants of every state."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.games.gobblestones.board import SIZE

from .helpers import game

CENTRES = {(r, c) for r in (2, 7, 12) for c in (2, 7, 12)}


def covered_cells(s) -> set[tuple[int, int]]:
    tile = s.snapshot().tile
    return {divmod(i, SIZE) for i in range(SIZE * SIZE) if tile[i] >= 0}


def reference_plays(s) -> set[tuple[tuple[int, int], ...]]:
    """Every legal play (squares in board order), straight from the rulings, by brute force."""
    covered = covered_cells(s)
    snap = s.snapshot()
    rack = list(snap.racks[snap.turn])
    for _square, tile in snap.pending:
        rack[tile] += 1
    colour = {divmod(i, SIZE): snap.colour[i] for i in range(SIZE * SIZE)}
    plays = set()
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in ((0, 1), (1, 0)):
                for length in range(1, 6):
                    if length == 1 and dr == 1:
                        continue
                    cells = [(r + dr * k, c + dc * k) for k in range(length)]
                    if any(not (0 <= x < SIZE and 0 <= y < SIZE) for x, y in cells):
                        break
                    if any(cell in covered for cell in cells):
                        break  # B4: empty squares, no gap of any kind
                    if length > sum(rack):
                        break
                    if not snap.bluff:  # B4: each tile matches its square, from the rack
                        need = [0] * 5
                        for cell in cells:
                            need[colour[cell]] += 1
                        if any(n > k for n, k in zip(need, rack, strict=True)):
                            break
                    after = covered | set(cells)
                    if any(  # B5: no 2 x 2 block anywhere (only blocks by new tiles can be new)
                        {(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)} <= after
                        for cx, cy in cells for x in (cx - 1, cx) for y in (cy - 1, cy)
                    ):
                        break
                    if not covered:
                        ok = any(cell in CENTRES for cell in cells)  # B3
                    else:
                        ok = any((x + a, y + b) in covered for x, y in cells
                                 for a, b in ((0, 1), (1, 0), (0, -1), (-1, 0)))  # B4
                    if ok:
                        plays.add(tuple(cells))
    return plays


def expected_steps(s, plays) -> set[str]:
    """The step strings that continue the pending play toward some legal play."""
    pending = [divmod(sq, SIZE) for sq, _c in s.snapshot().pending]
    names = set()
    for cells in plays:
        if list(cells[: len(pending)]) != pending:
            continue
        if len(cells) == len(pending):
            names.add("end")
        else:
            r, c = cells[len(pending)]
            names.add(f"{'abcdefghijklmno'[c]}{SIZE - r}")
    if not pending:
        names.add("pass")
    return names


def playout(params: dict, seed: int, check_every: int = 1):
    """Play at random; at every ``check_every``-th player step compare with the reference."""
    g = game(**params)
    rng = random.Random(seed)
    s = g.new_initial_state()
    steps = 0
    while not s.is_terminal():
        if s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(actions, probs)[0])
            continue
        if s.phase == "play" and steps % check_every == 0:
            strings = [s.action_to_string(a) for a in s.legal_actions()]
            names = {text.split(":")[0] for text in strings}
            assert names == expected_steps(s, reference_plays(s)), s.position()
            if s.snapshot().bluff:  # B9: any tile of the rack may go face down on a legal square
                rack = {c.lower() for c, k in s.rack(s.snapshot().turn).items() if k}
                tiles = {tuple(text.split(":")) for text in strings if ":" in text}
                assert tiles == {(n, c) for n in names - {"end", "pass"} for c in rack}
        steps += 1
        before = covered_cells(s)
        s.apply_action(rng.choice(s.legal_actions()))
        check_invariants(s, before)
    return s


def check_invariants(s, before) -> None:
    after = covered_cells(s)
    snap = s.snapshot()
    assert before <= after or snap.bluff, "tiles never leave the board, except a caught bluff"
    assert not any(  # B5
        {(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)} <= after
        for x in range(SIZE - 1) for y in range(SIZE - 1)
    )
    for i in range(SIZE * SIZE):  # B4: a face-up tile matches its square
        if snap.tile[i] >= 0 and i not in snap.owner:
            assert snap.tile[i] == snap.colour[i]
    total = [0] * 5
    for rack in [*snap.racks, snap.bag]:
        for c, k in enumerate(rack):
            total[c] += k
    for i in range(SIZE * SIZE):
        if snap.tile[i] >= 0:
            total[snap.tile[i]] += 1
    for _sq, c in snap.pending:
        total[c] += 1
    assert total == [20] * 5, "B2: 20 tiles of each colour, always"
    if not snap.bluff:  # B6: points are the values of the covered squares
        covered = [snap.value[i] for i in range(SIZE * SIZE) if snap.tile[i] >= 0]
        assert sum(snap.points) == sum(covered)


def test_b3_b4_b5_legal_steps_match_the_reference_in_a_normal_game():
    final = playout({}, seed=1, check_every=3)
    assert final.is_terminal()


def test_b9_legal_steps_match_the_reference_in_a_bluffing_game():
    final = playout({"bluff": True, "players": 3}, seed=2, check_every=3)
    assert final.is_terminal()


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), bluff=st.booleans())
def test_random_games_keep_the_invariants_and_replay_exactly(seed, players, bluff):
    final = playout({"players": players, "bluff": bluff}, seed=seed, check_every=10**9)
    assert final.end_reason in ("bag", "no-tiles", "passes", "max-turns")
    replay = final.game.new_state_from_actions(final.history())  # G-1
    assert replay.position() == final.position()
    assert replay.returns() == final.returns()
    assert any(r > 0 for r in final.returns())
