"""Checkpoints of a long solve: what was proved so far, saved so that a search can resume.

A solve that runs for hours (``parlour solve clobber --size 4x8 --checkpoint run.ckpt``) saves
its proven sub-results to one file every few minutes, when it finishes, and when it is stopped
(Ctrl-C, SIGTERM). Solving the same position again with the same file picks them up:

- the moves of the side to move already decided (won or lost) are not searched again;
- the region table (outcome classes of small regions, exact keys) is loaded back;
- transposition-table entries whose proofs took many nodes are loaded back when the table has
  the same size (``tt_bits``); they are keyed by the 64-bit signatures of the sums, so a table
  of another size cannot place them and they are skipped.

Every saved entry is a finished proof, so a resumed search gives the same answers as an
uninterrupted one; it only repeats the unfinished work. The file is written atomically (a
temporary file renamed over the old one) and guarded by a SHA-256 checksum.

Format: ``PCLBCKP`` + version byte, then three length-prefixed (``<Q``) blocks: a JSON header
(position, rule variant, table size, decided moves), the region-table records (as in
:mod:`parlour.analysis.database`) and the transposition-table records (``<QQ``: bucket,
entry), then the SHA-256 of everything before it.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAGIC = b"PCLBCKP"
VERSION = 1
LENGTH = struct.Struct("<Q")
MAX_PROOF_RECORDS = 1 << 25
"""At most this many transposition-table records (512 MB) are saved: the costliest first."""


class CheckpointError(ValueError):
    """The checkpoint file is damaged or belongs to another position."""


@dataclass
class Checkpoint:
    """The checkpoint file of one solve; ``every`` is the number of seconds between saves."""

    path: Path
    every: float = 300.0
    decided: dict[str, bool] = field(default_factory=dict)
    """Moves of the side to move (C4 notation) already decided: True when the move wins.

    Given when the checkpoint is made, they are moves decided elsewhere: by an earlier run
    whose file is gone (a machine wiped between sessions keeps only a small record of the
    moves), or by solves of the positions they lead to. A solve starts from them as well as
    from the file's own moves, which win where both speak of one move: given moves are never
    searched again, even when a file exists."""
    saves: int = 0
    _last: float = field(default_factory=time.monotonic)

    def load(self, solver: Any, position: str) -> dict[str, bool]:
        """Load the file into ``solver``'s tables; return the moves it had decided, with
        those given as :attr:`decided`.

        A missing file is a fresh start but for the moves given. A damaged
        one, or one for another position or rule variant, raises :class:`CheckpointError`
        (deleting it starts afresh)."""
        try:
            blob = Path(self.path).read_bytes()
        except FileNotFoundError:
            return dict(self.decided)
        except OSError as exc:
            raise CheckpointError(f"cannot read the checkpoint {self.path}: {exc}") from None
        header, db, proofs = _unpack(blob, self.path)
        if header.get("position") != position or header.get("cannibal") != solver.cannibal:
            raise CheckpointError(
                f"the checkpoint {self.path} is for {header.get('position')!r}, "
                f"not {position!r}; use another file or delete it"
            )
        engine = solver.c_engine
        if engine is not None:
            engine.import_table(db)
            if header.get("tt_bits") == engine.tt_bits:
                engine.import_proofs(proofs)
        else:
            from parlour.analysis import database

            solver.py_engine.import_outcomes(database.decode(db))
        saved = {str(k): bool(v) for k, v in header.get("decided", {}).items()}
        self.decided = {**self.decided, **saved}
        return dict(self.decided)

    def due(self) -> bool:
        return time.monotonic() - self._last >= self.every

    def save(self, solver: Any, position: str) -> None:
        """Write what ``solver`` has proved so far (atomically)."""
        engine = solver.c_engine
        if engine is not None:
            db = engine.export_table(64)
            min_work = 6
            proofs = engine.export_proofs(min_work)
            while len(proofs) // 16 > MAX_PROOF_RECORDS:
                min_work += 1
                proofs = engine.export_proofs(min_work)
            tt_bits = engine.tt_bits
        else:
            from parlour.analysis import database

            db = database.encode(solver.py_engine.export_outcomes(64))
            proofs, tt_bits = b"", None
        header = json.dumps(
            {
                "position": position,
                "cannibal": solver.cannibal,
                "tt_bits": tt_bits,
                "decided": self.decided,
            }
        ).encode()
        body = MAGIC + bytes([VERSION])
        for block in (header, db, proofs):
            body += LENGTH.pack(len(block)) + block
        path = Path(self.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(body + hashlib.sha256(body).digest())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.saves += 1
        self._last = time.monotonic()


def _unpack(blob: bytes, path: Path) -> tuple[dict[str, Any], bytes, bytes]:
    damaged = CheckpointError(f"the checkpoint {path} is damaged; delete it to start afresh")
    if len(blob) < len(MAGIC) + 1 + 32 or blob[: len(MAGIC)] != MAGIC:
        raise damaged
    body, digest = blob[:-32], blob[-32:]
    if hashlib.sha256(body).digest() != digest or body[len(MAGIC)] != VERSION:
        raise damaged
    blocks, at = [], len(MAGIC) + 1
    for _ in range(3):
        if at + LENGTH.size > len(body):
            raise damaged
        (size,) = LENGTH.unpack_from(body, at)
        at += LENGTH.size
        blocks.append(body[at : at + size])
        at += size
    if at != len(body):
        raise damaged
    try:
        header = json.loads(blocks[0])
    except ValueError:
        raise damaged from None
    if not isinstance(header, dict):
        raise damaged
    return header, blocks[1], blocks[2]
