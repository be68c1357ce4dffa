"""The codebase stays ruff clean and keeps its import direction (README, "Layout")."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "parlour"


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    folders = [name for name in ("src", "tests", "bench") if (ROOT / name).is_dir()]
    result = subprocess.run([ruff, "check", *folders], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


ALLOWED = {
    # package: the parlour packages it may import (README, "Layout"); "parlour" is the top
    # package (core and games re-exported), allowed wherever games are
    "core": set(),
    "games": {"core"},
    "analysis": {"core", "games"},
    "batch": {"core", "games"},
    "agents": {"core", "games", "analysis"},
    "arena": {"core", "games", "agents"},
    "rl": {"core", "games", "agents"},
    "server": {"core", "games", "agents"},
    "cli": {"core", "games", "agents", "analysis", "arena", "server"},
    # the adapters' public names: parlour.openspiel, parlour.pettingzoo, parlour.gymnasium
    "openspiel": {"core", "rl"},
    "pettingzoo": {"core", "rl"},
    "gymnasium": {"core", "rl"},
    "__init__": {"core", "games"},
}


def _package(path: Path) -> str:
    parts = path.relative_to(SRC).parts
    return parts[0] if len(parts) > 1 else path.stem


def test_every_package_has_a_place_in_the_layering():
    packages = {_package(path) for path in SRC.rglob("*.py")}
    assert packages == set(ALLOWED)


def test_imports_point_one_way():
    """core <- games <- {analysis, batch} <- agents <- {arena, rl, server} <- cli."""
    for path in SRC.rglob("*.py"):
        package = _package(path)
        allowed = ALLOWED[package] | {package}
        for module in _imports(path):
            if module == "parlour":
                target = "games"
            elif module.startswith("parlour."):
                target = module.split(".")[1]
            else:
                continue
            assert target in allowed, f"{path.relative_to(ROOT)} ({package}) imports {module}"


def test_no_project_file_reads_the_shared_specification_folder():
    files = [*SRC.rglob("*.py"), *(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]
    for path in files:
        if path == Path(__file__).resolve():
            continue
        assert "shared/rulebooks" not in path.read_text(encoding="utf-8"), path
