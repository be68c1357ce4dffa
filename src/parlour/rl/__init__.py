"""Research interfaces: parlour games in OpenSpiel, PettingZoo and Gymnasium.

The adapters live here; users import them through the public modules named after the library
they serve (each imports only that library, so one can be used without the others installed):

* :mod:`parlour.openspiel` (``parlour.rl.spiel``): every game registered with ``pyspiel``;
* :mod:`parlour.pettingzoo` (``parlour.rl.aec``): ``env(name, **params)``, an AEC environment;
* :mod:`parlour.gymnasium` (``parlour.rl.gym_env``): ``env(name, opponent, **params)``, a
  single-agent environment against parlour agents.

They use only the public game API, so every registered game is covered. See docs/research.md.
"""
