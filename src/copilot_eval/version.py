"""The version of copilot-eval: one place, read by the package, the build (pyproject.toml), `--version` and run.json."""

__version__ = "0.1.0"

__all__ = ["__version__"]
