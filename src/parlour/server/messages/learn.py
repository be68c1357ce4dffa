"""The shape of the tutorials' answers (``/api/learn``), each a :class:`TypedDict` as in
:mod:`parlour.server.messages.schemas`: an attempt's verdict shows its board as a table does."""

from __future__ import annotations

from typing_extensions import TypedDict

from parlour.server.messages.schemas import BoardPayload, LogLine, Params


class StepInfo(TypedDict):
    id: str
    title: str
    instruction: str
    hint: str
    explain: str
    solution: list[str]


class TutorialInfo(TypedDict):
    id: str
    title: str
    intro: str
    finish: str
    params: Params
    steps: list[StepInfo]


class Tutorials(TypedDict):
    """``GET /api/learn/GAME``: a game's tutorials, each with its steps."""

    game: str
    title: str
    tutorials: list[TutorialInfo]


class Verdict(BoardPayload):
    """``POST /api/learn/GAME/TUTORIAL/STEP``: how the learner's moves went, and their view."""

    status: str
    message: str | None
    moves: list[int]
    learner: int
    log: list[LogLine]
