"""The Clobber hunt's tables in docs/analysis.md are the ones its shipped records give.

``bench/clobber_hunt.py report`` prints them from ``bench/clobber_hunt_records``; a record
that changes without its page (or a page edited by hand) fails here, so what the docs say was
solved, and what it cost, is what the records hold.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "analysis.md"


def table_rows(tmp_path: Path, *options: str) -> list[str]:
    """The rows (``| ... |`` lines) of ``report --markdown`` with ``options``, from the
    shipped records alone (an empty ``--dir``)."""
    printed = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "clobber_hunt.py"), "report", "--markdown",
         "--dir", str(tmp_path), *options],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout
    return [line for line in printed.splitlines() if line.startswith("|")]


@pytest.mark.parametrize("options", [(), ("--lines", "first:2")],
                         ids=["targets", "lines of first:2"])
def test_the_page_shows_the_report_of_the_shipped_records(options, tmp_path):
    rows = table_rows(tmp_path, *options)
    page = set(PAGE.read_text(encoding="utf-8").splitlines())
    assert len(rows) > 2  # a head, its rule and at least one record
    assert [row for row in rows if row not in page] == []
