"""The games. Importing this package registers every game in it.

Each game is a subpackage that registers itself with :func:`parlour.core.register_game`;
they are found by listing this package, so adding a game touches no shared file.
"""

import importlib
import pkgutil
from typing import Any

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")


def conformance_configs(name: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """``(game name, parameters)`` for the configurations each game asks to be exercised.

    Every game package lists them in ``CONFORMANCE_CONFIGS`` (the default configuration if it
    lists none); the conformance suite, the adapters' tests and the benches all play them, so
    a new game is covered everywhere as soon as it registers. ``name`` selects one game.
    """
    from parlour.core import game_class, list_games

    cases = []
    for game in [name] if name else list_games():
        package = importlib.import_module(".".join(game_class(game).__module__.split(".")[:3]))
        configs = getattr(package, "CONFORMANCE_CONFIGS", [{}])
        cases += [(game_class(game).game_type.short_name, dict(c)) for c in configs]
    return cases
