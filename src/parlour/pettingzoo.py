"""parlour games as PettingZoo AEC environments, with action masks as in ``pettingzoo.classic``.

>>> from parlour.pettingzoo import env
>>> e = env("clobber", rows=3, columns=4)
>>> e.reset(seed=0)
>>> e.agent_selection
'player_0'

See :mod:`parlour.rl.aec` and docs/research.md.
"""

from parlour.core.extras import needs_extra

with needs_extra("rl", "the PettingZoo environments"):
    from parlour.rl.aec import ParlourAECEnv, env, raw_env

__all__ = ["ParlourAECEnv", "env", "raw_env"]
