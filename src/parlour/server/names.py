"""Players' display names: cleaned once on the way in, shown as text everywhere.

A name is whatever a person typed, so it is hostile until checked: control and formatting
characters (including bidirectional overrides) are removed, runs of white space become one
space, and it is cut to :data:`MAX_NAME` characters. The browser always renders names as text
(``textContent``), never as HTML; this module only bounds and tidies them.
"""

from __future__ import annotations

import unicodedata

from parlour.agents.strengths import WORDS
from parlour.i18n import Message

MAX_NAME = 24
"""The longest display name, in characters (longer names are cut)."""

DELETED = "deleted player"
"""The name a deleted account's games keep. Stored and sent in English (programs read it);
people read it in their language (:func:`shown_name`, the pages' ``playerName``)."""
DELETED_MESSAGE = Message("deleted player")


def shown_name(name: str) -> str:
    """A stored player's name as people read it: a deleted account's in their language."""
    return DELETED_MESSAGE if name == DELETED else name


_DROP = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def clean_name(text: str | None) -> str | None:
    """``text`` as a display name, or ``None`` when nothing printable is left."""
    if not text:
        return None
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text[: MAX_NAME * 8]
        if ch.isspace() or unicodedata.category(ch) not in _DROP
    )
    name = " ".join(kept.split())[:MAX_NAME].strip()
    return name or None


def computer_name(agent: str | None) -> str:
    """A computer seat's name, by its strength: ``"Computer (hard)"`` (in the reader's words:
    the strengths the web table offers are translated, another program keeps its name)."""
    strength = agent or "random"
    return Message("Computer ({strength})", strength=WORDS.get(strength, strength))


def seat_display_name(kind: str, agent: str | None, name: str | None) -> str | None:
    """The name a seat is shown with: the person's name, a computer's strength, or ``None``
    (a human who has not chosen one: the page then names the seat by its colour or number)."""
    if kind == "ai":
        return computer_name(agent)
    return name
