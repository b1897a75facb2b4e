"""The names of a run folder's files, in one object: the one place they are spelled.

Writers, readers and the history find a folder's files through ``LAYOUT`` (``folder / LAYOUT.run_json``)
so that a file renamed here is renamed everywhere. The older module constants (``RUN_JSON`` in
``reports.run_folder``, ``REPORT_HTML``, ``CHECKPOINT_NAME``, ``COMPARISON_*``) are these names.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FolderLayout:
    """Every file and folder a run folder may hold, by name."""

    run_json: str = "run.json"  # the run record; written last, so its presence means the data files are complete
    results_csv: str = "results.csv"  # the results in the column layout of Copilot Studio's export
    test_set_json: str = "test-set.json"  # the set that was played, so a report shows questions and references
    report_html: str = "report.html"  # the run's report
    checkpoint: str = "checkpoint.jsonl"  # one line per finished unit, for --resume
    evidence: str = "evidence"  # the folder of each session's evidence
    scans: str = "scans"  # the folder of the transcript scanners' findings
    comparison_json: str = "comparison.json"  # several --agent: the surfaces side by side, beside their folders
    comparison_html: str = "comparison.html"  # --baseline: the comparison with the baseline run
    comparison_md: str = "comparison.md"
    gate_md: str = "gate.md"  # run --gate: the gate's verdict in Markdown
    security_json: str = "security.json"  # attack: the suite's figures and every play
    triggers_json: str = "triggers.json"  # triggers (and merge of its shards): the figures, catalogue and plays
    environments: str = "environments"  # attack: each play's environment spec, written by the engine as it plays


LAYOUT = FolderLayout()
"""The layout every run folder has."""

__all__ = ["LAYOUT", "FolderLayout"]
