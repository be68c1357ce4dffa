"""Stomp the Plank: the player whose plank is closest to tipping is the likely loser.

Every plank's *balance* (``State.balance``: crates it can still take before it tips, P5) is
public. The chance that a player is the one to go overboard first is taken as a softmax of
minus the balances (one elephant step of balance is a large difference), and a player's value
is ``+1`` times the chance of not losing plus ``-1`` times the chance of losing (P6). A turn in
progress is judged as if the active player stopped now, since they always may.

With two players (and a supply that cannot run out) the evaluation is instead the chance to
win under perfect play with an endless deck, read from the game's solved table
(:mod:`parlour.games.stomp_the_plank.odds`): it knows the turn in progress, the chance of a
match and the last spot's win, which the balances alone do not. With it, MCTS at 0.1 s a
move (then ``hard``; now ``medium`` and ``easy`` search with it, while ``hard`` plays from the
tables directly, :mod:`parlour.agents.plank_hard`) beat ``random`` in 82% of 200 games
instead of 76%, and the best fixed strategy won 42% against it instead of 52% (measured under
P5's first plank, 20/4).

MCTS judges its leaves with this evaluation directly (``rollout_depth=0``): in this game of
long luck-driven turns a random playout says little, and the search with the evaluation beat
both full playouts and 40-ply playouts head to head at equal time. With ``rollout_depth`` > 0,
playouts follow :func:`cautious`.
"""

from __future__ import annotations

import math

from parlour.agents.evaluation import Knowledge, register_knowledge
from parlour.games.stomp_the_plank import DRAW, STOP, StompThePlankState
from parlour.games.stomp_the_plank.odds import solvable, win_chances

TEMPERATURE_STEPS = 0.75
"""Balance differences are measured in elephant steps, divided by this."""


def danger(state: StompThePlankState) -> list[float]:
    """Each player's value; mid-turn, as if the active player stopped now.

    The active player can always stop and hand out the crates of the spot reached (P3), so a
    turn in progress is worth at least that stop: judge the position after it (asking the
    game what stopping does, ``child(STOP)``), not the planks before it.
    """
    if state.is_terminal():
        return list(state.returns())
    solved = two_player_chances(state)
    if solved is not None:
        return solved
    if state.current_player() >= 0 and STOP in state.legal_actions():
        state = state.child(STOP)
        if state.is_terminal():
            return list(state.returns())
    return balances(state)


def two_player_chances(state: StompThePlankState) -> list[float] | None:
    """Both players' values from the solved endless-deck table; None where it does not apply."""
    game = state.get_game()
    params = game.params
    if not solvable(game.num_players(), game.crates, game.plank, params["supply"]):
        return None
    table = win_chances(game.crates, game.plank)
    active = state.active_player
    cards = len(state.pontoon())
    win = table.chance(cards, state.plank(active), state.plank(1 - active),
                       drawing=state.is_chance_node())
    values = [0.0, 0.0]
    values[active], values[1 - active] = 2.0 * win - 1.0, 1.0 - 2.0 * win
    return values


def balances(state: StompThePlankState) -> list[float]:
    """Each player's value from the planks' balances alone."""
    game = state.get_game()
    n = game.num_players()
    step = float(game.params["step_weight"]) or 1.0
    balances = [state.balance(p) for p in range(n)]
    low = min(balances)
    weights = [math.exp(-(b - low) / (step * TEMPERATURE_STEPS)) for b in balances]
    total = sum(weights)
    return [1.0 - 2.0 * w / total for w in weights]


def cautious(state: StompThePlankState, r: float) -> int:
    """Playouts: draw the card a turn must have, a second one only if a step cannot tip the
    player's own plank, then stop (P3, P4).

    Uniformly random play draws on far too long and walks into the water; a simple, sensible
    turn makes the playouts' verdicts much closer to what good players would see. The legal
    actions come from the game; only the choice between them is made here.
    """
    if STOP not in state.legal_actions():
        return DRAW
    cards = len(state.pontoon())
    me = state.current_player()
    safe = state.balance(me) > state.get_game().params["step_weight"]
    return DRAW if cards < 2 and safe else STOP


register_knowledge(
    "stomp-the-plank",
    Knowledge[StompThePlankState](danger, rollout_depth=0, greedy_turns=1,
                                  rollout_policy=cautious),
)
