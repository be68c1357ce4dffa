"""The messages a client may send, checked before anything else looks at them.

A message that is not JSON, too large, of an unknown type or with a field out of range is
refused with a clear error and changes nothing; the connection stays open.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from parlour import i18n
from parlour.server.messages.schemas import ErrorMessage
from parlour.server.messages.validation import refused

MAX_MESSAGE_BYTES = 8192
"""Largest message accepted from a client (a whole turn of notation fits many times over)."""
MAX_STEPS = 64
MAX_STEP_TEXT = 200

Step = StrictInt | Annotated[str, Field(min_length=1, max_length=MAX_STEP_TEXT)]
ClientId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]


class ActMessage(BaseModel):
    """Play ``steps`` (action ids, or move notation to parse) for the seat to act.

    ``at`` is the move number the client saw: if the table has moved on, the action is
    refused as stale instead of being applied to a position the player never saw. Unless
    ``partial`` is set, steps that leave the same player to act are not stored: the reply is
    a preview (``partial``) so a multi-step turn (a GobbleStones play, a Stomple string) is
    composed first and committed whole. ``preview`` never stores anything.
    """

    model_config = ConfigDict(extra="forbid")
    type: Literal["act"]
    client_id: ClientId
    steps: list[Step] = Field(min_length=1, max_length=MAX_STEPS)
    at: StrictInt | None = None
    partial: bool = False
    preview: bool = False


class PingMessage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["ping"]
    nonce: Annotated[str, Field(max_length=64)] | None = None


class StateRequest(BaseModel):
    """Ask for the current state message again (after a missed update, say)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["state"]


class ChatMessage(BaseModel):
    """Say something at the table: plain text, to the players' channel from a seat, to the
    spectators' channel from a spectator (at most 500 characters, checked with a clear error)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["chat"]
    text: Annotated[str, Field(max_length=4000)]


class ResignMessage(BaseModel):
    """Give up: two players, the game is lost; more, the computer takes the seat."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["resign"]


class ReclaimMessage(BaseModel):
    """Take back a seat the computer has been playing after time-outs."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["reclaim"]


class UndoMessage(BaseModel):
    """Ask to take your last turn back, or answer the opponent's request."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["undo"]
    answer: Literal["ask", "accept", "decline"]


Message = (
    ActMessage | PingMessage | StateRequest | ChatMessage | ResignMessage | ReclaimMessage
    | UndoMessage
)
_BY_TYPE: dict[str, type[BaseModel]] = {
    "act": ActMessage,
    "ping": PingMessage,
    "state": StateRequest,
    "chat": ChatMessage,
    "resign": ResignMessage,
    "reclaim": ReclaimMessage,
    "undo": UndoMessage,
}


class ProtocolError(Exception):
    """A message that cannot be understood; ``code`` is machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


NOT_AN_OBJECT = i18n.Message("a message must be a JSON object")
TOO_DEEP = i18n.Message("a message may not nest that deep")


def parse_message(text: str | bytes) -> Message:
    """Check and parse one client message; raises :class:`ProtocolError`."""
    size = len(text.encode() if isinstance(text, str) else text)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_large", i18n.Message("message of {size} bytes refused: the limit is {limit}",
                                 size=size, limit=MAX_MESSAGE_BYTES)
        )
    try:
        body: Any = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ProtocolError("malformed", NOT_AN_OBJECT) from None
    except RecursionError:  # JSON nested deeper than Python's parser goes: hostile, refused
        raise ProtocolError("malformed", TOO_DEEP) from None
    if not isinstance(body, dict):
        raise ProtocolError("malformed", NOT_AN_OBJECT)
    kind = body.get("type")
    model = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if model is None:
        known = ", ".join(sorted(_BY_TYPE))
        raise ProtocolError("malformed", i18n.Message(
            "unknown message type {kind}; known types: {known}", kind=repr(kind), known=known))
    try:
        return cast(Message, model.model_validate(body))  # _BY_TYPE holds Message's members
    except RecursionError:
        raise ProtocolError("malformed", TOO_DEEP) from None
    except ValidationError as exc:
        raise ProtocolError("malformed", i18n.Message(
            "bad {kind} message: {problem}", kind=kind, problem=refused(exc, "message"))) from None


def error(code: str, message: str, **extra: Any) -> ErrorMessage:
    """An error reply: nothing was changed (``extra``: the fields of :class:`ErrorMessage`
    that say more, ``client_id``, ``rule``, ``step``, ``to_act``, ``scope``)."""
    return cast(ErrorMessage, {"type": "error", "code": code, "message": message, **extra})
