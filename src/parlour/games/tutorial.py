"""Tutorials: short lessons in which a new player makes real moves in real positions.

Each game ships its lessons as data, ``tutorial.toml`` in the game's package: one or more
tutorials (GobbleStones has one for the bluffing variant), each a list of steps. A step is

- a position in the game's documented position text (``Game.state_from_position``), with the
  game parameters it needs (a Clobber board's size, the bluffing variant);
- one instruction in a player's words, a hint for a move that misses the point, and a short
  explanation of the rule the step teaches, shown once it is done;
- ``solution``: a line of moves in the game's notation that does what the instruction asks
  (the tests play it; a stuck player can ask to be shown it);
- ``expect``: what the learner's view must show once their turn is over, as a partial match
  (see :func:`matches`); a list of them means any one will do;
- ``chance``: the outcomes of the chance events met on the way (the card turned over, the
  tiles drawn), in notation, so that the lesson is the same every time; events past the end
  of the list are drawn from a generator seeded by the step, so they are the same every time
  too;
- ``then``: what the other players do once the learner's turn is over (an opponent who
  trusts or challenges a bluffing play), in notation.

Nothing here decides a rule: every move goes through ``apply_action``, and what the learner
sees is ``state.view(learner)``, the game's one cut for hidden information (G-3). The web
table's ``/learn`` pages use :func:`attempt`; the tests check every step of every game.
"""

from __future__ import annotations

import importlib
import random
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

from parlour.core import (
    CHANCE_PLAYER,
    IllegalActionError,
    ParlourError,
    State,
    game_class,
    list_games,
    load_game,
)
from parlour.i18n import Message

FILE = "tutorial.toml"
MAX_MOVES = 64
"""Most learner actions one attempt at a step may hold (a Stomple string of the whole board
is 49; a GobbleStones play is at most 6)."""

Status = Literal["going", "done", "missed"]


class TutorialError(ParlourError):
    """A tutorial file that does not describe a playable lesson (a bug in the data)."""


@dataclass(frozen=True)
class Step:
    """One lesson: a position, what to do in it, and what the engine must show after."""

    id: str
    title: str
    instruction: str
    explain: str
    hint: str
    position: str
    params: Mapping[str, Any]
    solution: tuple[str, ...]
    expect: tuple[Mapping[str, Any], ...]
    chance: tuple[str, ...] = ()
    then: tuple[str, ...] = ()

    def start(self, game_name: str) -> State[Any]:
        """The step's position as a state, with nobody's chance events pending."""
        game = load_game(game_name, **self.params)
        return game.state_from_position(self.position)


@dataclass(frozen=True)
class Tutorial:
    """A game's lessons, in order, and the game a learner starts when they are done."""

    game: str
    id: str
    title: str
    intro: str
    finish: str
    params: Mapping[str, Any]
    """The parameters of the game against the computer that ends the tutorial."""
    steps: tuple[Step, ...]

    def step(self, step_id: str) -> Step:
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(step_id)


@dataclass(frozen=True)
class Applied:
    """One action applied in a step, as the learner may know it."""

    player: int
    action: int
    text: str
    """The action's notation as the learner may read it (another's hidden tile is not named)."""
    scores: tuple[float, ...]
    """Everyone's points just before it (public in every game)."""


@dataclass
class Attempt:
    """What became of the learner's moves in a step."""

    state: State[Any]
    learner: int
    status: Status
    actions: list[int] = field(default_factory=list)
    """The learner's moves applied, as action ids."""
    history: list[Applied] = field(default_factory=list)
    """Every action applied from the step's position, chance events included."""
    error: ParlourError | None = None
    """The refusal of the move that could not be played (the moves before it stand)."""
    error_index: int | None = None
    mid_turn: bool = False
    """The step begins part-way through the learner's turn (cards already out, a string)."""


# -- loading ------------------------------------------------------------------------------------
def _package(game: str) -> str:
    return ".".join(game_class(game).__module__.split(".")[:3])


def _text(table: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = table.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise TutorialError(f"{where}: {key!r} must be a non-empty text")
    return value.strip()


def _texts(table: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise TutorialError(f"{where}: {key!r} must be a list of moves in notation")
    return tuple(value)


def _step(raw: Mapping[str, Any], base: Mapping[str, Any], where: str) -> Step:
    known = {"id", "title", "instruction", "explain", "hint", "position", "params", "solution",
             "expect", "chance", "then"}
    unknown = set(raw) - known
    if unknown:
        raise TutorialError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    expect = raw.get("expect", {})
    alternatives = expect if isinstance(expect, list) else [expect]
    if not alternatives or not all(isinstance(e, dict) and e for e in alternatives):
        raise TutorialError(f"{where}: 'expect' says what the view shows once the step is done")
    step_id = _text(raw, "id", where)
    return Step(
        id=step_id,
        title=_text(raw, "title", where),
        instruction=_text(raw, "instruction", where),
        explain=_text(raw, "explain", where),
        hint=_text(raw, "hint", where),
        position=_text(raw, "position", where),
        params={**base, **raw.get("params", {})},
        solution=_texts(raw, "solution", where),
        expect=tuple(alternatives),
        chance=_texts(raw, "chance", where),
        then=_texts(raw, "then", where),
    )


def parse_tutorials(game: str, text: str) -> tuple[Tutorial, ...]:
    """Read a game's ``tutorial.toml`` (checks its shape; :func:`attempt` checks the moves)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TutorialError(f"{game}: {FILE} is not TOML: {exc}") from None
    tutorials = []
    for index, raw in enumerate(data.get("tutorial", [])):
        where = f"{game} tutorial {index + 1}"
        params = raw.get("params", {})
        steps = tuple(
            _step(s, params, f"{where} step {k + 1}") for k, s in enumerate(raw.get("step", []))
        )
        if not steps:
            raise TutorialError(f"{where}: no steps")
        ids = [s.id for s in steps]
        if len(set(ids)) != len(ids):
            raise TutorialError(f"{where}: two steps share an id")
        tutorials.append(Tutorial(
            game=game, id=_text(raw, "id", where), title=_text(raw, "title", where),
            intro=_text(raw, "intro", where), finish=_text(raw, "finish", where),
            params=params, steps=steps,
        ))
    if not tutorials:
        raise TutorialError(f"{game}: {FILE} holds no [[tutorial]]")
    return tuple(tutorials)


@lru_cache(maxsize=16)
def tutorials(game: str) -> tuple[Tutorial, ...]:
    """Every tutorial of ``game`` (its first is the one to start with); ``()`` if none."""
    if game not in list_games():
        return ()
    source = resources.files(importlib.import_module(_package(game))).joinpath(FILE)
    if not source.is_file():
        return ()
    return parse_tutorials(game, source.read_text(encoding="utf-8"))


def find(game: str, tutorial_id: str | None = None) -> Tutorial | None:
    """A game's tutorial by id (``None``: its first), or ``None`` if there is no such one."""
    found = tutorials(game)
    if tutorial_id is None:
        return found[0] if found else None
    return next((t for t in found if t.id == tutorial_id), None)


# -- playing a step -----------------------------------------------------------------------------
def matches(expected: Any, actual: Any) -> bool:
    """Whether ``actual`` (a view, or part of one) shows what ``expected`` asks.

    A table matches a dict holding at least its keys, each matching; a list matches a list of
    the same length, item by item; ``{at_least = N}`` and ``{at_most = N}`` compare numbers;
    anything else must be equal.
    """
    if isinstance(expected, dict):
        if set(expected) <= {"at_least", "at_most"} and expected:
            if not isinstance(actual, int | float) or isinstance(actual, bool):
                return False
            low, high = expected.get("at_least"), expected.get("at_most")
            return (low is None or actual >= low) and (high is None or actual <= high)
        return isinstance(actual, dict) and all(
            key in actual and matches(value, actual[key]) for key, value in expected.items()
        )
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(matches(e, a) for e, a in zip(expected, actual, strict=True)))
    return bool(expected == actual)


def shows(step: Step, state: State[Any], learner: int) -> bool:
    """Whether the learner's view of ``state`` shows what the step teaches."""
    view = dict(state.view(learner))
    return any(matches(alternative, view) for alternative in step.expect)


class _Script:
    """The step's chance outcomes and other players' moves, handed out in order."""

    def __init__(self, tutorial: str, step: Step) -> None:
        self.chance = list(step.chance)
        self.then = list(step.then)
        self.rng = random.Random(f"parlour-tutorial:{tutorial}:{step.id}")

    def resolve_chance(self, state: State[Any], attempt: Attempt) -> None:
        while state.is_chance_node():
            if self.chance:
                action = state.string_to_action(self.chance.pop(0))
            else:
                action = state.sample_chance_outcome(self.rng)
            _apply(state, action, CHANCE_PLAYER, attempt)


def _apply(state: State[Any], action: int, player: int, attempt: Attempt) -> None:
    text = (state.safe_action_string(action, attempt.learner) if player == attempt.learner
            else _public(state, action))
    scores = tuple(state.scores())
    state.apply_action(action)
    attempt.history.append(Applied(player, action, text, scores))


def _public(state: State[Any], action: int) -> str:
    try:
        return state.public_action_string(action)
    except (ValueError, IndexError, KeyError):
        return "?"


def _turn_goes_on(state: State[Any], learner: int) -> bool:
    return (not state.is_terminal() and state.current_player() == learner
            and state.turn_in_progress())


def attempt(tutorial: Tutorial, step: Step, moves: Sequence[int | str]) -> Attempt:
    """Play the learner's ``moves`` (action ids or notation) from the step's position.

    The learner is whoever is to act there. While their turn goes on (a string, a play being
    laid, a card turned over with the choice to draw again) the status is ``going``; once it
    is over, the step's other players make their ``then`` moves, and the status is ``done`` if
    the learner's view shows what the step expects, ``missed`` if not. A move the rules refuse
    sets ``error`` and stops there, the moves before it applied. Raises ``ValueError`` for more
    than :data:`MAX_MOVES` moves.
    """
    if len(moves) > MAX_MOVES:
        raise ValueError(f"at most {MAX_MOVES} moves in one step")
    state = step.start(tutorial.game)
    script = _Script(tutorial.id, step)
    learner = state.current_player()
    result = Attempt(state, learner, "going")
    script.resolve_chance(state, result)
    learner = result.learner = state.current_player()
    result.mid_turn = state.turn_in_progress()
    for index, move in enumerate(moves):
        try:
            if index and not _turn_goes_on(state, learner):
                raise IllegalActionError(move, "G-2", Message("your turn is over"))
            actions = [move] if isinstance(move, int) else state.string_to_actions(move)
            for k, action in enumerate(actions):
                if k and not _turn_goes_on(state, learner):
                    raise IllegalActionError(move, "G-2", Message("your turn ended part-way"))
                _apply(state, action, learner, result)
                result.actions.append(action)
                script.resolve_chance(state, result)
        except ParlourError as exc:
            result.error, result.error_index = exc, index
            return result
    if not moves or _turn_goes_on(state, learner):
        return result
    for move in script.then:
        if state.is_terminal():
            break
        player = state.current_player()
        _apply(state, state.string_to_action(move), player, result)
        script.resolve_chance(state, result)
    result.status = "done" if shows(step, state, learner) else "missed"
    return result

