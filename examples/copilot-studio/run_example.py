"""Reproduce the seed's Raybot record: one test set, three surfaces, limitations confirmed by Preview.

    python examples/copilot-studio/run_example.py [--out DIR]

Starts local fakes of the three surfaces, then runs
``copilot-eval run raybot.csv --agent draft --agent published --agent preview --out DIR``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raybot_surfaces import TEST_SET, raybot_surfaces


def main(argv: list[str] | None = None) -> int:
    """Run the three-surface evaluation; returns the command's exit code."""
    from typer.main import get_command

    from copilot_eval.cli.app import app

    args = list(sys.argv[1:] if argv is None else argv)
    out = Path(args[args.index("--out") + 1]) if "--out" in args else Path(tempfile.mkdtemp(prefix="raybot-"))
    with raybot_surfaces(out / "agents") as agents:
        command = [
            "run",
            str(TEST_SET),
            *[part for path in agents for part in ("--agent", str(path))],
            "--out",
            str(out),
            "--no-progress",
        ]
        try:
            get_command(app).main(command, prog_name="copilot-eval", standalone_mode=False)
        except SystemExit as exc:  # typer.Exit inside non-standalone mode
            return int(exc.code or 0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
