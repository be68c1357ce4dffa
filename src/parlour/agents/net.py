"""``net``: the learned player, a policy-value network with its own Gumbel search, on numpy.

``parlour play clobber --vs net`` plays the network that ships with parlour for the board
(``agents/learned/networks/``, trained by ``parlour train clobber``: Gumbel AlphaZero
self-play, see docs/research.md); ``net:path=FILE`` plays another network file written by the
trainer. No PyTorch is needed to play: inference is numpy (:mod:`parlour.agents.learned.network`).

Each move runs the Gumbel search of training (:mod:`parlour.agents.learned.search`) from the
position: ``simulations`` network evaluations (default :data:`SIMULATIONS`), ``considered``
candidate moves at the root, without Gumbel noise unless ``noise`` is given (``noise=1``
samples the candidates as self-play does, for variety). A network fits one configuration
(Clobber: the board size and variant, any start position) and refuses another, or, trained
on many boards at once (``parlour train clobber --boards ...``), every board it lists.

Plain ``net`` plays the network made for the board if one ships (``clobber-5x6.npz``), else
the game's network for every board (``clobber-all.npz``) if one ships and plays that board.

With hidden information (GobbleStones) the agent never sees the state: it draws ``worlds``
games consistent with its own view (``PlayerView.sample_world``), searches each, and plays the
action the searches' improved policies favour on average.
"""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from parlour.agents.base import Agent, register_agent
from parlour.agents.learned.games import adapter_for
from parlour.agents.learned.network import SHIPPED, NetworkFileError, describe_config, load_cached
from parlour.agents.learned.search import GumbelConfig, GumbelSearch, concat
from parlour.agents.playerview import PlayerView
from parlour.core import Game, Information

SIMULATIONS = 64
"""Network evaluations per move by default."""
CONSIDERED = 16
"""Candidate moves sampled at the root by default (the paper's m)."""
WORLDS = 4
"""Worlds searched a move where information is hidden (each its own search)."""
MAX_SIMULATIONS = 20_000
"""The most a move may be asked to search (the search's memory grows with it)."""


@lru_cache(maxsize=1)
def blas_threads() -> ThreadpoolController:
    """numpy's BLAS, to run the small matrix products of a search on one thread: spread over
    threads they ran several times slower on a busy two-core machine."""
    return ThreadpoolController()


def shipped_network(game: Game) -> Path:
    """The network file parlour ships for ``game``'s configuration: the one made for it,
    else the network for every board if that plays it; or a ValueError saying there is none,
    why, and how to train one."""
    adapter = adapter_for(game)
    folder = SHIPPED
    path = folder / f"{adapter.stem}.npz"
    if path.exists():
        return path
    why = ""
    if adapter.any_board_stem is not None:
        every = folder / f"{adapter.any_board_stem}.npz"
        if every.exists():
            try:
                load_cached(every).fits(game.name, adapter.config, adapter.observation_shape,
                                        adapter.num_actions)
                return every
            except NetworkFileError as exc:
                why = f" ({exc})"
    raise ValueError(
        f"no network ships for {game.name} {describe_config(adapter.config)}{why}: train one "
        f"(parlour train {game.name} --minutes 60 --out DIR) and play it with "
        "net:path=DIR/net.npz"
    )


class NetAgent(Agent):
    """A policy-value network searching with Gumbel MCTS (see the module)."""

    name = "net"

    def __init__(self, game: Game, seed: int | None = None, path: str = "",
                 simulations: int = SIMULATIONS, considered: int = CONSIDERED,
                 noise: float = 0.0, worlds: int = WORLDS) -> None:
        super().__init__(game, seed)
        if not 1 <= int(simulations) <= MAX_SIMULATIONS:
            raise ValueError(f"net: simulations must be from 1 to {MAX_SIMULATIONS}")
        if not 1 <= int(considered) <= 256:
            raise ValueError("net: considered must be from 1 to 256")
        if not 0.0 <= float(noise) <= 10.0:
            raise ValueError("net: noise must be from 0 to 10")
        if not 1 <= int(worlds) <= 64:
            raise ValueError("net: worlds must be from 1 to 64")
        self.adapter = adapter_for(game)
        file = Path(str(path)) if path else shipped_network(game)
        try:
            self.network = load_cached(file)
            self.network.fits(game.name, self.adapter.config, self.adapter.observation_shape,
                              self.adapter.num_actions)
        except NetworkFileError as exc:
            raise ValueError(f"net: {exc}") from None
        self.path = file
        self.worlds = int(worlds) if game.get_type().information != Information.PERFECT else 1
        self.config = GumbelConfig(int(simulations), int(considered), float(noise),
                                   rounds=True)
        self.search = GumbelSearch(self.adapter, self.network, self.config)
        self.last_search: dict[str, Any] = {}

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            self.last_search = {"iterations": 0, "seconds": 0.0}
            return legal[0]
        start = time.perf_counter()
        # perfect information: the position itself; else worlds the view cannot tell apart
        roots = concat([self.adapter.from_state(view.sample_world(self.rng))
                        for _ in range(self.worlds)])
        with blas_threads().limit(limits=1, user_api="blas"):
            result = self.search.run(roots, np.random.default_rng(self.rng.getrandbits(64)))
        if self.worlds == 1:
            action = int(result.action[0])
        else:
            action = int(np.argmax(np.where(result.legal[0], result.policy.mean(axis=0), -1)))
        if action not in legal:  # the adapters' legal moves are the engine's (tested)
            raise AssertionError(f"the search chose {action}, not a legal action")
        self.last_search = {
            "iterations": self.config.simulations,
            "seconds": time.perf_counter() - start,
            "value": float(result.value[0]),
            "network_value": float(result.raw_value[0]),
        }
        return action


def ships_for(game: Game) -> bool:
    """Whether a network ships for ``game``'s configuration (plain ``net`` plays it)."""
    try:
        shipped_network(game)
    except ValueError:
        return False
    return True


register_agent(
    "net",
    NetAgent,
    f"a network trained by self-play (Gumbel AlphaZero), searching {SIMULATIONS} positions a "
    "move; net:path=FILE for another network",
    games=["clobber", "gobblestones"],
    fits=ships_for,
)
