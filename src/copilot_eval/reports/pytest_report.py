"""`pytest --copilot-report report.html`: what a pytest session collects for its HTML report.

The plugin registers one :class:`SessionReport` per session; the ``copilot_eval`` fixture and the
test-set items hand it each run's evidence, pytest's own hook hands it each test's outcome, and
at the end of the session the page is written (atomically) in one go.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.evidence.result import result_to_dict
from copilot_eval.reports.html_session import session_report_html

REPORT_KEY = pytest.StashKey["SessionReport"]()


@dataclass
class TestRecord:
    """One test of the session: its outcome, time, failure text, and the evidence of its runs."""

    nodeid: str
    outcome: str = "passed"
    duration_s: float = 0.0
    failure: str | None = None
    evidence: list[tuple[dict[str, Any], str | None]] = field(default_factory=list)
    cases: list[tuple[Any, Any]] = field(default_factory=list)  # (EvalTestCase, EvalCaseResult) of test-set items

    __test__ = False  # not a test class, whatever its name says


class SessionReport:
    """Collects the session's tests and writes the HTML report when the session ends."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tests: dict[str, TestRecord] = {}

    def _record(self, nodeid: str) -> TestRecord:
        return self.tests.setdefault(nodeid, TestRecord(nodeid))

    def add_result(self, nodeid: str, result: Any, saved: Path | None) -> None:
        """One CopilotResult a test produced, and where its evidence file was saved (if it was)."""
        self._record(nodeid).evidence.append((result_to_dict(result), str(saved) if saved else None))

    def add_case_results(self, nodeid: str, cases: Any, results: Any) -> None:
        """The graded cases of a test-set item."""
        self._record(nodeid).cases.extend(zip(cases, results, strict=False))

    def link(self, saved: str | None) -> str | None:
        """A link from the report to a saved evidence file, relative when it can be."""
        if not saved:
            return None
        try:
            return Path(os.path.relpath(saved, self.path.resolve().parent)).as_posix()
        except ValueError:  # another drive on Windows
            return Path(saved).resolve().as_uri()

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Fold setup, call and teardown into one outcome: a broken setup or teardown is an error."""
        record = self._record(report.nodeid)
        record.duration_s += report.duration
        if report.failed:
            record.outcome = "failed" if report.when == "call" else "error"
            record.failure = (record.failure + "\n\n" if record.failure else "") + report.longreprtext
        elif report.skipped and record.outcome == "passed":
            record.outcome = "skipped"
            longrepr = report.longrepr
            # A skip's longrepr is (file, line, "Skipped: reason"): the reason is what a reader wants.
            record.failure = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else report.longreprtext

    @pytest.hookimpl
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Write the report."""
        write_text_atomically(self.path, session_report_html(self))

    @pytest.hookimpl
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Name the report file at the end of the output."""
        terminalreporter.write_line(f"copilot-eval report: {self.path}")


def register_session_report(config: pytest.Config, path: str | Path) -> None:
    """Create the session's report collector and register its hooks."""
    report = SessionReport(Path(path))
    config.stash[REPORT_KEY] = report
    config.pluginmanager.register(report, "copilot-eval-report")


def session_report(config: pytest.Config) -> SessionReport | None:
    """The session's report collector, or None when no report was asked for."""
    return config.stash.get(REPORT_KEY, None)


__all__ = ["REPORT_KEY", "SessionReport", "TestRecord", "register_session_report", "session_report"]
