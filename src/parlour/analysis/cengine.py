"""Finding (or, for development, compiling) the compiled engine ``_cclobber``.

``pip install .`` builds ``parlour.analysis._cclobber`` from ``_cclobber.c`` when a C compiler
is present. Without it, parlour falls back to the pure-Python engine, which runs the same
algorithm more slowly. :func:`compile_engine` builds the module into a directory of your choice
with setuptools (the test suite uses it, so both engines are always tested).
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from parlour.core import compiled_module

SOURCE = Path(__file__).with_name("_cclobber.c")
MODULE = "parlour.analysis._cclobber"


def load() -> ModuleType | None:
    """The installed compiled engine, or ``None`` when it was not built."""
    return compiled_module(MODULE)


def compile_engine(build_dir: Path, *, quiet: bool = True, source: Path = SOURCE) -> Path:
    """Compile ``_cclobber.c`` (or another version of it, ``source``) into ``build_dir``;
    return the path of the built module.

    Uses setuptools when it is installed, else the compiler Python itself was built with.
    """
    try:
        from setuptools import Distribution, Extension
        from setuptools.command.build_ext import build_ext
    except ImportError:
        return _compile_directly(Path(build_dir), Path(source))

    build_dir = Path(build_dir)
    ext = Extension(MODULE, sources=[str(source)], extra_compile_args=["-O2"])
    dist = Distribution({"name": "parlour-cclobber", "ext_modules": [ext]})
    cmd = build_ext(dist)
    cmd.build_lib = str(build_dir)
    cmd.build_temp = tempfile.mkdtemp(prefix="parlour-cclobber-")
    cmd.ensure_finalized()
    if quiet:
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()):
            cmd.run()
    else:
        cmd.run()
    return Path(cmd.get_ext_fullpath(MODULE))


def _compile_directly(build_dir: Path, source: Path = SOURCE) -> Path:
    import shlex
    import subprocess
    import sysconfig

    build_dir.mkdir(parents=True, exist_ok=True)
    target = build_dir / ("_cclobber" + str(sysconfig.get_config_var("EXT_SUFFIX")))
    linker = shlex.split(str(sysconfig.get_config_var("LDSHARED") or "cc -shared"))
    flags = shlex.split(str(sysconfig.get_config_var("CCSHARED") or "-fPIC"))
    include = sysconfig.get_paths()["include"]
    command = [*linker, *flags, "-O2", f"-I{include}", str(source), "-o", str(target)]
    subprocess.run(command, check=True, capture_output=True)
    return target


def load_from(path: Path) -> ModuleType:
    """Import a compiled engine from a file (as built by :func:`compile_engine`)."""
    spec = importlib.util.spec_from_file_location(MODULE, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the compiled engine from {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":  # python -m parlour.analysis.cengine: build in place (development)
    target = Path(__file__).parents[2]
    built = compile_engine(target, quiet=False)
    print(f"built {built}", file=sys.stderr)
