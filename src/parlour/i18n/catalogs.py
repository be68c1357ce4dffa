"""Keeping the catalogs: extract the messages, update each language's ``.po``, compile the
``.mo`` files the program reads. A translator's and a developer's tool (it needs Babel, in the
``web`` extra); the program itself only reads the compiled catalogs.

``python -m parlour.i18n.catalogs extract`` (writes ``parlour.pot``), ``update`` (merges it into
every language's ``.po``), ``init LANG`` (starts a language), ``compile`` (writes the ``.mo``
files). ``babel.cfg`` at the top of the repository says which files hold messages; the same
steps run as ``pybabel`` commands (docs/translations.md). The tests check that the committed
catalogs are what these steps make (no message missing, none untranslated, ``.mo`` current).
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from parlour._version import __version__
from parlour.i18n import DOMAIN, LOCALE_DIR

ROOT = LOCALE_DIR.parents[3]
"""The repository (``src/parlour/i18n/locale`` is three levels below it)."""
CONFIG = ROOT / "babel.cfg"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
KEYWORDS = {
    "_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "Message": None,
    "message_n": (1, 2), "t": None, "tn": (1, 2),
    "pgettext": ((1, "c"), 2), "in_context": ((1, "c"), 2), "tc": ((1, "c"), 2),
}
"""The calls whose string arguments are messages: Python's ``_``/``gettext``/``ngettext``,
``N_``, ``Message`` and ``message_n`` (:mod:`parlour.i18n`), the pages' ``t`` and ``tn``;
with a context first (the catalog's ``msgctxt``): ``pgettext``, ``in_context`` and the
pages' ``tc``."""


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract() -> Catalog:
    """Every message of the sources, as ``babel.cfg`` finds them."""
    with open(CONFIG, encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    catalog = Catalog(project="parlour", version=__version__, domain=DOMAIN, charset="utf-8",
                      copyright_holder="the parlour authors")
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT / "src", method_map, options_map, keywords=KEYWORDS, comment_tags=("Translators:",),
        strip_comment_tags=True,
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                    context=context)
    return catalog


def write_template(catalog: Catalog) -> None:
    with open(TEMPLATE, "wb") as out:
        write_po(out, catalog, width=0, sort_by_file=True, omit_header=False)


def read(language: str) -> Catalog:
    with open(po_path(language), "rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


def update(template: Catalog, language: str) -> Catalog:
    """``language``'s catalog brought up to the template (new messages empty, gone ones
    kept as obsolete for the translator; never guessed: no fuzzy matching)."""
    catalog = read(language)
    catalog.update(template, no_fuzzy_matching=True)
    return catalog


def write(catalog: Catalog, language: str) -> None:
    path = po_path(language)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        write_po(out, catalog, width=0, sort_by_file=True, ignore_obsolete=True)


def compile_language(language: str) -> bytes:
    """The ``.mo`` file of ``language``'s ``.po``, as bytes."""
    from io import BytesIO

    out = BytesIO()
    write_mo(out, read(language), use_fuzzy=False)
    return out.getvalue()


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    languages = sorted(p.name for p in LOCALE_DIR.iterdir() if (p / "LC_MESSAGES").is_dir())
    if command == "extract":
        write_template(extract())
    elif command == "init" and len(argv) == 2:
        template = extract()
        template.locale = argv[1]  # type: ignore[assignment]  # Babel parses the code
        write(template, argv[1])
    elif command == "update":
        template = extract()
        write_template(template)
        for language in languages:
            write(update(template, language), language)
    elif command == "compile":
        for language in languages:
            po_path(language).with_suffix(".mo").write_bytes(compile_language(language))
    else:
        print("usage: python -m parlour.i18n.catalogs extract | update | init LANG | compile")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
