"""``parlour bot``'s loop: listen to the account's events, accept the challenges the agent can
play, play every game at once, and come back after a drop.

One task listens to the event stream; one task per game follows that game's stream and moves
whenever the seat is to act. A dropped connection (the server restarted, the network went) is
tried again after a delay that doubles up to :data:`MAX_BACKOFF` (with jitter); on reconnecting
the event stream announces every unfinished game again (``gameStart``), so games in progress
resume. :meth:`BotRunner.stop` (Ctrl-C, SIGTERM) ends every task and closes the connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from parlour.client.api import BotClient, RequestRefused
from parlour.client.players import PlayerFactory, plays_remotely

log = logging.getLogger("parlour.bot")

FIRST_BACKOFF = 0.5
MAX_BACKOFF = 30.0
RATE_RETRIES = 10
"""Tries of a move the token's rate refused (``429``), each after its ``Retry-After``."""
GIVE_UP = frozenset({401, 403, 404})
"""Answers that another try will not change: a bad token or scope, a game with no seat."""


@dataclass
class Backoff:
    """Delays between reconnection attempts: doubling, capped, jittered; reset on success."""

    delay: float = FIRST_BACKOFF
    rng: random.Random = field(default_factory=random.Random)

    def next(self) -> float:
        wait = self.delay * (0.5 + self.rng.random())
        self.delay = min(MAX_BACKOFF, self.delay * 2)
        return wait

    def reset(self) -> None:
        self.delay = FIRST_BACKOFF


@dataclass
class Tally:
    """What the runner did, for its summary line and for tests."""

    accepted: int = 0
    declined: int = 0
    finished: dict[str, str | None] = field(default_factory=dict)
    moves: int = 0
    reconnects: int = 0


class BotRunner:
    """Plays as one bot account. ``accept``: the kinds of challenge to accept (``rated``,
    ``casual``); ``games``: the games to accept (default: every game the agent plays);
    ``max_games``: stop accepting past this many games at once; ``stop_after``: end once this
    many games have finished (``None``: run until stopped)."""

    def __init__(self, client: BotClient, spec: str, factory: PlayerFactory, *,
                 accept: Collection[str] = ("rated", "casual"),
                 games: Collection[str] | None = None, max_games: int = 8,
                 stop_after: int | None = None,
                 on_event: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.client = client
        self.spec = spec
        self.factory = factory
        self.accept = frozenset(accept)
        self.games = frozenset(games) if games is not None else None
        self.max_games = max_games
        self.stop_after = stop_after
        self.on_event = on_event
        self.tally = Tally()
        self.playing: dict[str, asyncio.Task[None]] = {}
        self._stopped = asyncio.Event()
        self.fatal: str | None = None

    def stop(self) -> None:
        self._stopped.set()

    async def run(self) -> Tally:
        """Until stopped (or ``stop_after`` games finished, or the token refused)."""
        listener = asyncio.create_task(self._listen())
        stopper = asyncio.create_task(self._stopped.wait())
        try:
            await asyncio.wait({listener, stopper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (listener, stopper, *self.playing.values()):
                task.cancel()
            for task in (listener, stopper, *self.playing.values()):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        return self.tally

    # -- the account's events ----------------------------------------------------------------
    async def _listen(self) -> None:
        backoff = Backoff()
        while not self._stopped.is_set():
            try:
                async for event in self.client.events():
                    backoff.reset()
                    await self._event(event)
                    if self._stopped.is_set():
                        return
            except RequestRefused as exc:
                if exc.status in GIVE_UP:
                    self.fatal = str(exc)
                    log.error("the server refused this bot: %s", exc)
                    self._stopped.set()
                    return
                log.warning("event stream refused (%s): trying again", exc)
            except Exception as exc:  # a dropped connection (httpx's transport errors)
                log.warning("event stream lost (%s): reconnecting", type(exc).__name__)
            self.tally.reconnects += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopped.wait(), backoff.next())

    async def _event(self, event: dict[str, Any]) -> None:
        if self.on_event is not None:
            self.on_event(event)
        kind = event.get("type")
        if kind == "challenge":
            await self._answer(event["challenge"])
        elif kind == "gameStart":
            game = event["game"]
            running = self.playing.get(game["id"])
            if running is None or running.done():
                self.playing[game["id"]] = asyncio.create_task(self._play(game))
        elif kind == "gameFinish":
            self._finished(event["game"]["id"], event["game"].get("outcome"))

    def _finished(self, game_id: str, outcome: str | None) -> None:
        """A game ended (heard from its own stream, or from the events: a game that ended
        while this bot was away is heard of only there)."""
        if game_id not in self.tally.finished:
            log.info("game %s finished: %s", game_id, outcome)
        self.tally.finished[game_id] = outcome
        if self.stop_after is not None and len(self.tally.finished) >= self.stop_after:
            self._stopped.set()

    def refusal(self, challenge: dict[str, Any]) -> str | None:
        """Why this bot declines a challenge, or ``None`` to accept it."""
        kind = "rated" if challenge["rated"] else "casual"
        if kind not in self.accept:
            return f"this bot plays no {kind} games"
        if self.games is not None and challenge["game"] not in self.games:
            return f"this bot plays only {', '.join(sorted(self.games))}"
        try:
            if not plays_remotely(self.spec, challenge["game"]):
                return f"this bot's agent does not play {challenge['game']}"
        except ValueError as exc:
            return str(exc)[:120]
        if sum(not t.done() for t in self.playing.values()) >= self.max_games:
            return f"this bot plays {self.max_games} games at once: try again later"
        return None

    async def _answer(self, challenge: dict[str, Any]) -> None:
        reason = self.refusal(challenge)
        try:
            if reason is None:
                await self.client.accept(challenge["id"])
                self.tally.accepted += 1
                log.info("accepted challenge %s (%s)", challenge["id"], challenge["game"])
            else:
                await self.client.decline(challenge["id"], reason)
                self.tally.declined += 1
                log.info("declined challenge %s: %s", challenge["id"], reason)
        except RequestRefused as exc:  # answered elsewhere, or lapsed
            log.info("challenge %s: %s", challenge["id"], exc)

    # -- one game ----------------------------------------------------------------------------
    async def _play(self, game: dict[str, Any]) -> None:
        player = self.factory(game["game"], game["params"], game["seat"])
        backoff = Backoff()
        moved_at: int | None = None
        while not self._stopped.is_set():
            try:
                async for message in self.client.game(game["id"]):
                    backoff.reset()
                    if message.get("type") != "state":
                        continue
                    player.observe(message)
                    if message.get("terminal"):
                        self._finished(game["id"], outcome(message))
                        return
                    mine = message["to_act"] == message["viewer"] and message["legal"]
                    if mine and message["version"] != moved_at:
                        moved_at = message["version"]
                        move = await asyncio.to_thread(player.choose, message)
                        await self._move(game["id"], move, message["version"])
                # the stream ended before the game did (a restart): connect again
            except RequestRefused as exc:
                if exc.status in GIVE_UP:
                    log.error("game %s: %s", game["id"], exc)
                    return
            except Exception as exc:  # a dropped connection: come back and resume
                log.warning("game %s: stream lost (%s): reconnecting", game["id"],
                            type(exc).__name__)
            moved_at = None  # the state may have moved on while away: look again
            self.tally.reconnects += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopped.wait(), backoff.next())

    async def _move(self, game_id: str, move: str | int, at: int) -> None:
        for _attempt in range(RATE_RETRIES):
            try:
                await self.client.move(game_id, move, at)
                self.tally.moves += 1
                return
            except RequestRefused as exc:
                if exc.status == 429:  # over the token's rate: wait as told, send it again
                    await asyncio.sleep(exc.retry_after or 1.0)
                    continue
                if exc.status == 400:  # the agent chose a move the rules refuse: say which
                    log.error("game %s: move %s refused: %s", game_id, move, exc)
                else:  # not now (the table moved on): the next state says what to do
                    log.info("game %s: move %s not taken: %s", game_id, move, exc)
                return
        log.error("game %s: move %s not sent: the token stayed over its rate", game_id, move)


def outcome(message: dict[str, Any]) -> str | None:
    """The seat's outcome in a final state message: ``win``, ``draw`` or ``loss``."""
    result = message.get("result") or {}
    returns = result.get("returns")
    viewer = message.get("viewer")
    if not returns or viewer is None:
        return None
    mine = returns[viewer]
    return "win" if mine > max(r for i, r in enumerate(returns) if i != viewer) else (
        "draw" if mine == max(returns) else "loss")
