"""The quickstart's four stories, and what each one showed, read back from what it wrote.

Each story runs as its own process, the way a user would run it (pytest, `copilot-eval run`, the two
Copilot Studio scripts), writing into the quickstart's folder. Its outcome is then read from the
files it left (evidence, run folders), not from its console output, and worded in one line. Two
stories end on findings about the platform (a fallback answer, an HTTP 500): those are what the
stories are there to show, and count as the story working, not as the quickstart failing.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from copilot_eval.evidence.result import CopilotResult
from copilot_eval.exit_codes import PLATFORM
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.reports.run_words import score_over_graded

# The exit code the Copilot Studio evaluation script ends with when both of its runs went as told
# (the draft gated, the published refused by the platform: studio_eval_example.py's own rule).
EXPECTED_CODE = 0


@dataclass(frozen=True)
class StoryOutcome:
    """One story: its title, its process's exit code, and what it showed (one line)."""

    title: str
    code: int
    showed: str
    expected: int = EXPECTED_CODE

    @property
    def as_told(self) -> bool:
        """Whether the story ended the way it is told (its process exited with the code the story ends on)."""
        return self.code == self.expected


def _folder(parent: Path, prefix: str) -> Path:
    # A fresh folder per story and quickstart: `run` refuses a folder that already holds a run, and
    # the quickstart run twice with the same --out keeps the earlier runs beside the new ones.
    parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"{prefix}-{datetime.now():%Y%m%d-%H%M%S}-", dir=parent))


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _tool_calls(path: Path) -> list[Any]:
    try:
        return list(CopilotResult.load(path).all_tool_calls)
    except (OSError, ValueError):
        return []  # not evidence (a user's own JSON in --out): nothing to say about it


def suite_story(
    examples: Path, evidence_dir: Path, extra_args: Sequence[str], call: Callable[[list[str]], int]
) -> tuple[StoryOutcome, list[Path]]:
    """The pytest suite of examples/quickstart; the outcome and the evidence files it wrote."""
    earlier = {path: path.stat().st_mtime_ns for path in evidence_dir.glob("*.json")}
    suite = examples / "quickstart"
    command = [sys.executable, "-m", "pytest", str(suite), "-q", "-p", "no:cacheprovider"]
    command += [f"--copilot-evidence-dir={evidence_dir}", f"--rootdir={suite}", *extra_args]
    code = call(command)
    # Only this run's files: an --out folder used before (or for other things) may hold older
    # evidence, or JSON that is not evidence at all.
    written = sorted(p for p in evidence_dir.glob("*.json") if earlier.get(p) != p.stat().st_mtime_ns)
    tools = sorted({tool.name for path in written for tool in _tool_calls(path)})
    if code == 0:
        showed = f"{len(written)} tests passed through the real runtime, checking the files the agent wrote"
        showed += f" and its tool calls ({', '.join(tools)})" if tools else ""
    else:
        showed = f"pytest exited {code}: the output above says which test failed and why"
    return StoryOutcome("pytest suite (examples/quickstart)", code, showed), written


def evaluation_story(examples: Path, out_dir: Path, call: Callable[[list[str]], int]) -> StoryOutcome:
    """`copilot-eval run` of the three-conversation set against the well-answering agent."""
    test_set = examples / "evalsets" / "conversations.csv"
    agent = examples / "evaluation" / "agent-good.yaml"
    out = _folder(out_dir, "eval-run")
    command = [sys.executable, "-m", "copilot_eval.cli.app", "run", str(test_set), "--agent", str(agent)]
    code = call([*command, "--out", str(out), "--no-progress"])
    title = f"copilot-eval run {test_set.name}"
    if not (out / LAYOUT.run_json).is_file():
        return StoryOutcome(title, code, f"no run was written (exit {code}): see the output above")
    run = read_run_folder(out).run
    counts = f"{run.passed} passed, {run.failed} failed, {run.errored or 0} errors"
    return StoryOutcome(title, code, f"score {score_over_graded(run)} ({counts}); open {out / LAYOUT.report_html}")


def surfaces_story(examples: Path, out_dir: Path, call: Callable[[list[str]], int]) -> StoryOutcome:
    """The seed's Raybot on three Copilot Studio surfaces (local fakes), side by side."""
    out = _folder(out_dir, "raybot")
    code = call([sys.executable, str(examples / "copilot-studio" / "run_example.py"), "--out", str(out)])
    title = "a Copilot Studio agent on three surfaces"
    comparison = _read(out / LAYOUT.comparison_json)
    if comparison is None:
        return StoryOutcome(title, code, f"no comparison was written (exit {code}): see the output above")
    parts = []
    for surface in comparison.get("surfaces", []):
        label = str(surface.get("label", "?")).removeprefix("raybot-")
        counts = (
            f"{surface.get('passed', 0)} passed, {surface.get('failed', 0)} failed, {surface.get('errored', 0)} errors"
        )
        standing = surface.get("limitationStanding")
        parts.append(f"{label} {counts}" + (f" (runtime limitation, {standing})" if standing else ""))
    showed = "; ".join(parts) + ": the platform's failures are recorded as such, not as the agent's"
    # Draft and published record runtime limitations, so the run is no verdict on the agent there:
    # `run` exits 3, the platform's row (docs/evaluation-runs.md#exit-codes), which is the story told.
    return StoryOutcome(title, code, showed, expected=PLATFORM.code)


def studio_eval_story(examples: Path, out_dir: Path, call: Callable[[list[str]], int]) -> StoryOutcome:
    """Copilot Studio's own evaluation through `copilot-eval studio-eval run` (a fake of its REST API)."""
    out = _folder(out_dir, "studio-eval")
    code = call([sys.executable, str(examples / "copilot-studio" / "studio_eval_example.py"), "--out", str(out)])
    title = "Copilot Studio's own evaluation (studio-eval)"
    draft, published = _read(out / "draft" / LAYOUT.run_json), _read(out / "published" / LAYOUT.run_json)
    if draft is None or published is None:
        return StoryOutcome(title, code, f"a run folder is missing (exit {code}): see the output above")
    draft_run = read_run_folder(out / "draft").run
    status = (published.get("platformRun") or {}).get("httpStatus")
    showed = (
        f"the draft scored {score_over_graded(draft_run)} and met --fail-under 80; the published agent's "
        f"HTTP {status} is the expected finding: the platform refused the run, recorded as a "
        f"{published.get('limitationStanding') or 'suspected'} runtime limitation (exit 3: the platform, not the agent)"
    )
    return StoryOutcome(title, code, showed)


STOP_GRACE_S = 30.0  # how long an interrupted story may take to keep what it finished


def run_process(command: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None) -> int:
    """Run one story's process, its output going straight to ours; its exit code.

    Interrupted, the story is asked to stop as a Ctrl-C would (a SIGTERM sent to the quickstart alone
    reaches it this way too) and given time to keep what it finished, before the interrupt goes on.
    """
    with subprocess.Popen(command, env=env, cwd=cwd) as child:
        try:
            return child.wait()
        except KeyboardInterrupt:
            if child.poll() is None:
                child.send_signal(signal.SIGINT)
                try:
                    child.wait(STOP_GRACE_S)
                except subprocess.TimeoutExpired:
                    child.kill()
            raise


__all__ = [
    "StoryOutcome",
    "evaluation_story",
    "run_process",
    "studio_eval_story",
    "suite_story",
    "surfaces_story",
]
