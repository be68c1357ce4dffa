"""Every example the documentation shows is run: the site's pages, the README and the
docstrings the API reference renders.

- each fenced ```python block of README.md and docs/**/*.md runs on its own, in a fresh
  namespace, in a scratch folder;
- each doctest (``>>>``) in the package runs and its output is compared;
- each ``parlour ...`` command line shown in a fenced block parses against the real CLI (the
  command exists and takes those options; it is not run: some serve or run for minutes), and
  each ``python -c "..."`` one-liner runs.

An example may be marked slow only here, with its reason (slow tests still run in CI).
"""

from __future__ import annotations

import contextlib
import doctest
import importlib
import io
import pkgutil
import re
import shlex
from pathlib import Path

import pytest
import typer.main

from parlour.cli import app

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "parlour"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^```", re.S | re.M)

# (page, a line of the example) -> why it is marked slow.
SLOW = {
    ("docs/research.md", 'gymnasium.make("parlour/Clobber-v0", opponent="hard"'): (
        "plays a whole 10x10 Clobber episode against the hard agent (about 25 s)"
    ),
}


def fenced_blocks(langs: set[str]) -> list[tuple[str, int, str]]:
    """``(page, line, text)`` of each fenced block in one of ``langs`` ("" for no language)."""
    blocks = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            if match.group("lang") in langs:
                line = text.count("\n", 0, match.start()) + 1
                blocks.append((page.relative_to(ROOT).as_posix(), line, match.group("body")))
    return blocks


def python_examples() -> list:
    cases = []
    for page, line, body in fenced_blocks({"python", "py"}):
        marks = [
            pytest.mark.slow
            for (slow_page, snippet), _why in SLOW.items()
            if slow_page == page and snippet in body
        ]
        cases.append(pytest.param(body, id=f"{page}:{line}", marks=marks))
    return cases


def test_the_pages_have_python_examples():
    """The collection below finds the examples (a renamed folder would otherwise run none)."""
    pages = {case.id.split(":")[0] for case in python_examples()}
    assert {"README.md", "docs/research.md", "docs/analysis.md", "docs/agents.md"} <= pages


def test_every_slow_mark_names_an_example_that_exists():
    bodies = {(page, body) for page, _line, body in fenced_blocks({"python", "py"})}
    for page, snippet in SLOW:
        assert any(p == page and snippet in body for p, body in bodies), (page, snippet)


@pytest.mark.parametrize("source", python_examples())
def test_python_example_runs(source, tmp_path, monkeypatch, request):
    monkeypatch.chdir(tmp_path)
    code = compile(source, request.node.callspec.id, "exec")
    with contextlib.redirect_stdout(io.StringIO()):
        exec(code, {"__name__": "__main__"})


def doctest_modules() -> list[str]:
    modules = []
    for path in sorted(SRC.rglob("*.py")):
        if path.name != "__main__.py" and ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(SRC.parent).with_suffix("").parts
            modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules


def test_the_package_has_doctests():
    assert {"parlour", "parlour.analysis", "parlour.batch"} <= set(doctest_modules())


@pytest.mark.parametrize("name", doctest_modules())
def test_doctests(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(module) if t.examples]
    assert tests, f"{name} mentions >>> but has no doctest"
    out = io.StringIO()
    for test in tests:
        runner.run(test, out=out.write)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, out.getvalue()


def command_lines() -> list:
    """Each ``parlour ...`` and ``python -c ...`` line shown in a shell or plain block (a line
    ending in a backslash continues on the next, as in a shell)."""
    cases = []
    for page, line, body in fenced_blocks({"", "bash", "sh", "console", "shell"}):
        lines = body.splitlines()
        for offset, text in enumerate(lines):
            if offset and lines[offset - 1].endswith("\\"):
                continue  # part of the command above
            end = offset
            while lines[end].endswith("\\") and end + 1 < len(lines):
                end += 1
            text = " ".join(part.removesuffix("\\").strip() for part in lines[offset:end + 1])
            text = text.strip().removeprefix("$ ")
            if text.startswith(("parlour ", "python -c ")):
                cases.append(pytest.param(text, id=f"{page}:{line + 1 + offset}"))
    return cases


def test_the_pages_have_command_lines():
    assert len(command_lines()) >= 20


@pytest.mark.parametrize("line", command_lines())
def test_command_line_is_valid(line, tmp_path, monkeypatch):
    words = shlex.split(line, comments=True)
    if words[:2] == ["python", "-c"]:
        monkeypatch.chdir(tmp_path)
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(words[2], "<python -c>", "exec"), {"__name__": "__main__"})
        return
    group = typer.main.get_command(app)
    name, *args = words[1:]
    command = group.get_command(None, name)  # type: ignore[arg-type]
    assert command is not None, f"no command {name!r}"
    monkeypatch.chdir(tmp_path)
    for arg in args:  # a record path shown as a placeholder: give it a file to point at
        if arg.endswith(".json"):
            (tmp_path / arg).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / arg).touch()
    with command.make_context(f"parlour {name}", list(args)):
        pass


PUBLIC_MODULES = {
    "parlour",
    "parlour.core",
    "parlour.games.clobber",
    "parlour.games.stomple",
    "parlour.games.stomp_the_plank",
    "parlour.games.gobblestones",
    "parlour.agents",
    "parlour.arena",
    "parlour.analysis",
    "parlour.batch",
    "parlour.openspiel",
    "parlour.pettingzoo",
    "parlour.gymnasium",
}


def test_the_api_reference_documents_every_public_module():
    """mkdocs build --strict (in .ci/run) checks the pages render; this checks none is missing."""
    directives = {
        match.group(1)
        for page in (ROOT / "docs" / "api").glob("*.md")
        for match in re.finditer(r"^::: ([\w.]+)", page.read_text(encoding="utf-8"), re.M)
    }
    assert directives >= PUBLIC_MODULES
    for name in directives:  # each names a real object
        assert pkgutil.resolve_name(name) is not None
