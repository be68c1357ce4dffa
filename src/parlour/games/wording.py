"""What a player reads when a move is refused: their words, the rule named in brackets at the end.

Shared by every place people play (the web table, the terminal), in the reader's language:
the results are :class:`parlour.i18n.Lazy` texts, English to whatever reads them as strings and
translated where they are shown (the game's reason, the rule's topic, the brackets' words).
The games explain a refusal
(``IllegalActionError.reason`` and ``.rule``, or a notation error whose text ends with the rule
id in brackets); this module only changes the presentation:
``"a5 and b4 are not next to each other (Clobber: moving)"`` instead of an engine's
``"illegal action 'a5b4': ... [rule C4]"``. Rule ids become the topic a player would look up
in the rules, since a player does not know ruling ids. Nothing here decides what is legal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from parlour.core import IllegalActionError, InvalidParameterError, game_class
from parlour.core.presentation import parameter_words
from parlour.i18n import N_, Lazy, Message, Seat, gettext, text_of, translate

RULE_TOPICS: dict[str, str] = {
    # every game
    "G-1": N_("chance"), "G-2": N_("whose turn"), "G-3": N_("what players see"),
    "G-4": N_("results"), "G-5": N_("after the game"),
    # Clobber
    "rulebook: Moving": N_("moving"), "C1": N_("the board"), "C2": N_("the start"),
    "C3": N_("who starts"), "C4": N_("moving"), "C5": N_("the end"), "C6": N_("positions"),
    "C7": N_("graph boards"), "C8": N_("Cannibal Clobber"),
    # Stomple
    "S1": N_("the marbles"), "S2": N_("stompers"), "S3": N_("the outer row"),
    "S4": N_("the first turn of a round"), "S5": N_("stomping"), "S6": N_("stomping"),
    "S7": N_("strings"), "S8": N_("empty holes"), "S9": N_("knock-outs"),
    "S10": N_("the end of a round"), "S11": N_("winning"), "S12": N_("one-round games"),
    # Stomp the Plank
    "P1": N_("the cards"), "P2": N_("the pontoon"), "P3": N_("drawing and stopping"),
    "P4": N_("matches"), "P5": N_("planks and crates"), "P6": N_("tipping"),
    "P7": N_("the draw pile"), "P8": N_("players"),
    # GobbleStones
    "B1": N_("the board"), "B2": N_("tiles and racks"), "B3": N_("the first play"),
    "B4": N_("laying tiles"), "B5": N_("no 2 x 2 blocks"), "B6": N_("scoring"),
    "B7": N_("the end"), "B8": N_("the end"), "B9": N_("bluffing"),
}
_TRAILING_RULE = re.compile(
    r"\s*[\(\[](?:rule\s+)?(rulebook: [^)\]]+|[A-Z]-?\d+(?:,\s*[A-Z]-?\d+)*)[\)\]]\s*\.?$"
)
_STEP = re.compile(r"^step \d+:\s*")
_INNER_RULE = re.compile(r"\s*[\(\[](?:rule\s+)?(?:[A-Z]-?\d+(?:,\s*[A-Z]-?\d+)*)[\)\]]")


def rule_label(title: str, rule: str) -> str:
    """``"Clobber: moving"``: the game and the topic of the rule, in a player's words (in the
    current language)."""
    first = rule.split(",")[0].strip()
    topic = RULE_TOPICS.get(first) or RULE_TOPICS.get(first.replace("rule ", ""), N_("rules"))
    return gettext("{game}: {topic}").format(game=gettext(title), topic=gettext(topic))


_PLAYER = re.compile(r"\bplayer (\d+)")
_WORD = re.compile(r"^[a-zà-ÿ]+\b")  # a word ("a tile"), not a square name like "c4"


def _sentence(text: str, names: Sequence[str] = ()) -> str:
    """Tidy a game's text for a player: engine seat numbers (from 0) become the seats' names
    (or "player 1", counted from 1), and a leading word gets its capital."""

    def seat(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return translate(_seat_name(index, names))

    if isinstance(text, Message):  # a game's message: its seats by name, then translated
        text = translate(text.with_params(**{
            key: _seat_name(int(value), names)
            for key, value in text.params.items() if isinstance(value, Seat)
        }))
    text = _PLAYER.sub(seat, _INNER_RULE.sub("", text)).strip()
    return text[:1].upper() + text[1:] if _WORD.match(text) else text


def _seat_name(index: int, names: Sequence[str]) -> str:
    return names[index] if index < len(names) else Message("player {n}", n=index + 1)


def _bracketed(reason: str, label: str) -> str:
    return gettext("{reason} ({rule})").format(reason=reason, rule=label)


def illegal_message(title: str, exc: IllegalActionError, names: Sequence[str] = ()) -> str:
    """A refused move: the game's reason, then the rule it breaks in brackets."""

    def render(language: str) -> str:
        reason = _sentence(_untail(exc.reason), names)
        return _bracketed(reason, rule_label(title, exc.rule))

    return Lazy(render)


def _untail(reason: str) -> str:
    """``reason`` without a rule id at its end (kept a message: translated later)."""
    if isinstance(reason, Message) or _TRAILING_RULE.search(reason) is None:
        return reason
    return _TRAILING_RULE.sub("", reason)


def notation_message(title: str, text: str, names: Sequence[str] = ()) -> str:
    """A move that could not be read: the game's explanation, its rule id made a topic (read
    from the end of the translated text: a translation keeps the id there)."""

    def render(language: str) -> str:
        read = _STEP.sub("", translate(text))
        found = _TRAILING_RULE.search(read)
        if found is None:
            return _sentence(read, names)
        head = read[: found.start()]
        return _bracketed(_sentence(head, names), rule_label(title, found.group(1)))

    return Lazy(render)







def parameter_message(exc: InvalidParameterError) -> str:
    """A refused game option as a player reads it: the option by the game's label for it (not
    the engine's parameter name), the reason, and the rule it breaks in brackets at the end."""

    def render(language: str) -> str:
        reason = translate(exc.reason)
        found = _TRAILING_RULE.search(reason)
        head = reason[: found.start()] if found else reason
        if exc.parameter is not None:
            label, _help = parameter_words(exc.game, exc.parameter)
            head = gettext("{label}: {reason}").format(label=label, reason=head)
        text = _sentence(head)
        if found is None:
            return text
        return _bracketed(text, rule_label(game_class(exc.game).game_type.long_name,
                                           found.group(1)))

    return Lazy(render)


def refusal_text(exc: BaseException) -> str:
    """An error's text for a player: a refused game option in the game's words
    (:func:`parameter_message`), any other as the error says it (its message, translated
    where read)."""
    if isinstance(exc, InvalidParameterError):
        return parameter_message(exc)
    return text_of(exc)
