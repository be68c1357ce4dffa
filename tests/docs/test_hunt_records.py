"""What docs/analysis.md claims of 6x6 follows from the hunt's shipped records.

The claim "6x6 is a first-player win, with b6b5" rests on one record, ``first:2`` (the
position after b6b5), holding every one of Black's replies decided and none of them winning.
A record that lost a reply, or the bench deciding 6x6 some other way, fails here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import parlour

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "bench" / "clobber_hunt_records"


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
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "clobber_hunt.py"), "run", "6x6",
         "--dir", str(tmp_path)],
        capture_output=True, text=True, check=True, timeout=300,
    )
    record = json.loads((tmp_path / "6x6.json").read_text(encoding="utf-8"))
    assert record["winner"] == "o"
    assert record["winning_moves"] == ["b6b5"]
    assert record["by_way_of"] == "first:2"
    assert not list(tmp_path.glob("*.ckpt"))  # decided from the records: nothing searched
