"""``python -m parlour.server`` is the server's own entry point; ``parlour serve`` hands over."""

from __future__ import annotations

import subprocess
import sys

from typer.testing import CliRunner

from parlour.cli import app

runner = CliRunner()


def test_the_server_entry_point_imports_no_part_of_the_cli():
    probe = (
        "import sys, parlour.server.__main__; "
        "print(sorted(m for m in sys.modules if m.startswith('parlour.cli')))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_both_commands_take_the_same_options():
    module = subprocess.run(
        [sys.executable, "-m", "parlour.server", "--help"], capture_output=True, text=True
    )
    command = runner.invoke(app, ["serve", "--help"])
    assert module.returncode == 0 and command.exit_code == 0, module.stderr + command.output
    assert module.stdout.startswith("usage: python -m parlour.server")
    assert command.output.startswith("usage: parlour serve")
    options = ("--host", "--port", "--db", "--no-open", "--ai-delay", "--ai-deadline", "--limit")
    for option in options:
        assert option in module.stdout and option in command.output
    listed = module.stdout.split("options:", 1)[1]
    assert command.output.split("options:", 1)[1] == listed


def test_a_bad_option_is_refused_before_anything_starts():
    result = runner.invoke(app, ["serve", "--port", "eighty"])
    assert result.exit_code == 2
    assert "invalid int value: 'eighty'" in result.output


def test_a_bad_limit_is_refused_with_its_option_named():
    result = runner.invoke(app, ["serve", "--limit", "no_such_limit=3"])
    assert result.exit_code == 2
    assert "argument --limit" in result.output
