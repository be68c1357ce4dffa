"""Players' display names: cleaned once on the way in, shown as text everywhere.

A name is whatever a person typed, so it is hostile until checked: control and formatting
characters (including bidirectional overrides) are removed, runs of white space become one
space, and it is cut to :data:`MAX_NAME` characters. The browser always renders names as text
(``textContent``), never as HTML; this module only bounds and tidies them.

A person's name (a guest's seat, an account's username) may not read like a computer seat's
label ("Computer (hard)", "Ordinateur (difficile)"): :func:`person_name` refuses any name whose
:func:`skeleton` contains the computer's word in one of the languages parlour speaks (issue
62), so that nobody can pose as the computer at a table.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from parlour import i18n
from parlour.agents.strengths import WORDS
from parlour.i18n import Message

MAX_NAME = 24
"""The longest display name, in characters (longer names are cut)."""

DELETED = "deleted player"
"""The name a deleted account's games keep. Stored and sent in English (programs read it);
people read it in their language (:func:`shown_name`, the pages' ``playerName``)."""
DELETED_MESSAGE = Message("deleted player")


GUEST = re.compile(r"Guest (\d{1,6})")
"""A guest's name as the pages make it and store it, in English ("Guest 353"): people read it
in their language (:func:`shown_name`, the pages' ``shownName``)."""


def shown_name(name: str) -> str:
    """A stored player's name as people read it: a deleted account's and a guest's
    ("Guest 353", "Invité 353") in their language."""
    if name == DELETED:
        return DELETED_MESSAGE
    guest = GUEST.fullmatch(name)
    return Message("Guest {n}", n=guest[1]) if guest else name


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


LOOKALIKES = str.maketrans({
    # Cyrillic, Greek and Armenian letters drawn like Latin ones (Unicode's confusables, UTS 39)
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "і": "i", "ј": "j",
    "к": "k", "м": "m", "п": "n", "о": "o", "р": "p", "ԛ": "q", "г": "r", "ѕ": "s", "т": "t",
    "у": "y", "х": "x", "ԝ": "w", "ո": "n", "ս": "u", "օ": "o", "α": "a", "β": "b", "ε": "e",
    "η": "n", "ι": "i", "κ": "k", "μ": "u", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x", "ω": "w", "ɡ": "g", "ʀ": "r",
    # digits and strokes that pass for letters; l and i are one letter here
    "0": "o", "1": "i", "l": "i", "|": "i", "ı": "i", "ӏ": "i", "!": "i", "$": "s",
})


def skeleton(text: str) -> str:
    """``text`` as compared for look-alikes: compatibility forms and accents dropped (NFKD),
    case folded, letters drawn alike made one, "rn" read as "m" and "vv" as "w", and only
    letters and digits kept (spaces, dots, dashes and brackets fall away)."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    kept = "".join(ch for ch in plain.translate(LOOKALIKES) if ch.isalnum())
    return kept.replace("rn", "m").replace("vv", "w")


@functools.cache
def computer_words() -> tuple[tuple[str, str], ...]:
    """The computer's word in each language parlour speaks, as read ("Computer") and as its
    :func:`skeleton` ("computer"): the label "Computer ({strength})" without its strength."""
    found: dict[str, str] = {}
    for language in i18n.languages():
        with i18n.using(language):
            label = i18n.gettext("Computer ({strength})")
        word = label.replace("{strength}", "").replace("(", "").replace(")", "").strip()
        if skeleton(word):
            found.setdefault(skeleton(word), word)
    return tuple((word, key) for key, word in found.items())


class NameRefused(ValueError):
    """A name a person may not take (it reads like the computer's)."""


def posing_word(name: str) -> str | None:
    """The computer's word (as read) that ``name`` reads like it contains, if any."""
    key = skeleton(name)
    return next((word for word, word_key in computer_words() if word_key in key), None)


def check_person(name: str) -> str:
    """``name`` if a person may use it, else :class:`NameRefused`."""
    word = posing_word(name)
    if word is not None:
        raise NameRefused(Message(
            "the name {name!r} reads like a computer player's: choose another (a person's name "
            "never contains “{word}”)", name=name, word=word))
    return name


def person_name(text: str | None) -> str | None:
    """A person's display name: :func:`clean_name`, then refused (:class:`NameRefused`) when
    it reads like a computer seat's label in any language."""
    name = clean_name(text)
    return None if name is None else check_person(name)
