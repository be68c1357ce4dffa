"""Agents as seat players: from a seat's state message to the move to send.

A spec is ``random`` (chooses among the legal moves the server lists: plays every game), a
registered agent (``hard``, ``mcts:iterations=400``: it searches a state the game rebuilds
from the seat's views, :meth:`parlour.core.Game.state_from_view`, with the seat's memory of
the earlier ones, :meth:`parlour.core.Game.seat_memory`), or ``module.path:ClassName``
(a subclass of :class:`parlour.agents.Agent`, built as ``ClassName(game, seed)``, with options
``module.path:ClassName:key=value``; a class attribute ``games`` may name the games it plays).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any, Protocol

from parlour.agents import Agent, PlayerView, agent_games, make_agent, parse_agent_spec
from parlour.core import Game, load_game


class SeatPlayer(Protocol):
    """Sees every state message of its seat (``observe``, in order) and chooses the move for
    those where the seat acts: its notation, or its action id from the message's ``legal``
    list."""

    def observe(self, message: dict[str, Any]) -> None: ...

    def choose(self, message: dict[str, Any]) -> str | int: ...


class RandomPlayer:
    """Uniformly random among the legal moves the server sent."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def observe(self, message: dict[str, Any]) -> None:
        """It needs no memory: the legal moves are in the message."""

    def choose(self, message: dict[str, Any]) -> int:
        move: int = self.rng.choice(message["legal"])["a"]
        return move


class AgentPlayer:
    """A parlour agent, deciding from a state the game rebuilds from the seat's latest view
    and its memory of the earlier ones (the game's own :class:`parlour.core.SeatMemory`)."""

    def __init__(self, agent: Agent, game: Game, seat: int, seed: int | None = None) -> None:
        self.agent = agent
        self.game = game
        self.seat = seat
        self.memory = game.seat_memory(seat)
        self.rng = random.Random(seed)

    def observe(self, message: dict[str, Any]) -> None:
        self.memory.observe(message["view"])

    def choose(self, message: dict[str, Any]) -> int:
        self.memory.observe(message["view"])  # a second look at one view changes nothing
        state = self.game.state_from_view(message["view"], self.seat, self.memory, self.rng)
        return self.agent.step(PlayerView(state, self.seat))


def _own_class(spec: str) -> tuple[type[Agent], dict[str, Any]] | None:
    """``module.path:ClassName[:key=value...]`` as the class and its options, else ``None``."""
    head, _sep, rest = spec.partition(":")
    if not rest or "=" in rest.split(":", 1)[0]:
        return None
    name, *options = rest.split(":")
    _base, parsed = parse_agent_spec(":".join(["x", *options]))
    module = importlib.import_module(head)
    found = getattr(module, name, None)
    if not isinstance(found, type) or not issubclass(found, Agent):
        raise ValueError(f"{spec!r}: {name} in {head} is not a parlour Agent class")
    return found, parsed


def player_games(spec: str) -> frozenset[str] | None:
    """The games ``spec`` plays (``None``: every game it can rebuild a state of)."""
    own = _own_class(spec)
    if own is not None:
        games = getattr(own[0], "games", None)
        return frozenset(games) if games else None
    return agent_games(spec)


def plays_remotely(spec: str, game: str) -> bool:
    """Whether ``spec`` can play ``game`` from a seat's messages alone."""
    games = player_games(spec)
    if games is not None and game not in games:
        return False
    if _own_class(spec) is None and parse_agent_spec(spec)[0] == "random":
        return True  # it chooses among the legal moves the server lists: it needs no state
    return load_game(game).rebuilds_from_view()


PlayerFactory = Callable[[str, dict[str, Any], int], SeatPlayer]


def seat_player(spec: str, seed: int | None = None) -> PlayerFactory:
    """A factory of seat players for ``spec``: ``factory(game, params, seat)``. The spec is
    checked now (an unknown agent or class raises ``ValueError``)."""
    own = _own_class(spec)
    if own is None:
        agent_games(spec)  # an unknown name fails here, not at the first game
    if own is None and parse_agent_spec(spec)[0] == "random":
        return lambda game, params, seat: RandomPlayer(seed)

    def build(game_name: str, params: dict[str, Any], seat: int) -> SeatPlayer:
        game = load_game(game_name, **params)
        if own is not None:
            cls, options = own
            return AgentPlayer(cls(game, seed, **options), game, seat, seed)
        return AgentPlayer(make_agent(spec, game, seed), game, seat, seed)

    return build
