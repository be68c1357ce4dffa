"""The plank model (ruling P5): when an elephant's plank tips into the water.

The physical plank tips by balance, which the rulebook never puts into numbers. Our model:
an elephant stands on a step (0 at the start zone, one more for every match it is caught
with) and its plank carries crates at the far end. Both push the plank toward tipping; a
step weighs ``step_weight`` crates. The plank tips when

    crates + step_weight * step >= tip_at

Ruling P5 sets the defaults ``tip_at=15``, ``step_weight=3``. An elephant with no crates
then tips on its fifth step, so it stands on steps 0..4 as P5 says, and four planks hold at
most 4 * 14 = 56 crates without one tipping, fewer than the 60 in the supply. The first
defaults, ``tip_at=20, step_weight=4``, let four planks hold 4 * 19 = 76 crates, so play
could go on after the supply ran dry; the P8 simulations that showed it
(``docs/reports/stomp-the-plank-tuning.md``) are why the ruling changed. 20/4 remain
available as parameters.

The *balance* shown to every player is ``tip_at - load``: how many more crates the plank
takes before it tips (a step costs ``step_weight`` of it). A plank with balance 0 or less has
tipped.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlankModel:
    """The tipping rule of P5, with its two parameters."""

    tip_at: int = 15
    step_weight: int = 3

    def load(self, crates: int, step: int) -> int:
        """How hard the plank is pushed toward the water, in crates."""
        return crates + self.step_weight * step

    def balance(self, crates: int, step: int) -> int:
        """How far the plank is from tipping: more crates it can take (<= 0: it has tipped)."""
        return self.tip_at - self.load(crates, step)

    def tips(self, crates: int, step: int) -> bool:
        return self.load(crates, step) >= self.tip_at
