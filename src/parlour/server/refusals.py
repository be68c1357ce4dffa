"""Refusals: a request a part of the server declines, with the HTTP status that says why.

A service raises a :class:`Refusal` (or its own subclass of it) with a :class:`Message`; the app
answers every one the same way (its text in the asker's language, ``Retry-After`` on a 429), so
that routes call their service without wrapping each call in its own ``try``.
"""

from __future__ import annotations

from fastapi import HTTPException

from parlour.i18n import Message, text_of

RETRY_AFTER_SECONDS = 60
"""What a refusal for too many requests tells the client to wait."""


class Refusal(ValueError):
    """A request refused, with the HTTP ``status`` to answer it with."""

    def __init__(self, message: str | Message, status: int = 400) -> None:
        super().__init__(message)
        self.status = status

    def as_http(self) -> HTTPException:
        """The HTTP error the app answers this refusal with."""
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)} if self.status == 429 else None
        return HTTPException(self.status, text_of(self), headers=headers)
