"""The scripts behind docs/analysis-checks.md: the MCGS cross-check's sampler and its reading
and writing of MCGS, and the claims lister and re-solver, on the shipped records and on small
boards. MCGS itself is not needed (CI does not build it): the cross-check's MCGS side is the
text MCGS v1.5 prints, checked against its own output shape.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import parlour
from parlour.analysis import solve

BENCH = Path(__file__).resolve().parents[2] / "bench"


def bench(name: str) -> ModuleType:
    """A bench script imported as a module (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


crosscheck = bench("mcgs_crosscheck")
claims = bench("clobber_claims")


def stones(position: str) -> int:
    return sum(position.split()[0].count(c) for c in "xo")


@pytest.mark.parametrize("board", ["6x6", "3x12", "4x8", "2x20"])
def test_each_headline_position_is_its_board_after_the_winning_move(board: str) -> None:
    start = parlour.load_game("clobber", size=board).new_initial_state()
    start.apply_action(start.string_to_action(crosscheck.HEADLINES[board][1]))
    assert crosscheck.headline_position(board) == start.position()


def test_samples_are_legal_positions_of_the_proof_region_and_repeat() -> None:
    start = crosscheck.headline_position("4x8")
    drawn = crosscheck.samples("4x8", 12, 6, seed=3)
    assert len(set(drawn)) == 12
    assert drawn == crosscheck.samples("4x8", 12, 6, seed=3)
    assert drawn != crosscheck.samples("4x8", 12, 6, seed=4)
    for position in drawn:
        # six moves of both sides: six stones captured, the same side to move as after c3d3
        assert stones(position) == stones(start) - 6
        assert position[-1] == start[-1]
        # and reachable: some line of six legal moves from the start leads there (replayed)
        state = parlour.load_game("clobber", position=position).new_initial_state()
        assert state.position() == position


def test_a_sample_is_a_line_of_legal_moves_from_the_headline() -> None:
    rng, replay = random.Random("x"), random.Random("x")
    position = crosscheck.sample_position(crosscheck.headline_position("2x20"), 9, rng)
    state = parlour.load_game("clobber",
                              position=crosscheck.headline_position("2x20")).new_initial_state()
    for _ in range(9):
        action = replay.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.position() == position


def test_positions_are_written_as_mcgs_clobber_grids() -> None:
    assert crosscheck.mcgs_input("xo./.ox x") == "[clobber] XO.|.OX {B}"
    assert crosscheck.mcgs_input("xo./.ox o") == "[clobber] XO.|.OX {W}"


def test_mcgs_output_is_read_for_the_player_to_move() -> None:
    printed = ("Test type: Solve BW\n\tclobber:XO|OX\nPlayer: B\nGot: {}\nTime (ms): 0.04\n"
               "Status: COMPLETED\n")
    assert crosscheck.parse_mcgs(printed.format("Win")) is True
    assert crosscheck.parse_mcgs(printed.format("Loss")) is False
    with pytest.raises(ValueError):
        crosscheck.parse_mcgs("Status: TIMEOUT\n")


def test_the_summary_counts_agreements_disagreements_and_timeouts_apart() -> None:
    sample = crosscheck.Sample
    done = [sample("4x8", 0, "a", True, True), sample("4x8", 1, "b", False, False),
            sample("4x8", 2, "c", True, False), sample("4x8", 3, "d", None, True),
            sample("4x8", 4, "e", False, None)]
    got = crosscheck.summary("4x8", done, 8)
    assert (got["agree"], got["disagree"], got["parlour_timeouts"], got["mcgs_timeouts"]) == (
        2, 1, 1, 1)


def test_the_claims_of_4x8_are_its_records_decided_moves() -> None:
    listed = claims.claims("4x8")
    record = json.loads((claims.RECORDS / "4x8+c3d3.json").read_text())
    top, rest = listed[0], listed[1:]
    assert (top.name, top.mover_wins, top.needed, top.record) == (
        "4x8+c3d3", False, True, "4x8+c3d3")
    assert [c.move for c in rest] == list(record["decided"])
    assert len(rest) == 45
    assert all(c.mover_wins and c.needed and c.parent == "4x8+c3d3" for c in rest)
    assert claims.missing("4x8") == []


def test_the_claims_of_6x6_go_down_the_records_below_b6b5() -> None:
    listed = {c.name: c for c in claims.claims("6x6")}
    # a2a1 is refuted by e5e4 (its own record), and every reply after e5e4 fails for Black
    assert listed["first-2+a2a1"].mover_wins and listed["first-2+a2a1"].record
    assert not listed["first-2+a2a1+e5e4"].mover_wins and listed["first-2+a2a1+e5e4"].needed
    assert listed["first-2+a2a1+e5e4+c4c3"].mover_wins
    # a losing move White tried before the winning one is listed (a win for Black after it),
    # not needed by the proof
    tried = [c for c in listed.values() if c.parent == "first-2+a4a5" and c.move != "c3d3"]
    assert len(tried) == 7 and all(c.mover_wins and not c.needed for c in tried)
    # a reply decided by a position of the MCGS page (the same position, turned or mirrored)
    assert listed["first-2+a6a5"].record == "g5m2" and listed["first-2+a6a5"].mover_wins


def fake_proof(tmp_path: Path, board: str, tamper: bool) -> dict[str, Any]:
    """A proof tree of one record for a small board: its winning first move, and the
    position after it with every reply decided (each one a win for the side replying:
    solved here). ``tamper`` marks one refuted reply as a winning one instead."""
    state = parlour.load_game("clobber", size=board).new_initial_state()
    move = solve(state).winning_moves[0]
    state.apply_action(state.string_to_action(move))
    decided = {state.action_to_string(a): False for a in state.legal_actions()}
    if tamper:
        decided[next(iter(decided))] = True
    record = {"position": state.position(), "winner": "x" if state.position()[-1] == "o"
              else "o", "decided": decided, "cpu": 1.0}
    (tmp_path / "T.json").write_text(json.dumps(record))
    return record


@pytest.mark.parametrize("tamper", [False, True])
def test_claims_of_a_small_proof_are_re_solved_in_fresh_processes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tamper: bool) -> None:
    record = fake_proof(tmp_path, "2x4", tamper)
    monkeypatch.setattr(claims, "RECORDS", tmp_path)
    monkeypatch.setattr(claims, "HEADLINES", {"2x4": ("2x4", "b2c2", "T")})
    out = tmp_path / "checks.json"
    monkeypatch.setattr(sys, "argv", ["clobber_claims.py", "check", "--budget", "600",
                                      "--time-limit", "60", "--json", str(out)])
    if tamper:
        with pytest.raises(SystemExit):
            claims.main()
    else:
        claims.main()
    checked = json.loads(out.read_text())["checked"]
    assert set(checked) == {"2x4+b2c2", *(f"T+{m}" for m in record["decided"])}
    wrong = [name for name, r in checked.items() if r["mover_wins"] != r["expected"]]
    assert wrong == ([f"T+{next(iter(record['decided']))}"] if tamper else [])
    assert all(r["tt_bits"] == 24 for r in checked.values())
    assert "DISAGREES" in capsys.readouterr().out if tamper else True

