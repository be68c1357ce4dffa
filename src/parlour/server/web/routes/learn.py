""""Learn to play": the tutorials' page and their engine-checked steps.

Routes:

- ``/learn/GAME`` (and ``/learn/GAME/TUTORIAL``, e.g. ``/learn/gobblestones/bluffing``): the
  interactive tutorial page;
- ``GET /api/learn/GAME``: the game's tutorials and their steps (:mod:`parlour.games.tutorial`);
- ``POST /api/learn/GAME/TUTORIAL/STEP`` with ``{"moves": [...]}`` (action ids or notation,
  at most :data:`parlour.server.messages.protocol.MAX_STEPS`, each at most ``MAX_STEP_TEXT``
  characters): the engine's verdict on the learner's moves in the step's position, with the
  learner's view after them (built by :func:`parlour.server.messages.views.state_payload`,
  like every state message). The position is the step's own, read from the game's tutorial
  data: a client names a step, never sends a position, so this endpoint is no general-purpose
  engine and the scripted chance outcomes stay on the server.

Every reply is computed from nothing but the step and the moves (no state is kept between
requests), in microseconds; the requests are counted by the server's rate limits like any.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from parlour.core import IllegalActionError, ParlourError, game_class, list_games
from parlour.games import tutorial as lessons
from parlour.games.wording import illegal_message, notation_message
from parlour.i18n import Lazy, Message, _, text_of, translate
from parlour.server.messages.learn import StepInfo, Tutorials, Verdict
from parlour.server.messages.protocol import MAX_STEPS, Step
from parlour.server.messages.schemas import LogLine
from parlour.server.messages.views import Note, state_payload, turn_log
from parlour.server.web.deps import json_body
from parlour.server.web.templating import page

LEARNER_NAMES = (Message("you"), Message("your opponent"))
"""How the game's messages name the seats in a tutorial (every lesson has two)."""


class LearnMoves(BaseModel):
    model_config = ConfigDict(extra="forbid")
    moves: list[Step] = Field(default_factory=list, max_length=MAX_STEPS)


router = APIRouter(tags=["tutorials"])


def _tutorial(game: str, tutorial_id: str | None = None) -> lessons.Tutorial:
    if game not in list_games():
        raise HTTPException(404, Message("no game {game}; games: {games}", game=repr(game),
                                         games=", ".join(list_games())))
    found = lessons.find(game, tutorial_id)
    if found is None:
        raise HTTPException(404, Message("no tutorial {tutorial!r} for {game}",
                                         tutorial=tutorial_id, game=game))
    return found


def _step_info(step: lessons.Step) -> StepInfo:
    return {"id": step.id, "title": _(step.title), "instruction": _(step.instruction),
            "hint": _(step.hint), "explain": _(step.explain), "solution": list(step.solution)}


def _refusal(title: str, exc: ParlourError) -> str:
    names = list(LEARNER_NAMES)
    if isinstance(exc, IllegalActionError):
        text = illegal_message(title, exc, names)
    else:
        text = notation_message(title, text_of(exc), names)
    return Lazy(lambda _language: translate(text).replace("you's", "your"))  # English


def _log(attempt: lessons.Attempt, notes: list[Note]) -> list[LogLine]:
    """The moves of the step in the table's words (its move log), but for a turn the step
    began part-way through: the log would tell only its end."""
    state = attempt.state
    lines = turn_log(state.game, notes, attempt.learner, tuple(state.scores()))
    if attempt.mid_turn and lines and lines[0]["player"] == attempt.learner:
        lines = lines[1:]
    return lines


def verdict(tutorial: lessons.Tutorial, step: lessons.Step, attempt: lessons.Attempt
            ) -> Verdict:
    """The reply to one attempt: status, the refusal if any, and the learner's view."""
    state = attempt.state
    title = game_class(tutorial.game).game_type.long_name
    notes = [Note(seq, a.player, a.text, a.text, a.scores) for seq, a in enumerate(attempt.history)]
    last = next((n for n in reversed(notes) if n.player >= 0), None)
    reply: Verdict = {
        "status": attempt.status,
        "message": None if attempt.error is None else _refusal(title, attempt.error),
        "moves": attempt.actions,
        "learner": attempt.learner,
        "log": _log(attempt, notes),
        **state_payload(state, attempt.learner, last),
    }
    if attempt.status != "going":
        reply["legal"] = []  # the step is over
    return reply


@router.get("/learn/{game}", include_in_schema=False)
async def learn_page(game: str) -> HTMLResponse:
    _tutorial(game)
    return page("learn.html")


@router.get("/learn/{game}/{tutorial_id}", include_in_schema=False)
async def learn_variant_page(game: str, tutorial_id: str) -> HTMLResponse:
    _tutorial(game, tutorial_id)
    return page("learn.html")


@router.get("/api/learn/{game}")
async def learn_steps(game: str) -> Tutorials:
    """A game's tutorials: each one's steps, and the game that ends it (``params``)."""
    _tutorial(game)
    return {
        "game": game,
        "title": game_class(game).game_type.long_name,
        "tutorials": [
            {"id": t.id, "title": _(t.title), "intro": _(t.intro), "finish": _(t.finish),
             "params": dict(t.params), "steps": [_step_info(s) for s in t.steps]}
            for t in lessons.tutorials(game)
        ],
    }


@router.post("/api/learn/{game}/{tutorial_id}/{step_id}")
async def learn_try(request: Request, game: str, tutorial_id: str, step_id: str
                    ) -> Verdict:
    """Play the learner's moves in the step's position; the engine says how it went."""
    tutorial = _tutorial(game, tutorial_id)
    try:
        step = tutorial.step(step_id)
    except KeyError:
        raise HTTPException(404, Message("no step {step!r} in this tutorial",
                                         step=step_id)) from None
    body = await json_body(request, LearnMoves)
    return verdict(tutorial, step, lessons.attempt(tutorial, step, body.moves))
