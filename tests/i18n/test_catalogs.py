"""The message catalogs: every message of the sources is in them, every one is translated, and
the compiled files the program reads are the translators' text (docs/translations.md)."""

from __future__ import annotations

import gettext
import io
import re

import pytest

pytest.importorskip("babel")

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from parlour import i18n
from parlour.i18n import catalogs

TRANSLATED = [language for language in i18n.languages() if language != i18n.SOURCE_LANGUAGE]
PLACEHOLDER = re.compile(r"\{(\w*)(?:![rsa])?(?::[^{}]*)?\}")
RULE_AT_END = re.compile(r"\((?:rulebook: [^)]+|[A-Z]-?\d+)\)$")


def _ids(catalog) -> set[tuple[str | None, str]]:
    """Each entry as gettext finds it: its context (``msgctxt``, or none) and message id."""
    return {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in catalog if m.id}


@pytest.fixture(scope="module")
def extracted():
    return catalogs.extract()


def test_french_is_shipped():
    assert "fr" in TRANSLATED


def test_the_template_is_what_extraction_makes_now(extracted):
    """No message of the sources is missing from the committed template, and none is left
    that the sources no longer have (`python -m parlour.i18n.catalogs update` fixes both)."""
    with open(catalogs.TEMPLATE, "rb") as source:
        committed = read_po(source)
    assert _ids(extracted) - _ids(committed) == set(), "run: python -m parlour.i18n.catalogs update"
    assert _ids(committed) - _ids(extracted) == set(), "run: python -m parlour.i18n.catalogs update"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_in_the_catalog_and_translated(extracted, language):
    catalog = catalogs.read(language)
    assert _ids(extracted) <= _ids(catalog), sorted(_ids(extracted) - _ids(catalog))[:10]
    untranslated = []
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(forms) or len(forms) != (
                catalog.num_plurals if message.pluralizable else 1):
            untranslated.append(message.id)
    assert untranslated == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_the_placeholders_and_the_rule_in_brackets(language):
    """A translation names the same things ({name}, {n}...) and keeps a rule id at the end,
    where the refusal's brackets are made from it (``(Clobber: moving)``)."""
    for message in catalogs.read(language):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for form in forms:
            got = set(PLACEHOLDER.findall(form))
            assert got <= wanted and (got == wanted or message.pluralizable), (message.id, form)
            if RULE_AT_END.search(ids[0]):
                assert RULE_AT_END.search(form).group() == RULE_AT_END.search(ids[0]).group()


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalog_is_the_translators_text(language):
    """The committed ``.mo`` is the ``.po`` compiled (`python -m parlour.i18n.catalogs compile`)."""
    mo_path = catalogs.po_path(language).with_suffix(".mo")
    assert mo_path.read_bytes() == catalogs.compile_language(language)
    shipped = gettext.GNUTranslations(io.BytesIO(mo_path.read_bytes()))
    assert len(read_mo(io.BytesIO(mo_path.read_bytes()))) == len(catalogs.read(language))
    assert shipped.info()["language"] == language


def test_the_pages_catalog_holds_what_the_javascript_asks_for():
    from parlour.server.web.language import js_catalog

    french = js_catalog("fr")
    assert french["language"] == "fr"
    assert french["messages"]["Play the computer"] == "Jouer contre l'ordinateur"
    assert french["messages"]["{n} player"][french["plural"]["other"]] == "{n} joueurs"
    assert french["messages"]["{n} player"][french["plural"]["one"]] == "{n} joueur"
    assert "that seat was just taken" not in french["messages"]  # the server's own words
    assert js_catalog("en")["messages"] == {}
