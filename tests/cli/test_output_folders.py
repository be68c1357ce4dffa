"""Commands write under the user's folders, never into the current directory unasked.

``parlour play`` saves its record in the user data folder (``records/``), ``parlour solve``
keeps its region table in the user cache folder, and the read-only commands write nothing.
(``parlour arena`` chooses its own output folder: tested with the arena.)
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from parlour.cli import app

runner = CliRunner()


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """A current directory and user folders of our own (platformdirs reads XDG_* on Linux)."""
    cwd, data, cache = tmp_path / "cwd", tmp_path / "data", tmp_path / "cache"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    return cwd, data, cache


def _files(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_play_saves_its_record_in_the_user_data_folder(folders):
    cwd, data, _ = folders
    result = runner.invoke(app, ["play", "clobber", "--vs", "human", "--position", "oxo x"],
                           input="b1a1\n")
    assert result.exit_code == 0, result.output
    assert _files(cwd) == []
    [record] = _files(data)
    assert record.startswith("parlour/records/clobber-") and record.endswith(".json")
    assert json.loads((data / record).read_text(encoding="utf-8"))["actions"] == [7]
    replayed = runner.invoke(app, ["replay", str(data / record)])
    assert replayed.exit_code == 0, replayed.output
    assert _files(cwd) == []


def test_solve_keeps_its_table_in_the_user_cache_folder(folders):
    cwd, data, cache = folders
    result = runner.invoke(app, ["solve", "clobber", "--size", "2x3"])
    assert result.exit_code == 0, result.output
    assert _files(cwd) == [] and _files(data) == []
    assert all(name.startswith("parlour/") for name in _files(cache))


@pytest.mark.parametrize("command", [["games"], ["rules", "stomple"]])
def test_read_only_commands_write_nothing(folders, command):
    cwd, data, cache = folders
    result = runner.invoke(app, command)
    assert result.exit_code == 0, result.output
    assert _files(cwd) == _files(data) == _files(cache) == []


def test_serve_keeps_its_database_in_the_user_data_folder(folders, monkeypatch):
    cwd, data, _ = folders
    monkeypatch.delenv("PARLOUR_DB", raising=False)
    from parlour.server.persistence.config import default_db_url

    assert default_db_url() == f"sqlite:///{data / 'parlour' / 'parlour.db'}"
    assert _files(cwd) == []
