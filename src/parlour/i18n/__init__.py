"""Translations: every string a player reads, from gettext message catalogs.

The catalogs live in ``parlour/i18n/locale/<language>/LC_MESSAGES/parlour.po`` (the
translators' text) with its compiled ``parlour.mo`` beside it (what the program reads, committed
so that a plain ``pip install`` needs no build step); ``parlour.pot`` is the template that
``pybabel extract`` makes from the sources (``babel.cfg``: the Python, the page templates,
the pages' JavaScript, the rules pages and the tutorials). docs/translations.md says how to add a
language.

This package imports nothing else of parlour, so every layer may mark its strings: the games
their refusals and words, the server its pages and messages, the terminal its prompts.

- :func:`gettext` (``_``) and :func:`ngettext` translate now, into the language of the current
  context (a web request's, a websocket's, the terminal's locale): :func:`using` sets it.
- :class:`Message` is English text that remembers its message id and parameters, for text made
  in one place and read in another (a game's refusal, a table's notice shown to listeners of
  several languages): it *is* the English string, and :func:`localise` translates it (and every
  message inside a reply) where it is read.
- :func:`N_` only marks a string for the catalog (a table of words translated later).

Why stdlib :mod:`gettext` at run time and Babel only around it: the terminal works without the
web extra, and the compiled catalogs are the standard format every translation tool reads.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any

DOMAIN = "parlour"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE_LANGUAGE = "en"
"""The language the sources are written in: it needs no catalog."""

_current: ContextVar[str] = ContextVar("parlour_language", default=SOURCE_LANGUAGE)


@lru_cache(maxsize=1)
def languages() -> tuple[str, ...]:
    """The languages parlour speaks: English, then each compiled catalog's, sorted."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE_LANGUAGE, *[code for code in found if code != SOURCE_LANGUAGE])


@lru_cache(maxsize=16)
def translations(language: str) -> _gettext.NullTranslations:
    """The catalog of ``language`` (English, or an unknown language: the sources' text)."""
    if language == SOURCE_LANGUAGE or language not in languages():
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])


def current() -> str:
    """The language of the current context."""
    return _current.get()


def choose(language: str | None) -> str:
    """``language`` if parlour speaks it (``fr``, ``fr-CA`` and ``fr_CA.UTF-8`` are all
    French), else English."""
    if language:
        code = language.replace("-", "_").split(".")[0].split("@")[0]
        for candidate in (code, code.split("_")[0].lower()):
            if candidate in languages():
                return candidate
    return SOURCE_LANGUAGE


def set_language(language: str) -> None:
    """Make ``language`` the current context's (a request's, the terminal's)."""
    _current.set(choose(language))


@contextmanager
def using(language: str) -> Iterator[str]:
    """Translate into ``language`` inside the block."""
    token = _current.set(choose(language))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translations(_current.get()).gettext(message)


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular`` / ``plural`` for ``n`` in the current language."""
    return translations(_current.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, read under ``context`` (gettext's ``msgctxt``):
    the same English word may need other words elsewhere (a colour agrees with its noun in
    French: "bille verte", "écraseur vert")."""
    return translations(_current.get()).pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it (it is translated where read)."""
    return message


class Message(str):
    """English text that knows its message id and parameters, translated where it is read.

    ``Message("{name} resigns", name=seat)`` is the string ``"Ann resigns"`` to everything that
    treats it as a string (logs, tests, the English reader), and :func:`localise` gives
    ``"Ann abandonne"`` to a French one; parameters that are messages are translated too. The
    message id is what the catalog holds (``pybabel extract`` finds ``Message("...")``).
    """

    msgid: str
    params: Mapping[str, Any]
    plural: tuple[str, int] | None
    context: str | None = None
    """The catalog's ``msgctxt`` for this message (:func:`in_context`), if any."""

    def __new__(cls, msgid: str, /, **params: Any) -> Message:
        text = msgid.format(**params) if params else msgid
        made = super().__new__(cls, text)
        made.msgid = msgid
        made.params = params
        made.plural = None
        return made

    def __reduce__(self) -> Any:  # copies and pickles keep the English text's identity
        return (_rebuild, (self.msgid, dict(self.params), self.plural, self.context))

    def with_params(self, **params: Any) -> Message:
        """This message with some parameters changed."""
        return _rebuild(self.msgid, {**self.params, **params}, self.plural, self.context)

    def translated(self, language: str | None = None) -> str:
        """This message in ``language`` (default: the current one)."""
        catalog = translations(choose(language) if language else _current.get())
        if self.context is not None:
            template = catalog.pgettext(self.context, self.msgid)
        elif self.plural is None:
            template = catalog.gettext(self.msgid)
        else:
            template = catalog.ngettext(self.msgid, *self.plural)
        if not self.params:
            return template
        params = {k: v.translated(language) if isinstance(v, Message)
                  else Message("player {n}", n=int(v)).translated(language) if isinstance(v, Seat)
                  else v for k, v in self.params.items()}
        return template.format(**params)


class Seat(int):
    """A player's number (from 0, as the engines count) inside a :class:`Message`: it reads
    "player 0" in the engine's English, and whoever shows the message to people may put the
    seat's name in its place (:func:`parlour.games.wording.illegal_message` does)."""

    def __format__(self, spec: str) -> str:
        return f"player {int(self)}"


class Lazy(Message):
    """A text made by ``render(language)`` for each reader: a message put together from other
    messages, with work after translating (a refusal's rule read from its end, a capital)."""

    render: Callable[[str], str]

    def __new__(cls, render: Callable[[str], str]) -> Lazy:  # type: ignore[misc]
        with using(SOURCE_LANGUAGE):
            text = render(SOURCE_LANGUAGE)
        made = str.__new__(cls, text)
        made.msgid = text
        made.params = {}
        made.plural = None
        made.render = render
        return made

    def __reduce__(self) -> Any:  # a copy is its English text
        return (str, (str(self),))

    def translated(self, language: str | None = None) -> str:
        language = choose(language) if language else _current.get()
        with using(language):
            return self.render(language)


def message_n(singular: str, plural: str, n: int, /, **params: Any) -> Message:
    """A :class:`Message` with a plural form, chosen by ``n`` (a parameter too)."""
    made = Message(singular if n == 1 else plural, n=n, **params)
    made.msgid = singular
    made.plural = (plural, n)
    return made


def in_context(context: str, msgid: str, /, **params: Any) -> Message:
    """A :class:`Message` read in the catalog under ``context`` (its ``msgctxt``): a word
    whose translation depends on where it stands, such as a colour, which agrees in French
    with the noun it describes (``in_context("marble", "green")`` is "verte", and
    ``in_context("stomper", "green")`` "vert"). English reads ``msgid``."""
    made = Message(msgid, **params)
    made.context = context
    return made


def _rebuild(msgid: str, params: dict[str, Any], plural: tuple[str, int] | None,
             context: str | None = None) -> Message:
    if context is not None:
        return in_context(context, msgid, **params)
    if plural is None:
        return Message(msgid, **params)
    rest = {k: v for k, v in params.items() if k != "n"}
    return message_n(msgid, plural[0], plural[1], **rest)


def translate(text: str, language: str | None = None) -> str:
    """``text`` in ``language`` if it is a :class:`Message`, else ``text`` unchanged."""
    return text.translated(language) if isinstance(text, Message) else text


def text_of(error: BaseException) -> str:
    """An error's text, as a :class:`Message` when it was raised with one (``str(error)``
    would make it plain English)."""
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Message) else str(error)


def localise(value: Any, language: str | None = None) -> Any:
    """``value`` (a reply: dicts, lists and strings) with every :class:`Message` in it
    translated; English leaves it as it is (a message is its English text)."""
    language = choose(language) if language else _current.get()
    if language == SOURCE_LANGUAGE:
        return value
    return _localise(value, language)


def _localise(value: Any, language: str) -> Any:
    if isinstance(value, Message):
        return value.translated(language)
    if isinstance(value, dict):
        return {k: _localise(v, language) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_localise(v, language) for v in value]
    return value


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language, as gettext reads the locale: the first of ``LANGUAGE`` (a
    list), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set; ``C``/``POSIX`` is English."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            for part in value.split(":"):
                found = choose(part)
                if found != SOURCE_LANGUAGE or part.lower().startswith("en"):
                    return found
            if name != "LANGUAGE":
                return SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


__all__ = [
    "DOMAIN",
    "LOCALE_DIR",
    "N_",
    "SOURCE_LANGUAGE",
    "Lazy",
    "Message",
    "Seat",
    "_",
    "choose",
    "current",
    "from_environment",
    "gettext",
    "in_context",
    "languages",
    "localise",
    "message_n",
    "ngettext",
    "pgettext",
    "set_language",
    "translate",
    "translations",
    "using",
]
