"""Reproduce the seed's Raybot record: one test set, three surfaces, limitations confirmed by Preview.

    python examples/copilot-studio/run_example.py [--out DIR] [RUN OPTIONS ...]

Starts local fakes of the three surfaces, then runs
``copilot-eval run raybot.csv --agent draft --agent published --agent preview --out DIR``
with any further options given (``--fail-under 50``), and exits with the command's exit code.
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
    if "--out" in args:
        at = args.index("--out")
        out = Path(args[at + 1])
        del args[at : at + 2]
    else:
        out = Path(tempfile.mkdtemp(prefix="raybot-"))
    with raybot_surfaces(out / "agents") as agents:
        command = [
            "run",
            str(TEST_SET),
            *[part for path in agents for part in ("--agent", str(path))],
            "--out",
            str(out),
            "--no-progress",
            *args,
        ]
        # Standalone mode ends every call in SystemExit, with the command's code (a gate's 1, a usage
        # error's 2); outside it click returns the code instead and a caller that ignores it exits 0.
        try:
            get_command(app).main(command, prog_name="copilot-eval", standalone_mode=True)
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
