"""Which request and which table a log line is about: context variables that every group may
set (the tables' group names the table around every change, :func:`at_table`) and that
:mod:`parlour.server.web.logs` writes into each JSON line.
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar, Token

REQUEST_ID: ContextVar[str | None] = ContextVar("parlour_request_id", default=None)
TABLE_ID: ContextVar[str | None] = ContextVar("parlour_table_id", default=None)


def at_table(table_id: str) -> TableLogged:
    """Log lines written inside (``with`` or ``async with``) name the table ``table_id``."""
    return TableLogged(table_id)


class TableLogged:
    """The context of :func:`at_table` (both kinds of ``with``)."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.token: Token[str | None] | None = None

    def __enter__(self) -> None:
        self.token = TABLE_ID.set(self.table_id)

    def __exit__(self, *exc: object) -> None:
        if self.token is not None:
            with contextlib.suppress(ValueError):  # set in another context: nothing to undo
                TABLE_ID.reset(self.token)

    async def __aenter__(self) -> None:
        self.__enter__()

    async def __aexit__(self, *exc: object) -> None:
        self.__exit__()
