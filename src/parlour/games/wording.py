"""What a player reads when a move is refused: their words, the rule named in brackets at the end.

Shared by every place people play (the web table, the terminal). The games explain a refusal
(``IllegalActionError.reason`` and ``.rule``, or a notation error whose text ends with the rule
id in brackets); this module only changes the presentation:
``"a5 and b4 are not next to each other (Clobber: moving)"`` instead of an engine's
``"illegal action 'a5b4': ... [rule C4]"``. Rule ids become the topic a player would look up
in the rules, since a player does not know ruling ids. Nothing here decides what is legal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from parlour.core import IllegalActionError

RULE_TOPICS: dict[str, str] = {
    # every game
    "G-1": "chance", "G-2": "whose turn", "G-3": "what players see", "G-4": "results",
    "G-5": "after the game",
    # Clobber
    "rulebook: Moving": "moving", "C1": "the board", "C2": "the start", "C3": "who starts",
    "C4": "moving", "C5": "the end", "C6": "positions", "C7": "graph boards",
    "C8": "Cannibal Clobber",
    # Stomple
    "S1": "the marbles", "S2": "stompers", "S3": "the outer row",
    "S4": "the first turn of a round", "S5": "stomping", "S6": "stomping", "S7": "strings",
    "S8": "empty holes", "S9": "knock-outs", "S10": "the end of a round", "S11": "winning",
    "S12": "one-round games",
    # Stomp the Plank
    "P1": "the cards", "P2": "the pontoon", "P3": "drawing and stopping", "P4": "matches",
    "P5": "planks and crates", "P6": "tipping", "P7": "the draw pile", "P8": "players",
    # GobbleStones
    "B1": "the board", "B2": "tiles and racks", "B3": "the first play", "B4": "laying tiles",
    "B5": "no 2 x 2 blocks", "B6": "scoring", "B7": "the end", "B8": "the end",
    "B9": "bluffing",
}
_TRAILING_RULE = re.compile(
    r"\s*[\(\[](?:rule\s+)?(rulebook: [^)\]]+|[A-Z]-?\d+(?:,\s*[A-Z]-?\d+)*)[\)\]]\s*\.?$"
)
_STEP = re.compile(r"^step \d+:\s*")
_INNER_RULE = re.compile(r"\s*[\(\[](?:rule\s+)?(?:[A-Z]-?\d+(?:,\s*[A-Z]-?\d+)*)[\)\]]")


def rule_label(title: str, rule: str) -> str:
    """``"Clobber: moving"``: the game and the topic of the rule, in a player's words."""
    first = rule.split(",")[0].strip()
    topic = RULE_TOPICS.get(first) or RULE_TOPICS.get(first.replace("rule ", ""), "rules")
    return f"{title}: {topic}"


_PLAYER = re.compile(r"\bplayer (\d+)")
_WORD = re.compile(r"^[a-z]+\b")  # a word ("a tile"), not a square name like "c4"


def _sentence(text: str, names: Sequence[str] = ()) -> str:
    """Tidy a game's text for a player: engine seat numbers (from 0) become the seats' names
    (or "player 1", counted from 1), and a leading word gets its capital."""

    def seat(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return names[index] if index < len(names) else f"player {index + 1}"

    text = _PLAYER.sub(seat, _INNER_RULE.sub("", text)).strip()
    return text[:1].upper() + text[1:] if _WORD.match(text) else text


def illegal_message(title: str, exc: IllegalActionError, names: Sequence[str] = ()) -> str:
    """A refused move: the game's reason, then the rule it breaks in brackets."""
    reason = _TRAILING_RULE.sub("", exc.reason)
    return f"{_sentence(reason, names)} ({rule_label(title, exc.rule)})"


def notation_message(title: str, text: str, names: Sequence[str] = ()) -> str:
    """A move that could not be read: the game's explanation, its rule id made a topic."""
    text = _STEP.sub("", text)
    found = _TRAILING_RULE.search(text)
    if found is None:
        return _sentence(text, names)
    head = text[: found.start()]
    return f"{_sentence(head, names)} ({rule_label(title, found.group(1))})"
