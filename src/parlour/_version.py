"""parlour's version, in one place: pyproject.toml reads it from here when building, the
package re-exports it as ``parlour.__version__``, and ``parlour --version`` prints it.
Each version's changes are listed in CHANGELOG.md."""

__version__ = "0.1.0"
