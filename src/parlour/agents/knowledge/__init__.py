"""Per-game knowledge for agents: one module per game, each registering an evaluation.

Modules here use only a game's public API (and its view) to judge positions; they are imported
automatically, so a game's knowledge is added without touching a shared file.
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
