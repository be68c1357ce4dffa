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
    "ratings": set(),  # Glicko-2: a leaf like core, for the puzzles, the arena, the server
    "games": {"core"},
    "analysis": {"core", "games", "ratings"},
    "batch": {"core", "games"},
    "agents": {"core", "games", "analysis", "batch"},
    "arena": {"core", "games", "agents", "ratings"},
    "rl": {"core", "games", "batch", "agents"},  # the vector environments run on parlour.batch
    "server": {"core", "games", "agents", "analysis", "ratings"},  # the analysis board, puzzles
    "cli": {"core", "games", "agents", "analysis", "arena", "server", "ratings", "_version"},
    # the adapters' public names: parlour.openspiel, parlour.pettingzoo, parlour.gymnasium
    "openspiel": {"core", "rl"},
    "pettingzoo": {"core", "rl"},
    "gymnasium": {"core", "rl"},
    "__init__": {"core", "games", "_version"},
    "_version": set(),
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


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str, modules: dict[str, Path]) -> bool:
    """A Python module of parlour, or a compiled one (``parlour.analysis._cclobber``)."""
    if name in modules:
        return True
    package, _, leaf = name.rpartition(".")
    folder = modules.get(package, SRC).parent
    return package in modules and any(folder.glob(f"{leaf}.*"))


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node but those under ``if TYPE_CHECKING:`` (names for type hints, never run)."""
    out: list[ast.AST] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        for child in ast.iter_child_nodes(node):
            test = child.test if isinstance(child, ast.If) else None
            if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
                stack.extend(child.orelse)
            else:
                stack.append(child)
    return out


def test_no_import_cycles():
    """Module by module, function-level imports included (type-checking-only ones aside):
    no module imports itself back."""
    modules = {_module_name(path): path for path in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = set()
        for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if _is_module(full, modules):
                        edges.add(full)
                    elif node.module in modules:
                        edges.add(node.module)
        graph[name] = {e for e in edges if e in modules and e != name}

    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            cycle = [*trail[trail.index(name):], name]
            raise AssertionError("import cycle: " + " -> ".join(cycle))
        if name in done:
            return
        for target in sorted(graph[name]):
            visit(target, [*trail, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def _private_writes(tree: ast.AST) -> set[tuple[int, str]]:
    """``(line, attribute)`` of every write to ``other._name`` (``self``/``cls`` aside)."""
    writes = set()
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        stack = list(targets)
        while stack:
            target = stack.pop()
            if isinstance(target, (ast.Tuple, ast.List)):
                stack.extend(target.elts)
            elif isinstance(target, ast.Subscript):
                stack.append(target.value)
            elif (
                isinstance(target, ast.Attribute)
                and target.attr.startswith("_")
                and not target.attr.startswith("__")
                and not (isinstance(target.value, ast.Name) and target.value.id in ("self", "cls"))
            ):
                writes.add((target.lineno, target.attr))
    return writes


def test_games_write_only_their_own_private_fields():
    """A game module may set ``other._x`` only for an ``_x`` its own classes use as
    ``self._x`` (a state filling in a copy of itself); never another module's private fields."""
    for path in (SRC / "games").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = {
            node.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        }
        bad = {(line, attr) for line, attr in _private_writes(tree) if attr not in own}
        assert not bad, f"{path.relative_to(ROOT)} writes private fields it does not own: {bad}"
