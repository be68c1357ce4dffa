"""The agent interface and the registry of agents by name (``--vs random``, ``--vs hard``).

An agent is handed a :class:`~parlour.agents.playerview.PlayerView`, never the state itself:
:meth:`Agent.step` wraps whatever state it is given, so an agent can only reach what its player
may see (ruling G-3) and worlds sampled consistently with that view.

Agents are named by a *spec*: a registered name, optionally followed by options, each
``:key=value`` -- ``"hard"``, ``"mcts:iterations=400"``, ``"hard:time=0.05"``. Options are
passed to the registered factory as keyword arguments (numbers and true/false are converted).
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from parlour.agents.playerview import PlayerView
from parlour.core import Game, State


class Agent:
    """Chooses an action for the player to act. Seeded, so a game replays exactly.

    Subclasses override :meth:`act`, which receives the acting player's view only.
    """

    name: str = "agent"

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)

    def step(self, state: State | PlayerView) -> int:
        """The action to play in ``state`` (a player node), decided from the mover's view."""
        view = state if isinstance(state, PlayerView) else PlayerView(state)
        if view.player < 0:
            raise ValueError("an agent is asked to act only where a player is to move")
        return self.act(view)

    def act(self, view: PlayerView) -> int:
        """Choose an action from the acting player's view. Subclasses implement this."""
        raise NotImplementedError(f"{type(self).__name__} must implement act(view)")

    def restart(self) -> None:
        """Forget anything remembered from an earlier game (search trees, opponent models)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} seed={self.seed!r}>"


class RandomAgent(Agent):
    """Uniformly random among the legal actions: the baseline every agent must beat."""

    name = "random"

    def act(self, view: PlayerView) -> int:
        return self.rng.choice(view.legal_actions())


AgentFactory = Callable[..., Agent]
"""``factory(game, seed, **options) -> Agent``."""


@dataclass(frozen=True)
class AgentEntry:
    name: str
    factory: AgentFactory
    description: str
    games: frozenset[str] | None = None
    """The games this agent plays (by registered name); ``None``: every game."""
    fits: Callable[[Game], bool] | None = None
    """Whether it plays a given configuration of those games (``None``: every one)."""
    instant: bool = False
    """Whether it answers at once (a fixed rule, no search), whatever the position."""


_AGENTS: dict[str, AgentEntry] = {}


def register_agent(
    name: str,
    factory: AgentFactory,
    description: str | None = None,
    *,
    games: Iterable[str] | None = None,
    fits: Callable[[Game], bool] | None = None,
    instant: bool = False,
) -> None:
    """Make ``factory`` buildable as ``make_agent(name, game, seed, **options)``.

    ``games`` names the games the agent can play (a game-specific strategy); leave it out for
    an agent that plays any game. Programs that offer agents to people (the web lobby, the
    server's seat check) ask :func:`agents_for` so nobody is offered an agent that cannot play.
    ``fits(game)`` says whether it plays a configured game (the learned player: only the
    configurations a network ships for); :func:`plays_configuration` asks it. ``instant``
    says that it answers at once (a fixed strategy), so that a program with a time limit on a
    move (the web table) may offer it without naming it (:func:`answers_at_once`).
    """
    if not name or ":" in name or "," in name:
        raise ValueError(f"an agent name has no ':' or ',' in it: {name!r}")
    doc = description or (inspect.getdoc(factory) or "").split("\n\n")[0].replace("\n", " ")
    _AGENTS[name] = AgentEntry(name, factory, doc, frozenset(games) if games is not None else None,
                               fits, instant)


def answers_at_once(name: str) -> bool:
    """Whether agent ``name`` was registered as answering at once (``False`` for a name no
    agent has, or one with options: a player picks a bare name)."""
    entry = _AGENTS.get(name)
    return entry is not None and entry.instant


def agent_names() -> list[str]:
    return sorted(_AGENTS)


def agent_games(name: str) -> frozenset[str] | None:
    """The games agent ``name`` (a spec like ``"hard:time=1"`` is fine) plays; ``None``: all.

    Raises ValueError for an unknown agent.
    """
    base, _options = parse_agent_spec(name)
    try:
        return _AGENTS[base].games
    except KeyError:
        known = ", ".join(agent_names())
        raise ValueError(f"unknown agent {base!r}; known agents: {known}") from None


def plays(name: str, game: str) -> bool:
    """Whether agent ``name`` can play game ``game`` (a registered game name)."""
    games = agent_games(name)
    return games is None or game in games


def plays_configuration(name: str, game: Game) -> bool:
    """Whether agent ``name`` can play the configured ``game`` (its game, then its ``fits``)."""
    if not plays(name, game.name):
        return False
    fits = _AGENTS[parse_agent_spec(name)[0]].fits
    return fits is None or fits(game)


def agents_for(game: str) -> list[str]:
    """The registered agents that can play ``game``, sorted by name."""
    return [n for n in agent_names() if plays(n, game)]


def agent_descriptions() -> dict[str, str]:
    """One line per registered agent, for ``--help`` texts and docs."""
    return {name: _AGENTS[name].description for name in agent_names()}


def _convert(text: str) -> Any:
    lowered = text.lower()
    if lowered in {"true", "yes", "on"}:
        return True
    if lowered in {"false", "no", "off"}:
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"mcts:iterations=400:c=1.2"`` into ``("mcts", {"iterations": 400, "c": 1.2})``."""
    name, *parts = spec.strip().split(":")
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"cannot read agent option {part!r} in {spec!r}: write key=value")
        options[key.strip()] = _convert(value.strip())
    return name.strip(), options


_OWN_STRENGTHS: dict[tuple[str, str], AgentFactory] = {}
STRENGTHS = ("easy", "medium", "hard")


def register_strength(game_name: str, level: str, factory: AgentFactory) -> None:
    """The game named ``game_name`` plays the named strength ``level`` (``easy``, ``medium``,
    ``hard``) with its own program (``factory(game, seed, **options)``) instead of the
    strengths' search: registered by that program's module, so that the strengths name no
    game (:mod:`parlour.agents.strengths`)."""
    if level not in STRENGTHS:
        raise ValueError(f"a strength is one of {', '.join(STRENGTHS)}, not {level!r}")
    _OWN_STRENGTHS[(game_name, level)] = factory


def own_strength(game: Game, level: str) -> AgentFactory | None:
    """The game's own program for strength ``level``, if it registered one."""
    return _OWN_STRENGTHS.get((game.name, level))


def make_agent(name: str, game: Game, seed: int | None = None, **options: Any) -> Agent:
    """Build the agent named by the spec ``name`` for ``game``.

    Unknown names raise a ValueError that lists the known ones.
    """
    base, spec_options = parse_agent_spec(name)
    try:
        entry = _AGENTS[base]
    except KeyError:
        known = ", ".join(agent_names())
        raise ValueError(f"unknown agent {base!r}; known agents: {known}") from None
    if entry.games is not None and game.name not in entry.games:
        raise ValueError(
            f"agent {base!r} plays only {', '.join(sorted(entry.games))}, not {game.name}"
        )
    options = {**spec_options, **options}
    try:
        agent = entry.factory(game, seed, **options)
    except TypeError as exc:
        if options and "argument" in str(exc):
            raise ValueError(
                f"agent {base!r} does not take options {sorted(options)}: {exc}"
            ) from None
        raise
    extra = "".join(f":{k}={v}" for k, v in options.items() if k not in spec_options)
    agent.name = name.strip() + extra
    return agent


register_agent("random", RandomAgent, "uniformly random legal moves (the baseline)")
