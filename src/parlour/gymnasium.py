"""parlour games as single-agent Gymnasium environments against parlour agents.

>>> from parlour.gymnasium import env
>>> e = env("clobber", opponent="random", rows=3, columns=4)
>>> obs, info = e.reset(seed=0)
>>> obs.shape
(3, 3, 4)

Importing this module also registers ``parlour/<Game>-v0`` ids with Gymnasium
(``gymnasium.make("parlour/Clobber-v0", opponent="random")``). This module is
``parlour.gymnasium``; ``import gymnasium`` anywhere still imports the real library.
:func:`vector_env` gives a self-play ``gymnasium.vector.VectorEnv`` over a batched engine
(:mod:`parlour.rl.vector_env`). See :mod:`parlour.rl.gym_env` and docs/research.md.
"""

from parlour.core.extras import needs_extra

with needs_extra("rl", "the Gymnasium environments"):
    from parlour.rl.gym_env import ENV_IDS, ParlourEnv, env, register_envs
    from parlour.rl.vector_env import ParlourVectorEnv, vector_env

register_envs()

__all__ = ["ENV_IDS", "ParlourEnv", "ParlourVectorEnv", "env", "register_envs", "vector_env"]
