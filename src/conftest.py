"""Doctest collection of ``src/`` (pytest runs ``--doctest-modules`` on it).

A module whose extra is not installed is left out of collection rather than failing it, so the
doctests of the engine still run after a plain ``pip install parlour``. This file is not part
of the package (it sits beside it).
"""

from __future__ import annotations

from importlib.util import find_spec

EXTRAS = {
    # modules (relative to src/) and the third-party libraries importing them needs
    "parlour/server": ("fastapi", "sqlalchemy", "uvicorn", "markdown_it"),
    "parlour/rl/aec.py": ("gymnasium", "pettingzoo"),
    "parlour/rl/common.py": ("gymnasium",),
    "parlour/rl/gym_env.py": ("gymnasium",),
    "parlour/rl/spiel.py": ("pyspiel",),
    "parlour/gymnasium.py": ("gymnasium",),
    "parlour/pettingzoo.py": ("gymnasium", "pettingzoo"),
    "parlour/openspiel.py": ("pyspiel",),
    "parlour/rl/gumbel/model.py": ("torch",),
    "parlour/rl/gumbel/train.py": ("torch",),
}


def _installed(library: str) -> bool:
    try:
        return find_spec(library) is not None
    except (ImportError, ValueError):
        return False


ALEMBIC_ONLY = ["parlour/server/persistence/migrations/env.py"]
"""Run by Alembic alone, inside its migration context (importing it elsewhere fails at once);
``tests/server/test_migrations.py`` runs it the way Alembic does."""

collect_ignore = ALEMBIC_ONLY + [
    path
    for path, libraries in EXTRAS.items()
    if not all(_installed(library) for library in libraries)
]
