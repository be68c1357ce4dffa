"""Canonical forms straight from the definition: the reference ``parlour.analysis.cgt`` must match.

A whole position's game tree is walked with the game's own rules (``legal_actions``, ``child``),
with no regions, normal forms or sums; each node's canonical form is built from its options'
by the textbook steps (Siegel, *Combinatorial Game Theory*, II.2): delete dominated options,
bypass reversible ones, repeat. Forms are interned as small integers (equal forms, equal
numbers), so two canonical forms are the same game exactly when their numbers are equal.
"""

from __future__ import annotations

from typing import Any

from parlour.games.clobber import BLACK, WHITE, ClobberState

Form = tuple[frozenset[int], frozenset[int]]


class Reference:
    def __init__(self) -> None:
        self.forms: list[Form] = []
        self.ids: dict[Form, int] = {}
        self.le_memo: dict[tuple[int, int], bool] = {}
        self.positions: dict[tuple[Any, int, int], int] = {}
        self.zero = self.intern(frozenset(), frozenset())

    def intern(self, left: frozenset[int], right: frozenset[int]) -> int:
        form = (left, right)
        found = self.ids.get(form)
        if found is None:
            found = self.ids[form] = len(self.forms)
            self.forms.append(form)
        return found

    # G <= H  iff  no Left option of G is >= H and no Right option of H is <= G
    def le(self, g: int, h: int) -> bool:
        if g == h:
            return True
        key = (g, h)
        found = self.le_memo.get(key)
        if found is None:
            found = not any(self.le(h, gl) for gl in self.forms[g][0]) and not any(
                self.le(hr, g) for hr in self.forms[h][1]
            )
            self.le_memo[key] = found
        return found

    def _le_id_form(self, g: int, form: Form) -> bool:
        # g <= F iff no g^L >= F and no F^R <= g
        return not any(self._ge_id_form(gl, form) for gl in self.forms[g][0]) and not any(
            self.le(fr, g) for fr in form[1]
        )

    def _ge_id_form(self, g: int, form: Form) -> bool:
        # g >= F iff F <= g iff no F^L >= g and no g^R <= F
        return not any(self.le(g, fl) for fl in form[0]) and not any(
            self._le_id_form(gr, form) for gr in self.forms[g][1]
        )

    def canonical(self, left: set[int], right: set[int]) -> int:
        """The canonical form of {left | right}, options already canonical."""
        while True:
            left = {a for a in left if not any(b != a and self.le(a, b) for b in left)}
            right = {a for a in right if not any(b != a and self.le(b, a) for b in right)}
            form: Form = (frozenset(left), frozenset(right))
            new_left: set[int] = set()
            changed = False
            for a in left:
                # a is reversible through a^R when a^R <= G: replace a by a^R's Left options
                through = next((ar for ar in self.forms[a][1] if self._le_id_form(ar, form)), None)
                if through is None:
                    new_left.add(a)
                else:
                    new_left |= self.forms[through][0]
                    changed = True
            new_right: set[int] = set()
            for a in right:
                through = next((al for al in self.forms[a][0] if self._ge_id_form(al, form)),
                               None)
                if through is None:
                    new_right.add(a)
                else:
                    new_right |= self.forms[through][1]
                    changed = True
            left, right = new_left, new_right
            if not changed:
                return self.intern(frozenset(left), frozenset(right))

    def position(self, state: ClobberState) -> int:
        """The canonical form of a whole position, Left = Black (x), by its game tree."""
        key = (state.get_game(), state.stones(WHITE), state.stones(BLACK))
        found = self.positions.get(key)
        if found is not None:
            return found
        options = []
        for player in (BLACK, WHITE):
            view = state.get_game().state_from_position(
                state.position()[:-1] + "ox"[player]
            )
            options.append({self.position(view.child(a)) for a in view.legal_actions()})
        found = self.positions[key] = self.canonical(options[0], options[1])
        return found

    def add(self, g: int, h: int, memo: dict[tuple[int, int], int] | None = None) -> int:
        """The canonical form of g + h, by the definition of a sum."""
        memo = {} if memo is None else memo
        key = (min(g, h), max(g, h))
        if key in memo:
            return memo[key]
        (gl, gr), (hl, hr) = self.forms[g], self.forms[h]
        left = {self.add(x, h, memo) for x in gl} | {self.add(g, x, memo) for x in hl}
        right = {self.add(x, h, memo) for x in gr} | {self.add(g, x, memo) for x in hr}
        found = memo[key] = self.canonical(left, right)
        return found

    def of_value(self, value: Any, memo: dict[int, int] | None = None) -> int:
        """A :class:`parlour.analysis.cgt.Value`'s tree as a reference form."""
        memo = {} if memo is None else memo
        found = memo.get(value.id)
        if found is None:
            found = memo[value.id] = self.intern(
                frozenset(self.of_value(x, memo) for x in value.left),
                frozenset(self.of_value(x, memo) for x in value.right),
            )
        return found
