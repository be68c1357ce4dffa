"""Canonical forms written and read in CGSuite's notation.

CGSuite (Siegel's Combinatorial Game Suite) writes games the way the literature does, in
ASCII, and MCGS and most Clobber papers read the same: ``0``, ``1``, ``-1/2``, ``*``, ``*2``,
``^`` (up), ``v`` (down), ``^^``, ``^3``, ``^*``, ``vv*2``, ``1*`` (a number plus an
infinitesimal), ``+-1`` (a switch), ``Tiny(1)``, ``Miny(1)``, ``^<2>`` (up-second), ``^[2]``
(up-to-the-second), and otherwise ``{L|R}`` with comma-separated options. A lone compound option
is written without its braces and the bars multiply instead: ``{0||0|-1}`` is
``{0|{0|-1}}``. Options are listed simplest first (by birthday, then by how they are written).

:func:`write` gives that text for a :class:`~parlour.analysis.cgt.Value`, :func:`read` reads it
back (also sums and differences: ``^^+*``, ``3+-1``, ``+-1+-2``), so that values published by
CGSuite or in papers can be checked against ours:

    >>> from parlour.analysis.cgt import UP, STAR
    >>> write(UP + STAR), write(UP + UP + UP), write(-UP)
    ('^*', '^3', 'v')
    >>> write(read("{0|v*}")), write(read("+-1+-2"))
    ('^<2>', '+-{3|1}')
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction

from parlour.analysis.cgt import (
    DOWN,
    STAR,
    UP,
    ZERO,
    Value,
    add,
    game,
    ge,
    integer,
    neg,
    nimber,
    total,
)

MAX_NAMED_UPS = 16
"""Multiples of up (plus a nimber) are recognised up to this many ups."""
MAX_NAMED_STAR = 16
"""...and nimbers up to ``*63``."""
MAX_POW = 8
"""``^<n>`` and ``^[n]`` are recognised for ``n`` up to this."""
MAX_TEXT = 100_000
"""The longest text :func:`read` takes."""


class NotationError(ValueError):
    """Text that does not read as a game in CGSuite's notation."""


# -- numbers ------------------------------------------------------------------------------
_NUMBER: dict[int, Fraction | None] = {}


def number(g: Value) -> Fraction | None:
    """The number ``g`` is, when it is one (a dyadic rational), else ``None``."""
    if g.id in _NUMBER:
        return _NUMBER[g.id]
    found: Fraction | None = None
    if len(g.left) <= 1 and len(g.right) <= 1:
        lo = number(g.left[0]) if g.left else None
        hi = number(g.right[0]) if g.right else None
        if (not g.left or lo is not None) and (not g.right or hi is not None):
            if lo is None and hi is None:
                found = Fraction(0)
            elif hi is None:
                assert lo is not None
                found = Fraction(int(lo) + 1) if lo >= 0 else None
            elif lo is None:
                found = Fraction(int(hi) - 1) if hi <= 0 else None
            elif lo < hi:
                found = _simplest_between(lo, hi)
    _NUMBER[g.id] = found
    return found


def _simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """The simplest number strictly between two numbers (the number ``{lo | hi}`` is)."""
    if lo < 0 < hi:
        return Fraction(0)
    if hi <= 0:
        return -_simplest_between(-hi, -lo)
    whole = int(lo) + 1  # lo >= 0 here
    if whole < hi:
        return Fraction(whole)
    denominator = 1
    while True:
        denominator *= 2
        k = int(lo * denominator) + 1
        if Fraction(k, denominator) < hi:
            return Fraction(k, denominator)


def dyadic(x: Fraction) -> Value:
    """The game of a dyadic rational number."""
    if x.denominator == 1:
        return integer(int(x))
    if x.denominator & (x.denominator - 1):
        raise NotationError(f"{x} is not a dyadic rational (its denominator is not 2^k)")
    step = Fraction(1, x.denominator)
    return game([dyadic(x - step)], [dyadic(x + step)])


def _number_text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# -- the named families -------------------------------------------------------------------
def up_multiple(n: int, star: int = 0) -> Value:
    """``n.^ + *star`` (``n`` < 0: downs)."""
    unit = UP if n >= 0 else DOWN
    return total([unit] * abs(n) + [nimber(star)])


def powto(n: int) -> Value:
    """``^[n]``, up to the ``n``: ``^[1] = ^`` and ``^[n+1] = {^[n] | *}``."""
    return UP if n == 1 else game([powto(n - 1)], [STAR])


def pow_up(n: int) -> Value:
    """``^<n>``, up-nth: ``^[n] - ^[n-1]`` (``^<1> = ^``)."""
    return UP if n == 1 else add(powto(n), neg(powto(n - 1)))


_FAMILY: dict[int, str] = {}


def _ups_text(n: int) -> str:
    if n == 0:
        return ""
    arrow = "^" if n > 0 else "v"
    return arrow * abs(n) if abs(n) <= 2 else f"{arrow}{abs(n)}"


def _star_text(k: int) -> str:
    return "" if k == 0 else "*" if k == 1 else f"*{k}"


def _families() -> dict[int, str]:
    """Names of the infinitesimals with a name of their own (no number part)."""
    if _FAMILY:
        return _FAMILY
    names: dict[int, str] = {}
    for k in range(MAX_NAMED_STAR):
        names.setdefault(nimber(k).id, _star_text(k) or "0")
    for n in range(1, MAX_NAMED_UPS + 1):
        for k in range(8):
            for sign in (1, -1):
                names.setdefault(up_multiple(sign * n, k).id, _ups_text(sign * n) + _star_text(k))
    for n in range(2, MAX_POW + 1):
        for base, text in ((powto(n), f"[{n}]"), (pow_up(n), f"<{n}>")):
            names.setdefault(base.id, "^" + text)
            names.setdefault(add(base, STAR).id, "^" + text + "*")
            names.setdefault(neg(base).id, "v" + text)
            names.setdefault(add(neg(base), STAR).id, "v" + text + "*")
    _FAMILY.update(names)
    return _FAMILY


def _stops(g: Value) -> tuple[Fraction, Fraction]:
    """Left and right stops: the numbers play settles on when Left (Right) starts."""
    found = _STOPS.get(g.id)
    if found is None:
        x = number(g)
        if x is not None:
            found = (x, x)
        else:
            left = max(_stops(gl)[1] for gl in g.left)
            right = min(_stops(gr)[0] for gr in g.right)
            found = (left, right)
        _STOPS[g.id] = found
    return found


_STOPS: dict[int, tuple[Fraction, Fraction]] = {}
_BIRTHDAY: dict[int, int] = {}


def birthday(g: Value) -> int:
    """The day ``g`` is born on: 0 for ``0``, one more than its latest option's."""
    found = _BIRTHDAY.get(g.id)
    if found is None:
        found = 1 + max((birthday(x) for x in g.left + g.right), default=-1)
        _BIRTHDAY[g.id] = found
    return found


# -- writing ------------------------------------------------------------------------------
_WRITTEN: dict[int, str] = {}


def _atom(g: Value) -> str | None:
    """The name of ``g`` when it has one that needs no braces around it, else ``None``."""
    families = _families()
    named = families.get(g.id)
    if named is not None:
        return named
    x = number(g)
    if x is not None:
        return _number_text(x)
    if not g.left or not g.right:
        return None
    left_stop, right_stop = _stops(g)
    if left_stop == right_stop and left_stop != 0:  # a number plus an infinitesimal
        rest = families.get(add(g, neg(dyadic(left_stop))).id)
        if rest is not None and rest != "0":
            return _number_text(left_stop) + rest
    if len(g.left) == 1 and len(g.right) == 1:
        gl, gr = g.left[0], g.right[0]
        small = number(gl) == 0 and not number(gr)
        if small and len(gr.left) == 1 and number(gr.left[0]) == 0 and len(gr.right) == 1:
            tail = neg(gr.right[0])
            if ge(tail, ZERO) and tail is not ZERO:
                return f"Tiny({_option(tail)})"
        if number(gr) == 0 and len(gl.right) == 1 and number(gl.right[0]) == 0 and len(
            gl.left
        ) == 1 and ge(gl.left[0], ZERO) and gl.left[0] is not ZERO:
            return f"Miny({_option(gl.left[0])})"
    switch = len(g.left) == len(g.right) and set(g.right) == {neg(x) for x in g.left}
    if switch and all(ge(x, ZERO) and x is not ZERO for x in g.left):
        if len(g.left) == 1:
            return "+-" + _option(g.left[0])
        return "+-{" + ",".join(_option(x) for x in _ordered(g.left)) + "}"
    return None


def _ordered(options: tuple[Value, ...]) -> list[Value]:
    return sorted(options, key=lambda x: (birthday(x), write(x)))


def _option(g: Value) -> str:
    atom = _atom(g)
    return atom if atom is not None else "{" + _unbraced(g)[0] + "}"


def _unbraced(g: Value) -> tuple[str, int]:
    """``g`` written as ``L|R`` without its braces, and how many bars separate L and R."""
    sides: list[str] = []
    inner = 0
    for options in (g.left, g.right):
        ordered = _ordered(options)
        if len(ordered) == 1 and _atom(ordered[0]) is None:
            text, bars = _unbraced(ordered[0])
            inner = max(inner, bars)
            sides.append(text)
        else:
            sides.append(",".join(_option(x) for x in ordered))
    return sides[0] + "|" * (inner + 1) + sides[1], inner + 1


def write(g: Value) -> str:
    """``g`` in CGSuite's notation (see the module's docstring)."""
    found = _WRITTEN.get(g.id)
    if found is None:
        atom = _atom(g)
        found = atom if atom is not None else "{" + _unbraced(g)[0] + "}"
        _WRITTEN[g.id] = found
    return found


# -- reading ------------------------------------------------------------------------------
_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:/\d+)?)|(?P<pow>[\^v][<\[]\d+[>\]])|(?P<ups>\^+\d*|v+\d*)"
    r"|(?P<star>\*\d*)|(?P<word>Tiny|Miny)|(?P<pm>\+-)|(?P<op>[-+{}(),])|(?P<bars>\|+))"
)


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    at = 0
    text = text.rstrip()
    while at < len(text):
        found = _TOKEN.match(text, at)
        if found is None or found.end() == at:
            raise NotationError(f"cannot read {text[at:at + 12]!r} in {text!r}")
        kind = found.lastgroup
        assert kind is not None
        out.append((kind, found.group(kind)))
        at = found.end()
    return out


class _Reader:
    def __init__(self, text: str) -> None:
        if len(text) > MAX_TEXT:
            raise NotationError(f"a game's text is limited to {MAX_TEXT:,} characters")
        self.tokens = _tokens(text)
        self.at = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise NotationError("the text ends too early")
        self.at += 1
        return token

    def expect(self, value: str) -> None:
        token = self.take()
        if token[1] != value:
            raise NotationError(f"expected {value!r}, found {token[1]!r}")

    def expression(self) -> Value:
        result = self.term()
        while (token := self.peek()) is not None and token[1] in ("+", "-", "+-"):
            self.at += 1
            term = self.term()
            result = add(result, term if token[1] == "+" else neg(term) if token[1] == "-"
                         else _switch([term]))
        return result

    def term(self) -> Value:
        kind, value = self.take()
        if value == "-":
            return neg(self.term())
        if kind == "pm":
            if self.peek() == ("op", "{") and not self._bars_ahead():
                return _switch(self.braced_list())
            return _switch([self.term()])
        if kind == "num":
            base = dyadic(Fraction(value))
            return add(base, self.suffix())
        if kind in ("ups", "pow", "star"):
            self.at -= 1
            return self.suffix()
        if kind == "word":
            self.expect("(")
            argument = self.expression()
            self.expect(")")
            if value == "Tiny":
                return game([ZERO], [game([ZERO], [neg(argument)])])
            return game([game([argument], [ZERO])], [ZERO])
        if value == "(":
            inner = self.expression()
            self.expect(")")
            return inner
        if value == "{":
            self.at -= 1
            return self.braced_game()
        raise NotationError(f"unexpected {value!r}")

    def suffix(self) -> Value:
        """Ups or a power of up, then a nimber, after a number (or alone)."""
        parts: list[Value] = []
        token = self.peek()
        if token is not None and token[0] == "ups":
            self.at += 1
            text = token[1]
            arrows = text.rstrip("0123456789")
            count = int(text[len(arrows):]) if len(arrows) < len(text) else len(arrows)
            if len(arrows) > 1 and len(arrows) < len(text):
                raise NotationError(f"write {text!r} as {arrows[0]}{count} or with arrows only")
            parts.append(up_multiple(count if arrows[0] == "^" else -count))
        elif token is not None and token[0] == "pow":
            self.at += 1
            text = token[1]
            n = int(text[2:-1])
            if not 1 <= n <= 64:
                raise NotationError(f"{text!r}: the power must be between 1 and 64")
            base = pow_up(n) if text[1] == "<" else powto(n)
            parts.append(base if text[0] == "^" else neg(base))
        token = self.peek()
        if token is not None and token[0] == "star":
            self.at += 1
            k = int(token[1][1:] or 1)
            if k > 4096:
                raise NotationError(f"{token[1]!r}: nimbers up to *4096 only")
            parts.append(nimber(k))
        return total(parts)

    def _bars_ahead(self) -> bool:
        """Whether the braces starting here hold a game (bars at their depth), not a list."""
        depth = 0
        for kind, value in self.tokens[self.at:]:
            if value in ("{", "("):
                depth += 1
            elif value in ("}", ")"):
                depth -= 1
                if depth == 0:
                    return False
            elif kind == "bars" and depth == 1:
                return True
        return False

    def _closing(self) -> int:
        """The index of the brace closing the one at ``self.at``."""
        depth = 0
        for i in range(self.at, len(self.tokens)):
            value = self.tokens[i][1]
            if value in ("{", "("):
                depth += 1
            elif value in ("}", ")"):
                depth -= 1
                if depth == 0:
                    return i
        raise NotationError("a brace is not closed")

    def braced_list(self) -> list[Value]:
        end = self._closing()
        self.at += 1
        items = self.options(end)
        self.at = end + 1
        return items

    def braced_game(self) -> Value:
        end = self._closing()
        self.at += 1
        found = self.game(end)
        self.at = end + 1
        return found

    def outside_brackets(self, end: int) -> Iterator[tuple[int, str, str]]:
        """The tokens from ``self.at`` to ``end`` that stand outside every bracket, with their
        index (the brackets themselves left out): where a game's bar or an option's comma may
        split the text."""
        depth = 0
        for i in range(self.at, end):
            kind, value = self.tokens[i]
            if value in ("{", "("):
                depth += 1
            elif value in ("}", ")"):
                depth -= 1
            elif depth == 0:
                yield i, kind, value

    def game(self, end: int) -> Value:
        """The game of the tokens from ``self.at`` to ``end`` (exclusive): ``L|R``."""
        longest, where = 0, []
        for i, kind, value in self.outside_brackets(end):
            if kind == "bars":
                if len(value) > longest:
                    longest, where = len(value), [i]
                elif len(value) == longest:
                    where.append(i)
        if not where:
            raise NotationError("expected a game {L|R} with a bar between its options")
        if len(where) > 1:
            raise NotationError("ambiguous bars: the bar between L and R must be the longest")
        split = where[0]
        left = self.side(split)
        self.at = split + 1
        right = self.side(end)
        return game(left, right)

    def side(self, end: int) -> list[Value]:
        if any(kind == "bars" for _i, kind, _value in self.outside_brackets(end)):
            return [self.game(end)]
        return self.options(end)

    def options(self, end: int) -> list[Value]:
        items: list[Value] = []
        while self.at < end:
            sub = _Reader.__new__(_Reader)
            stop = next((i for i, _kind, value in self.outside_brackets(end) if value == ","),
                        end)
            sub.tokens, sub.at = self.tokens[self.at:stop], 0
            if not sub.tokens:
                raise NotationError("an empty option between commas")
            items.append(sub.expression())
            if sub.at != len(sub.tokens):
                raise NotationError(f"unexpected {sub.tokens[sub.at][1]!r}")
            if stop < end and stop + 1 == end:
                raise NotationError("an option list ends with a comma")
            self.at = stop + 1 if stop < end else end
        return items


def _switch(options: list[Value]) -> Value:
    return game(options, [neg(x) for x in options])


def read(text: str) -> Value:
    """The game written ``text`` in CGSuite's notation (a :class:`NotationError` otherwise)."""
    reader = _Reader(text)
    if not reader.tokens:
        raise NotationError("no game written")
    found = reader.expression()
    if reader.at != len(reader.tokens):
        raise NotationError(f"unexpected {reader.tokens[reader.at][1]!r} in {text!r}")
    return found
