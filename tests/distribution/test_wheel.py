"""The distribution as a user installs it: ``python -m build`` makes an sdist and a wheel, and
the wheel installs into a fresh virtual environment (outside the source tree) and works there,
with the compiled Clobber engine; then with an extra; then, built where no C compiler is, with
the pure-Python engine.

Dependencies are installed by pip from its usual index (after ``.ci/run`` they come from pip's
local cache), so this is the install a user gets. About a minute.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import parlour

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]

# The extra installed on top of the plain wheel; the only line to change when the extras change.
EXTRA = "postgres"

GAMES = [
    ("clobber", {"rows": 4, "columns": 5}),
    ("stomple", {"players": 3}),
    ("stomp-the-plank", {"players": 2}),
    ("gobblestones", {"players": 2}),
]


def play(name: str, params: dict, seed: int) -> dict:
    """One seeded game to the end; run here from the source tree and, by its source text, in
    the fresh environment from the wheel."""
    import random

    import parlour
    from parlour.core import pick_chance_outcome

    state = parlour.load_game(name, **params).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            action = pick_chance_outcome(state.chance_outcomes(), rng.random())
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    return {"history": state.history(), "returns": list(state.returns())}


# What the fresh environment reports: where parlour came from, and the games it played.
REPORT = """
import json
import parlour
from parlour.analysis import cengine

print(json.dumps({
    "file": parlour.__file__,
    "version": parlour.__version__,
    "compiled": cengine.load() is not None,
    "games": {name: play(name, params, 7) for name, params in GAMES},
}))
"""


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything pointing back at the source tree or its venv."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "PYTHONNOUSERSITE": "1", **extra}


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict[str, Path]:
    """sdist and wheel from ``python -m build`` (the wheel is built from the sdist), and a
    second wheel built from that sdist with no working C compiler."""
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--outdir", out, ROOT, cwd=out, env=clean_env())
    (sdist,) = out.glob("parlour-*.tar.gz")
    (wheel,) = out.glob("parlour-*.whl")
    unpacked = tmp_path_factory.mktemp("sdist")
    with tarfile.open(sdist) as tar:
        tar.extractall(unpacked, filter="data")
    (source,) = unpacked.iterdir()
    nocc = tmp_path_factory.mktemp("nocc")
    run(sys.executable, "-m", "build", "--wheel", "--outdir", nocc, source, cwd=nocc,
        env=clean_env(CC="false", CXX="false"))
    (wheel_nocc,) = nocc.glob("parlour-*.whl")
    return {"sdist": sdist, "wheel": wheel, "wheel_nocc": wheel_nocc}


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("venv")
    run(sys.executable, "-m", "venv", "--without-pip", path, cwd=path, env=clean_env())
    return path


def pip(venv: Path, *args: str | Path, cwd: Path) -> str:
    """This environment's pip acting on the fresh one (saves installing pip into it)."""
    return run(sys.executable, "-m", "pip", "--python", venv / "bin" / "python", *args,
               cwd=cwd, env=clean_env())


def test_the_sdist_carries_the_sources_and_the_wheel_the_compiled_engine(dist):
    with tarfile.open(dist["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {"pyproject.toml", "README.md", "CHANGELOG.md",
            "src/parlour/analysis/_cclobber.c", "src/parlour/agents/_cclobber_search.c",
            "src/parlour/games/gobblestones/_cplayout.c", "src/parlour/games/stomple/_cplayout.c",
            "src/parlour/core/include/parlour_playout.h",  # both _cplayout.c include it
            "src/parlour/rules/clobber.md"} <= names
    with zipfile.ZipFile(dist["wheel"]) as whl:
        files = whl.namelist()
        metadata = whl.read(next(n for n in files if n.endswith(".dist-info/METADATA")))
    assert any(re.fullmatch(r"parlour/analysis/_cclobber\..*\.so", n) for n in files)
    assert any(re.fullmatch(r"parlour/agents/_cclobber_search\..*\.so", n) for n in files)
    for game in ("gobblestones", "stomple"):
        assert any(re.fullmatch(rf"parlour/games/{game}/_cplayout\..*\.so", n) for n in files)
    assert {"parlour/rules/stomple.md", "parlour/server/templates/table.html",
            "parlour/i18n/locale/fr/LC_MESSAGES/parlour.mo",
            "parlour/games/stomple/tutorial.toml", "parlour/games/stomple/rules.md",
            "parlour/analysis/data/clobber-puzzles.jsonl.gz",
            "parlour/analysis/data/clobber-proved.txt.gz",  # the hunt's proofs, as data
            "parlour/analysis/data/clobber-openings.txt.gz",  # the opening book
            "parlour/agents/learned/networks/clobber-5x6.npz",  # the net agent
            # the schema's revisions, and their template
            "parlour/server/persistence/migrations/env.py",
            "parlour/server/persistence/migrations/script.py.mako",
            "parlour/server/persistence/migrations/versions/0001_baseline.py"} <= set(files)
    assert f"Version: {parlour.__version__}\n" in metadata.decode()
    with zipfile.ZipFile(dist["wheel_nocc"]) as whl:
        assert not any(("_cclobber." in n or "_cclobber_search." in n or "_cplayout." in n)
                       and not n.endswith(".c") for n in whl.namelist())


def test_the_wheel_installs_and_plays_in_a_fresh_environment(dist, venv, tmp_path):
    bin_ = venv / "bin"
    pip(venv, "install", "-q", dist["wheel"], cwd=tmp_path)

    assert run(bin_ / "parlour", "--version", cwd=tmp_path).strip() == (
        f"parlour {parlour.__version__}"
    )
    games = run(bin_ / "parlour", "games", cwd=tmp_path, env=clean_env(COLUMNS="200"))
    for title in ("Clobber (clobber)", "Stomple (stomple)", "Stomp the Plank (stomp-the-plank)",
                  "GobbleStones (gobblestones)"):
        assert title in games

    # both rules texts ship inside the wheel: the players' (with its pictures) and the reference
    rules = run(bin_ / "parlour", "rules", "clobber", cwd=tmp_path, env=clean_env(COLUMNS="200"))
    assert "Your move" in rules and "a  b  c  d  e  f" in rules
    reference = run(bin_ / "parlour", "rules", "clobber", "--reference", cwd=tmp_path,
                    env=clean_env(COLUMNS="200"))
    assert "C2" in reference

    script = f"GAMES = {GAMES!r}\n{inspect.getsource(play)}\n{REPORT}"
    report = json.loads(run(bin_ / "python", "-c", script, cwd=tmp_path, env=clean_env()))
    assert Path(report["file"]).is_relative_to(venv)  # the wheel, not the source tree
    assert report["version"] == parlour.__version__ and report["compiled"]
    for name, params in GAMES:  # the installed rules play exactly as the source's
        assert report["games"][name] == play(name, params, 7), name

    solved = run(bin_ / "parlour", "solve", "clobber", "--size", "3x4", cwd=tmp_path,
                 env=clean_env(COLUMNS="200"))
    assert "Black (x) wins whatever White (o) plays" in solved  # 3x4: White to move loses
    assert "(c engine)" in solved


def test_an_extra_installs_its_requirements(dist, venv, tmp_path):
    bin_ = venv / "bin"
    url = dist["wheel"].as_uri()
    pip(venv, "install", "-q", f"parlour[{EXTRA}] @ {url}", cwd=tmp_path)

    requires = json.loads(run(bin_ / "python", "-c",
                              "import importlib.metadata as m, json; "
                              "print(json.dumps(m.requires('parlour')))",
                              cwd=tmp_path, env=clean_env()))
    wanted = [r for r in map(Requirement, requires)
              if r.marker and r.marker.evaluate({"extra": EXTRA})
              and not r.marker.evaluate({"extra": ""})]
    assert wanted, f"the wheel declares no extra {EXTRA!r}"
    versions = json.loads(run(bin_ / "python", "-c",
                              "import importlib.metadata as m, json, sys; "
                              "print(json.dumps({n: m.version(n) for n in sys.argv[1:]}))",
                              *[r.name for r in wanted], cwd=tmp_path, env=clean_env()))
    for requirement in wanted:
        assert requirement.specifier.contains(versions[requirement.name], prereleases=True)
    pip(venv, "check", cwd=tmp_path)
    assert "Clobber (clobber)" in run(bin_ / "parlour", "games", cwd=tmp_path,
                                      env=clean_env(COLUMNS="200"))


def test_built_without_a_compiler_the_python_engine_solves(dist, venv, tmp_path):
    bin_ = venv / "bin"
    pip(venv, "install", "-q", dist["wheel_nocc"], cwd=tmp_path)  # dependencies, if run alone
    pip(venv, "install", "-q", "--no-deps", "--force-reinstall", dist["wheel_nocc"], cwd=tmp_path)
    assert run(bin_ / "python", "-c",
               "from parlour.analysis import cengine; print(cengine.load())",
               cwd=tmp_path, env=clean_env()).strip() == "None"
    solved = run(bin_ / "parlour", "solve", "clobber", "--size", "3x4", cwd=tmp_path,
                 env=clean_env(COLUMNS="200"))
    assert "Black (x) wins whatever White (o) plays" in solved
    assert "(python engine)" in solved
    assert "the compiled engine is not built" in solved
