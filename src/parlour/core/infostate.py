"""Information states: what one player has observed, in order, with perfect recall.

OpenSpiel's meaning (``InformationStateString`` / ``InformationStateTensor``): two histories
give the same information state for a player exactly when that player cannot tell them apart:
they saw the same things in the same order. parlour builds it in one of two ways.

* **Games of perfect information** (Clobber, Stomple, Stomp the Plank: every chance event and
  every move is seen by all) may use the history itself, as OpenSpiel's perfect-information
  games do: :func:`history_information_state_string` and
  :func:`history_information_state_tensor`.
* **Games with hidden information** (GobbleStones) replay the history from its start and record,
  after every action, what the player was shown: the action as it was announced to them
  (``action_to_string`` for their own moves, ``public_action_string`` for everyone else's and for
  chance) and the change in their **view** (``State.view``, the one place where a game cuts
  hidden information, G-3). Own draws, the order they came in, reveals such as a challenge's
  verdict, and the end-of-game reveal (G-5) all reach the record through the view; nothing is
  read from the true state directly. :class:`ObservationRecord` holds the result; a game turns
  each recorded step into a fixed-width row of numbers for the tensor
  (``Game.information_step_width`` and ``State._information_step_row``).

Replaying is linear in the history, so records are cached on the state and extended
incrementally: asking every state along a game for its information state (as OpenSpiel's
checks and MCCFR do) costs one replayed action per step, not one replay per step.

:class:`~parlour.core.game.State` calls this module, so it does not import that one back: it
names what it needs of a state and of its game as protocols (:class:`Recordable`,
:class:`RecordedGame`), which every parlour state and game satisfy.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar

import numpy as np

View = dict[str, Any]
"""A player's view: a JSON-serialisable dict holding exactly what that player may see
(``State.view``; exported as ``parlour.core.View``)."""


class RecordedGame(Protocol):
    """What this module asks of a game: its sizes, and its start."""

    def num_distinct_actions(self) -> int: ...
    def max_chance_outcomes(self) -> int: ...
    def max_history_length(self) -> int: ...
    def information_step_width(self) -> int: ...
    def new_initial_state(self) -> Any: ...


class Recordable(Protocol):
    """What this module asks of a state (:class:`~parlour.core.game.State` has all of it)."""

    _info_records: dict[int, Any] | None
    _info_root: Any

    def get_game(self) -> RecordedGame: ...
    def history(self) -> list[int]: ...
    def current_player(self) -> int: ...
    def clone(self) -> Self: ...
    def view(self, player: int | None, *, ended: bool = False) -> View: ...
    def observation_string(self, player: int | None = None) -> str: ...
    def observation_tensor(self, player: int) -> np.ndarray: ...
    def action_to_string(self, action: int, player: int | None = None) -> str: ...
    def public_action_string(self, action: int) -> str: ...
    def apply_trusted_action(self, action: int) -> None: ...
    def _information_step_row(
        self, player: int, actor: int, seen: str, before: View, after: View
    ) -> np.ndarray: ...


R = TypeVar("R", bound=Recordable)


def history_code_scale(game: RecordedGame) -> float:
    """The divisor that maps action ids (player or chance) into ``(0, 1]``: ``(id + 1) / scale``."""
    return float(max(game.num_distinct_actions(), game.max_chance_outcomes(), 1))


def history_information_state_string(state: Recordable, player: int) -> str:
    """A perfect-information game's information state: the history, then the current view.

    Every action is public, so the player's information state is the whole history (the
    action ids, as OpenSpiel's perfect-information games give it); the current observation is
    appended so that states started from different position texts stay apart.
    """
    ids = " ".join(str(a) for a in state.history())
    return f"history: {ids}\n{state.observation_string(player)}"


def history_information_state_tensor(state: Recordable, player: int) -> np.ndarray:
    """The current observation tensor, flattened, then one number per history step.

    Step ``t`` holds ``(action + 1) / scale`` (see :func:`history_code_scale`), zero after
    the last step, so the tensor tells histories apart and has one size per configuration:
    ``observation size + game.max_history_length()``.
    """
    game = state.get_game()
    limit = game.max_history_length()
    history = state.history()
    if len(history) > limit:
        raise ValueError(
            f"{game}: history of {len(history)} actions exceeds the declared bound {limit}"
        )
    codes = np.zeros(limit, dtype=np.float32)
    if history:
        codes[: len(history)] = (np.asarray(history, dtype=np.float32) + 1.0) / (
            history_code_scale(game)
        )
    obs = np.asarray(state.observation_tensor(player), dtype=np.float32).ravel()
    return np.concatenate([obs, codes])


def view_diff(before: View, after: View) -> dict[str, Any]:
    """The parts of ``after`` that differ from ``before``: whole keys, or list items by index
    when a list keeps its length (a board row that changed, not the whole board)."""
    out: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key)
        if old == value and key in before:
            continue
        if isinstance(value, list) and isinstance(old, list) and len(old) == len(value):
            for i, (a, b) in enumerate(zip(old, value, strict=True)):
                if a != b:
                    out[f"{key}[{i}]"] = b
        else:
            out[key] = value
    for key in before:
        if key not in after:
            out[key] = None
    return out


class _Rows:
    """A growable float32 table shared by records along one line of play (append-only, like a
    Go slice: a record owns rows ``[0, n)``; appending at the end of the filled part writes in
    place, appending anywhere else copies)."""

    __slots__ = ("data", "filled")

    def __init__(self, width: int, capacity: int = 64) -> None:
        self.data = np.zeros((max(capacity, 1), width), dtype=np.float32)
        self.filled = 0

    def extend(self, n: int, rows: Sequence[np.ndarray]) -> _Rows:
        """The table of ``self``'s first ``n`` rows plus ``rows`` (maybe ``self``, grown)."""
        target = self
        if self.filled != n:
            target = _Rows(self.data.shape[1], max(2 * (n + len(rows)), 64))
            target.data[:n] = self.data[:n]
            target.filled = n
        need = n + len(rows)
        if need > target.data.shape[0]:
            grown = np.zeros((2 * need, target.data.shape[1]), dtype=np.float32)
            grown[:n] = target.data[:n]
            target.data = grown
        for i, row in enumerate(rows):
            target.data[n + i] = row
        target.filled = need
        return target


@dataclass(frozen=True)
class ObservationRecord:
    """What one player was shown along a history, step by step (perfect recall).

    ``tokens[0]`` is the view at the start (JSON); ``tokens[t]`` (``t >= 1``) is step ``t - 1``:
    ``"<actor>:<action as announced to the player>"`` and the JSON of the view's change.
    ``rows[:length]`` are the game's tensor rows, one per step. ``cursor`` is a state at the end
    of the recorded prefix; it is never mutated (extending clones it), so records can be shared
    by clones.
    """

    player: int
    prefix: tuple[int, ...]
    cursor: Recordable
    view: View
    tokens: tuple[str, ...]
    rows: _Rows | None

    @property
    def length(self) -> int:
        return len(self.prefix)


def _announced(state: Recordable, action: int, actor: int, player: int) -> str:
    """The action as ``player`` was told of it: in full for their own move, else as announced
    to everyone (G-3)."""
    if actor == player:
        return state.action_to_string(action, player)
    return state.public_action_string(action)


def root_of(state: R) -> R:
    """The state whose history leads to ``state``: its recorded start, or the initial state
    (a fresh copy either way, of ``state``'s own class)."""
    root: R | None = state._info_root
    if root is not None:
        return root.clone()
    start: R = state.get_game().new_initial_state()
    return start


def observation_record(state: Recordable, player: int) -> ObservationRecord:
    """``player``'s record along ``state``'s history, extended from the cached one if any."""
    history = tuple(state.history())
    records: dict[int, ObservationRecord] = getattr(state, "_info_records", None) or {}
    record = records.get(player)
    if record is not None and history[: record.length] != record.prefix:
        record = None  # not this state's line of play (e.g. a resampled world)
    width = state.get_game().information_step_width()
    if record is None:
        root = root_of(state)
        view = root.view(player)
        rows = _Rows(width) if width else None
        record = ObservationRecord(player, (), root, view, (_json(view),), rows)
    if record.length < len(history):
        cursor = record.cursor.clone()
        view = record.view
        tokens: list[str] = []
        new_rows: list[np.ndarray] = []
        for action in history[record.length:]:
            actor = cursor.current_player()
            seen = _announced(cursor, action, actor, player)
            cursor.apply_trusted_action(action)  # replaying this state's own history
            after = cursor.view(player)
            diff = view_diff(view, after)
            tokens.append(f"{actor}:{seen}" + (f" {_json(diff)}" if diff else ""))
            if width:
                new_rows.append(cursor._information_step_row(player, actor, seen, view, after))
            view = after
        rows = record.rows.extend(record.length, new_rows) if record.rows is not None else None
        record = ObservationRecord(
            player, history, cursor, view, record.tokens + tuple(tokens), rows
        )
        state._info_records = {**records, player: record}
    elif player not in records:
        state._info_records = {**records, player: record}
    return record


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def recorded_information_state_string(state: Recordable, player: int) -> str:
    """A hidden-information game's information state: the start view, then every step as the
    player saw it (see :class:`ObservationRecord`), one per line."""
    return "\n".join(observation_record(state, player).tokens)


def recorded_information_state_tensor(state: Recordable, player: int) -> np.ndarray:
    """The current observation tensor, flattened, then the record's rows (zero-padded to
    ``game.max_history_length()`` rows of the game's step width)."""
    game = state.get_game()
    record = observation_record(state, player)
    width = game.information_step_width()
    limit = game.max_history_length()
    if record.length > limit:
        raise ValueError(f"{game}: history of {record.length} actions exceeds the bound {limit}")
    table = np.zeros((limit, width), dtype=np.float32)
    if record.rows is not None and record.length:
        table[: record.length] = record.rows.data[: record.length]
    obs = np.asarray(state.observation_tensor(player), dtype=np.float32).ravel()
    return np.concatenate([obs, table.ravel()])
