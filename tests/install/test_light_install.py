"""``pip install parlour`` (no extras) is the engine, the agents and the command line.

A fresh virtual environment, without the system's packages, gets a plain ``pip install`` of a
copy of the project: the test then checks that none of the extras' libraries came with it, that
a game plays to the end from Python and from ``parlour play`` with piped input, that the learned
player (``net``, numpy inference of the shipped network) plays without PyTorch, and that
``parlour serve`` says which extra it needs instead of failing with a traceback.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Libraries only extras bring (pydantic and markdown-it-py are not here: typer and rich, which
# the command line needs, depend on them).
EXTRAS_ONLY = (
    "fastapi",
    "uvicorn",
    "starlette",
    "sqlalchemy",
    "alembic",  # the schema's revisions (web extra)
    "websockets",
    "argon2",  # the accounts' (web extra)
    "webauthn",
    "zxcvbn",
    "email_validator",  # the e-mail addresses' parser (web extra)
    "prometheus_client",  # /metrics (web extra)
    "matplotlib",
    "ray",
    "gymnasium",
    "pettingzoo",
    "pyspiel",
    "torch",
)

PLAY_EVERY_GAME = """
import random, sys
import parlour
from parlour.agents import make_agent
for name in parlour.list_games():
    game = parlour.load_game(name)
    state = game.new_initial_state()
    agents = [make_agent("random", game, seed=p) for p in range(game.num_players())]
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        else:
            state.apply_action(agents[state.current_player()].step(state))
    print(name, state.returns())
print("loaded:", sorted(m for m in sys.modules if m.split(".")[0] in {extras!r}))
"""


@pytest.fixture(scope="module")
def light_venv(tmp_path_factory) -> Path:
    """A fresh venv holding ``pip install <copy of the project>`` and nothing else."""
    base = tmp_path_factory.mktemp("light")
    project = base / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(
        ROOT / "src",
        project / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so"),
    )
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=True, system_site_packages=False)
    install = subprocess.run(
        [env_dir / "bin" / "python", "-m", "pip", "install", "-q", str(project)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    return env_dir


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    # records go to the user data folder: keep this test's out of the real one
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    return env


@pytest.mark.slow
def test_plain_install_brings_no_extra_library(light_venv, tmp_path):
    probe = (
        "import importlib.util as u; "
        f"print([m for m in {EXTRAS_ONLY!r} if u.find_spec(m) is not None])"
    )
    result = subprocess.run(
        [light_venv / "bin" / "python", "-c", probe],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.slow
def test_every_game_plays_from_python_without_the_extras(light_venv, tmp_path):
    script = PLAY_EVERY_GAME.replace("{extras!r}", repr(set(EXTRAS_ONLY)))
    result = subprocess.run(
        [light_venv / "bin" / "python", "-c", script],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        cwd=tmp_path,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    played = {line.split()[0] for line in lines[:-1]}
    assert played == {"clobber", "stomple", "stomp-the-plank", "gobblestones"}, result.stdout
    assert lines[-1] == "loaded: []"


@pytest.mark.slow
def test_terminal_game_plays_without_the_extras(light_venv, tmp_path):
    record = tmp_path / "game.json"
    result = subprocess.run(
        [
            light_venv / "bin" / "parlour",
            "play",
            "clobber",
            "--vs",
            "human",
            "--position",
            "oxo x",
            "--record",
            str(record),
        ],
        input="b1a1\n",
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "won" in " ".join(result.stdout.split())
    assert json.loads(record.read_text(encoding="utf-8"))["actions"] == [7]


@pytest.mark.slow
def test_the_learned_player_plays_without_pytorch(light_venv, tmp_path):
    arena = subprocess.run(
        [light_venv / "bin" / "parlour", "arena", "clobber", "--agents", "net,medium",
         "--games", "2", "--workers", "1", "--out", str(tmp_path / "arena")],
        capture_output=True, text=True, env=_env(tmp_path), cwd=tmp_path, timeout=300,
    )
    assert arena.returncode == 0, arena.stdout + arena.stderr
    lines = (tmp_path / "arena" / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert [sorted(json.loads(line)["metadata"]["agents"]) for line in lines] == [
        ["medium", "net"], ["medium", "net"]]
    record = tmp_path / "net.json"
    play = subprocess.run(
        [light_venv / "bin" / "parlour", "play", "clobber", "--vs", "net", "--seat", "1",
         "--record", str(record)],
        input="quit\n", capture_output=True, text=True, env=_env(tmp_path), cwd=tmp_path,
        timeout=120,
    )
    assert play.returncode == 0, play.stdout + play.stderr
    assert len(json.loads(record.read_text(encoding="utf-8"))["actions"]) == 1  # net moved


def _refusal(light_venv: Path, tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    """Run a command of the light install that needs an extra it does not have."""
    return subprocess.run(
        [light_venv / "bin" / argv[0], *argv[1:]],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        cwd=tmp_path,
        timeout=120,
    )


@pytest.mark.slow
def test_serve_without_the_web_extra_says_what_to_install(light_venv, tmp_path):
    result = _refusal(light_venv, tmp_path, "parlour", "serve", "--no-open")
    assert result.returncode == 2
    assert "pip install 'parlour[web]'" in " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_the_server_module_without_the_web_extra_says_what_to_install(light_venv, tmp_path):
    result = _refusal(light_venv, tmp_path, "python", "-m", "parlour.server", "--no-open")
    assert result.returncode == 2
    assert "pip install 'parlour[web]'" in " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_solving_on_ray_without_the_ray_extra_says_what_to_install(light_venv, tmp_path):
    result = _refusal(light_venv, tmp_path, "parlour", "solve", "clobber", "--size", "3x3",
                      "--ray")
    assert result.returncode == 2
    assert "pip install 'parlour[ray]'" in " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr
