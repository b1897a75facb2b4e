"""One way to finish a run folder: the only writer of its files, and the verdict a command exits by.

``run`` (one agent or several), ``merge``, ``studio-eval run|get``, ``analyze``, ``regrade`` and
``attack`` each produce one or more runs (one per surface); the engine has written only their
evidence and checkpoint. ``finish_run_folders`` writes every other file of each folder, each once,
in this order: the data files (``test-set.json``, ``results.csv`` and the command's own: ``attack``'s
``security.json``, a trigger merge's ``triggers.json``), the transcript scanners' ``scans/``
(``--scan``), the history record (unless ``--no-history``; its notices are known before the
report), ``report.html``, JUnit XML and a
Markdown summary when asked (one JUnit file per surface, ``NAME-<label>.xml``), a comparison with
``--baseline`` (per surface), the gate's ``gate.md`` (``run --gate``), the files beside the folders
(``comparison.json``), and ``run.json`` last, so that its presence means the folder is complete.
The verdict is ``runs.gates``' over every surface (the worst one's), with the gate's.

Every name comes from ``reports.folder_layout.LAYOUT``. Every reader (report, compare, merge,
regrade, the history) reads what this wrote, through ``reports.run_folder``, so a folder is a run
folder whichever command made it; until run.json is written the finisher hands them the folder
held in memory (``reports.run_files.folder_in_memory``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.evalsets import EvalRun, EvalSetError, EvalTestSet
from copilot_eval.exit_codes import PASSED, Verdict, worst
from copilot_eval.history.ingest import record_after_run
from copilot_eval.history.records import SOURCE_RUN
from copilot_eval.reports.compare import RunComparison
from copilot_eval.reports.compare_views import comparison_html, comparison_markdown
from copilot_eval.reports.findings import read_findings
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.html_run import run_report_html
from copilot_eval.reports.junit import write_junit
from copilot_eval.reports.markdown import run_summary_markdown
from copilot_eval.reports.run_comparison import CompareError, compare_folders
from copilot_eval.reports.run_files import folder_in_memory, write_data_files, write_run_json
from copilot_eval.reports.run_folder import RunFolder, read_run_folder
from copilot_eval.reports.set_match import other_set_problem
from copilot_eval.runs.gates import Gates, regression_verdict, run_verdict
from copilot_eval.runs.played_agent import ab_line
from copilot_eval.scans.folder import scan_line, scan_run_folder, scan_verdict
from copilot_eval.scans.protocol import Scanner

COMPARISON_HTML = LAYOUT.comparison_html
COMPARISON_MD = LAYOUT.comparison_md
STDOUT = "-"
"""``--markdown -``: the summary goes to stdout (``$GITHUB_STEP_SUMMARY``) instead of a file."""


@dataclass(frozen=True)
class GateOutcome:
    """What a gate run inside the finisher decided: its verdict, its lines, and ``gate.md``'s text (None: none)."""

    verdict: Verdict
    lines: list[str] = field(default_factory=list)
    markdown: str | None = None


FolderGate = Callable[[Sequence[RunFolder]], GateOutcome]
"""A gate the finisher runs once the history holds the folders (``run --gate``: ``commands.gate_run``)."""


# Alike in shape only to runs/settings.py's RunBudget and targets/config.py's DirectLineTarget: flat
# frozen records of defaulted fields, each for its own thing.
@dataclass(frozen=True, kw_only=True)
class FinishOptions:
    """What a finished folder gets besides its data, and what it is judged by: the options every writer shares."""

    junit: Path | None = None
    markdown: str | None = None
    baseline: Path | None = None
    history: str | None = None
    no_history: bool = False
    source: str = SOURCE_RUN
    gates: Gates = field(default_factory=Gates)
    allow_other_set: bool = False
    # Transcript scanners run over the finished folder (`--scan`); a finding counts for the verdict
    # only for the scanners `--fail-on-finding` names.
    scanners: tuple[Scanner, ...] = ()
    finding_gates: frozenset[str] = frozenset()
    gate: FolderGate | None = None
    # attack's verdict is its figures (attack success, utility), given as ``met``: its run's cases are
    # plays under attack, which the run's gates (errors, nothing graded) do not judge.
    judge_runs: bool = True


# The options a writing command names as the finisher does (``--junit``, ``--markdown``, ``--baseline``,
# ``--allow-other-set``, ``--history``/``--no-history``; ``scanners``/``finding_gates`` once chosen),
# and the gates it reads (``--fail-under``, ``--fail-on-regression``, ``--max-errors``).
_FINISH_NAMES = (
    "junit",
    "markdown",
    "baseline",
    "allow_other_set",
    "history",
    "no_history",
    "scanners",
    "finding_gates",
)
_GATE_NAMES = ("fail_under", "fail_on_regression", "max_errors")


def finish_options(options: Mapping[str, Any], **fixed: Any) -> FinishOptions:
    """The finisher's options from a command's options of the same names; ``fixed`` sets the rest (``source``, ...).

    The one builder every writing command uses (``finish_options(locals(), source=...)``): names the
    command does not have keep their defaults, and names that are not the finisher's are passed over.
    """
    picked = {name: options[name] for name in _FINISH_NAMES if name in options}
    gates = Gates(**{name: options[name] for name in _GATE_NAMES if name in options})
    return FinishOptions(**{**picked, "gates": gates, **fixed})


@dataclass(frozen=True)
class FolderRun:
    """A run to finish: its folder, the run and the set it played, its surface's label (None: one agent).

    ``files`` are the command's own data files (name, text), written with the data, before the
    report that reads them: ``attack``'s ``security.json``, a trigger run's ``triggers.json``.
    ``junit_run`` is what ``--junit`` reports when not ``run`` itself (``triggers``: one case per prompt).
    """

    folder: Path
    run: EvalRun
    test_set: EvalTestSet
    label: str | None = None
    files: tuple[tuple[str, str], ...] = ()
    junit_run: EvalRun | None = None


@dataclass
class FinishedFolder:
    """One finished folder: the run, what was written (lines for its summary), its comparison and verdict."""

    folder: Path
    run: EvalRun
    test_set: EvalTestSet
    label: str | None
    lines: list[str] = field(default_factory=list)
    comparison: RunComparison | None = None
    verdict: Verdict = PASSED


@dataclass
class Finished:
    """Every folder finished, the history's line (or its warning), the Markdown for stdout, and the verdict."""

    folders: list[FinishedFolder]
    verdict: Verdict
    history_lines: list[str] = field(default_factory=list)
    history_warnings: list[str] = field(default_factory=list)
    markdown: str | None = None
    gate_lines: list[str] = field(default_factory=list)


def surface_file(path: Path, label: str | None) -> Path:
    """A surface's own file beside ``path``: ``junit.xml`` -> ``junit-<label>.xml`` (``path`` itself for one agent)."""
    if label is None:
        return path
    return path.with_name(f"{path.stem}-{label}{path.suffix or '.xml'}")


def baseline_folder(baseline: Path, label: str | None) -> Path:
    """The baseline a surface is compared with: ``baseline/<label>`` when that holds a run, else ``baseline``."""
    if label is not None and (baseline / label / LAYOUT.run_json).is_file():
        return baseline / label
    return baseline


def baseline_problem(
    baseline: Path | None,
    labels: Sequence[str | None] = (None,),
    *,
    test_set: EvalTestSet | None = None,
    fingerprint: str | None = None,
    allow_other_set: bool = False,
) -> str | None:
    """Why ``--baseline`` cannot be used for these surfaces (checked before a run spends anything), or None.

    A baseline of another test set than ``test_set`` (its ``fingerprint``) is refused, saying what
    differs, unless ``allow_other_set``.
    """
    if baseline is None:
        return None
    for label in labels:
        folder = baseline_folder(baseline, label)
        try:
            found = read_run_folder(folder)
        except EvalSetError as exc:
            return f"--baseline {exc}"
        recorded = found.run.fingerprints.test_set if found.run.fingerprints is not None else None
        if not allow_other_set and (
            problem := other_set_problem(
                (f"--baseline {folder}", recorded, found.test_set), ("this run", fingerprint, test_set)
            )
        ):
            return problem
    return None


def _write_data(item: FolderRun, options: FinishOptions) -> tuple[FinishedFolder, RunFolder, list[Verdict]]:
    """The folder's data files and scans, and the folder as readers will read it (held in memory)."""
    write_data_files(item.run, item.test_set, item.folder)
    for name, text in item.files:
        write_text_atomically(item.folder / name, text)
    folder = folder_in_memory(item.run, item.test_set, item.folder)
    done = FinishedFolder(item.folder, folder.run, item.test_set, item.label)
    evidence = item.folder / LAYOUT.evidence
    shown = f", evidence in {evidence}" if evidence.is_dir() else ""
    done.lines.append(f"outputs: {item.folder / LAYOUT.run_json}, {item.folder / LAYOUT.results_csv}{shown}")
    verdicts = []
    if options.scanners:  # before the report, which shows the findings
        scanned = scan_run_folder(folder, options.scanners)
        done.lines.append(scan_line(scanned))
        if (grouped := scanned.failures_by_finding()) is not None:
            done.lines.append(f"scans: {grouped}")
        verdicts.append(scan_verdict(scanned, options.finding_gates))
    return done, folder, verdicts


def _write_views(
    item: FolderRun,
    done: FinishedFolder,
    folder: RunFolder,
    notices: Sequence[str],
    options: FinishOptions,
    verdicts: list[Verdict],
) -> None:
    """The folder's report (with the history's notices), JUnit and comparison; its verdict."""
    report = done.folder / LAYOUT.report_html
    write_text_atomically(report, run_report_html(folder, notices=notices))
    done.lines.append(f"HTML report: {report}")
    if options.junit is not None:
        junit = surface_file(options.junit, done.label)
        write_junit(item.junit_run or folder.run, junit, done.test_set)
        done.lines.append(f"JUnit XML: {junit}")
    if options.judge_runs:
        verdicts.append(run_verdict(folder.run, options.gates, label=done.label))
    if options.baseline is not None:
        baseline = baseline_folder(options.baseline, done.label)
        try:
            done.comparison = compare_folders(baseline, folder, allow_other_set=options.allow_other_set)
        except CompareError as exc:  # checked before the run; a baseline that went away meanwhile
            done.lines.append(f"no comparison: {exc}")
        else:
            html, markdown = done.folder / LAYOUT.comparison_html, done.folder / LAYOUT.comparison_md
            write_text_atomically(
                html, comparison_html(done.comparison, baseline_label=str(baseline), candidate_label=str(done.folder))
            )
            write_text_atomically(markdown, comparison_markdown(done.comparison))
            done.lines.append(f"comparison with {baseline}: {html}, {LAYOUT.comparison_md}")
            verdicts.append(regression_verdict(done.comparison, baseline, options.gates, label=done.label))
    done.verdict = worst(verdicts)


def _markdown(finished: Sequence[FinishedFolder]) -> str:
    """One Markdown summary for every surface (each headed by its label when there are several)."""
    return "\n".join(run_summary_markdown(item.run, label=item.label) + _findings_markdown(item) for item in finished)


def _findings_markdown(item: FinishedFolder) -> str:
    """One line of the scanners' findings under a surface's summary; empty when the folder was not scanned."""
    scans = read_findings(item.folder)
    if not scans.scanners:
        return ""
    counts = ", ".join(f"{name} {n}" for name, n in scans.counts().items() if n) or "none"
    return f"\nFindings of the transcript scanners (verdicts unchanged): {counts}.\n"


def _record(folders: Sequence[RunFolder], options: FinishOptions, done: Finished) -> list[tuple[str, ...]]:
    """Record the folders in the history (a problem is a warning, never a failure); each folder's notices."""
    if options.no_history or not folders:
        return [() for _ in folders]
    note = record_after_run(folders, history=options.history, source=options.source)
    if note is None:
        return [() for _ in folders]
    (done.history_lines if note.ok else done.history_warnings).append(note.line)
    return list(note.notices) if note.ok else [() for _ in folders]


def _gate(folders: Sequence[RunFolder], gate: FolderGate, done: Finished) -> Verdict:
    """Run the gate over the folders the history now holds; ``gate.md`` goes into the (one) folder."""
    outcome = gate(folders)
    done.gate_lines.extend(outcome.lines)
    if outcome.markdown is not None and folders:
        path = write_text_atomically(folders[0].folder / LAYOUT.gate_md, outcome.markdown)
        done.gate_lines.append(f"gate report: {path} (post it with `copilot-eval comment {path}`)")
    return outcome.verdict


def finish_run_folders(
    runs: Sequence[FolderRun],
    options: FinishOptions = FinishOptions(),
    *,
    beside: Sequence[tuple[Path, str]] = (),
    met: Sequence[Verdict] = (),
) -> Finished:
    """Write every file of every folder of one command (one per surface), once each, and decide its verdict.

    ``beside`` are files next to the folders (several surfaces' ``comparison.json``), written before
    the run.json files. ``met`` are verdicts the command reached before finishing (studio-eval's
    problem with the platform, attack's figures): the one verdict returned is the worst of them and
    the folders'. The history records every folder at once, before the reports (which show its
    notices); a problem recording it is a warning, never a failure. ``options.markdown`` ``-``
    returns the summary in ``Finished.markdown`` for the caller to print.
    """
    written = [_write_data(item, options) for item in runs]
    folders = [folder for _, folder, _ in written]
    done = Finished([item for item, _, _ in written], PASSED)
    notices = _record(folders, options, done)
    for run, (item, folder, verdicts), shown in zip(runs, written, notices, strict=True):
        _write_views(run, item, folder, shown, options, verdicts)
    finished = done.folders
    if finished and (ab := ab_line([(item.label, item.run) for item in finished])) is not None:
        finished[-1].lines.append(ab)
    verdicts = [*met, *(item.verdict for item in finished)]
    if options.markdown == STDOUT:
        done.markdown = _markdown(finished)
    elif options.markdown:
        write_text_atomically(Path(options.markdown), _markdown(finished))
        for item in finished:
            item.lines.append(f"Markdown summary: {options.markdown}")
    if options.gate is not None:
        verdicts.append(_gate(folders, options.gate, done))
    for path, text in beside:
        write_text_atomically(path, text)
    for folder in folders:  # last: run.json's presence means the folder is complete
        write_run_json(folder)
    done.verdict = worst(verdicts)
    return done


__all__ = [
    "COMPARISON_HTML",
    "COMPARISON_MD",
    "STDOUT",
    "FinishOptions",
    "Finished",
    "FinishedFolder",
    "FolderGate",
    "FolderRun",
    "GateOutcome",
    "baseline_folder",
    "baseline_problem",
    "finish_options",
    "finish_run_folders",
    "surface_file",
]
