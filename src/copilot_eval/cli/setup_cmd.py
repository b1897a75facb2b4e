"""`copilot-eval setup`: install and check the pinned Copilot runtime (exit 3 when it cannot be set up)."""

from __future__ import annotations

import typer

from copilot_eval.cli.exits import platform_failed
from copilot_eval.reports.console import make_console
from copilot_eval.runtime.process.errors import RuntimeSetupError
from copilot_eval.runtime.process.install import install_runtime, on_stderr


def register(app: typer.Typer) -> None:
    """Add the `setup` command."""

    @app.command()
    def setup(force: bool = typer.Option(False, "--force", help="reinstall even when already set up")) -> None:
        """Install the pinned Copilot runtime with npm, unpack its assets once, check its protocol."""
        console = make_console(stderr=True)
        try:
            report = install_runtime(force=force, progress=on_stderr)
        except RuntimeSetupError as error:
            raise platform_failed(f"setup failed: {error}") from None
        for step in report.steps:
            console.print(f"  - {step}")
        console.print(
            f"[green]ready[/green]: runtime {report.executable} (protocol {report.protocol_version}), "
            f"assets in {report.asset_cache} ({report.seconds:.2f} s)"
        )
