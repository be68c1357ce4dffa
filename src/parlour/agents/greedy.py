"""The greedy agent: the move whose end-of-turn position the game's evaluation likes best.

It looks one turn ahead: its own action, then any further actions of the same turn (a Stomple
string, another Stomp the Plank draw, the next tile of a GobbleStones play) searched
exhaustively as far as its budget allows, chance events averaged by their probabilities. Where
the game's knowledge asks for two turns (Clobber: a move wins by leaving the other side none),
it also searches the next player's best reply. The result is judged by the game's evaluation
(:mod:`parlour.agents.evaluation`), which knows the scoring; a win sooner counts a little more
than the same win later. With hidden information it averages over a few worlds sampled from its
own view.
"""

from __future__ import annotations

import math
import time as _time

from parlour.agents.base import Agent, register_agent
from parlour.agents.evaluation import knowledge_for
from parlour.agents.playerview import PlayerView
from parlour.core import TERMINAL_PLAYER, Game, State

GREEDY_SECONDS = 2.0
"""The default ceiling of a greedy move's thinking (see :class:`GreedyAgent`)."""
DISCOUNT = 0.999
"""Each further action of a line counts a little less: a win now beats the same win later."""


def _spread(n: int) -> list[int]:
    """The indices 0..n-1 in a fixed order spread over the range: a stride coprime with n
    near n times the golden ratio's fractional part (every index once)."""
    if n <= 2:
        return list(range(n))
    stride = max(1, int(n * 0.618))
    while math.gcd(stride, n) != 1:
        stride += 1
    return [(k * stride) % n for k in range(n)]


class GreedyAgent(Agent):
    """Best position at the end of its own turn, by the game's evaluation.

    ``worlds``: sampled worlds to average over when information is hidden; ``budget``:
    positions evaluated per move at most; ``chance_samples``: outcomes of a chance event looked
    at (all of them when there are no more); ``epsilon``: how often to play a random move
    instead (for weaker opponents); ``turns``: turns searched (0: the game's default, usually
    just its own; 2 adds the next player's best reply); ``time``: a ceiling in seconds (none by
    default) after which the best of the moves looked at so far is played: on the standard
    boards a move takes milliseconds, on a 99 x 26 Clobber board twenty seconds (the default
    ceiling, ``GREEDY_SECONDS``, is reached only there; ``time=None`` removes it). The moves are
    looked at spread over the board (a fixed stride through the legal moves), so a move cut
    short is still chosen from all of it, and the choice is the same as without a ceiling when
    the ceiling is not reached.
    """

    name = "greedy"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        *,
        worlds: int = 4,
        budget: int = 2000,
        chance_samples: int = 8,
        epsilon: float = 0.0,
        turns: int = 0,
        time: float | None = GREEDY_SECONDS,
    ) -> None:
        super().__init__(game, seed)
        if worlds < 1 or budget < 1 or chance_samples < 1 or not 0.0 <= epsilon <= 1.0:
            raise ValueError("greedy: worlds, budget, chance_samples >= 1 and 0 <= epsilon <= 1")
        if time is not None and time <= 0:
            raise ValueError("greedy: time must be > 0 seconds")
        self.time = time
        self.worlds = worlds
        self.budget = budget
        self.chance_samples = chance_samples
        self.epsilon = epsilon
        knowledge = knowledge_for(game)
        self.evaluate = knowledge.evaluate
        self.turns = turns if turns > 0 else knowledge.greedy_turns

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.epsilon and self.rng.random() < self.epsilon:
            return self.rng.choice(legal)
        me = view.player
        worlds = 1 if view.perfect_information else self.worlds
        share = max(1, self.budget // (worlds * len(legal)))
        totals = [0.0] * len(legal)
        order = _spread(len(legal))
        deadline = None if self.time is None else _time.perf_counter() + self.time
        looked = len(legal)
        for _ in range(worlds):
            world = view.sample_world(self.rng)
            for done, i in enumerate(order):
                if deadline is not None and done and _time.perf_counter() >= deadline:
                    looked = min(looked, done)
                    break
                totals[i] += self._value(world.child(legal[i]), me, self.turns, share)[me]
            if looked < len(legal):
                break
        seen = set(order[:looked])
        best = max(totals[i] for i in seen)
        return self.rng.choice(
            [a for i, (a, t) in enumerate(zip(legal, totals, strict=True))
             if i in seen and t >= best - 1e-9]
        )

    def _value(self, state: State, owner: int, turns: int, budget: int) -> list[float]:
        """Every player's value of ``state``, searched until ``turns`` turns have ended.

        ``owner`` is the player whose turn is being searched; each player maximises their own
        value (max^n), chance events are averaged.
        """
        player = state.current_player()
        if player == TERMINAL_PLAYER:
            return state.returns()
        if player >= 0 and player != owner:
            owner, turns = player, turns - 1
        if turns > 0 and budget > 1:
            if player >= 0:
                actions = state.legal_actions()
                share = (budget - 1) // len(actions)
                if share >= 1:
                    values = [
                        [DISCOUNT * v for v in self._value(state.child(a), owner, turns, share)]
                        for a in actions
                    ]
                    top = max(v[player] for v in values)
                    return self.rng.choice([v for v in values if v[player] >= top - 1e-9])
            else:
                outcomes = state.chance_outcomes()
                if len(outcomes) > self.chance_samples:
                    drawn = self.rng.choices(
                        [a for a, _ in outcomes], [p for _, p in outcomes], k=self.chance_samples
                    )
                    outcomes = [(a, 1.0 / len(drawn)) for a in drawn]
                share = (budget - 1) // len(outcomes)
                if share >= 1:
                    total = [0.0] * self.game.num_players()
                    for action, p in outcomes:
                        value = self._value(state.child(action), owner, turns, share)
                        for i, v in enumerate(value):
                            total[i] += p * v
                    return total
        return self.evaluate(state)


register_agent("greedy", GreedyAgent)
