"""The codebase stays ruff clean and keeps its import direction (core <- games <- the rest)."""

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


def test_core_imports_no_game_and_games_import_no_interface():
    for path in (SRC / "core").rglob("*.py"):
        bad = {
            m
            for m in _imports(path)
            if m.startswith("parlour.") and not m.startswith("parlour.core")
        }
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"
    outward = (
        "parlour.agents",
        "parlour.cli",
        "parlour.server",
        "parlour.rl",
        "parlour.arena",
        "parlour.batch",
        "parlour.analysis",
    )
    for path in (SRC / "games").rglob("*.py"):
        bad = {m for m in _imports(path) if m.startswith(outward)}
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_no_project_file_reads_the_shared_specification_folder():
    files = [*SRC.rglob("*.py"), *(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]
    for path in files:
        if path == Path(__file__).resolve():
            continue
        assert "shared/rulebooks" not in path.read_text(encoding="utf-8"), path
