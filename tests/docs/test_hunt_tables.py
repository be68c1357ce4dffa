"""The Clobber hunt's tables and claims in docs/analysis.md follow from its shipped records.

``bench/clobber_hunt.py report`` prints the tables from ``bench/clobber_hunt_records``; a
record that changes without its page (or a page edited by hand) fails here, so what the docs
say was solved, and what it cost, is what the records hold. The claim "6x6 is a first-player
win, with b6b5" rests on one record, ``first:2`` (the position after b6b5), holding every one
of Black's replies decided and none of them winning; a record that lost a reply, or the bench
deciding 6x6 some other way, fails here too.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import parlour

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "analysis.md"
RECORDS = ROOT / "bench" / "clobber_hunt_records"


def hunt(*arguments: str) -> str:
    """What ``bench/clobber_hunt.py`` with ``arguments`` prints (it must succeed)."""
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "clobber_hunt.py"), *arguments],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout


def table_rows(tmp_path: Path, *options: str) -> list[str]:
    """The rows (``| ... |`` lines) of ``report --markdown`` with ``options``, from the
    shipped records alone (an empty ``--dir``)."""
    printed = hunt("report", "--markdown", "--dir", str(tmp_path), *options)
    return [line for line in printed.splitlines() if line.startswith("|")]


@pytest.mark.parametrize("options", [(), ("--lines", "first:2")],
                         ids=["targets", "lines of first:2"])
def test_the_page_shows_the_report_of_the_shipped_records(options, tmp_path):
    rows = table_rows(tmp_path, *options)
    page = set(PAGE.read_text(encoding="utf-8").splitlines())
    assert len(rows) > 2  # a head, its rule and at least one record
    assert [row for row in rows if row not in page] == []


def test_the_shipped_first_2_record_refutes_every_reply_to_b6b5():
    record = json.loads((RECORDS / "first-2.json").read_text(encoding="utf-8"))
    state = parlour.load_game("clobber", size="6x6").new_initial_state()
    state.apply_action(state.string_to_action("b6b5"))
    assert record["position"] == state.position()
    replies = {state.action_to_string(a) for a in state.legal_actions()}
    assert len(replies) == 54
    assert set(record["decided"]) == replies
    assert not any(record["decided"].values())  # no reply of Black wins
    assert (record["winner"], record["status"]) == ("o", "solved")


def test_run_6x6_records_the_win_by_way_of_first_2_without_a_search(tmp_path):
    hunt("run", "6x6", "--dir", str(tmp_path))
    record = json.loads((tmp_path / "6x6.json").read_text(encoding="utf-8"))
    assert record["winner"] == "o"
    assert record["winning_moves"] == ["b6b5"]
    assert record["by_way_of"] == "first:2"
    assert not list(tmp_path.glob("*.ckpt"))  # decided from the records: nothing searched
