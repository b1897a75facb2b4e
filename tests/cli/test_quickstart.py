"""`copilot-eval quickstart`: its options, and what lets it run twice on one --out (the run itself:
tests/cli/test_installed_package.py)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from copilot_eval.first_steps.examples import copy_examples
from copilot_eval.first_steps.stories import evaluation_story, studio_eval_story, suite_story, surfaces_story
from tests.runs.runs_helpers import CLI


def quickstart(*args: object, cwd: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [*CLI, "quickstart", *map(str, args)], capture_output=True, text=True, env=env, cwd=cwd, timeout=240
    )


def test_help_names_the_real_model_option(tmp_path):
    shown = quickstart("--help", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "--model" in shown.stdout


# The quickstart itself runs from the installed wheel, outside any clone: tests/cli/test_installed_package.py.


def test_the_same_out_twice_gives_each_story_a_fresh_folder_and_reports_only_new_evidence(tmp_path):
    # What lets `quickstart --out DIR` run again on the same DIR: the examples are copied over the
    # earlier copy, each story writes into a folder of its own (so `run` never finds "an earlier run
    # is recorded here"), and the suite's line counts only the evidence this time wrote. The stories'
    # processes are stood in for by `call`: what they play is the installed quickstart's test.
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.json").write_text('{"mine": true}')  # a user's own JSON in --out: never counted
    examples = copy_examples(out / "examples")
    assert copy_examples(out / "examples") == examples  # the second copy lands on the first
    given: list[Path] = []

    def call(command: list[str]) -> int:
        if "--out" in command:
            folder = Path(command[command.index("--out") + 1])
            assert folder.is_dir() and not any(folder.iterdir()), f"{folder} is not a fresh folder"
            given.append(folder)
        else:  # the pytest suite: it writes (again) the evidence of each of its tests
            evidence = Path(next(c for c in command if c.startswith("--copilot-evidence-dir=")).split("=", 1)[1])
            (evidence / f"test_{len(given)}.json").write_text("{}")
            given.append(evidence)
        return 0

    for _ in range(2):
        suite, written = suite_story(examples, out, [], call)
        assert suite.as_told and written == [out / f"test_{len(given) - 1}.json"], written
        evaluation_story(examples, out, call)
        surfaces_story(examples, out, call)
        studio_eval_story(examples, out, call)
    folders = [folder for folder in given if folder != out]
    assert len(folders) == 6 and len(set(folders)) == 6  # three stories, twice: never the same folder
    assert all(folder.parent == out for folder in folders)
    prefixes = sorted(folder.name.rsplit("-", 3)[0] for folder in folders)  # PREFIX-date-time-random
    assert prefixes == ["eval-run", "eval-run", "raybot", "raybot", "studio-eval", "studio-eval"]
