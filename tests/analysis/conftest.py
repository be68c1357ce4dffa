"""Both engines are always tested: the compiled one is built here when it is not installed."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from parlour.analysis import cengine


@pytest.fixture(scope="session")
def cmodule(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The compiled engine: the installed one, else compiled from source into a temp dir."""
    installed = cengine.load()
    if installed is not None:
        return installed
    built = cengine.compile_engine(Path(tmp_path_factory.mktemp("cclobber")))
    return cengine.load_from(built)


@pytest.fixture(params=["c", "python"])
def engine_options(request: pytest.FixtureRequest, cmodule: ModuleType) -> dict[str, object]:
    """Keyword arguments for ClobberSolver selecting each engine in turn."""
    if request.param == "c":
        return {"engine": "c", "engine_module": cmodule, "tt_bits": 16}
    return {"engine": "python"}
