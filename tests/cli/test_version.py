"""The version lives in one place (``parlour/_version.py``); every way of asking agrees."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

from typer.testing import CliRunner

import parlour
from parlour._version import __version__
from parlour.cli import app

ROOT = Path(__file__).resolve().parents[2]


def test_parlour_version_prints_the_one_version():
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"parlour {__version__}"
    assert parlour.__version__ == __version__


def test_the_installed_metadata_has_the_same_version():
    """pyproject reads the version from _version.py, so the installed metadata carries it."""
    assert importlib.metadata.version("parlour") == __version__


def test_pyproject_declares_no_second_version():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r"^version\s*=\s*\"", pyproject, re.M) is None
    assert 'version = {attr = "parlour._version.__version__"}' in pyproject


def test_the_changelog_has_an_entry_for_the_version():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(__version__)}\b", changelog, re.M)
