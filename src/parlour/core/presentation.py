"""How a game reads to people: the part of each game that is words, not rules.

The web table, the terminal, the arena and the agents' strengths all show games, and what
differs between games (how a move is typed, how a turn reads in the move log, what a seat's
colour is called, which decision has its own short limit and what running out of time decides
there, what the points column is called) lives with each game, in a :class:`Presentation`
registered for it (``parlour/games/<game>/presentation.py``). Those places then ask the game's
presentation instead of branching on its name, so a new game touches only its own package.

A presentation never decides what is legal (the state does) and never sees what a player may
not: a turn's texts are the texts that player may read (G-3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple, TypeVar

from parlour.core.game import CHANCE_PLAYER, Game, State
from parlour.i18n import N_, Lazy, Message, gettext, translate

_PRESENTATIONS: dict[str, type[Presentation]] = {}
P = TypeVar("P", bound="type[Presentation]")


class Turn(NamedTuple):
    """One numbered line of the move log: a player's run of actions, as one viewer may read it.

    ``texts`` are the player's actions and ``chance`` the chance events inside the turn (the
    cards it turned up), each ``None`` where the viewer may not read it; ``gained`` is the
    player's points won by the turn, where the game keeps score.
    """

    player: int
    texts: tuple[str | None, ...]
    chance: tuple[str | None, ...] = ()
    gained: float | None = None


class LobbyOption(NamedTuple):
    """One option of the lobby's game card, in a player's words (every other parameter is
    under "Advanced", by its engine name's label).

    ``kind`` says how it is asked: ``"choice"`` (a menu of ``choices``, each a value and its
    words; the value ``""`` is the default), ``"bool"`` (a box to tick), ``"int"`` (a number,
    ``placeholder`` shown while it is empty) or ``"players"`` (a menu of the game's player
    counts). The words are marked ``N_`` and translated where shown.
    """

    param: str
    label: str
    kind: str = "choice"
    choices: tuple[tuple[str, str], ...] = ()
    placeholder: str = ""


class Presentation:
    """The default words for a game; each game's presentation overrides what differs."""

    blurb: ClassVar[str] = ""
    """The lobby card's line on what the game is, marked ``N_``."""
    length: ClassVar[str] = ""
    """How long a game takes, as the lobby card says it ("5–10 min"), marked ``N_``."""
    lobby_options: ClassVar[tuple[LobbyOption, ...]] = ()
    """The options the lobby card shows in a player's words, in order."""

    how_to_move: ClassVar[str] = N_("type a move in the game's notation (`moves` lists them)")
    """The terminal's help on typing a move; words in backticks are what a player types."""
    points_label: ClassVar[str | None] = None
    """The title of the arena's mean-points column, in games whose points mean something."""
    colour_names_seat: ClassVar[bool] = False
    """Whether a seat's colour alone names it ("White"), as in two-colour board games."""
    parameters: ClassVar[Mapping[str, tuple[str, str]]] = {
        "players": (N_("Players"), N_("How many play")),
        "position": (N_("Start from a position"),
                     N_("A position in the game's notation, as the rules page writes it")),
    }
    """Each parameter of the game as a player reads it: a label and a line of help, marked for
    the catalog (``N_``) and translated where shown (the lobby's Advanced section, a refused
    value's message). An engine's parameter name is never a player's word."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def seat_colour(self, state: State[Any], player: int) -> str | None:
        """The colour the game gives ``player`` now, as players say it; ``None`` if none."""
        return None

    def ends_turn(self, text: str | None) -> bool:
        """Whether an action read as ``text`` closes its player's turn (otherwise a turn is
        the run of one player's actions until someone else acts)."""
        return False

    def turn_text(self, turn: Turn) -> str:
        """One turn of the move log in the game's own terms."""
        return joined(", ", turn.texts)

    def timeout_decision(self, state: State[Any]) -> int | None:
        """The action a run-out clock takes when the player to act must make a decision with
        its own short limit (a GobbleStones bluff: trust); ``None`` when no such decision is
        being made."""
        return None


MOVED = Message("(moved)")
"""A move the viewer may not read, in the move log."""


def joined(separator: str, texts: Sequence[str | None]) -> str:
    """Moves in notation one after the other, one the viewer may not read as "(moved)" (in the
    reader's language: a :class:`parlour.i18n.Message` when there is one)."""
    if all(texts):
        return separator.join(t for t in texts if t)
    return Lazy(lambda _language: separator.join(t or translate(MOVED) for t in texts))


class Entry(NamedTuple):
    """One action as a viewer may read it, for :func:`group_turns`: who acted (the chance
    player included), its text (``None`` where the viewer may not read it) and everyone's
    points just before it. (Tuples: a state message builds one per action of the game.)"""

    player: int
    text: str | None
    scores: tuple[float, ...] | None = None


def group_turns(
    words: Presentation,
    entries: Sequence[tuple[int, str | None, tuple[float, ...] | None]],
    final_scores: tuple[float, ...] | None = None,
) -> list[tuple[int, Turn]]:
    """The turns the actions make, each with the index of its first entry (the entries are
    :class:`Entry` values, or plain tuples of the same fields).

    A turn is a player's run of actions until someone else acts or the game says it ended
    (:meth:`Presentation.ends_turn`); chance events inside a turn belong to it (the cards it
    turned up), those outside any turn (a deal) to none. ``gained`` is the player's points
    from the start of the turn to the start of the next (``final_scores`` after the last).
    """
    runs: list[tuple[int, int, list[str | None], list[str | None], Any, bool]] = []
    closed = True
    ends_turn = words.ends_turn
    for index, (player, text, scores) in enumerate(entries):  # (Entry's fields, unpacked)
        if player == CHANCE_PLAYER:
            if not closed:
                runs[-1][3].append(text)
            continue
        if closed or runs[-1][1] != player:
            runs.append((index, player, [], [], scores, False))
        runs[-1][2].append(text)
        closed = ends_turn(text)
    turns = []
    for number, (index, player, texts, chance, before, _closed) in enumerate(runs):
        after = runs[number + 1][4] if number + 1 < len(runs) else final_scores
        gained = None
        if before is not None and after is not None:
            gained = after[player] - before[player]
        turns.append((index, Turn(player, tuple(texts), tuple(chance), gained)))
    return turns


def parameter_words(game: str, parameter: str) -> tuple[str, str]:
    """The label and help of ``game``'s ``parameter`` in the current language (the parameter's
    own name, for one the game's presentation does not name)."""
    words = {**Presentation.parameters, **_PRESENTATIONS.get(game, Presentation).parameters}
    label, help_ = words.get(parameter, (parameter, ""))
    return gettext(label), gettext(help_) if help_ else ""


def card_words(game: str) -> dict[str, Any]:
    """What the lobby card says about ``game`` in the current language: its ``blurb``, its
    ``length`` and its ``options`` (each as :class:`LobbyOption`'s fields, ``choices`` as
    ``[value, words]`` pairs), so that the page's shared code names no game."""
    words = _PRESENTATIONS.get(game, Presentation)
    options = []
    for option in words.lobby_options:
        shown: dict[str, Any] = {"param": option.param, "label": gettext(option.label),
                                 "kind": option.kind}
        if option.choices:
            shown["choices"] = [[value, gettext(text)] for value, text in option.choices]
        if option.placeholder:
            shown["placeholder"] = gettext(option.placeholder)
        options.append(shown)
    return {"blurb": gettext(words.blurb) if words.blurb else "",
            "length": gettext(words.length) if words.length else "", "options": options}


def settings_words(game: str, params: Mapping[str, Any]) -> list[str]:
    """``game``'s non-default ``params`` in a player's words (messages, translated where read):
    a lobby option's label and choice ("Board: 8 x 8"; a ticked box's label alone), else the
    parameter's label and value ("Board rows: 3"), so that a tournament says on its page what
    it is played on. The number of players is left out (said elsewhere). Each is a message
    whose parts are messages too, translated where it is read, not where it is made."""
    words = _PRESENTATIONS.get(game, Presentation)
    options = {option.param: option for option in words.lobby_options}
    out: list[str] = []
    for key, value in params.items():
        option = options.get(key)
        if key == "players" or (option is not None and option.kind == "players"):
            continue
        if option is not None and option.kind == "bool":
            if value:
                out.append(Message(option.label))
            continue
        named = dict(option.choices) if option is not None else {}
        if option is not None and str(value) in named:
            out.append(Message("{label}: {value}", label=Message(option.label),
                               value=Message(named[str(value)])))
            continue
        label = {**Presentation.parameters, **words.parameters}.get(key, (key, ""))[0]
        out.append(Message("{label}: {value}", label=Message(label), value=value))
    return out


def register_presentation(name: str) -> Any:
    """Class decorator: ``cls`` presents the game registered as ``name``."""

    def register(cls: P) -> P:
        _PRESENTATIONS[name] = cls
        return cls

    return register


@lru_cache(maxsize=256)
def presentation(game: Game) -> Presentation:
    """The presentation of ``game`` (the default words for a game that registered none); one
    per configured game (games are immutable and hashable)."""
    return _PRESENTATIONS.get(game.name, Presentation)(game)
