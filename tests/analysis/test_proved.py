"""The solver's shipped proofs (:mod:`parlour.analysis.proved`): the data is what the hunt's
records give, its keys are the solver's normal forms, and a lookup (the data and one ply
below it) agrees with the records and with the solver.

The data file is built from ``bench/clobber_hunt_records`` by ``bench/clobber_proved.py``;
the first test builds it again in a temporary folder and compares, so a record that changes
without the data (or the data edited by hand) fails here.
"""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import parlour
from parlour.analysis import proved, solve

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "bench" / "clobber_hunt_records"
SHIPPED = ROOT / "src" / "parlour" / "analysis" / "data" / proved.DATA_FILE


def start(size: str, first: str = "white"):
    return parlour.load_game("clobber", size=size, first=first).new_initial_state()


def state_of(position: str):
    return parlour.load_game("clobber", position=position).new_initial_state()


def test_the_shipped_data_is_what_the_records_build(tmp_path):
    out = tmp_path / proved.DATA_FILE
    subprocess.run([sys.executable, str(ROOT / "bench" / "clobber_proved.py"), "--out",
                    str(out)], check=True, capture_output=True, timeout=300)
    assert gzip.decompress(out.read_bytes()) == gzip.decompress(SHIPPED.read_bytes())
    assert proved.read(SHIPPED.read_bytes()) == proved.shipped()


def test_every_solved_record_is_answered_as_it_says():
    checked = 0
    for path in sorted(RECORDS.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        if not record.get("winner") or "position" not in record:
            continue
        state = state_of(record["position"])
        proof = proved.lookup(state)
        assert proof is not None, path.name
        assert proof.mover_wins == (record["winner"] == record["position"][-1]), path.name
        # a winning move the record names is among the ones the data proves
        assert set(record.get("winning_moves") or []) <= set(proof.winning_moves), path.name
        for move in proof.winning_moves:  # and each leads into a position lost for its mover
            below = proved.lookup(state.child(state.string_to_action(move)))
            assert below is not None and not below.mover_wins, (path.name, move)
        checked += 1
    assert checked > 80


def test_6x6_is_won_by_b6b5_and_its_mirror_proved_by_first_2():
    white = proved.lookup(start("6x6", "white"))
    assert white is not None and white.mover_wins and white.winning_moves[0] == "b6b5"
    assert white.records == ("first:2",)
    assert not white.complete  # b6a6 and twelve other first moves are open
    black = proved.lookup(start("6x6", "black"))
    assert black is not None and black.mover_wins and black.records == ("first:2",)
    # Black's move is b6b5 mirrored left to right (which swaps the colours of a 6-wide board)
    assert black.winning_moves[0] == "e6e5"
    mirrored = {f"{'abcdef'[5 - 'abcdef'.index(m[0])]}{m[1]}"
                f"{'abcdef'[5 - 'abcdef'.index(m[2])]}{m[3]}" for m in white.winning_moves}
    assert set(black.winning_moves) == mirrored


def test_a_lost_board_and_a_board_the_records_do_not_decide():
    lost = proved.lookup(start("2x18"))
    assert lost is not None and not lost.mover_wins and lost.complete
    assert lost.records == ("2x18",)
    assert proved.lookup(start("5x6")) is None  # solved in the docs, not by a hunt record
    assert proved.lookup(start("3x6")) is None
    assert proved.lookup(start("5x7")) is None  # open: two first moves refuted of 58
    cannibal = parlour.load_game("clobber", size="6x6", cannibal=True).new_initial_state()
    assert proved.lookup(cannibal) is None  # another game: no key


def turned(position: str, quarter_turns: int, mirror: bool, swap: bool) -> str:
    """``position`` turned, mirrored, and with the colours and the side to move swapped."""
    board, mover = position.split()
    ranks = board.split("/")
    if mirror:
        ranks = [r[::-1] for r in ranks]
    for _ in range(quarter_turns):
        ranks = ["".join(r[c] for r in reversed(ranks)) for c in range(len(ranks[0]))]
    text = "/".join(ranks)
    if swap:
        text, mover = text.translate(str.maketrans("ox", "xo")), {"o": "x", "x": "o"}[mover]
    return f"{text} {mover}"


def test_a_key_is_the_same_turned_mirrored_moved_and_seen_by_the_other_colour():
    position = "x.xoxo/oooxox/xoxoxo/oxoxox/xoxoxo/oxoxox x"  # first:2
    key = proved.key(state_of(position))
    for quarter in range(4):
        for mirror in (False, True):
            assert proved.key(state_of(turned(position, quarter, mirror, True))) == key
    # dead stones and where the regions sit do not count; the side to move does
    assert proved.key(state_of("xo../...x/o... x")) == proved.key(state_of("..xo/..../.... x"))
    assert proved.key(state_of("xxo. x")) != proved.key(state_of("xxo. o"))


def test_one_ply_above_a_table_agrees_with_the_solver():
    """A table of solved positions (the children of random small positions) answers their
    parents as the solver does: a win with every move into a lost child, a loss when every
    child is won."""
    rng = random.Random(67)
    parents = []
    for _ in range(40):
        rows, columns = rng.choice([(3, 4), (4, 4), (3, 5), (2, 6)])
        state = parlour.load_game("clobber", rows=rows, columns=columns).new_initial_state()
        for _ in range(rng.randrange(0, 4)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            parents.append(state)
    entries = {}
    for parent in parents:
        for action in parent.legal_actions():
            child = parent.child(action)
            entries[proved.key(child)] = (solve(child).mover_wins, "test")
    table = proved.Table(entries, max(proved.live_stones(k) for k in entries))
    for parent in parents:
        proof = proved.lookup(parent, table)
        expected = solve(parent, all_moves=True)
        assert proof is not None and proof.complete
        assert proof.mover_wins == expected.mover_wins, parent.position()
        assert sorted(proof.winning_moves) == sorted(expected.winning_moves), parent.position()


def test_a_file_that_is_not_the_data_is_refused():
    with pytest.raises(ValueError, match="not a proved-positions file"):
        proved.read(gzip.compress(b"xo\tW\tfirst:2\n"))
    with pytest.raises(ValueError, match="bad proved-positions line"):
        proved.read(gzip.compress(f"{proved.HEADER}\nxo\tmaybe\tfirst:2\n".encode()))
