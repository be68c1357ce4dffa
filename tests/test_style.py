"""The codebase stays ruff clean and keeps its import direction (README, "Layout")."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tokenize
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
    "i18n": {"_version"},  # translations, below everything: any layer marks its words
    "core": {"i18n"},
    "ratings": set(),  # Glicko-2: a leaf like core, for the puzzles, the arena, the server
    "games": {"core", "i18n"},
    "analysis": {"core", "games", "ratings", "i18n"},
    "batch": {"core", "games", "i18n"},
    "agents": {"core", "games", "analysis", "batch", "i18n"},
    "arena": {"core", "games", "agents", "ratings", "i18n"},
    "rl": {"core", "games", "batch", "agents", "i18n"},  # the vector environments: parlour.batch
    "server": {"core", "games", "agents", "analysis", "ratings", "i18n"},  # + the analysis board
    "client": {"core", "games", "agents", "i18n"},  # the Bot API's client, an agent's remote seat
    "cli": {"core", "games", "agents", "analysis", "arena", "rl", "server", "client", "ratings",
            "_version", "i18n"},
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


def _module_name(path: Path, package: Path = SRC) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str, modules: dict[str, Path]) -> bool:
    """A Python module of the package, or a compiled one (``parlour.analysis._cclobber``)."""
    if name in modules:
        return True
    package, _, leaf = name.rpartition(".")
    return package in modules and any(modules[package].parent.glob(f"{leaf}.*"))


def _import_graph(package: Path = SRC) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports, every import statement counted wherever
    it is (inside functions and under ``if TYPE_CHECKING:`` too: a cycle there is a cycle in
    the design, and the next edit that moves the import makes it a real one)."""
    modules = {_module_name(path, package): path for path in package.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
    return graph


def _a_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """Some import cycle of ``graph`` (its modules in order, the first again at the end)."""
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> list[str] | None:
        if name in trail:
            return [*trail[trail.index(name):], name]
        if name in done:
            return None
        for target in sorted(graph[name]):
            cycle = visit(target, [*trail, name])
            if cycle:
                return cycle
        done.add(name)
        return None

    for name in sorted(graph):
        cycle = visit(name, [])
        if cycle:
            return cycle
    return None


def test_no_import_cycles():
    """Module by module, every import included: no module imports itself back."""
    cycle = _a_cycle(_import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_check_counts_late_and_type_checking_imports(tmp_path):
    """A cycle made of an import inside a function and one for type hints only is found."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from typing import TYPE_CHECKING\n\n"
                                  "if TYPE_CHECKING:\n    from pkg.b import B\n")
    (package / "b.py").write_text("def f():\n    from pkg import a\n    return a\n")
    (package / "c.py").write_text("import pkg.a\n")
    graph = _import_graph(package)
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}, "pkg.c": {"pkg.a"}}
    assert _a_cycle(graph) == ["pkg.a", "pkg.b", "pkg.a"]
    assert _a_cycle({**graph, "pkg.b": set()}) is None


SERVER = SRC / "server"
SERVER_FLOORS: tuple[frozenset[str], ...] = (
    frozenset({"shared"}),  # the modules at the top of parlour.server: limits, names, ai...
    frozenset({"persistence"}),  # the store, the database's place, its fan-out
    frozenset({"messages"}),  # what a client sends, what each listener is sent
    frozenset({"tables"}),  # the live tables and the parts that change them
    frozenset({"accounts"}),  # accounts, ratings, matchmaking, challenges, turn e-mails
    frozenset({"bots", "study", "tournaments"}),  # Bot API; analysis board, puzzles; events
    frozenset({"web"}),  # the app, its routes and dependencies, the outer wall
    frozenset({"entry"}),  # parlour.server itself (create_app, run) and its __main__
)
"""The server's groups, lowest first (docs/architecture.md, "The server's map")."""
SERVER_ALLOWED: dict[str, frozenset[str]] = {
    group: frozenset().union(*SERVER_FLOORS[:floor])
    for floor, groups in enumerate(SERVER_FLOORS) for group in groups
}
"""Group -> the groups it may import besides itself: every group on a lower floor, none on its
own floor or above (so ``bots``, ``study`` and ``tournaments`` never import each other)."""
MAX_SERVER_TOP_MODULES = 16


def _server_group(module: str) -> str:
    """The group of a module of ``parlour.server``: its sub-package, else ``shared`` for a
    module at the top, ``entry`` for the package itself and its ``__main__``."""
    parts = module.split(".")[2:]
    if not parts or parts == ["__main__"]:
        return "entry"
    return parts[0] if (SERVER / parts[0]).is_dir() else "shared"


def test_every_server_group_has_a_floor():
    groups = {_server_group(_module_name(path)) for path in SERVER.rglob("*.py")}
    assert groups == set(SERVER_ALLOWED)


def test_the_server_groups_import_only_groups_below_them():
    """No group of the server imports one on its own floor or above (every import counted, as
    for the cycles), so a group can be read, and changed, knowing only the ones below it."""
    upward = []
    for module, targets in sorted(_import_graph().items()):
        if not module.startswith("parlour.server"):
            continue
        group = _server_group(module)
        upward += [f"{module} ({group}) imports {target}" for target in sorted(targets)
                   if target.startswith("parlour.server")
                   and (other := _server_group(target)) != group
                   and other not in SERVER_ALLOWED[group]]
    assert not upward, "server imports against the groups' table: " + ", ".join(upward)


def test_the_server_groups_table_has_no_cycle():
    graph = {group: set(allowed) for group, allowed in SERVER_ALLOWED.items()}
    assert _a_cycle(graph) is None
    assert SERVER_ALLOWED["shared"] == frozenset()
    assert SERVER_ALLOWED["entry"] == frozenset(SERVER_ALLOWED) - {"entry"}


def test_the_server_keeps_few_modules_at_its_top():
    """Everything else sits in a group of one concern (issue 63)."""
    top = sorted(path.name for path in SERVER.glob("*.py"))
    assert len(top) <= MAX_SERVER_TOP_MODULES, top


MAX_UNTYPED_DICTS = 86
"""How many times ``dict[str, Any]`` may be written in ``parlour.server`` (235 before issue 63's
typed messages; its goal is 60). A message the server sends is a TypedDict of
``server/messages/schemas.py``: lower this ceiling as the rest are typed, never raise it."""


def _untyped_dicts(root: Path) -> int:
    return sum(path.read_text(encoding="utf-8").count("dict[str, Any]")
               for path in root.rglob("*.py"))


def test_the_server_writes_few_untyped_dicts():
    found = _untyped_dicts(SERVER)
    assert found <= MAX_UNTYPED_DICTS, (
        f"{found} dict[str, Any] in parlour.server (at most {MAX_UNTYPED_DICTS}): type the "
        "message in server/messages/schemas.py")


def test_the_untyped_dict_count_sees_every_module(tmp_path):
    (tmp_path / "group").mkdir()
    (tmp_path / "a.py").write_text("x: dict[str, Any] = {}\n", encoding="utf-8")
    (tmp_path / "group" / "b.py").write_text(
        "def f(y: dict[str, Any]) -> dict[str, Any] | None: ...\n", encoding="utf-8")
    (tmp_path / "group" / "c.py").write_text("z: dict[str, int] = {}\n", encoding="utf-8")
    assert _untyped_dicts(tmp_path) == 3


def test_the_group_of_a_server_module():
    assert _server_group("parlour.server") == "entry"
    assert _server_group("parlour.server.__main__") == "entry"
    assert _server_group("parlour.server.limits") == "shared"
    assert _server_group("parlour.server.tables.hub") == "tables"
    assert _server_group("parlour.server.web.routes.play") == "web"



PERSISTENCE = SERVER / "persistence"
REPOSITORIES = frozenset(path.stem for path in PERSISTENCE.glob("*_repo.py")) | {"repository"}
"""The persistence modules that hold SQL: one repository per concern and their shared base."""
MAX_REPOSITORY_LINES = 400
OWN_ROW_MODULES = frozenset({
    "parlour.server.accounts.models", "parlour.server.accounts.challenges",
    "parlour.server.bots.tokens", "parlour.server.study.puzzles",
    "parlour.server.study.puzzle_mining", "parlour.server.tournaments.models",
})
"""The other groups' own row modules (persistence/migrations/models.py's ``MODULES``): each
defines and queries rows of its group."""
SQL_NOT_YET_IN_REPOSITORIES = frozenset({
    "parlour.server.accounts.accounts", "parlour.server.accounts.buckets",
    "parlour.server.accounts.mail", "parlour.server.accounts.matchmaking",
    "parlour.server.accounts.passkeys", "parlour.server.accounts.ratings",
    "parlour.server.accounts.throttle", "parlour.server.bots.botapi", "parlour.server.bots.bots",
    "parlour.server.tournaments.runner", "parlour.server.tournaments.service",
})
"""Modules that still query their own group's rows (accounts, results, pairings, ...) in
SQL of their own, never the tables' rows (those go through ``store.players``): to move into
their groups' repositories (issue 63). The list may only shrink: each must still hold SQL."""
SQL_STATEMENTS = frozenset({"select", "insert", "update", "delete"})


def _row_classes() -> frozenset[str]:
    """The classes of ``persistence/rows.py`` that map a table (``__tablename__``)."""
    tree = ast.parse((PERSISTENCE / "rows.py").read_text(encoding="utf-8"))
    return frozenset(
        node.name for node in tree.body if isinstance(node, ast.ClassDef)
        and any(isinstance(item, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__tablename__" for t in item.targets)
            for item in node.body))


def _rows_imported(tree: ast.AST, rows: frozenset[str]) -> list[str]:
    """``line name`` of each row class imported from the persistence group (any module of
    it), and of each import of the rows module itself."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "parlour.server.persistence"):
            found += [f"{node.lineno} {a.name}" for a in node.names
                      if a.name in rows or (node.module, a.name) == (
                          "parlour.server.persistence", "rows")]
        elif isinstance(node, ast.Import):
            found += [f"{node.lineno} {a.name}" for a in node.names
                      if a.name == "parlour.server.persistence.rows"]
    return found


def _sql_calls(tree: ast.AST) -> list[int]:
    """Lines that call SQLAlchemy's ``select``/``insert``/``update``/``delete``, imported by
    name (any alias) or reached as an attribute of a ``sqlalchemy`` module."""
    names: set[str] = set()
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sqlalchemy"):
            names |= {a.asname or a.name for a in node.names if a.name in SQL_STATEMENTS}
            modules |= {a.asname or a.name for a in node.names if a.name not in SQL_STATEMENTS}
        elif isinstance(node, ast.Import):
            modules |= {(a.asname or a.name).split(".")[0] for a in node.names
                        if a.name.startswith("sqlalchemy")}
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in names:
            lines.append(node.lineno)
        elif isinstance(func, ast.Attribute) and func.attr in SQL_STATEMENTS:
            base = func.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in modules:
                lines.append(node.lineno)
    return sorted(lines)


def test_no_module_outside_persistence_imports_its_rows():
    """The tables' rows are the persistence group's: the rest of the server reads records
    (``persistence/records.py``) through the store, so the schema can change in one place.
    Only ``Base`` is shared, for the other groups' own rows."""
    rows = _row_classes()
    assert {"TableRow", "SeatRow", "HandRow", "ActionRow", "EventRow"} <= rows
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if path.is_relative_to(PERSISTENCE):
            continue
        found += [f"{path.relative_to(ROOT)}:{hit}"
                  for hit in _rows_imported(ast.parse(path.read_text(encoding="utf-8")), rows)]
    assert not found, "row classes imported outside persistence: " + ", ".join(found)


def test_sql_only_in_the_repositories():
    """SQLAlchemy statements are written in the repositories (and the groups' own row
    modules), so every query over a table's rows is in one module of its concern."""
    found, moved = [], []
    for path in sorted(SERVER.rglob("*.py")):
        module = _module_name(path)
        if path.parent == PERSISTENCE and path.stem in REPOSITORIES:
            continue
        calls = _sql_calls(ast.parse(path.read_text(encoding="utf-8")))
        if module in SQL_NOT_YET_IN_REPOSITORIES:
            moved += [] if calls else [module]
        elif calls and module not in OWN_ROW_MODULES:
            found.append(f"{path.relative_to(ROOT)}:{','.join(map(str, calls))}")
    assert not found, "SQL outside the repositories: " + ", ".join(found)
    assert not moved, "no SQL left: take these off SQL_NOT_YET_IN_REPOSITORIES: " + str(moved)


def test_the_repositories_are_small():
    long = _modules_over(PERSISTENCE, MAX_REPOSITORY_LINES, ("migrations",))
    assert not long, "persistence modules over 400 lines: " + ", ".join(long)


def test_the_row_and_sql_checks_see_aliases_and_attributes():
    rows = frozenset({"TableRow"})
    assert _rows_imported(ast.parse(
        "from parlour.server.persistence.rows import Base, TableRow as T\n"
        "from parlour.server.persistence.store import TableRow\n"
        "from parlour.server.persistence import rows\n"
        "import parlour.server.persistence.rows\n"
        "from parlour.server.persistence.records import HandData\n"), rows) == [
        "1 TableRow", "2 TableRow", "3 rows", "4 parlour.server.persistence.rows"]
    assert _sql_calls(ast.parse(
        "import sqlalchemy as sa\nfrom sqlalchemy import select as s, func\n"
        "from sqlalchemy.dialects import sqlite\nfrom somewhere import update\n"
        "s(1)\nsa.delete(2)\nsqlite.insert(3)\nupdate(4)\nfunc.count()\nsession.select(5)\n"
    )) == [5, 6, 7]

MAX_FUNCTION_LINES = 150


def test_no_function_is_over_150_lines():
    """A function a reader cannot hold in mind is several functions; decorators aside, ``def``
    to the last line."""
    long = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines})")
    assert not long, "functions over 150 lines: " + ", ".join(long)


MAX_MODULE_LINES = 800
MODULE_SIZE_EXEMPT: tuple[str, ...] = ()
"""Packages the module size rule leaves out: none since the store's split (issue 63)."""


def _modules_over(package: Path, limit: int, exempt: tuple[str, ...]) -> list[str]:
    """``path (lines)`` of each Python file of ``package`` longer than ``limit`` lines, those
    under an ``exempt`` folder of ``package`` aside."""
    long = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).parts[0] in exempt:
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            long.append(f"{path.relative_to(package)} ({lines})")
    return long


def test_no_module_is_over_800_lines():
    """A module of more than 800 lines holds several concerns: split it into modules named for
    what each owns (issue 63)."""
    long = _modules_over(SRC, MAX_MODULE_LINES, MODULE_SIZE_EXEMPT)
    assert not long, "modules over 800 lines: " + ", ".join(long)


def test_the_module_size_check_counts_lines_and_skips_only_the_exempt_folders(tmp_path):
    (tmp_path / "server").mkdir()
    (tmp_path / "games").mkdir()
    (tmp_path / "server" / "store.py").write_text("x = 1\n" * 801)
    (tmp_path / "games" / "long.py").write_text("x = 1\n" * 801)
    (tmp_path / "games" / "short.py").write_text("x = 1\n" * 800)
    assert _modules_over(tmp_path, 800, ("server",)) == ["games/long.py (801)"]
    assert _modules_over(tmp_path, 800, ()) == ["games/long.py (801)", "server/store.py (801)"]


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


TYPE_IGNORE_BUDGET = 10
"""How many ``# type: ignore`` comments ``src/`` may hold (issue 27), each a place mypy is told
to look away: fewer is better."""


def _type_ignores(path: Path) -> list[int]:
    """The lines of ``path`` with a ``# type: ignore`` comment (comments only, not strings)."""
    with path.open("rb") as source:
        return [
            token.start[0] for token in tokenize.tokenize(source.readline)
            if token.type == tokenize.COMMENT and "type: ignore" in token.string
        ]


def test_type_ignores_stay_within_the_budget():
    found = [f"{path.relative_to(ROOT)}:{line}" for path in sorted(SRC.rglob("*.py"))
             for line in _type_ignores(path)]
    assert len(found) <= TYPE_IGNORE_BUDGET, "\n".join(found)


GAME_NAMES = frozenset({"clobber", "stomple", "stomp-the-plank", "gobblestones"})
"""The games' registered names (``test_every_game_is_named_here`` keeps it complete)."""
PER_GAME = ("games", "agents/knowledge")
"""Where what differs between games lives (the games themselves, the agents' knowledge)."""


def test_every_game_is_named_here():
    import parlour

    assert set(parlour.list_games()) == GAME_NAMES


def _game_name_branches(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, name)`` of each comparison with a game's name and each mapping keyed by one:
    ``game.name == "clobber"``, ``name in ("stomple", ...)``, ``{"gobblestones": 0.5}``."""
    found = []
    for node in ast.walk(tree):
        literals: list[ast.expr] = []
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                literals += side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [
                    side]
        elif isinstance(node, ast.Dict):
            literals = [k for k in node.keys if k is not None]
        elif isinstance(node, ast.MatchValue):
            literals = [node.value]
        found += [(node.lineno if hasattr(node, "lineno") else 0, c.value) for c in literals
                  if isinstance(c, ast.Constant) and c.value in GAME_NAMES]
    return found


def test_no_branch_on_a_games_name_outside_the_games():
    """What differs between games lives in the game's package (its rules, views and
    presentation) or the agents' per-game knowledge; the server, the terminal, the arena, the
    wrappers and the strengths ask them instead of comparing names (issue 27)."""
    branches = []
    for path in SRC.rglob("*.py"):
        relative = path.relative_to(SRC).as_posix()
        if relative.startswith(PER_GAME):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        branches += [f"{relative}:{line} {name!r}" for line, name in _game_name_branches(tree)]
    assert not branches, "branches on a game's name: " + ", ".join(branches)


def test_the_branch_check_sees_comparisons_mappings_and_patterns():
    tree = ast.parse('if game.name == "clobber": pass\nx = {"stomple": 1}\n'
                     'y = name in ("gobblestones", "chess")\n'
                     'match name:\n    case "stomp-the-plank": pass\n'
                     'load_game("clobber")\n')
    assert sorted(name for _line, name in _game_name_branches(tree)) == [
        "clobber", "gobblestones", "stomp-the-plank", "stomple"]


STATIC = SRC / "server" / "static"
PER_GAME_JS = ("js/boards/",)
"""The browser's per-game code: each game's renderer and its pictures (``boards/<game>.js``,
``boards/art/``), found by the game's name; every other script is shared by the games."""
_JS_TOKEN = re.compile(r"//[^\n]*|/\*[\s\S]*?\*/|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'"
                       r"|`(?:[^`\\]|\\.)*`")
"""A comment or a string of a script (the first to start wins, so a quote inside a comment or
a ``//`` inside a string is read as what it stands in)."""


def _game_words() -> frozenset[str]:
    """Each game's registered name and its title ("Stomp the Plank"), in lower case."""
    from parlour.core import game_class

    return GAME_NAMES | {game_class(name).game_type.long_name.lower() for name in GAME_NAMES}


def _js_game_names(text: str, words: frozenset[str]) -> list[tuple[int, str]]:
    """``(line, what)`` of each string of a script that is a game's name or title, and each
    game's name written as code (an object's key, a property); comments may name games."""
    found, code, last = [], [], 0
    for token in _JS_TOKEN.finditer(text):
        code.append(text[last:token.start()] + "\n" * token.group().count("\n"))
        last = token.end()
        literal = token.group()
        if literal[0] in "\"'`" and literal[1:-1].strip().lower() in words:
            found.append((text.count("\n", 0, token.start()) + 1, literal))
    code.append(text[last:])
    bare = re.compile(r"(?<![\w$-])(?:" + "|".join(sorted(re.escape(w) for w in words))
                      + r")(?![\w$-])", re.IGNORECASE)
    joined = "".join(code)
    found += [(joined.count("\n", 0, m.start()) + 1, m.group()) for m in bare.finditer(joined)]
    return found


def test_the_browsers_shared_code_names_no_game():
    """The lobby, the leaderboard and the table read each game's words and options from the
    catalogue (``/api/games``, from the game's presentation) and ask the game's renderer what
    only it knows (an analysis board for the position shown): a new game touches no shared
    script (issue 63)."""
    words = _game_words()
    named = []
    for path in sorted(STATIC.rglob("*.js")):
        relative = path.relative_to(STATIC).as_posix()
        if relative.startswith(PER_GAME_JS):
            continue
        named += [f"{relative}:{line} {what}"
                  for line, what in _js_game_names(path.read_text(encoding="utf-8"), words)]
    assert not named, "shared scripts naming a game: " + ", ".join(named)


def test_the_script_check_sees_strings_and_keys_but_not_comments():
    script = ('// a GobbleStones play, "clobber" in a comment\n'
              'const a = { clobber: 1, "stomp-the-plank": 2 };\n'
              "const b = x === 'Stomple' ? `GobbleStones` : \"/rules/clobber\";\n"
              "/* stomple */ const c = 'it\\'s \"clobber\"';\n")
    assert sorted(what for _line, what in _js_game_names(script, _game_words())) == [
        '"stomp-the-plank"', "'Stomple'", "`GobbleStones`", "clobber"]


def test_the_servers_strings_name_no_game():
    """No string of the server is a game's name or title: the server asks the games, the
    agents' registry and the analysis package (which game it solves) instead (issue 63). An
    address such as ``/analyse/clobber`` is a page's, not a branch."""
    words = _game_words()
    named = []
    for path in sorted((SRC / "server").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named += [f"{path.relative_to(SRC).as_posix()}:{node.lineno} {node.value!r}"
                  for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and node.value.strip().lower() in words]
    assert not named, "server strings naming a game: " + ", ".join(named)
