from __future__ import annotations

from collections.abc import Iterator

import pytest

from .helpers import ServerProcess


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One real server process shared by the tests that do not restart it, configured as
    ``parlour serve`` is by default: computer players think in worker processes."""
    proc = ServerProcess(tmp_path_factory.mktemp("server") / "parlour.db", ai="process").start()
    yield proc
    proc.stop()
