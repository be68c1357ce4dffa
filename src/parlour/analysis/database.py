"""The on-disk table of small regions' outcome classes, kept in the user's cache directory.

Every solve fills a table of region -> outcome class (see :mod:`parlour.analysis.engine`);
the entries for regions of at most :data:`MAX_STONES` stones are worth keeping, since the same
small regions turn up in every Clobber game. They are saved to
``platformdirs.user_cache_dir("parlour")/clobber-regions-*.bin`` and read back by solvers made
with ``disk_cache=True`` (the command line and the ``perfect`` agent). The file is only a
cache: it is rebuilt from scratch when missing, unreadable or corrupt (a checksum guards it),
is never downloaded, and deleting it only costs time.

Format: a 16-byte header (magic, version, record count), records of 19 bytes (``<BBQQB``:
box height, box width, mover's bitboard, other bitboard, outcome class), then the SHA-256 of
everything before it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import tempfile
from pathlib import Path

import platformdirs

MAGIC = b"PCLBREG"
VERSION = 1
RECORD = struct.Struct("<BBQQB")
RECORD_SIZE = RECORD.size
HEADER = struct.Struct("<7sBQ")
MAX_STONES = 16
"""Regions of at most this many stones are saved..."""
MAX_RECORDS = 1_000_000
"""...and at most this many records (19 MB): the largest regions are left out first."""


def cache_path(cannibal: bool, directory: Path | None = None) -> Path:
    base = Path(directory) if directory else Path(platformdirs.user_cache_dir("parlour"))
    kind = "cannibal" if cannibal else "plain"
    return base / f"clobber-regions-{kind}-v{VERSION}.bin"


def encode(table: dict[tuple[int, int, int, int], int]) -> bytes:
    return b"".join(RECORD.pack(h, w, a, b, v) for (h, w, a, b), v in table.items())


def decode(data: bytes) -> dict[tuple[int, int, int, int], int]:
    return {(h, w, a, b): v for h, w, a, b, v in RECORD.iter_unpack(data)}


def load(cannibal: bool, directory: Path | None = None) -> bytes:
    """The saved records (packed), or ``b""`` when the file is missing or damaged."""
    path = cache_path(cannibal, directory)
    try:
        blob = path.read_bytes()
    except OSError:
        return b""
    if len(blob) < HEADER.size + 32:
        return _discard(path)
    body, digest = blob[:-32], blob[-32:]
    if hashlib.sha256(body).digest() != digest:
        return _discard(path)
    magic, version, count = HEADER.unpack_from(body)
    records = body[HEADER.size :]
    if magic != MAGIC or version != VERSION or len(records) != count * RECORD_SIZE:
        return _discard(path)
    return records


def _discard(path: Path) -> bytes:
    """A damaged cache is removed, so that the next save rebuilds it."""
    with contextlib.suppress(OSError):
        path.unlink()
    return b""


def save(cannibal: bool, records: bytes, directory: Path | None = None) -> Path | None:
    """Write the records atomically (a temporary file renamed over the old one)."""
    path = cache_path(cannibal, directory)
    body = HEADER.pack(MAGIC, VERSION, len(records) // RECORD_SIZE) + records
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(body + hashlib.sha256(body).digest())
        os.replace(tmp, path)
    except OSError:
        return None  # a cache we cannot write is only a slower next run
    return path
