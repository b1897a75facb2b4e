"""One way to finish a run folder: every command that writes one ends here, with the verdict it exits by.

``run`` (one agent or several), ``merge``, ``studio-eval run|get``, ``analyze`` and ``regrade``
each produce one or more runs (one per surface); ``finish_run_folders`` completes each folder the
same way: ``run.json`` with its schemaVersion, ``results.csv`` and ``test-set.json`` (run.json
last), ``report.html``, JUnit XML and a Markdown summary when asked (one JUnit file per surface,
``NAME-<label>.xml``), a comparison with ``--baseline`` (per surface), the history record unless
``--no-history``, the transcript scanners' ``scans/`` (``--scan``), and the verdict of ``runs.gates`` over every surface (the worst one's). Evidence
files are the writer's: they are already in the folder (``evidence/``) when it is finished.

Every reader (report, compare, merge, regrade, the history) reads what this wrote, through
``reports.run_folder``, so a folder is a run folder whichever command made it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.evalsets import EvalRun, EvalSetError, EvalTestSet
from copilot_eval.exit_codes import PASSED, Verdict, worst
from copilot_eval.history.ingest import record_after_run
from copilot_eval.history.records import SOURCE_RUN
from copilot_eval.reports.compare import RunComparison
from copilot_eval.reports.compare_views import comparison_html, comparison_markdown
from copilot_eval.reports.findings import read_findings
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.html_run import REPORT_HTML, run_report_html
from copilot_eval.reports.junit import write_junit
from copilot_eval.reports.markdown import run_summary_markdown
from copilot_eval.reports.run_comparison import CompareError, compare_folders
from copilot_eval.reports.run_files import write_run_outputs
from copilot_eval.reports.run_folder import RESULTS_CSV, RUN_JSON, read_run_folder
from copilot_eval.reports.set_match import other_set_problem
from copilot_eval.runs.gates import Gates, regression_verdict, run_verdict
from copilot_eval.runs.played_agent import ab_line
from copilot_eval.scans.folder import scan_line, scan_run_folder, scan_verdict
from copilot_eval.scans.protocol import Scanner

COMPARISON_HTML = LAYOUT.comparison_html
COMPARISON_MD = LAYOUT.comparison_md
STDOUT = "-"
"""``--markdown -``: the summary goes to stdout (``$GITHUB_STEP_SUMMARY``) instead of a file."""


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


@dataclass(frozen=True)
class FolderRun:
    """A run to finish: its folder, the run and the set it played, and its surface's label (None: one agent)."""

    folder: Path
    run: EvalRun
    test_set: EvalTestSet
    label: str | None = None


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


def surface_file(path: Path, label: str | None) -> Path:
    """A surface's own file beside ``path``: ``junit.xml`` -> ``junit-<label>.xml`` (``path`` itself for one agent)."""
    if label is None:
        return path
    return path.with_name(f"{path.stem}-{label}{path.suffix or '.xml'}")


def baseline_folder(baseline: Path, label: str | None) -> Path:
    """The baseline a surface is compared with: ``baseline/<label>`` when that holds a run, else ``baseline``."""
    if label is not None and (baseline / label / RUN_JSON).is_file():
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


def _finish_one(item: FolderRun, options: FinishOptions) -> FinishedFolder:
    """The folder's files (data, report, JUnit, comparison) and its verdict; the history is recorded for all at once."""
    write_run_outputs(item.run, item.test_set, item.folder)
    folder = read_run_folder(item.folder)  # the report reads the folder as every reader does
    done = FinishedFolder(item.folder, folder.run, item.test_set, item.label)
    evidence = f", evidence in {item.folder / 'evidence'}" if (item.folder / "evidence").is_dir() else ""
    done.lines.append(f"outputs: {item.folder / RUN_JSON}, {item.folder / RESULTS_CSV}{evidence}")
    verdicts = []
    if options.scanners:  # before the report, which shows the findings
        scanned = scan_run_folder(item.folder, options.scanners)
        done.lines.append(scan_line(scanned))
        if (grouped := scanned.failures_by_finding()) is not None:
            done.lines.append(f"scans: {grouped}")
        verdicts.append(scan_verdict(scanned, options.finding_gates))
    write_text_atomically(item.folder / REPORT_HTML, run_report_html(folder))
    done.lines.append(f"HTML report: {item.folder / REPORT_HTML}")
    if options.junit is not None:
        junit = surface_file(options.junit, item.label)
        write_junit(folder.run, junit, item.test_set)
        done.lines.append(f"JUnit XML: {junit}")
    verdicts.append(run_verdict(folder.run, options.gates, label=item.label))
    if options.baseline is not None:
        baseline = baseline_folder(options.baseline, item.label)
        try:
            done.comparison = compare_folders(baseline, item.folder, allow_other_set=options.allow_other_set)
        except CompareError as exc:  # checked before the run; a baseline that went away meanwhile
            done.lines.append(f"no comparison: {exc}")
        else:
            write_text_atomically(
                item.folder / COMPARISON_HTML,
                comparison_html(done.comparison, baseline_label=str(baseline), candidate_label=str(item.folder)),
            )
            write_text_atomically(item.folder / COMPARISON_MD, comparison_markdown(done.comparison))
            done.lines.append(f"comparison with {baseline}: {item.folder / COMPARISON_HTML}, {COMPARISON_MD}")
            verdicts.append(regression_verdict(done.comparison, baseline, options.gates, label=item.label))
    done.verdict = worst(verdicts)
    return done


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


def finish_run_folders(runs: Sequence[FolderRun], options: FinishOptions = FinishOptions()) -> Finished:
    """Finish every folder of one command (one per surface) and decide the verdict it exits by.

    The history records every folder at once (after the files exist, so it keeps the report's path);
    a problem recording it is a warning, never a failure. ``options.markdown`` ``-`` returns the
    summary in ``Finished.markdown`` for the caller to print.
    """
    finished = [_finish_one(item, options) for item in runs]
    if finished and (ab := ab_line([(item.label, item.run) for item in finished])) is not None:
        finished[-1].lines.append(ab)
    done = Finished(finished, worst(item.verdict for item in finished))
    if options.markdown == STDOUT:
        done.markdown = _markdown(finished)
    elif options.markdown:
        write_text_atomically(Path(options.markdown), _markdown(finished))
        for item in finished:
            item.lines.append(f"Markdown summary: {options.markdown}")
    if not options.no_history and finished:
        note = record_after_run([item.folder for item in finished], history=options.history, source=options.source)
        if note is not None:
            (done.history_lines if note.ok else done.history_warnings).append(note.line)
    return done


__all__ = [
    "COMPARISON_HTML",
    "COMPARISON_MD",
    "STDOUT",
    "FinishOptions",
    "Finished",
    "FinishedFolder",
    "FolderRun",
    "baseline_folder",
    "baseline_problem",
    "finish_run_folders",
    "surface_file",
]
