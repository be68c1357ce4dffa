"""A request or websocket message that does not fit its model, said in the reader's language.

pydantic explains a refused input in its own English ("Field required"); the server answers
with the first problem in the catalog's words instead, by pydantic's error ``type`` (stable
across its versions), naming where it is (``seats.0.kind``). A type this table does not know
keeps pydantic's text, so no problem is ever hidden.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from parlour.i18n import Message, message_n

_NO = Message("should be a whole number")
_NUMBER = Message("should be a number")
_BOOL = Message("should be true or false")
_OBJECT = Message("should be an object")
_BY_TYPE = {
    "missing": Message("is missing"),
    "extra_forbidden": Message("is not expected here"),
    "int_type": _NO, "int_parsing": _NO, "int_from_float": _NO,
    "float_type": _NUMBER, "float_parsing": _NUMBER, "finite_number": _NUMBER,
    "bool_type": _BOOL, "bool_parsing": _BOOL,
    "string_type": Message("should be text"),
    "model_type": _OBJECT, "model_attributes_type": _OBJECT, "dict_type": _OBJECT,
    "list_type": Message("should be a list"),
    "json_invalid": Message("is not valid JSON"),
}
_BOUNDS = {
    "greater_than_equal": Message("should be at least {bound}", bound=""),
    "less_than_equal": Message("should be at most {bound}", bound=""),
    "greater_than": Message("should be more than {bound}", bound=""),
    "less_than": Message("should be less than {bound}", bound=""),
}


def problem(error: dict[str, Any]) -> str:
    """One of pydantic's errors as a message: what is wrong with the value."""
    kind, ctx = error.get("type", ""), error.get("ctx") or {}
    if kind in _BY_TYPE:
        return _BY_TYPE[kind]
    if kind in ("string_too_long", "too_long"):
        return message_n("should be at most {n} long", "should be at most {n} long",
                         int(ctx.get("max_length", 0)))
    if kind in ("string_too_short", "too_short"):
        return message_n("should be at least {n} long", "should be at least {n} long",
                         int(ctx.get("min_length", 0)))
    if kind == "literal_error":
        choices = str(ctx.get("expected", "")).replace(" or ", ", ")  # pydantic's English "or"
        return Message("should be one of {choices}", choices=choices)
    if kind in _BOUNDS:
        return _BOUNDS[kind].with_params(bound=next(iter(ctx.values()), ""))
    return str(error.get("msg", kind))


def refused(exc: ValidationError, whole: str) -> str:
    """The first problem of ``exc`` as "where: what" (``whole`` names the input itself when
    the problem is not in one of its fields)."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or whole
    return Message("{where}: {problem}", where=where, problem=problem(dict(first)))
