"""The history package loads light: SQLAlchemy and Alembic wait for the first database.

Its public names are pinned in tests/test_public_names.py and what it may import in
tests/test_layers.py (evalsets, reports and the leaves: the run folder is the contract).
"""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_package_loads_neither_sqlalchemy_nor_alembic():
    code = (
        "import sys, copilot_eval.history, copilot_eval.cli.app; "
        "print(sorted(m for m in ('sqlalchemy', 'alembic') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
