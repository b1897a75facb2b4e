"""`copilot-eval quickstart`: run the example suite through the real runtime and show the evidence."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from copilot_eval.exit_codes import PLATFORM

if TYPE_CHECKING:  # rich is imported where it is used: the CLI starts faster without it
    from rich.console import Console


def find_examples() -> Path:
    """The repository's examples/ folder: from the current directory, else beside the package."""
    candidates = [Path.cwd() / "examples", Path(__file__).resolve().parents[3] / "examples"]
    for candidate in candidates:
        if (candidate / "quickstart" / "test_quickstart.py").is_file():
            return candidate
    raise typer.BadParameter("examples/quickstart not found: run this from a clone of the copilot-eval repository")


def register(app: typer.Typer) -> None:
    """Add the `quickstart` command."""

    @app.command()
    def quickstart(
        model: str = typer.Option(None, "--model", help="run on this real model instead of the scripted one"),
        provider_url: str = typer.Option(None, "--provider-url", help="BYOK endpoint for --model"),
        api_key_env: str = typer.Option(None, "--api-key-env", help="env var holding the BYOK API key"),
        out: Path = typer.Option(None, "--out", help="where to write the evidence JSON (default: a temp dir)"),
    ) -> None:
        """Run the example suite (MCP tool, file creation, answer) and summarise its evidence."""
        # imported on use: every command module loads with `--help` (see app.py)
        from rich.console import Console

        from copilot_eval.reports.evidence_table import evidence_table
        from copilot_eval.runtime.process.locate import locate_runtime

        console = Console()
        examples = find_examples()
        with console.status("locating the Copilot runtime (installs it on first use)"):
            locate_runtime()
        evidence_dir = out or Path(tempfile.mkdtemp(prefix="copilot-eval-quickstart-"))
        earlier = _json_files(evidence_dir)
        command = [
            sys.executable,
            "-m",
            "pytest",
            str(examples / "quickstart"),
            "-q",
            "-p",
            "no:cacheprovider",
            f"--copilot-evidence-dir={evidence_dir}",
            f"--rootdir={examples / 'quickstart'}",
        ]
        if model:
            command.append(f"--copilot-model={model}")
        if provider_url:
            command.append(f"--copilot-provider-url={provider_url}")
        if api_key_env:
            command.append(f"--copilot-api-key-env={api_key_env}")
        console.print(f"[bold]running[/bold] {examples / 'quickstart'} through the real Copilot runtime")
        exit_code = subprocess.call(command)
        # Only this run's files: an --out folder used before (or for other things) may hold
        # older evidence or JSON that is not evidence at all.
        written = sorted(path for path, stamp in _json_files(evidence_dir).items() if earlier.get(path) != stamp)
        console.print(evidence_table(written))
        console.print(f"evidence JSON: {evidence_dir}")
        if model:
            console.print(
                "note: the evaluation story below keeps its scripted agent; --model applies to the suite above"
            )
        eval_code = _run_evaluation_story(examples, evidence_dir, console)
        studio_code = _run_copilot_studio_story(examples, evidence_dir, console)
        studio_eval_code = _run_studio_eval_story(examples, evidence_dir, console)
        raise typer.Exit(exit_code or eval_code or studio_code or studio_eval_code)


def _json_files(folder: Path) -> dict[Path, int]:
    """The JSON files directly in ``folder`` with their modification times (ns)."""
    return {path: path.stat().st_mtime_ns for path in folder.glob("*.json")} if folder.is_dir() else {}


# -- evaluation run: story 1 of docs/evaluation-runs.md, through `copilot-eval run` ----------------
def _run_evaluation_story(examples: Path, evidence_dir: Path, console: Console) -> int:
    """Run the three-conversation test set against the well-answering example agent and show its summary."""
    # A file in the layout Copilot Studio hands out today: comment block, conversations of two turns.
    test_set = examples / "evalsets" / "conversations.csv"
    agent = examples / "evaluation" / "agent-good.yaml"
    if not (test_set.is_file() and agent.is_file()):
        return 0  # an older examples folder: nothing to show
    # A fresh folder per quickstart: `run` refuses a folder that already holds a run, and running
    # the quickstart twice with the same --out must work (and keep the earlier run).
    evidence_dir.mkdir(parents=True, exist_ok=True)
    out = Path(tempfile.mkdtemp(prefix=f"eval-run-{datetime.now():%Y%m%d-%H%M%S}-", dir=evidence_dir))
    console.print(f"[bold]evaluating[/bold] {test_set.name} against {agent.name} (copilot-eval run)")
    command = [
        sys.executable,
        "-m",
        "copilot_eval.cli.app",
        "run",
        str(test_set),
        "--agent",
        str(agent),
        "--out",
        str(out),
        "--no-progress",
    ]
    code = subprocess.call(command)
    report = out / "report.html"
    if report.is_file():
        # The page to open first: every case, its verdicts and its evidence, readable offline.
        console.print(f"[bold]open the HTML report:[/bold] {report}", soft_wrap=True)
    return code


# -- Copilot Studio: the seed's Raybot on three surfaces (local fakes), docs/copilot-studio.md ---------
def _run_copilot_studio_story(examples: Path, evidence_dir: Path, console: Console) -> int:
    """Run the three-surface Raybot example (draft, published, preview) and show its comparison."""
    script = examples / "copilot-studio" / "run_example.py"
    if not script.is_file():
        return 0
    out = Path(tempfile.mkdtemp(prefix=f"raybot-{datetime.now():%Y%m%d-%H%M%S}-", dir=evidence_dir))
    console.print(
        "[bold]evaluating[/bold] a Copilot Studio agent on three surfaces "
        "(local fakes of Direct Line and the Agents SDK endpoint)"
    )
    code = subprocess.call([sys.executable, str(script), "--out", str(out)])
    # The story's end: draft and published record runtime limitations, so the run is no verdict on the
    # agent there and `run` exits 3 (docs/evaluation-runs.md#exit-codes); any other code is a problem.
    if code == PLATFORM.code:
        console.print("the Raybot run exited 3, as its story says: the platform failed on two surfaces, not the agent")
        return 0
    return code or 1


# -- Copilot Studio's own evaluation: `copilot-eval studio-eval run` against a fake of its REST API -----
def _run_studio_eval_story(examples: Path, evidence_dir: Path, console: Console) -> int:
    """Run the draft (with the Evaluate tab's export) and the published evaluation of Raybot on the fake API."""
    script = examples / "copilot-studio" / "studio_eval_example.py"
    if not script.is_file():
        return 0
    out = Path(tempfile.mkdtemp(prefix=f"studio-eval-{datetime.now():%Y%m%d-%H%M%S}-", dir=evidence_dir))
    console.print(
        "[bold]evaluating[/bold] Raybot with Copilot Studio's own evaluation "
        "(copilot-eval studio-eval, a local fake of the evaluation REST API)"
    )
    return subprocess.call([sys.executable, str(script), "--out", str(out)])
