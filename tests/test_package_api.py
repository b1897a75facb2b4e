"""The package's lazy public names, and what importing it costs (the names are pinned in test_public_names.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import copilot_eval


def test_unknown_names_fail_clearly() -> None:
    with pytest.raises(AttributeError, match="no_such_thing"):
        copilot_eval.no_such_thing  # noqa: B018


def test_the_command_line_and_the_package_do_not_import_the_sdk_up_front() -> None:
    # The SDK takes about a second to import; `validate` and `--help` must not pay for it.
    code = "import sys, copilot_eval, copilot_eval.cli.app; print('copilot' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
