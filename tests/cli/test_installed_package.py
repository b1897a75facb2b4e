"""copilot-eval as people install it: a wheel built from this checkout, installed into a fresh virtual
environment, run from empty folders outside any clone (the quickstart, `init` then pytest).

The fresh environment gets the wheel alone (``pip install --no-deps``); the wheel's dependencies are
those of the environment running the suite, reached through a path file, so the test needs no
download. What it proves is what a clone hides: the package's own files (the examples it plays, the
starter, the prompts, the schemas) are in the wheel, and the console script runs from anywhere.
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

import pytest

from copilot_eval.evidence.result import CopilotResult
from copilot_eval.version import __version__
from tests.runs.runs_helpers import REPO


@dataclass(frozen=True)
class Installed:
    """The fresh environment: its interpreter and its console script."""

    python: Path
    script: Path
    site_packages: Path

    def run(self, *args: object, cwd: Path, timeout: float = 240) -> subprocess.CompletedProcess[str]:
        """Run the installed `copilot-eval` in ``cwd``, its output wide as a CI log's."""
        env = {**_clean_env(), "COLUMNS": "200"}
        return subprocess.run(
            [str(self.script), *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout
        )


def _clean_env() -> dict[str, str]:
    # Nothing of this checkout may leak in: no PYTHONPATH, no history of the suite, the venv's own bin first.
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.pop("COPILOT_EVAL_HISTORY", None)
    return env


def _dependency_paths() -> list[str]:
    """Where the suite's own dependencies are installed (not this checkout's src folder)."""
    candidates = [*site.getsitepackages(), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    source = str(REPO / "src")
    return [path for path in dict.fromkeys(candidates) if Path(path).is_dir() and path != source]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """Build the wheel and install it, alone, into a fresh virtual environment."""
    work = tmp_path_factory.mktemp("installed")
    built = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(work / "dist"), str(REPO)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (work / "dist").glob("copilot_eval-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(wheel)]
    done = subprocess.run(pip, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "suite-dependencies.pth").write_text("\n".join(_dependency_paths()) + "\n")
    return Installed(python=python, script=venv / "bin" / "copilot-eval", site_packages=Path(purelib))


def test_the_installed_package_is_the_wheel_and_says_its_version(installed: Installed, tmp_path: Path) -> None:
    where = subprocess.run(
        [str(installed.python), "-c", "import copilot_eval; print(copilot_eval.__file__)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_clean_env(),
    )
    assert where.stdout.strip().startswith(str(installed.site_packages)), where.stdout + where.stderr
    shown = installed.run("--version", cwd=tmp_path)
    assert (shown.returncode, shown.stdout.strip()) == (0, f"copilot-eval {__version__}")


def test_init_writes_the_starter_from_the_wheel_and_refuses_to_overwrite(installed: Installed, tmp_path: Path) -> None:
    written = installed.run("init", "suite", cwd=tmp_path)
    assert written.returncode == 0, written.stdout + written.stderr
    suite = tmp_path / "suite"
    names = {p.relative_to(suite).as_posix() for p in suite.rglob("*") if p.is_file()}
    assert names == {
        ".github/workflows/copilot-eval.yml",
        "agent.yaml",
        "judge-script.yaml",
        "judge.yaml",
        "script.yaml",
        "test_agent.py",
        "tests.csv",
    }
    assert "next: cd suite && python -m pytest" in written.stdout
    # Installed from a local wheel: the workflow cannot install that on a CI machine, and says what to write.
    workflow = (suite / ".github/workflows/copilot-eval.yml").read_text()
    assert "{install_spec}" not in workflow and f"copilot-eval@v{__version__}" in workflow
    assert "COPILOT_EVAL_PACKAGE" in written.stdout
    (suite / "agent.yaml").write_text("name: mine\n")
    again = installed.run("init", "suite", cwd=tmp_path)
    assert again.returncode == 2 and "already holds" in again.stderr and "agent.yaml" in again.stderr
    assert (suite / "agent.yaml").read_text() == "name: mine\n"  # nothing was overwritten


@pytest.mark.runtime
def test_init_then_pytest_passes_at_once_with_no_warning(installed: Installed, tmp_path: Path) -> None:
    assert installed.run("init", cwd=tmp_path).returncode == 0
    # -W error: any warning (pytest-asyncio's configuration notice, an unclosed pipe) fails the run.
    tested = subprocess.run(
        [str(installed.python), "-m", "pytest", "-W", "error", "-p", "no:cacheprovider"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_clean_env(),
        timeout=240,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "1 passed" in tested.stdout and "warning" not in tested.stdout.lower()


@pytest.mark.runtime
def test_the_quickstart_runs_from_an_empty_folder_and_says_what_each_story_showed(
    installed: Installed, tmp_path: Path
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.json").write_text('{"mine": true}')  # a user's own file in --out: left alone, not shown
    first = installed.run("quickstart", "--out", out, cwd=empty)
    assert first.returncode == 0, first.stdout + first.stderr
    assert list(empty.iterdir()) == []  # nothing written where it was run: no history, no runs

    receipt = CopilotResult.load(out / "test_quickstart.py_test_writes_a_receipt_for_an_order.json")
    assert receipt.success and "27.50" in (receipt.final_response or "")
    assert [call.name for call in receipt.all_tool_calls] == ["orders-lookup_order", "create"]
    assert "notes" not in first.stdout
    (run_dir,) = out.glob("eval-run-*")
    run = json.loads((run_dir / "run.json").read_text())
    assert (run["passed"], run["failed"], run["errored"], run["generalQualityPercent"]) == (6, 0, 0, 100.0)
    assert run["copilotEvalVersion"] == __version__  # which copilot-eval wrote the run
    assert (run_dir / "report.html").is_file()
    (raybot_dir,) = out.glob("raybot-*")
    surfaces = json.loads((raybot_dir / "comparison.json").read_text())["surfaces"]
    assert [(s["label"], s["passed"], s["failed"], s["errored"], s["limitationStanding"]) for s in surfaces] == [
        ("raybot-draft", 0, 6, 0, "confirmed"),
        ("raybot-published", 0, 0, 6, "confirmed"),
        ("raybot-preview", 6, 0, 0, None),
    ]
    (studio_dir,) = out.glob("studio-eval-*")
    published = json.loads((studio_dir / "published" / "run.json").read_text())
    assert published["limitationStanding"] == "confirmed" and published["platformRun"]["httpStatus"] == 500

    # It ends on what each story showed, the published agent's HTTP 500 worded as the expected finding.
    summary = first.stdout[first.stdout.index("What the quickstart showed") :].splitlines()
    assert summary[1].startswith("  1. pytest suite (examples/quickstart): ok: 2 tests passed")
    assert "orders-lookup_order" in summary[1]
    assert summary[2].startswith("  2. copilot-eval run conversations.csv: ok: score 100% over 6 graded")
    assert str(run_dir / "report.html") in summary[2]
    assert "draft 0 passed, 6 failed, 0 errors (runtime limitation, confirmed)" in summary[3]
    assert "HTTP 500 is the expected finding" in summary[4] and "confirmed runtime limitation" in summary[4]
    # Its runs went to a history of its own, in the output folder.
    history = out / "history.db"
    assert history.is_file() and f"sqlite:///{history}" in summary[-1]
    listed = installed.run("history", "runs", "--json", "--history", f"sqlite:///{history}", cwd=empty)
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)["runs"]) == 6  # the evaluation, three surfaces, two studio-eval runs
    # The same --out a second time (new runs beside the first, not "an earlier run is recorded here")
    # is tests/cli/test_quickstart.py's: a second quickstart here played all four stories again (half
    # of this module's time) to show only that each story is given a fresh folder.
