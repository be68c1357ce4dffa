"""Sessions: an opaque random id in a cookie, stored server side as its SHA-256.

A session id is 256 random bits (``secrets.token_urlsafe(32)``); the database keeps only its
hash, so a copy of the database signs nobody in. Every request looks the hash up, so signing
out (one session) or "sign out everywhere" (every session of the account) takes effect on every
process at once. A new id is made at each sign-in (no fixation: an id set before sign-in is
never promoted), and the cookie is ``HttpOnly`` (no script reads it), ``SameSite=Lax`` (no
other site's form or script sends it with a change) and ``Secure`` over HTTPS.
"""

from __future__ import annotations

import hashlib
import secrets

from starlette.requests import HTTPConnection
from starlette.responses import Response

COOKIE = "parlour_session"
MAX_ID = 64
"""A session id is 43 characters; a longer cookie is not looked up."""


def new_id() -> str:
    return secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    """How a session id (or any other random token of the server's) is stored."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def session_id(request: HTTPConnection) -> str | None:
    value = request.cookies.get(COOKIE)
    return value if value and len(value) <= MAX_ID else None


def is_secure(request: HTTPConnection, always: bool) -> bool:
    """``Secure`` cookies when served over HTTPS (as the proxy says, if trusted) or asked."""
    return always or request.url.scheme in ("https", "wss")


def set_cookie(response: Response, request: HTTPConnection, value: str, days: float,
               secure: bool) -> None:
    response.set_cookie(COOKIE, value, max_age=int(days * 86400), path="/", httponly=True,
                        samesite="lax", secure=is_secure(request, secure))


def clear_cookie(response: Response, request: HTTPConnection, secure: bool) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=is_secure(request, secure))
