"""The endless-deck win-chance table (``odds``) against a solver that asks the engine.

The reference below knows nothing of the rules except the one assumption the table makes (a
draw matches with chance ``cards / 7``): every stop, step, tip and last-spot win is obtained by
applying actions to real game states built from position text (P2-P6).
"""

from __future__ import annotations

import itertools

import pytest

import parlour
from parlour.games.stomp_the_plank import DRAW, STOP, TREASURES
from parlour.games.stomp_the_plank.odds import solvable, win_chances

SMALL = {"crates": "0,1,2", "tip_at": 5, "step_weight": 2}


def planks(game: parlour.Game) -> list[tuple[int, int]]:
    plank = game.plank  # type: ignore[attr-defined]
    return [(c, s) for s in range(plank.tip_at + 1) for c in range(plank.tip_at)
            if not plank.tips(c, s)]


def position(k: int, me: tuple[int, int], other: tuple[int, int], supply: int) -> str:
    pontoon = ",".join(TREASURES[:k]) or "-"
    phase = "choose" if k else "start"
    return (f"turn=1 active=0 phase={phase} pontoon={pontoon} discards=0,0,0,0,0,0,0 "
            f"supply={supply - me[0] - other[0]} planks={me[0]}/{me[1]},{other[0]}/{other[1]}")


def engine_moves(game: parlour.Game) -> dict[tuple[int, tuple, tuple], dict]:
    """Every choice of the table, with what the engine does after it (player 0 to act)."""
    spots = game.spots  # type: ignore[attr-defined]
    moves = {}
    for k, me, other in itertools.product(range(spots), planks(game), planks(game)):
        state = game.state_from_position(position(k, me, other, game.params["supply"]))
        drawn = state.child(DRAW)
        moves[(k, me, other)] = {
            "stop": outcome(state.child(STOP)) if k else None,
            "match": outcome(drawn.child(0)) if k else None,  # treasure 0 is on the pontoon
            "fresh": outcome(drawn.child(k)),  # treasure k is not
        }
    return moves


def value(values: dict, k: int, result: tuple[str, object]) -> float:
    """Player 0's chance after ``result``, from the values of the last sweep."""
    kind, data = result
    if kind == "over":
        return data  # type: ignore[return-value]
    mine, theirs = data  # type: ignore[misc]
    if kind == "next":  # the other player's turn: their chance, from their side
        return 1.0 - values[(0, theirs, mine)]
    return values[(k + 1, mine, theirs)]


def outcome(state) -> tuple[str, object]:
    """What the engine did: the game ended (1.0 if player 0 won), a new turn, or a choice."""
    if state.is_terminal():
        return "over", 1.0 if state.returns()[0] > 0 else 0.0
    if state.active_player == 1:
        return "next", (state.plank(0), state.plank(1))
    return "same", (state.plank(0), state.plank(1))


FIRST = {"tip_at": 20, "step_weight": 4}
"""P5's first defaults, before the P8 study moved them to 15/3: still a valid plank."""


@pytest.mark.parametrize("params", [SMALL, {"crates": "1,3", "tip_at": 6, "step_weight": 3}, {},
                                    FIRST])
def test_the_table_agrees_with_every_transition_of_the_engine(params) -> None:
    # P2 (last spot wins), P3 (stop gives crates), P4 (a match steps), P5 (tipping), P6: each
    # value is the better of stopping and drawing, judged by what the engine does next.
    game = parlour.load_game("stomp-the-plank", **params)
    table = win_chances(game.crates, game.plank)  # type: ignore[attr-defined]
    values = {key: table.chance(*key) for key in engine_moves(game)}
    for (k, me, other), entry in engine_moves(game).items():
        draw = (1 - k / len(TREASURES)) * value(values, k, entry["fresh"])
        if k:
            draw += k / len(TREASURES) * value(values, k, entry["match"])
        assert table.chance(k, me, other, drawing=True) == pytest.approx(draw, abs=1e-12)
        best = max(draw, value(values, k, entry["stop"])) if k else draw
        assert values[(k, me, other)] == pytest.approx(best, abs=1e-12), (k, me, other)


def test_when_both_would_rather_pass_forever_the_game_is_a_draw() -> None:
    # The only turn that adds no load is a stop on spot 1 (0 crates, P2): if neither player
    # gains by drawing on, passing goes on until the turn limit, which ends with no loser.
    # Under the P5 default (15/3) drawing on is always worth it for one side; under the first
    # default, 20/4, 25 pairs of planks are such standoffs.
    default = parlour.load_game("stomp-the-plank")
    table = win_chances(default.crates, default.plank)  # type: ignore[attr-defined]
    assert all(max(table.chance(1, me, other, drawing=True),
                   table.chance(1, other, me, drawing=True)) > 0.5
               for me, other in itertools.product(planks(default), planks(default)))
    game = parlour.load_game("stomp-the-plank", **FIRST)
    table = win_chances(game.crates, game.plank)  # type: ignore[attr-defined]
    loops = 0
    for me, other in itertools.product(planks(game), planks(game)):
        if max(table.chance(1, me, other, drawing=True),
               table.chance(1, other, me, drawing=True)) <= 0.5:
            loops += 1
            assert table.chance(0, me, other) == 0.5
    assert loops == 25


def test_the_default_game_is_nearly_even_with_a_small_edge_for_the_first_player() -> None:
    game = parlour.load_game("stomp-the-plank")  # P5: tip_at=15, step_weight=3
    table = win_chances(game.crates, game.plank)  # type: ignore[attr-defined]
    start = table.chance(0, (0, 0), (0, 0))
    assert 0.51 < start < 0.52  # 51.6% with an endless deck (50.6% under the first 20/4)
    # One step behind is a clear disadvantage; a plank one crate from tipping a near loss.
    assert table.chance(0, (0, 1), (0, 0)) < 0.45
    assert table.chance(0, (14, 0), (0, 0)) < 0.05


def test_a_stop_that_tips_the_other_plank_is_a_sure_win() -> None:
    game = parlour.load_game("stomp-the-plank")
    table = win_chances(game.crates, game.plank)  # type: ignore[attr-defined]
    checked = 0
    for k, crates in itertools.product(range(2, 6), range(10, 15)):
        if crates + game.crates[k - 1] >= 15:  # type: ignore[attr-defined]
            assert table.chance(k, (0, 0), (crates, 0)) == 1.0
            checked += 1
    assert checked == 1 + 2 + 3 + 5  # spots 2-5 give 1, 2, 3 and 5 crates


@pytest.mark.parametrize(
    ("players", "params", "expected"),
    [(2, {}, True), (3, {}, False), (2, {"supply": 27}, False), (2, {"supply": 28}, True),
     (2, {"step_weight": 0}, False), (2, {**FIRST, "supply": 38}, True),
     (2, {**FIRST, "supply": 37}, False)],
)
def test_the_table_applies_only_where_its_assumptions_hold(players, params, expected) -> None:
    game = parlour.load_game("stomp-the-plank", players=players, **params)
    assert solvable(players, game.crates, game.plank, game.params["supply"]) is expected  # type: ignore[attr-defined]
