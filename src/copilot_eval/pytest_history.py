"""``pytest --copilot-history``: a pytest session's agent tests become runs in the history.

Registered by the plugin only with ``--copilot-history``. What is recorded:

- every test-set file whose items ran (``--copilot-agent``) becomes one run of that test set,
  summarised as ``copilot-eval run`` summarises one (counts, limitation detection), so its cases
  line up with the CLI's runs of the same set and agent;
- the tests that ran an agent through the ``copilot_eval`` or ``ab_run`` fixture become one run
  named ``pytest <rootdir name>``, a case per test (its node id): passed is pass, a failed
  assertion is fail, a failure in setup or teardown is error, and so is a failed test in which a
  session did not execute (a runtime failure is not the agent's). Skipped tests were not played
  and are left out. Tests that ran no agent are not the history's business.

As after ``copilot-eval run``, a problem writing the history is one warning line naming the
database; it never changes the session's outcome.
"""

from __future__ import annotations

import dataclasses
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from copilot_eval.history import CaseRecord, HistoryNote, HistoryStore, RunRecord, detect_provenance, resolve_history
from copilot_eval.history.from_folder import record_from_folder
from copilot_eval.history.records import SOURCE_PYTEST
from copilot_eval.reports.html_session import session_anchor
from copilot_eval.reports.run_folder import RunFolder
from copilot_eval.runs import summarise

HISTORY_KEY = pytest.StashKey["HistoryRecorder"]()


@dataclasses.dataclass
class _AgentTest:
    """What one test's agent runs left: per run (tokens, premium, model, executed, error, evidence, agent)."""

    runs: list[tuple[Any, ...]] = dataclasses.field(default_factory=list)
    outcome: str | None = None
    reason: str | None = None
    duration_ms: float = 0.0


def _sum_known(values: list[Any]) -> Any:
    return None if not values or any(v is None for v in values) else sum(values)


class HistoryRecorder:
    """Collects the session's agent tests and test-set items and records them when the session ends."""

    def __init__(self, config: pytest.Config, history: str | None) -> None:
        self.config, self.history = config, history
        self.started, self.clock = datetime.now(UTC), time.monotonic()
        self.tests: dict[str, _AgentTest] = defaultdict(_AgentTest)
        self.sets: dict[str, tuple[Any, list[tuple[str, Any]]]] = {}  # set name -> (test set, [(nodeid, result)])
        self.set_agent: str | None = None  # the --copilot-agent the test-set items were played against
        self.platform_answers = True  # whether a platform could answer in that agent's place (runs.limitation)
        self.note: Any = None

    def add_result(self, nodeid: str, result: Any, saved: Path | None) -> None:
        """One CopilotResult a test produced through a fixture, and its evidence file."""
        model = result.model_used or (result.configuration or {}).get("model")
        self.tests[nodeid].runs.append(
            (
                result.total_tokens,
                result.total_premium_requests,
                model,
                result.success,
                result.error,
                str(saved) if saved else None,
                result.agent_name,
            )
        )

    def add_case_results(
        self, nodeid: str, test_set: Any, results: Any, *, agent_name: str | None, platform_answers: bool = True
    ) -> None:
        """The graded cases of one test-set item, played against the agent named ``agent_name``
        (``platform_answers``: False for an agent on the local runtime, see ``runs.limitation``)."""
        self.set_agent, self.platform_answers = agent_name, platform_answers
        _, rows = self.sets.setdefault(test_set.name, (test_set, []))
        rows.extend((nodeid, result) for result in results)

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Fold setup, call and teardown into one outcome for the tests that ran an agent."""
        if report.nodeid not in self.tests:
            return
        test = self.tests[report.nodeid]
        test.duration_ms += report.duration * 1000
        if report.failed:
            test.outcome = "fail" if report.when == "call" and test.outcome != "error" else "error"
            lines = [line for line in report.longreprtext.splitlines() if line.strip()]
            if test.reason is None and lines:
                test.reason = lines[-1].strip()[:500]  # pytest ends a failure with its one-line cause
        elif report.skipped:
            test.outcome = test.outcome or "skipped"
        elif report.when == "call" and test.outcome is None:
            test.outcome = "pass"

    def _report(self) -> str | None:
        report = self.config.getoption("--copilot-report", default=None)
        return str(Path(report).resolve()) if report else None

    def _set_records(self) -> list[Any]:
        records = []
        for test_set, rows in self.sets.values():
            run = summarise(
                test_set,
                [result for _, result in rows],
                agent_name=self.set_agent,
                started=self.started,
                duration_ms=(time.monotonic() - self.clock) * 1000,
                platform_answers=self.platform_answers,
            )
            record = record_from_folder(RunFolder(self.config.rootpath, run, test_set), source=SOURCE_PYTEST)
            nodes = {r.key: nodeid for nodeid, r in rows}
            cases = [dataclasses.replace(c, report_anchor=session_anchor(nodes[c.key])) for c in record.cases]
            records.append(dataclasses.replace(record, cases=cases, run_folder=None, report_path=self._report()))
        return records

    def _test_record(self) -> Any:
        cases = []
        for nodeid, test in self.tests.items():
            if test.outcome in (None, "skipped"):
                continue
            status, reason = test.outcome, test.reason
            broken = next((run for run in test.runs if not run[3]), None)
            if status == "fail" and broken is not None:
                status, reason = "error", f"a session did not execute: {broken[4]}"
            models = {run[2] for run in test.runs if run[2]}
            cases.append(
                CaseRecord(
                    key=nodeid,
                    status=status,
                    reason=reason,
                    duration_ms=round(test.duration_ms, 1),
                    session_tokens=_sum_known([run[0] for run in test.runs]),
                    session_premium_requests=_sum_known([run[1] for run in test.runs]),
                    evidence_path=next((run[5] for run in test.runs if run[5]), None),
                    identity=(", ".join(sorted(models)) or None,),
                )
            )
        if not cases:
            return None
        counts = {name: sum(case.status == name for case in cases) for name in ("pass", "fail", "error")}
        graded = counts["pass"] + counts["fail"]
        agents = {run[6] for test in self.tests.values() for run in test.runs if run[6]}
        models = {case.identity[0] for case in cases if case.identity[0]}
        return RunRecord(
            test_set_name=f"pytest {self.config.rootpath.name}",
            source=SOURCE_PYTEST,
            passed=counts["pass"],
            failed=counts["fail"],
            errored=counts["error"],
            not_graded=0,
            score_percent=round(100 * counts["pass"] / graded, 2) if graded else None,
            cases=cases,
            agent_name=next(iter(agents)) if len(agents) == 1 else None,
            agent_model=", ".join(sorted(models)) or None,
            run_at=self.started,
            duration_ms=round((time.monotonic() - self.clock) * 1000, 1),
            report_path=self._report(),
        )

    @pytest.hookimpl
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Record the session's runs (a problem becomes the warning printed in the summary)."""
        display = "the history database"
        try:
            location = resolve_history(
                self.history, option="--copilot-history-url", project_dir=session.config.rootpath
            )
            if location is None:
                return
            display = location.display
            records = [*self._set_records(), *filter(None, [self._test_record()])]
            if not records:
                return
            provenance = detect_provenance(session.config.rootpath)
            with HistoryStore.open(location) as store:
                outcomes = [store.add(dataclasses.replace(r, provenance=provenance)) for r in records]
            ids = ", ".join(str(outcome.run_id) for outcome in outcomes)
            self.note = HistoryNote(f"copilot-eval history: recorded as run {ids} in {display}", True)
        except Exception as exc:  # the history is a by-product: it never changes the session's outcome
            reason = str(exc).removeprefix(f"{display}: ")
            self.note = HistoryNote(
                f"warning: the session was not recorded in the history ({display}): {reason}", False
            )

    @pytest.hookimpl
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Say where the session was recorded, or the one warning."""
        if self.note is not None:
            terminalreporter.write_line(self.note.line, yellow=not self.note.ok)


def register_history(config: pytest.Config) -> None:
    """Create the session's history recorder and register its hooks."""
    recorder = HistoryRecorder(config, config.getoption("--copilot-history-url", default=None))
    config.stash[HISTORY_KEY] = recorder
    config.pluginmanager.register(recorder, "copilot-eval-history")


def session_history(config: pytest.Config) -> HistoryRecorder | None:
    """The session's history recorder, or None without ``--copilot-history``."""
    return config.stash.get(HISTORY_KEY, None)


__all__ = ["HISTORY_KEY", "HistoryRecorder", "register_history", "session_history"]
