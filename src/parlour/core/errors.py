"""Errors raised by parlour.

Every error a user can provoke with bad input subclasses :class:`ValueError`, like
python-chess's ``IllegalMoveError``: callers who only want "was my input wrong?" catch
``ValueError``; callers who want to know *which* rule was broken read ``.rule``.
"""

from __future__ import annotations

from collections.abc import Iterable

from parlour.i18n import Message


class ParlourError(ValueError):
    """Base class of every input error parlour raises."""


class UnknownGameError(ParlourError):
    """``load_game`` was given a name that no registered game has."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = sorted(known)
        super().__init__(Message("unknown game {name!r}; known games: {known}", name=name,
                                 known=", ".join(self.known)))


class InvalidParameterError(ParlourError):
    """A game parameter is unknown, of the wrong type, or out of range.

    ``reason`` is why, without the game's name (a :class:`parlour.i18n.Message` where the game
    wrote one, translated where a player reads it), and ``parameter`` the parameter it is about
    (``None`` for several, or an unknown one): a player reads the parameter by the game's label
    for it (:func:`parlour.games.wording.parameter_message`).
    """

    def __init__(self, game: str, message: str, valid: Iterable[str] = (), *,
                 parameter: str | None = None) -> None:
        self.game = game
        self.reason = message
        self.parameter = parameter
        self.valid = sorted(valid)
        text = f"{game}: {message}"
        if self.valid:
            text += f" (valid parameters: {', '.join(self.valid)})"
        super().__init__(text)

    @classmethod
    def about(cls, game: str, parameter: str, reason: str) -> InvalidParameterError:
        """``parameter``'s value refused for ``reason``: "clobber: parameter 'rows': ..."."""
        made = cls(game, f"parameter {parameter!r}: {reason}", parameter=parameter)
        made.reason = reason
        return made


class NotationError(ParlourError):
    """Text that should be a move or a position could not be parsed."""


class RulesVersionError(ParlourError):
    """A game stored under one version of its rules, asked to be replayed under another.

    A change to a game's rules changes what its actions mean, so a stored game is never
    replayed silently by rules it was not played under.
    """

    def __init__(self, game: str, stored: int, current: int) -> None:
        self.game = game
        self.stored = stored
        self.current = current
        super().__init__(
            f"{game}: this game was played under rules version {stored}, and parlour now "
            f"plays rules version {current}: it cannot be replayed by other rules"
        )


class IllegalActionError(ParlourError):
    """An action that the rules forbid in this state (ruling G-2).

    ``rule`` names the rule or ruling that forbids it (e.g. ``"C4"``, ``"S7"``), so that a
    player is told *why*, not only *that*. The state is left unchanged.
    """

    def __init__(self, action: int | str, rule: str, reason: str) -> None:
        self.action = action
        self.rule = rule
        self.reason = reason
        super().__init__(f"illegal action {action!r}: {reason} [rule {rule}]")
