"""Today's code next to the code as it was: the reference engines and search, loaded from git.

Issue 16 asks for speed-ups "measured side by side with today's code in the same run". This
module reads the files of the GobbleStones and Stomple engines, the MCTS agent and the games'
agent knowledge as they were at :data:`REFERENCE` (``git show``), writes them into a private
package ``parlour_reference`` in a temporary folder, and imports them into this very process,
beside the installed ``parlour``. The copies are changed only so that they can live there:
imports of their own game package point at the copy, and they register nothing (no game, agent
or knowledge is replaced in parlour's registries). Everything else (``parlour.core``, views,
agents' base classes) is shared, so both sides pay for the same common code.

    >>> ref = load()                                      # doctest: +SKIP
    >>> old_game = ref.game("gobblestones", players=2)    # doctest: +SKIP
    >>> old_agent = ref.mcts(old_game, seed=0, time=1.0)  # doctest: +SKIP

Needs the project's git history (a clone, not an unpacked archive); :func:`load` raises
``ReferenceUnavailable`` when it cannot read it.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

REFERENCE = "e670a7e"
"""The commit the speed-ups of issue 16 are measured against (main before them)."""
PACKAGE = "parlour_reference"
GAMES = ("gobblestones", "stomple")
ROOT = Path(__file__).resolve().parent.parent


class ReferenceUnavailable(RuntimeError):
    """The reference code could not be read from git."""


def _git_show(path: str) -> str:
    try:
        return subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{REFERENCE}:{path}"],
            check=True, capture_output=True, text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise ReferenceUnavailable(
            f"cannot read {path} at {REFERENCE} from git ({exc}); run from a clone"
        ) from None


def _git_files(folder: str) -> list[str]:
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), "ls-tree", "--name-only", f"{REFERENCE}:{folder}"],
            check=True, capture_output=True, text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise ReferenceUnavailable(f"cannot list {folder} at {REFERENCE} ({exc})") from None
    return [name for name in out.split() if name.endswith(".py")]


def _rewrite(text: str) -> str:
    """Make a reference file importable beside parlour without registering anything."""
    for game in GAMES:
        text = text.replace(f"parlour.games.{game}", f"{PACKAGE}.games.{game}")
    text = re.sub(r"^@register_game\n", "", text, flags=re.M)
    text = re.sub(r"^register_agent\(.*?\)\n", "", text, flags=re.M | re.S)
    return re.sub(r"^register_knowledge\((\"[\w-]+\"), ", r"KNOWLEDGE = (\1, ", text, flags=re.M)


@dataclass
class Reference:
    """The reference modules, and constructors that use them."""

    modules: dict[str, ModuleType]

    def game(self, name: str, **params: Any) -> Any:
        """A reference game (its class as it was; not registered in parlour)."""
        module = self.modules[f"games.{name}.game"]
        cls = next(
            value for value in vars(module).values()
            if isinstance(value, type) and getattr(value, "game_type", None) is not None
            and value.__module__ == module.__name__
        )
        return cls(**params)

    def mcts(self, game: Any, seed: int | None = None, **options: Any) -> Any:
        """The reference MCTS agent, with the reference knowledge of ``game``."""
        return self.modules["agents.mcts"].MCTSAgent(game, seed, **options)


_LOADED: Reference | None = None


def load() -> Reference:
    """Import the reference code (once per process)."""
    global _LOADED
    if _LOADED is not None:
        return _LOADED
    folder = Path(tempfile.mkdtemp(prefix="parlour-reference-"))
    package = folder / PACKAGE
    wanted = {f"games/{game}": _git_files(f"src/parlour/games/{game}") for game in GAMES}
    wanted["agents"] = ["mcts.py"]
    wanted["agents/knowledge"] = [f"{game}.py" for game in GAMES]
    for sub in ("", "games", "agents", "agents/knowledge"):
        (package / sub).mkdir(parents=True, exist_ok=True)
        (package / sub / "__init__.py").write_text("")
    for sub, names in wanted.items():
        (package / sub).mkdir(parents=True, exist_ok=True)
        for name in names:
            text = _rewrite(_git_show(f"src/parlour/{sub}/{name}"))
            (package / sub / name).write_text(text)
    sys.path.insert(0, str(folder))
    try:
        modules: dict[str, ModuleType] = {}
        for game in GAMES:
            modules[f"games.{game}.game"] = importlib.import_module(f"{PACKAGE}.games.{game}.game")
            modules[f"knowledge.{game}"] = importlib.import_module(
                f"{PACKAGE}.agents.knowledge.{game}"
            )
        mcts = importlib.import_module(f"{PACKAGE}.agents.mcts")
    finally:
        sys.path.remove(str(folder))
    knowledge = dict(modules[f"knowledge.{game}"].KNOWLEDGE for game in GAMES)
    shared = mcts.knowledge_for

    def knowledge_for(game: Any) -> Any:
        return knowledge.get(game.name) or shared(game)

    mcts.knowledge_for = knowledge_for  # the reference agent uses the reference knowledge
    modules["agents.mcts"] = mcts
    _LOADED = Reference(modules)
    return _LOADED
