"""Optional parts of parlour and the extra that installs each.

``pip install parlour`` is the engine, the agents and the command line. The web table, the
arena's plots, Ray, the research adapters and training each need an extra
(``pip install 'parlour[web]'``...). A module that needs one imports its libraries inside
:func:`needs_extra`, so that a user without them is told what to install instead of reading a
bare ``ModuleNotFoundError``. The compiled parts are optional too (built where a C compiler is
present): :func:`compiled_module` imports one, or says it is not there.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType


class MissingExtraError(ImportError):
    """A part of parlour was used without the extra that installs its libraries.

    >>> print(MissingExtraError("web", "the web table", "fastapi"))
    the web table needs fastapi, from the 'web' extra: pip install 'parlour[web]'
    """

    def __init__(self, extra: str, feature: str, module: str | None) -> None:
        self.extra = extra
        self.feature = feature
        super().__init__(
            f"{feature} needs {module or 'a library'}, from the {extra!r} extra: "
            f"pip install 'parlour[{extra}]'",
            name=module,
        )


@contextmanager
def needs_extra(extra: str, feature: str) -> Iterator[None]:
    """Turn a missing third-party module imported in the block into :class:`MissingExtraError`.

    >>> with needs_extra("arena", "the ratings plot"):
    ...     import no_such_plotting_library
    Traceback (most recent call last):
    ...
    parlour.core.extras.MissingExtraError: the ratings plot needs no_such_plotting_library, \
from the 'arena' extra: pip install 'parlour[arena]'

    A missing module of parlour itself is a bug, not a missing extra, and passes through.
    """
    try:
        yield
    except ModuleNotFoundError as exc:
        if exc.name is None or exc.name.partition(".")[0] == "parlour":
            raise
        raise MissingExtraError(extra, feature, exc.name.partition(".")[0]) from exc


def compiled_module(name: str) -> ModuleType | None:
    """The compiled extension module ``name`` (``"parlour.games.stomple._cplayout"``), or
    ``None`` where it was not built: ``pip install`` builds parlour's C parts when a C compiler
    is present, and every one of them has a Python fallback.

    >>> compiled_module("parlour.no_such_extension") is None
    True
    """
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
