"""Everything a seat or a spectator receives is built here, from ``state.view(seat)`` (G-3).

This module is the server's one door to the outside for game information. It never reads a
state's hidden parts: the board comes from the viewer's view, the legal moves are given only
to the seat to act (they are its own options), and a move's notation is shown only when it
cannot reveal anything hidden: in games of perfect information, or for the viewer's own
moves. Replays are the sequence of the viewer's views, never the raw action list (whose
chance outcomes may be hidden deals and draws), and a downloadable record is the full action
list only for games of perfect information. When a game ends its views turn up everything
the rules hid (G-5: every rack and face-down tile), so the final message, the last replay step
and the record show it with no code here; undrawn tiles stay unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.core import (
    CHANCE_PLAYER,
    GameRecord,
    Information,
    State,
    presentation,
)
from parlour.core.presentation import group_turns
from parlour.server.messages.schemas import (
    BoardPayload,
    JSONValue,
    LegalMove,
    LogLine,
    Params,
    ReplayStep,
    Result,
    SeatReplayRecord,
    VisibleMove,
)


@dataclass(frozen=True)
class Note:
    """One stored action, as the server knows it (``text`` is server-side only)."""

    seq: int
    player: int
    text: str
    public: str | None = None
    """The move as every player may see it (``State.public_action_string``)."""
    scores: tuple[float, ...] | None = None
    """Everyone's points just before this action (public in every game), for the log's
    "+14" after a play."""


def is_public(state_or_game: Any) -> bool:
    """Whether the game shows everything to everyone (then notation and records are safe)."""
    game = state_or_game.game if isinstance(state_or_game, State) else state_or_game
    return game.get_type().information == Information.PERFECT


HIDDEN_PARAMS = ("position",)
"""Parameters that may hold hidden parts (a position text shows every rack): never sent to
the seats of a hidden-information game."""


def public_params(game: Any) -> Params:
    """The table's configuration as every listener may see it."""
    params = game.non_default_parameters()
    if game.get_type().information == Information.PERFECT:
        return params
    return {k: v for k, v in params.items() if k not in HIDDEN_PARAMS}


def visible_move(note: Note | None, viewer: int | None, public: bool) -> VisibleMove | None:
    """What ``viewer`` may know of a move: always who moved; the notation only when safe."""
    if note is None:
        return None
    own = viewer is not None and note.player == viewer
    shown = public or (own and note.player != CHANCE_PLAYER)
    return {"player": note.player, "seq": note.seq, "text": note.text if shown else note.public}


def legal_moves(state: State, viewer: int | None) -> list[LegalMove]:
    """The viewer's legal actions with their notation: only for the seat to act."""
    if viewer is None or state.current_player() != viewer:
        return []
    moves: list[LegalMove] = []
    for action in state.legal_actions():
        moves.append({"a": action, "s": state.safe_action_string(action, viewer)})
    return moves


def result(state: State) -> Result | None:
    """Returns and points at the end (announced to everyone when the game is over, G-4)."""
    if not state.is_terminal():
        return None
    return {"returns": list(state.returns()), "scores": list(state.scores())}


def state_payload(
    state: State, viewer: int | None, last: Note | None, *, preview: bool = False,
    ended: bool = False,
) -> BoardPayload:
    """The board part of a message for ``viewer`` (a seat, or ``None`` for a spectator);
    ``ended``: the table ended the game (a resignation, a loss on time: G-5 turns up all)."""
    public = is_public(state)
    return {
        "view": state.view(viewer, ended=ended),
        "viewer": viewer,
        "version": state.move_number(),
        "to_act": state.current_player(),
        "terminal": state.is_terminal(),
        "legal": legal_moves(state, viewer),
        "last": visible_move(last, viewer, public),
        "result": result(state),
        "preview": preview,
    }


def replay_steps(
    game: Any, actions: list[int], notes: list[Note], viewer: int | None, ended: bool = False
) -> list[ReplayStep]:
    """The viewer's replay: its view after each stored action, equal neighbours merged.

    Built by replaying the actions server-side and keeping only ``view(viewer)``: a chance
    outcome the viewer cannot see changes nothing they receive. ``ended``: the table ended
    the game (a resignation, a loss on time), so its last step turns everything up (G-5).
    """
    public = is_public(game)
    state = game.new_initial_state()
    steps: list[ReplayStep] = [{"view": state.view(viewer), "version": 0, "last": None}]
    for action, note in zip(actions, notes, strict=True):
        state.apply_action(action)
        view = state.view(viewer)
        last = visible_move(note, viewer, public)
        step: ReplayStep = {"view": view, "version": state.move_number(), "last": last}
        if view == steps[-1]["view"] and note.player == CHANCE_PLAYER:
            continue  # a chance event the viewer cannot see: nothing to show
        steps.append(step)
    if ended:
        steps[-1] = {**steps[-1], "view": state.view(viewer, ended=True)}
    return steps


def record_document(
    state: State,
    notes: list[Note],
    viewer: int | None,
    metadata: dict[str, JSONValue],
    players: list[str] | None = None,
    outcome: Result | None = None,
) -> SeatReplayRecord | str:
    """A downloadable record for ``viewer`` (``players``: the seats' display names).

    Perfect information: the standard parlour record (replays exactly, loads in every tool).
    Hidden information: the viewer's own replay (their views), which reveals nothing more.
    """
    if is_public(state):
        return GameRecord.from_state(state, players=players or (), **metadata).to_json()
    return {
        "format": "parlour-seat-replay",
        "version": 1,
        "game": state.game.name,
        "params": public_params(state.game),
        "players": list(players or ()),
        "viewer": viewer,
        "metadata": metadata,
        "result": outcome or result(state),
        "steps": replay_steps(state.game, state.history(), notes, viewer, outcome is not None),
    }


# -- the move log: one numbered line per turn, in the game's own terms ------------------------
TURN_LOG_LENGTH = 60
"""How many recent turns each state message carries."""


def turn_log(
    game: Any,
    notes: list[Note],
    viewer: int | None,
    final_scores: tuple[float, ...] | None = None,
    limit: int = TURN_LOG_LENGTH,
) -> list[LogLine]:
    """The moves as ``viewer`` may read them: one numbered line per turn.

    A turn is a player's run of actions (a Stomple string, a GobbleStones play and its *end*,
    the draws of Stomp the Plank with the cards they turned up: those are public). Chance
    events outside a turn (deals, a rack's draws) are not numbered: nobody took a turn. Every
    text comes through :func:`visible_move`, so nothing hidden is named (G-3); how a turn
    reads is the game's own (:meth:`parlour.core.Presentation.turn_text`).
    """
    public = is_public(game)
    words = presentation(game)
    entries = []
    for note in notes:
        shown = visible_move(note, viewer, public)
        entries.append((note.player, shown["text"] if shown else None, note.scores))
    lines: list[LogLine] = [
        {"turn": number, "player": turn.player, "seq": notes[index].seq,
         "text": words.turn_text(turn)}
        for number, (index, turn) in enumerate(group_turns(words, entries, final_scores), 1)
    ]
    return lines[-limit:]
