"""The games. Importing this package registers every game in it.

Each game is a subpackage that registers itself with :func:`parlour.core.register_game`;
they are found by listing this package, so adding a game touches no shared file.
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
