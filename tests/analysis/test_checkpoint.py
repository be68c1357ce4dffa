"""Checkpoints of long solves (issue 21): a stopped solve resumes to the very same answer,
saved proofs are sound, and a checkpoint of another position or a damaged one is refused."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

import parlour
from parlour.analysis import ClobberSolver
from parlour.analysis.checkpoint import Checkpoint, CheckpointError
from parlour.cli import app


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    """Keep the on-disk region table of the command-line runs out of the user's cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def start(size: str):
    game = parlour.load_game("clobber", size=size)
    return game, game.new_initial_state()


def c_solver(game, cmodule, **options):
    return ClobberSolver(game, engine="c", engine_module=cmodule, tt_bits=18, **options)


def test_saved_proofs_answer_a_fresh_engine_with_the_same_result(cmodule):
    game, state = start("3x7")
    first = c_solver(game, cmodule)
    regions = first.regions(state)
    assert first.c_engine.win(regions) == 1  # 3x7 is a first-player win
    proofs = first.c_engine.export_proofs(0)
    assert proofs and len(proofs) % 16 == 0

    fresh = c_solver(game, cmodule)
    fresh.c_engine.import_proofs(proofs)
    assert fresh.c_engine.win(regions) == 1
    assert fresh.nodes < first.nodes / 10  # answered from the loaded proofs


def test_a_solve_stopped_midway_resumes_to_the_same_answer(tmp_path, cmodule):
    game, state = start("3x8")  # a second-player win: every first move must be refuted
    reference = c_solver(game, cmodule).solve(state, all_moves=True)
    path = tmp_path / "3x8.ckpt"

    class StopAfterFirstSave(Checkpoint):
        """Saves after every decided move (every=0), and the run is stopped (as by Ctrl-C)
        right after the first save that holds a decided move."""

        stopped = False

        def save(self, solver, position):
            super().save(solver, position)
            if self.decided and not self.stopped:
                self.stopped = True
                raise KeyboardInterrupt

    stopped = c_solver(game, cmodule, root_budget=20_000)
    with pytest.raises(KeyboardInterrupt):
        stopped.solve(state, all_moves=True, checkpoint=StopAfterFirstSave(path, every=0))
    saved = Checkpoint(path)
    assert path.exists()

    resumed = c_solver(game, cmodule)
    decided = saved.load(resumed, state.position())
    assert decided and all(wins is False for wins in decided.values())  # 3x8: none wins
    answer = resumed.solve(state, all_moves=True, checkpoint=path)
    assert answer.winner == reference.winner == "x"
    assert answer.winning_moves == reference.winning_moves == ()
    # once finished, the file knows every move
    assert len(Checkpoint(path).load(c_solver(game, cmodule), state.position())) == len(
        state.legal_actions()
    )


@pytest.mark.parametrize("size", ["3x7", "4x5", "2x10"])
def test_a_resumed_first_player_win_lists_the_same_winning_moves(tmp_path, cmodule, size):
    game, state = start(size)
    reference = c_solver(game, cmodule).solve(state, all_moves=True)
    path = tmp_path / "run.ckpt"
    c_solver(game, cmodule).solve(state, checkpoint=path)  # one winning move, then stop
    decided = Checkpoint(path).load(c_solver(game, cmodule), state.position())
    won = [move for move, wins in decided.items() if wins]
    assert len(won) == 1 and won[0] in reference.winning_moves
    resumed = c_solver(game, cmodule).solve(state, all_moves=True, checkpoint=path)
    assert resumed.winning_moves == reference.winning_moves
    assert resumed.winner == reference.winner == "o"


def test_moves_kept_from_a_lost_file_are_not_searched_again(tmp_path, cmodule):
    """A machine wiped between runs keeps only the record of the decided moves: a checkpoint
    given them, with its file gone, starts from them and reaches the same answer."""
    game, state = start("3x8")  # a second-player win: every first move is refuted
    first = Checkpoint(tmp_path / "first.ckpt", every=0)
    whole = c_solver(game, cmodule).solve(state, all_moves=True, checkpoint=first)
    half = dict(list(first.decided.items())[: len(first.decided) // 2])
    assert half and not any(half.values())

    kept = Checkpoint(tmp_path / "gone.ckpt", decided=half)  # no such file
    resumed = c_solver(game, cmodule)
    answer = resumed.solve(state, checkpoint=kept)
    assert answer.winner == whole.winner == "x"
    assert kept.decided.keys() == first.decided.keys()  # the rest decided, the lot saved
    assert resumed.nodes < whole.nodes
    assert Checkpoint(tmp_path / "gone.ckpt").load(c_solver(game, cmodule), state.position()) == (
        first.decided
    )


def test_moves_given_beside_a_file_are_kept_with_the_files_own(tmp_path, cmodule):
    """Moves decided elsewhere (the hunt's solves of the positions they lead to) count even
    when the checkpoint file exists: the solve starts from both and searches neither again."""
    game, state = start("3x8")  # a second-player win: every first move is refuted
    moves = [state.action_to_string(a) for a in state.legal_actions()]  # each one lost
    path = tmp_path / "part.ckpt"
    partial = Checkpoint(path)
    partial.decided = dict.fromkeys(moves[:2], False)
    partial.save(c_solver(game, cmodule), state.position())  # a file deciding two moves

    given = dict.fromkeys(moves[-3:], False)
    loaded = Checkpoint(path, decided=given).load(c_solver(game, cmodule), state.position())
    assert loaded == dict.fromkeys(moves[:2] + moves[-3:], False)
    assert Checkpoint(path).load(c_solver(game, cmodule), state.position()) == dict.fromkeys(
        moves[:2], False
    )  # the file alone: its own two

    copy = tmp_path / "copy.ckpt"  # a solve saves into its file: each starts from one
    shutil.copy(path, copy)
    counted = c_solver(game, cmodule)
    answer = counted.solve(state, checkpoint=Checkpoint(path, decided=given))
    alone = c_solver(game, cmodule)
    assert answer.winner == alone.solve(state, checkpoint=Checkpoint(copy)).winner == "x"
    assert counted.nodes < alone.nodes  # the given three were not searched


def test_root_passes_find_the_same_moves(cmodule):
    for size in ("3x7", "4x5", "3x6", "2x9"):
        game, state = start(size)
        plain = c_solver(game, cmodule).solve(state, all_moves=True)
        passes = c_solver(game, cmodule, root_budget=500).solve(state, all_moves=True)
        assert passes.winning_moves == plain.winning_moves, size
        one = c_solver(game, cmodule, root_budget=500).solve(state)
        assert one.winner == plain.winner
        assert set(one.winning_moves) <= set(plain.winning_moves)


def test_a_checkpoint_of_another_position_is_refused(tmp_path, cmodule):
    game, state = start("3x6")
    path = tmp_path / "a.ckpt"
    c_solver(game, cmodule).solve(state, checkpoint=path)
    other_game, other = start("4x4")
    with pytest.raises(CheckpointError, match="is for"):
        c_solver(other_game, cmodule).solve(other, checkpoint=path)


def test_a_damaged_checkpoint_is_refused_not_trusted(tmp_path, cmodule):
    game, state = start("3x6")
    path = tmp_path / "a.ckpt"
    c_solver(game, cmodule).solve(state, checkpoint=path)
    blob = bytearray(path.read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    path.write_bytes(bytes(blob))
    with pytest.raises(CheckpointError, match="damaged"):
        c_solver(game, cmodule).solve(state, checkpoint=path)


def test_the_python_engine_keeps_checkpoints_too(tmp_path):
    game, state = start("2x5")
    path = tmp_path / "py.ckpt"
    first = ClobberSolver(game, engine="python").solve(state, all_moves=True, checkpoint=path)
    again = ClobberSolver(game, engine="python").solve(state, all_moves=True, checkpoint=path)
    assert again.winning_moves == first.winning_moves and again.nodes == 0


def test_cli_checkpoint_resumes(tmp_path):
    path = tmp_path / "cli.ckpt"
    runner = CliRunner()
    args = ["solve", "clobber", "--size", "3x6", "--all", "--json", "--checkpoint", str(path)]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    one, two = json.loads(first.output), json.loads(again.output)
    assert one["winner"] == two["winner"] == "x"  # 3x6 is a second-player win
    assert two["nodes"] == 0  # every first move was decided in the file


def test_cli_refuses_a_checkpoint_of_another_board(tmp_path):
    path = tmp_path / "cli.ckpt"
    runner = CliRunner()
    first = runner.invoke(app, ["solve", "clobber", "--size", "2x4", "--checkpoint", str(path)])
    assert first.exit_code == 0, first.output
    other = runner.invoke(app, ["solve", "clobber", "--size", "2x5", "--checkpoint", str(path)])
    assert other.exit_code == 2 and "is for" in " ".join(other.output.split())


def test_sigterm_stops_a_command_line_solve_like_ctrl_c():
    """So that a solve stopped by its supervisor saves its checkpoint (the CLI catches
    KeyboardInterrupt, saves and exits with status 130)."""
    import os
    import signal

    from parlour.cli.commands.solve import stop_on_sigterm

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), stop_on_sigterm():
        os.kill(os.getpid(), signal.SIGTERM)  # the handler runs at once, in this thread
    assert signal.getsignal(signal.SIGTERM) is before
