"""parlour's Clobber opening book (:mod:`parlour.analysis.openings`): its entries agree with
the solver, every won position has its winning move one ply down, the book agrees with the
hunt's records, the script rebuilds it, and the standard starts are answered.

The book is built by ``bench/clobber_openings.py`` within a time budget; a test here runs it
on a small board and checks that what it builds agrees with the shipped file.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import parlour
from parlour.analysis import openings, proved, solver_for

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "src" / "parlour" / "analysis" / "data" / openings.DATA_FILE
SOLVED_STONES = 16
"""Entries with at most this many live stones are solved again here (milliseconds each)."""


def state_of(position: str):
    return parlour.load_game("clobber", position=position).new_initial_state()


def start(size: str, first: str = "white"):
    return parlour.load_game("clobber", size=size, first=first).new_initial_state()


def book() -> dict[str, tuple[bool, str]]:
    return openings.shipped().entries


def test_the_book_is_compact_and_read_as_shipped():
    assert SHIPPED.stat().st_size <= 400_000  # a few hundred KB at most (docs/analysis.md)
    assert proved.read(SHIPPED.read_bytes(), openings.HEADER) == openings.shipped()
    assert len(book()) > 1000
    assert {record for _, record in book().values()} == {openings.RECORD}
    with pytest.raises(ValueError, match="first line"):  # a hunt file is not read as a book
        proved.read((SHIPPED.parent / proved.DATA_FILE).read_bytes(), openings.HEADER)


def test_a_key_gives_back_a_position_of_that_key():
    for key in sorted(book())[:: max(1, len(book()) // 200)]:
        assert proved.key(state_of(openings.position_of(key))) == key


def test_the_entries_agree_with_the_solver():
    # the differential check: every small entry solved again, from a position of its key
    small = sorted(k for k in book() if proved.live_stones(k) <= SOLVED_STONES)
    assert len(small) >= 500
    for key in random.Random(65).sample(small, min(600, len(small))):
        state = state_of(openings.position_of(key))
        solver = solver_for(state.get_game())
        assert solver.mover_wins(state) == book()[key][0], key


def test_every_won_entry_has_a_lost_child_in_the_book():
    # so that a lookup finds the winning move one ply down (a guessed "won" would have none)
    known = openings.known()
    won = sorted(k for k, (wins, _) in book().items() if wins)
    for key in random.Random(7).sample(won, min(400, len(won))):
        proof = openings.lookup(state_of(openings.position_of(key)), known)
        assert proof is not None and proof.mover_wins and proof.winning_moves, key


def test_the_book_and_the_hunt_records_agree():
    hunt = proved.shipped().entries
    for key in set(book()) & set(hunt):
        assert book()[key][0] == hunt[key][0], key


def test_the_script_rebuilds_what_ships(tmp_path):
    out = tmp_path / openings.DATA_FILE
    subprocess.run([sys.executable, str(ROOT / "bench" / "clobber_openings.py"), "--boards",
                    "3x4", "--budget", "20", "--out", str(out)],
                   check=True, capture_output=True, timeout=300)
    rebuilt = proved.read(out.read_bytes(), openings.HEADER).entries
    assert proved.key(start("3x4")) in rebuilt
    shared = set(rebuilt) & set(book())
    assert len(shared) >= 20
    assert all(rebuilt[k] == book()[k] for k in shared)


@pytest.mark.parametrize("size", ["4x4", "4x5", "4x6", "5x5", "5x6"])
def test_the_standard_starts_and_their_first_moves_are_answered(size):
    # a board with an even side is the same with Black first (mirrored, the colours swap);
    # 5x5 with Black first is another position, not in the book
    for first in ("white", "black") if size != "5x5" else ("white",):
        state = start(size, first)
        proof = openings.lookup(state)
        assert proof is not None and proof.complete, (size, first)
        assert openings.from_book(proof.records)
        winning = set(proof.winning_moves)
        for action in state.legal_actions():
            below = openings.lookup(state.child(action))
            assert below is not None, (size, state.action_to_string(action))
            # a move wins exactly when the position after it is lost for its side to move
            assert below.mover_wins == (state.action_to_string(action) not in winning)
            if below.mover_wins:
                assert below.winning_moves  # the reply that wins is known too


def test_4x7s_start_is_answered_with_its_winning_moves():
    # 4x7 is N (docs/analysis.md): the book holds most of its first moves
    proof = openings.lookup(start("4x7"))
    assert proof is not None and proof.mover_wins and proof.winning_moves


def test_the_5x6_start_is_a_second_player_win_and_6x6_comes_from_the_hunt():
    proof = openings.lookup(start("5x6"))
    assert proof is not None and not proof.mover_wins and proof.records == (openings.RECORD,)
    assert "opening book" in openings.describe(proof)
    six = openings.lookup(start("6x6"))
    assert six is not None and six.mover_wins and "b6b5" in six.winning_moves
    assert not openings.from_book(six.records) and "first:2" in openings.describe(six)
