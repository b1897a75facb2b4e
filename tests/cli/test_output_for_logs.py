"""The command line in CI logs and terminals: wide tables in a log, whole paths, no colour on request,
readable help, `--version`, a did-you-mean for grader specs and commands."""

from __future__ import annotations

import io
import os
import re
import subprocess

import pytest

from copilot_eval import __version__
from copilot_eval.grading.spec import GraderSpecError, parse_grader_spec
from copilot_eval.reports.console import LOG_WIDTH, colour_off, output_width
from tests.runs.runs_helpers import CLI

LONG_QUESTION = "Which of the three city bikes would you recommend for a daily commute of twenty-five kilometres?"


def _cli(*args: object, cwd: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "NO_COLOR")}
    return subprocess.run(
        [*CLI, *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**environment, **(env or {})},
        timeout=120,
    )


def _export(
    folder, name: str = "a-results-export-with-a-rather-long-file-name-that-a-ci-log-must-keep-whole"
) -> object:
    folder.mkdir(parents=True, exist_ok=True)
    export = folder / f"{name}.csv"
    export.write_text(
        '"question","expectedResponse","actualResponse","testMethodType_1","result_1","passingScore_1","explanation_1"\n'
        f'"{LONG_QUESTION}","The city hybrid.","The city hybrid suits a daily commute.","GeneralQuality","Pass","",""\n',
        encoding="utf-8",
    )
    return export


def test_width_is_the_terminals_own_on_a_terminal_else_columns_else_wide() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert output_width(Terminal(), {"COLUMNS": "90"}) is None
    assert output_width(io.StringIO(), {"COLUMNS": "90"}) == 90
    assert output_width(io.StringIO(), {}) == LOG_WIDTH
    assert output_width(io.StringIO(), {"COLUMNS": "wide"}) == LOG_WIDTH
    assert colour_off({"NO_COLOR": "1"}) and not colour_off({"NO_COLOR": ""}) and not colour_off({})


def test_a_summary_piped_to_a_log_keeps_the_question_and_the_paths_whole(tmp_path) -> None:
    deep = tmp_path / "a-folder-with-a-long-name-as-ci-workspaces-have" / "and-another-one-below-it"
    export = _export(deep)
    done = _cli("analyze", export, "--out", deep / "run-folder-of-the-export", "--no-history", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    # Not cut to 80 columns: the whole question on one line of the table (80 columns cut it to 40
    # characters, 20 a line), the run.json path on one line.
    assert any(LONG_QUESTION in line for line in done.stdout.splitlines()), done.stdout
    assert any(str(deep / "run-folder-of-the-export" / "run.json") in line for line in done.stdout.splitlines())
    assert "\x1b[" not in done.stdout  # no colour codes in a log


def test_no_color_and_the_option_switch_colour_off_on_a_forced_colour_console(tmp_path) -> None:
    export = _export(tmp_path)
    coloured = _cli("analyze", export, "--out", tmp_path / "a", "--no-history", cwd=tmp_path, env={"FORCE_COLOR": "1"})
    green = "\x1b[32m"  # the status "pass"; NO_COLOR leaves bold and italic, as https://no-color.org says
    assert green in coloured.stdout  # the check below could not fail if colour never appeared
    for args, env in (([], {"NO_COLOR": "1"}), (["--no-color"], {})):
        plain = _cli(*args, "analyze", export, "--out", tmp_path / f"b{len(args)}", "--no-history", cwd=tmp_path,
                     env={"FORCE_COLOR": "1", **env})  # fmt: skip
        assert plain.returncode == 0, plain.stderr
        assert green not in plain.stdout and "pass" in plain.stdout, args or env


def test_version_is_the_packages(tmp_path) -> None:
    shown = _cli("--version", cwd=tmp_path)
    assert (shown.returncode, shown.stdout.strip()) == (0, f"copilot-eval {__version__}")


def test_help_names_values_as_a_command_line_does(tmp_path) -> None:
    shown = _cli("run", "--help", cwd=tmp_path, env={"COLUMNS": "200"})
    assert shown.returncode == 0, shown.stderr
    assert re.search(r"run \[OPTIONS\] SET\s*$", shown.stdout, re.MULTILINE), shown.stdout
    assert "<bool>" not in shown.stdout and "<list[" not in shown.stdout and "{SET}" not in shown.stdout
    resume = next(line for line in shown.stdout.splitlines() if "--resume" in line)
    assert "--resume  " in resume and "PATH" not in resume  # a flag takes no value
    assert any("--out" in line and "PATH" in line for line in shown.stdout.splitlines())
    several = _cli("validate", "--help", cwd=tmp_path, env={"COLUMNS": "200"})
    assert re.search(r"validate \[OPTIONS\] FILE\.\.\.\s*$", several.stdout, re.MULTILINE), several.stdout
    assert "FILE...}..." not in several.stdout


@pytest.mark.parametrize(
    ("spec", "guess"),
    [("simlarity", "similarity"), ("keyword:any:a", "keywords"), ("compare-meanings", "compare_meaning")],
)
def test_a_grader_typo_is_answered_with_the_nearest_grader(spec: str, guess: str) -> None:
    with pytest.raises(GraderSpecError, match=f"did you mean '{guess}'"):
        parse_grader_spec(spec)


def test_an_exact_option_typo_is_answered_with_the_nearest_option() -> None:
    with pytest.raises(GraderSpecError, match="did you mean 'strict'"):
        parse_grader_spec("exact:strikt")


def test_a_command_typo_gets_a_did_you_mean(tmp_path) -> None:
    wrong = _cli("quikstart", cwd=tmp_path)
    assert wrong.returncode == 2 and "Did you mean 'quickstart'" in wrong.stderr


def test_report_with_out_points_to_html(tmp_path) -> None:
    wrong = _cli("report", str(tmp_path), "--out", "x.html", cwd=tmp_path)
    assert wrong.returncode == 2
    assert "No such option: --out; `report` writes one HTML file, not a run folder: name it with --html FILE" in (
        wrong.stderr
    )


def test_every_command_makes_its_console_the_one_way() -> None:
    # A bare rich Console() falls back to 80 columns in a CI log; make_console takes COLUMNS or 200.
    from pathlib import Path

    import copilot_eval

    package = Path(copilot_eval.__file__).parent
    bare = [
        f"{path.relative_to(package)}:{number}"
        for path in sorted(package.rglob("*.py"))
        if path.name != "console.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"\bConsole\(", line) and "make_console" not in line
    ]
    assert bare == [], f"use copilot_eval.reports.console.make_console() instead of rich's Console() in {bare}"
