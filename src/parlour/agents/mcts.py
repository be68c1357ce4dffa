"""Monte Carlo tree search: UCT with chance nodes, a solver, and information-set search.

One agent, two searches, picked by the game's declared information:

- **Perfect information** (Clobber, Stomple, Stomp the Plank -- whose deck is chance, not
  hidden): UCT over the real game tree (its one "sampled world" is a copy of the state).
  Chance nodes branch on their outcomes, sampled by probability. Proven results are backed
  up as in MCTS-Solver (Winands et al. 2008; max^n for several players, as OpenSpiel's
  ``MCTSBot``): a move into a proven win is played at once, proven losses are avoided, and
  the search stops when the root is proven. The tree is kept between moves and re-rooted at
  the position reached.
- **Hidden information** (GobbleStones): single-observer information-set MCTS
  (Cowling, Powley & Whitehouse 2012). Every iteration searches a fresh world drawn from the
  agent's own view (``sample_world``), so the search never depends on what the agent cannot
  see. Statistics are shared by action; a move's exploration term counts the iterations in
  which it was available. Chance events the searcher cannot observe (another player's hidden
  draw) are merged into one branch, so its tree splits only on what it will actually see.

Before any search, an action that wins at once (in every world looked at) is simply played.
Leaves are judged by playouts -- uniformly random, or the game's playout policy -- cut short
after ``rollout_depth`` plies by the game's evaluation (:mod:`parlour.agents.evaluation`) where
the game's knowledge asks for it.

Speed: nodes keep their children's statistics in flat lists (no per-child objects until a
child is reached), the tree descends on one cloned world per iteration, and the time budget is
read once per iteration. A game whose knowledge offers a compiled information-set search
(``Knowledge.compiled_search``: GobbleStones) runs its iterations in C: the same
iterations, the same random numbers, the same choices (the tests compare the two); the worlds
are still drawn here, from the view, and handed over once each.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from parlour.agents.base import Agent, register_agent
from parlour.agents.evaluation import knowledge_for
from parlour.agents.playerview import PlayerView
from parlour.core import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Game,
    Information,
    ParlourError,
    State,
    pick_chance_outcome,
)

DECISIVE_WORLDS = 4
"""Sampled worlds in which an action must win at once to be played without search."""
WORLD_SHARE = 0.2
"""Information-set search under a time budget: the largest share of its time spent drawing
fresh worlds from the view; past it, an iteration searches a copy of a world already drawn.
Drawing a world (``sample_world``) replays the game's hidden history and costs several
iterations' worth of search, so a fresh world for every iteration would spend most of the
time drawing."""
WORLD_EVERY = 32
"""Information-set search under an iteration budget (with or without a time ceiling): one
iteration in this many draws a fresh world, a rule that depends on no clock, so the search
reproduces from its seed. 32 because an iteration of GobbleStones' compiled search costs 5-12
us and a world drawn from the view 40-350 us: with one in four, drawing was three quarters of
the time; a time budget's ``WORLD_SHARE`` draws one world in 60-300 iterations there."""


PLAYOUT_CHUNK = 256
"""Actions a timed search's playout takes between looks at the clock (most playouts of the
standard boards end within one chunk)."""

class _Node:
    """A search node. Children's statistics live in the parent, in flat lists."""

    __slots__ = (
        "actions",
        "avail",
        "chance",
        "index",
        "kids",
        "merged",
        "n",
        "outcome",
        "outcomes",
        "player",
        "untried",
        "visits",
        "w",
    )

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.outcome: tuple[float, ...] | None = None  # proven returns (perfect information)
        self.actions: list[int] = []
        self.index: dict[int, int] = {}
        self.kids: list[_Node] = []
        self.n: list[int] = []
        self.w: list[float] = []
        self.avail: list[int] = []
        self.untried: list[int] = []
        self.chance: dict[int | None, _Node] = {}
        self.outcomes = 0  # number of chance outcomes (to know when all are expanded)
        self.merged: bool | None = None  # chance outcomes invisible to the searcher?


def _applier(cls: type[State]):
    """``apply(state, action)`` for states of ``cls``, for actions the search just read from
    that very state's ``legal_actions()`` or ``chance_outcomes()``.

    ``State.apply_action`` checks the action again (a second ``chance_outcomes()`` and a set
    per chance event), which costs about half of a playout in Stomp the Plank, so the search
    uses ``State.apply_trusted_action``. A game that overrides ``apply_action`` is always
    called through it.
    """
    if cls.apply_action is not State.apply_action:
        return cls.apply_action
    return cls.apply_trusted_action


class MCTSAgent(Agent):
    """UCT with chance nodes and a solver; information-set MCTS when information is hidden.

    Budget: ``time`` seconds and/or ``iterations`` per move (the first reached stops the
    search; with neither, 1000 iterations). An iteration budget makes the agent reproducible
    from its seed; a time budget depends on the machine. ``c``: the UCT exploration constant
    for returns in [-1, 1]. ``rollout_depth``: plies of random play before the game's
    evaluation judges the leaf (``-1``: the game's default; ``0``: no playout at all).
    ``solver`` and ``reuse`` switch off proof backup and keeping the tree between moves;
    ``policy=false`` plays playouts uniformly at random even where the game's knowledge has a
    playout policy.
    """

    name = "mcts"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        *,
        time: float | None = None,
        iterations: int | None = None,
        c: float = 1.4,
        rollout_depth: int = -1,
        solver: bool = True,
        reuse: bool = True,
        policy: bool = True,
    ) -> None:
        super().__init__(game, seed)
        if time is None and iterations is None:
            iterations = 1000
        if (time is not None and time <= 0) or (iterations is not None and iterations < 1):
            raise ValueError("mcts: time must be > 0 seconds and iterations >= 1")
        self.time = time
        self.iterations = iterations
        self.c = c
        knowledge = knowledge_for(game)
        self.evaluate = knowledge.evaluate
        self.rollout_depth = knowledge.rollout_depth if rollout_depth < 0 else rollout_depth
        self.policy = knowledge.rollout_policy if policy else None
        self.compiled = knowledge.compiled_search if self.policy is None else None
        self.max_playout = max(1, 4 * game.max_game_length())
        self.perfect = game.get_type().information == Information.PERFECT
        self.solver = solver and self.perfect
        self.reuse = reuse and self.perfect
        self.max_utility = game.max_utility()
        self._apply = _applier(type(game.new_initial_state()))
        self._root: _Node | None = None
        self._root_history: list[int] = []
        self.last_search: dict[str, Any] = {}

    def restart(self) -> None:
        self._root = None
        self._root_history = []

    _deadline: float | None = None
    """When the move being searched must be chosen (``None``: an iteration budget alone)."""

    # -- the move -------------------------------------------------------------------------
    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            self.last_search = {"iterations": 0, "seconds": 0.0, "root_visits": 0, "proven": None,
                                "compiled": False}
            return legal[0]
        start = time.perf_counter()
        deadline = None if self.time is None else start + self.time
        self._deadline = deadline
        limit = self.iterations
        world = view.sample_world(self.rng)
        decisive = self._decisive(view, world, legal, deadline)
        if decisive is not None:
            self.last_search = {
                "iterations": 0,
                "seconds": time.perf_counter() - start,
                "root_visits": 0,
                "proven": tuple(world.child(decisive).returns()),
                "compiled": False,
            }
            self._root = None
            return decisive
        compiled = None
        next_world: Callable[[], Any]
        iterate: Callable[[_Node, Any], None]
        if self.perfect:
            root = self._reroot(world)
            iterate = self._iterate_perfect
            def next_world() -> State:
                return world.clone()
        else:
            root = _Node(view.player)
            compiled = self._compiled_search(world, view.player)
            if compiled is None:
                iterate = self._iterate_information_set
                next_world = self._world_source(view, world, start)
            else:
                search, random = compiled.iterate, self.rng.random

                def iterate(_root: _Node, number: Any) -> None:
                    search(number, random)

                next_world = self._world_source(view, world, start, compiled.add_world)
        done = 0
        perf_counter = time.perf_counter
        while root.outcome is None:
            iterate(root, next_world())
            done += 1
            if (limit is not None and done >= limit) or (
                deadline is not None and perf_counter() >= deadline
            ):
                break
        if compiled is not None:
            self._take_root(root, compiled)
        action = self._choose(root, legal)
        self.last_search = {
            "iterations": done,
            "seconds": time.perf_counter() - start,
            "root_visits": root.visits,
            "proven": root.outcome,
            "compiled": compiled is not None,
        }
        if self.reuse:
            self._root_history = [*world.history(), action]
            i = root.index.get(action)
            self._root = root.kids[i] if i is not None else None
        return action

    def _compiled_search(self, world: State, player: int) -> Any:
        """The game's compiled information-set search from ``world``'s decision, if its
        knowledge has one that judges leaves as this agent would (no playout policy)."""
        if self.compiled is None:
            return None
        depth = self.max_playout if self.rollout_depth is None else self.rollout_depth
        return self.compiled(world, player, c=self.c, rollout_depth=depth)

    @staticmethod
    def _take_root(root: _Node, compiled: Any) -> None:
        """The compiled search's root statistics into ``root`` (for ``_choose``)."""
        actions, n, w, visits = compiled.root()
        root.actions, root.n, root.w, root.visits = actions, n, w, visits
        root.kids = [_Node(root.player) for _ in actions]
        root.index = {action: i for i, action in enumerate(actions)}

    def _world_source(
        self, view: PlayerView, first: State, start: float,
        keep: Callable[[State], Any] | None = None,
    ) -> Callable[[], Any]:
        """Where each information-set iteration's world comes from: a fresh draw from the view
        on one iteration in ``WORLD_EVERY`` when the search has an iteration budget (also when
        a time caps it, so that it reproduces from its seed while the cap is not reached), with
        a time budget alone while drawing has taken at most ``WORLD_SHARE`` of the search's
        time; else a copy of one of the worlds drawn so far, picked at random. A draw that
        finds no consistent world (``WorldSamplingError``, rare) also falls back on those.

        With ``keep`` (a compiled search's ``add_world``), each world drawn is handed to it once
        and the source gives what ``keep`` returned for the world to search (its number there)
        instead of a copy; the draws and the random numbers are the same."""
        worlds: list[Any] = [first if keep is None else keep(first)]
        spent = [0.0]
        rng = self.rng
        clock = time.perf_counter
        timed = self.iterations is None
        count = [0]

        def next_world() -> State:
            count[0] += 1
            if timed:
                now = clock()
                fresh = spent[0] <= WORLD_SHARE * (now - start)
            else:
                fresh = count[0] % WORLD_EVERY == 0
            if fresh:
                try:
                    world = view.sample_world(rng)
                except ParlourError:  # no consistent world found this time: use one drawn
                    fresh = False
                if timed:
                    spent[0] += clock() - now
            if keep is not None:
                if fresh:
                    worlds.append(keep(world))
                    return worlds[-1]
                return worlds[int(rng.random() * len(worlds))]
            if fresh:
                worlds.append(world)
                return world.clone()
            return worlds[int(rng.random() * len(worlds))].clone()

        return next_world

    def _decisive(
        self, view: PlayerView, world: State, legal: list[int], deadline: float | None = None
    ) -> int | None:
        """An action that wins at once in every world looked at (the solver's first check).

        With perfect information one world is the truth; otherwise an action must end the game
        in the mover's favour in ``DECISIVE_WORLDS`` worlds sampled from the view. On the
        largest boards looking at every action takes seconds: the check stops when the move's
        time is up (the search finds a winning move too, only later).
        """
        me, top = view.player, self.max_utility
        worlds = [world]
        if not self.perfect:
            worlds += [view.sample_world(self.rng) for _ in range(DECISIVE_WORLDS - 1)]
        clock = time.perf_counter
        for done, action in enumerate(legal):
            if deadline is not None and done % 64 == 63 and clock() >= deadline:
                return None
            for w in worlds:
                child = w.child(action)
                if not child.is_terminal() or child.returns()[me] < top:
                    break
            else:
                return action
        return None

    def _reroot(self, world: State) -> _Node:
        """The stored subtree for ``world``'s position, if the game went on from the last one."""
        history = world.history()
        node, old = self._root, self._root_history
        if not self.reuse or node is None or history[: len(old)] != old:
            return self._new_node(world)
        for action in history[len(old):]:
            if node.player >= 0:
                i = node.index.get(action)
                node = node.kids[i] if i is not None else None
            elif node.player == CHANCE_PLAYER:
                node = node.chance.get(action)
            else:
                node = None
            if node is None:
                return self._new_node(world)
        return node

    def _choose(self, root: _Node, legal: list[int]) -> int:
        me = root.player
        if root.outcome is not None and root.outcome[me] >= self.max_utility:
            for action, kid in zip(root.actions, root.kids, strict=True):
                if kid.outcome is not None and kid.outcome[me] >= self.max_utility:
                    return action
        best, best_key = None, None
        for i, action in enumerate(root.actions):
            if action not in legal:
                continue
            kid = root.kids[i]
            lost = kid.outcome is not None and kid.outcome[me] < self.max_utility
            key = (not lost, root.n[i], root.w[i] / root.n[i] if root.n[i] else 0.0)
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best if best is not None else self.rng.choice(legal)

    # -- playouts -------------------------------------------------------------------------
    def _leaf(self, state: State) -> list[float]:
        """Random playout from ``state``, cut short by the evaluation if so configured."""
        depth = self.rollout_depth
        if depth == 0:
            return self.evaluate(state) if not state.is_terminal() else state.returns()
        limit = depth if depth is not None else self.max_playout
        random = self.rng.random
        policy = self.policy
        if policy is None:  # the game's own (fast) random playout
            if self._deadline is None:
                state.random_playout(random, limit)
            else:
                self._playout_until(state, random, limit, self._deadline)
            return state.returns() if state.is_terminal() else self.evaluate(state)
        apply = self._apply
        for _ in range(limit):
            player = state.current_player()
            if policy is not None and player >= 0:
                apply(state, policy(state, random()))
            elif player >= 0:
                legal = state.legal_actions()
                apply(state, legal[int(random() * len(legal))])
            elif player == CHANCE_PLAYER:
                apply(state, pick_chance_outcome(state.chance_outcomes(), random()))
            else:
                return state.returns()
        return state.returns() if state.is_terminal() else self.evaluate(state)

    @staticmethod
    def _playout_until(
        state: State, random: Callable[[], float], limit: int, deadline: float
    ) -> None:
        """The random playout, in chunks of ``PLAYOUT_CHUNK`` actions, stopped (and then
        judged by the evaluation) once the move's time is up: on the largest boards one
        playout takes longer than a whole budget. The same numbers give the same actions as
        one uninterrupted playout."""
        clock = time.perf_counter
        while limit > 0:
            done = state.random_playout(random, min(PLAYOUT_CHUNK, limit))
            limit -= done
            if done < PLAYOUT_CHUNK or clock() >= deadline:
                return

    def _new_node(self, state: State) -> _Node:
        player = state.current_player()
        node = _Node(player)
        if player >= 0:
            node.untried = state.legal_actions()
        elif player == CHANCE_PLAYER:
            node.outcomes = len(state.chance_outcomes())
        else:
            node.outcome = tuple(state.returns())
        return node

    # -- perfect information: UCT + solver ------------------------------------------------
    def _iterate_perfect(self, root: _Node, state: State) -> None:
        node = root
        path: list[tuple[_Node, Any]] = []
        c = self.c
        log, sqrt = math.log, math.sqrt
        apply = self._apply
        returns: Sequence[float]
        while True:
            if node.outcome is not None:
                returns = node.outcome
                proven = True
                break
            player = node.player
            if player >= 0:
                untried = node.untried
                if untried:
                    # a random untried action (swap it to the end): fewer draws than a shuffle
                    k = int(self.rng.random() * len(untried))
                    untried[k], untried[-1] = untried[-1], untried[k]
                    action = untried.pop()
                    apply(state, action)
                    child = self._new_node(state)
                    node.index[action] = len(node.actions)
                    path.append((node, len(node.actions)))
                    node.actions.append(action)
                    node.kids.append(child)
                    node.n.append(0)
                    node.w.append(0.0)
                    proven = child.outcome is not None
                    returns = child.outcome if child.outcome is not None else self._leaf(state)
                    break
                n, w, kids = node.n, node.w, node.kids
                scale = c * sqrt(log(node.visits))
                best_i, best_v = 0, -math.inf
                for i in range(len(n)):
                    proof = kids[i].outcome
                    v = proof[player] if proof is not None else w[i] / n[i] + scale / sqrt(n[i])
                    if v > best_v:
                        best_i, best_v = i, v
                apply(state, node.actions[best_i])
                path.append((node, best_i))
                node = kids[best_i]
            else:  # chance
                action = pick_chance_outcome(state.chance_outcomes(), self.rng.random())
                apply(state, action)
                path.append((node, action))
                known = node.chance.get(action)
                if known is None:
                    child = node.chance[action] = self._new_node(state)
                    proven = child.outcome is not None
                    returns = child.outcome if child.outcome is not None else self._leaf(state)
                    break
                node = known
        for parent, key in path:
            parent.visits += 1
            if parent.player >= 0:
                parent.n[key] += 1
                parent.w[key] += returns[parent.player]
        if proven and self.solver:
            self._back_up_proof(path)

    def _back_up_proof(self, path: list[tuple[_Node, Any]]) -> None:
        top = self.max_utility
        for node, key in reversed(path):
            if node.player >= 0:
                player = node.player
                proof = node.kids[key].outcome
                if proof is None:
                    return
                if proof[player] < top:
                    if node.untried:
                        return
                    proofs = [kid.outcome for kid in node.kids if kid.outcome is not None]
                    if len(proofs) < len(node.kids):
                        return
                    proof = max(proofs, key=lambda p: p[player])
                node.outcome = proof
            else:
                if len(node.chance) < node.outcomes:
                    return
                chance_proofs = {kid.outcome for kid in node.chance.values()}
                if len(chance_proofs) != 1 or None in chance_proofs:
                    return
                node.outcome = chance_proofs.pop()

    # -- hidden information: single-observer information-set MCTS -------------------------
    def _iterate_information_set(self, root: _Node, state: State) -> None:
        node = root
        path: list[tuple[_Node, int, int]] = []
        c = self.c
        rng = self.rng
        log, sqrt = math.log, math.sqrt
        apply = self._apply
        me = root.player
        while True:
            player = state.current_player()
            if player == TERMINAL_PLAYER:
                returns = state.returns()
                break
            if player == CHANCE_PLAYER:
                outcomes = state.chance_outcomes()
                if node.merged is None:
                    node.merged = not state.chance_seen_by(me)
                action = pick_chance_outcome(outcomes, rng.random())
                apply(state, action)
                key = None if node.merged else action
                child = node.chance.get(key)
                node.visits += 1
                if child is None:
                    node.chance[key] = _Node(state.current_player())
                    returns = self._leaf(state)
                    break
                node = child
                continue
            legal = state.legal_actions()
            index = node.index
            untried = [a for a in legal if a not in index]
            if untried:
                action = untried[int(rng.random() * len(untried))]
                i = len(node.actions)
                index[action] = i
                node.actions.append(action)
                node.kids.append(_Node(player))
                node.n.append(0)
                node.w.append(0.0)
                node.avail.append(1)
                apply(state, action)
                path.append((node, i, player))
                returns = self._leaf(state)
                break
            n, w, avail = node.n, node.w, node.avail
            best_i, best_v = 0, -math.inf
            for action in legal:
                i = index[action]
                avail[i] += 1
                v = w[i] / n[i] + c * sqrt(log(avail[i]) / n[i])
                if v > best_v:
                    best_i, best_v = i, v
            apply(state, node.actions[best_i])
            path.append((node, best_i, player))
            node = node.kids[best_i]
        for parent, i, player in path:
            parent.visits += 1
            parent.n[i] += 1
            parent.w[i] += returns[player]


register_agent("mcts", MCTSAgent)
