"""Game records: a game's name, parameters and actions, saved as JSON and replayed exactly.

Because every random event is a chance action (G-1), the actions alone reproduce the game, as
long as the rules are the same: a record says which version of its game's rules it was played
under (``rules_version``; records written before versions existed read as version 1), and one
made under other rules than the game's current ones is refused (:class:`RulesVersionError`)
rather than replayed differently.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour.core.errors import ParlourError, RulesVersionError
from parlour.core.game import Game, State
from parlour.core.registry import load_game

FORMAT = "parlour-record"
VERSION = 1


class RecordError(ParlourError):
    """A record file that is not valid JSON or not a parlour record."""


@dataclass(frozen=True)
class GameRecord:
    """What is needed to replay a game, the players' names (seat order; empty when not
    known), plus free-form metadata (dates, seeds, where it was played), and the version of
    the game's rules it was played under (``Game.rules_version``)."""

    game: str
    params: dict[str, Any]
    actions: tuple[int, ...]
    metadata: dict[str, Any] = field(default_factory=dict)
    players: tuple[str, ...] = ()
    rules_version: int = 1

    @classmethod
    def from_state(
        cls, state: State[Any], *, players: Sequence[str] = (), **metadata: Any
    ) -> GameRecord:
        game = state.game
        return cls(
            game.name,
            game.non_default_parameters(),
            tuple(state.history()),
            metadata,
            tuple(players),
            game.rules_version,
        )

    def load_game(self) -> Game:
        return load_game(self.game, **self.params)

    def _game_to_replay(self) -> Game:
        """The game, once its rules are known to be those the record was played under."""
        game = self.load_game()
        if game.rules_version != self.rules_version:
            raise RulesVersionError(game.name, self.rules_version, game.rules_version)
        return game

    def replay(self) -> Iterator[tuple[State[Any], int | None]]:
        """Yield ``(state, action that follows)`` from the start; the last has ``None``.

        Raises :class:`RulesVersionError` (before yielding anything) when the record was
        played under another version of the game's rules than the current one.
        """
        state = self._game_to_replay().new_initial_state()
        for action in self.actions:
            yield state, action
            state = state.child(action)
        yield state, None

    def final_state(self) -> State[Any]:
        """The state after the record's actions (:class:`RulesVersionError` as :meth:`replay`)."""
        return self._game_to_replay().new_state_from_actions(self.actions)

    def to_json(self) -> str:
        body = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "rules_version": self.rules_version,
            "params": self.params,
            "actions": list(self.actions),
            "players": list(self.players),
            "metadata": self.metadata,
        }
        return json.dumps(body, indent=1)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            body = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not a parlour record: invalid JSON ({exc})") from None
        if not isinstance(body, dict) or body.get("format") != FORMAT:
            raise RecordError(f"not a parlour record: 'format' must be {FORMAT!r}")
        if body.get("version") != VERSION:
            raise RecordError(f"unsupported record version {body.get('version')!r}")
        game, params, actions = body.get("game"), body.get("params", {}), body.get("actions")
        if not isinstance(game, str) or not isinstance(params, dict):
            raise RecordError("a record needs a 'game' name and a 'params' object")
        if not isinstance(actions, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in actions
        ):
            raise RecordError("'actions' must be a list of integers")
        metadata = body.get("metadata", {})
        if not isinstance(metadata, dict):
            raise RecordError("'metadata' must be an object")
        players = body.get("players", [])  # absent in records written before names existed
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("'players' must be a list of names")
        rules_version = body.get("rules_version", 1)  # absent in records written before
        if not isinstance(rules_version, int) or isinstance(rules_version, bool) or (
            rules_version < 1
        ):
            raise RecordError("'rules_version' must be a whole number from 1")
        return cls(game, params, tuple(actions), metadata, tuple(players), rules_version)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(self.to_json() + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.from_json(Path(path).read_text(encoding="utf-8"))
