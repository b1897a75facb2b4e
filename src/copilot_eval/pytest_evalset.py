"""Test sets as pytest items: ``pytest knowledge.csv --copilot-agent agent.yaml``.

Registered by the plugin only when ``--copilot-agent`` is given, so without it a CSV file is
ignored as before. A CSV becomes a test set only when its header (after any comment block) is one
of the import templates (see ``looks_like_test_set``); any other CSV is the user's data and is
left alone. A prompt file (``*.prompt.yml`` / ``*.prompt.yaml``) is a test set too, one item per
``testData`` row named by its case key, graded by the file's own evaluators (plus any
``--copilot-grader``), with the agent's model or else the file's. Such a file that cannot be read is a collection error, never silence. Preparation is
``runs.prepare``'s and playing and grading ``run_unit``'s, exactly as in ``copilot-eval run``; this
module only maps results onto pytest outcomes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalTestCase, looks_like_test_set
from copilot_eval.evalsets.prompt_cases import parse_variables
from copilot_eval.evalsets.set_kind import SetKind, kind_by_name
from copilot_eval.pytest_budget import with_budgets
from copilot_eval.pytest_otel import EXPORTER_KEY
from copilot_eval.pytest_triggers import TriggerSetFile, is_trigger_set_name

# The plugin imports this module in every pytest session, for its options; the run layers, the runtime and the reports
# (hundreds of modules) are imported inside the functions that play a test set, each marked "on use".

NOT_AN_AGENT_FAILURE = "(not an agent failure)"


@dataclass
class EvalSetSettings:
    """What every test-set item needs: the agent, the graders, where evidence goes, and a tally.

    ``judge``, ``grader_specs``, ``judge_repeat`` and ``pass_scores`` build a prompt file's graders,
    which come from the file itself.
    """

    agent: Any
    graders: list[Any]
    evidence_dir: Path | None
    tally: Counter[str]
    judge: Any = None
    grader_specs: list[str] | None = None
    judge_repeat: int = 1
    pass_scores: list[str] | None = None
    variables: dict[str, str] | None = None


SETTINGS_KEY = pytest.StashKey[EvalSetSettings]()


def add_options(group: Any) -> None:
    """The options that turn test-set CSV files into test items."""
    group.addoption(
        "--copilot-agent",
        default=None,
        metavar="AGENT.yaml",
        help="agent file to evaluate; with it, test-set CSV files are collected as tests",
    )
    group.addoption(
        "--copilot-grader",
        action="append",
        default=None,
        metavar="SPEC",
        help="grader spec for test-set items, repeatable (as `copilot-eval run --grader`; default similarity)",
    )
    group.addoption(
        "--copilot-judge",
        default=None,
        metavar="JUDGE.yaml",
        help="judge agent file for the LLM graders of test-set items",
    )
    group.addoption(
        "--copilot-judge-repeat",
        type=int,
        default=1,
        metavar="J",
        help="ask each LLM judge J times per answer (as `copilot-eval run --judge-repeat`)",
    )
    group.addoption(
        "--copilot-var",
        action="append",
        default=None,
        metavar="NAME=VALUE",
        help="a value for the {{NAME}} placeholders of prompt files (as `copilot-eval run --var`), repeatable",
    )
    group.addoption(
        "--copilot-prompt-pass-score",
        action="append",
        default=None,
        metavar="[NAME=]MARK",
        help="a prompt file's LLM evaluators pass at this share of the top score (as `copilot-eval run "
        "--prompt-pass-score`)",
    )


def configure(config: pytest.Config, evidence_dir: Path | None) -> None:
    """Load the agent, judge and graders once, or stop the session with a usage error naming the option."""
    # on use (see the top): the run layers
    from copilot_eval.runs.prepare import PYTEST_OPTIONS, PrepareError, build_graders, load_agent

    specs = config.getoption("--copilot-grader")
    try:
        variables = parse_variables(config.getoption("--copilot-var"), option="--copilot-var")
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    try:
        agent = load_agent(config.getoption("--copilot-agent"), option=PYTEST_OPTIONS.agent)
        judge_path = config.getoption("--copilot-judge")
        judge = load_agent(judge_path, option=PYTEST_OPTIONS.judge) if judge_path else None
        graders = build_graders(
            specs, judge=judge, options=PYTEST_OPTIONS, judge_repeat=config.getoption("--copilot-judge-repeat")
        )
    except PrepareError as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[SETTINGS_KEY] = EvalSetSettings(
        with_budgets(agent, config),
        graders,
        evidence_dir,
        Counter(),
        judge=judge,
        grader_specs=specs,
        judge_repeat=config.getoption("--copilot-judge-repeat"),
        pass_scores=config.getoption("--copilot-prompt-pass-score"),
        variables=variables,
    )
    config.pluginmanager.register(EvalSetCollector(), "copilot-eval-evalset")


class EvalSetCollector:
    """The hooks, registered only when ``--copilot-agent`` is given."""

    def pytest_collect_file(self, file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
        """Collect a CSV whose header is a test-set template, a prompt file and a trigger set; leave every other file alone."""
        if is_trigger_set_name(file_path):
            return TriggerSetFile.from_parent(parent, path=file_path, settings=parent.config.stash[SETTINGS_KEY])
        # By name first (evalsets.set_kind), as every file of the project passes here: a CSV only with a
        # test-set header (any other CSV is the user's data), a prompt file only by its *.prompt.yml name.
        kind = kind_by_name(file_path)
        if kind is SetKind.PROMPT or (kind is SetKind.CSV and looks_like_test_set(file_path)):
            return EvalSetFile.from_parent(parent, path=file_path)
        return None

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Count agent failures and not-graded items apart, as `copilot-eval run` does."""
        tally = terminalreporter.config.stash[SETTINGS_KEY].tally
        if tally:
            # on use (see the top): the run layers
            from copilot_eval.runs.gates import tally_verdict

            not_graded = tally["error"] + tally["unknown"]
            terminalreporter.write_line(
                f"copilot-eval test sets: {tally['pass']} passed, {tally['fail']} failed (agent), "
                f"{not_graded} not graded {NOT_AN_AGENT_FAILURE}"
            )
            # The same row `copilot-eval run` would exit with for these facts (docs/evaluation-runs.md#exit-codes).
            verdict = tally_verdict(passed=tally["pass"], failed=tally["fail"], not_graded=not_graded)
            if (line := verdict.line()) is not None:
                terminalreporter.write_line(f"copilot-eval verdict: {line}")


class EvalSetFile(pytest.File):
    """One test-set CSV: an item per case (SingleTurn) or one item per conversation."""

    def collect(self) -> Iterator[pytest.Item]:
        """Read and validate the file once; a set that cannot be used is a collection error listing every problem."""
        # on use (see the top): the run layers
        from copilot_eval.runs.eval_runner import plan_units
        from copilot_eval.runs.prepare import PYTEST_OPTIONS, PrepareError, check_graders_fit, read_test_set

        settings = self.config.stash[SETTINGS_KEY]
        try:
            variables = settings.variables if kind_by_name(self.path) is SetKind.PROMPT else None
            test_set = read_test_set(self.path, variables=variables, options=PYTEST_OPTIONS)
            agent, graders = self._agent_and_graders(settings, test_set)
            check_graders_fit(test_set, graders, self.path)
        except PrepareError as exc:
            # A collection error, like a test module that does not import: the file cannot become
            # tests, nothing of it runs, and it is counted neither as a pass nor as an agent failure.
            raise self.CollectError(str(exc)) from None
        for unit in plan_units(test_set, 1):
            # conversation3 -> conversation-3, case3 -> case-3, case3.2 -> case-3.2; a prompt file's row by its case key
            name = unit.key.removesuffix("#0").replace("conversation", "conversation-", 1).replace("case", "case-", 1)
            if unit.cases[0].case_key is not None:
                name = _item_name(unit.cases[0].case_key)
            item = EvalSetItem.from_parent(self, name=name, cases=unit.cases, turns=unit.turn_numbers())
            item.test_set = test_set  # the history records a set's items as one run of that set
            item.agent, item.graders = agent, graders
            yield item

    @staticmethod
    def _agent_and_graders(settings: EvalSetSettings, test_set: Any) -> tuple[Any, list[Any]]:
        """The set's agent and graders, built by the builders `copilot-eval run` uses (``runs.prepare``)."""
        # on use (see the top): the run layers
        from copilot_eval.runs.prepare import PYTEST_OPTIONS, build_set_graders, graders_for_set, set_agent

        agent = set_agent(test_set, settings.agent, options=PYTEST_OPTIONS)
        if test_set.prompt_file is None:  # the session's graders, built once at configure (rows may name their own)
            graders = graders_for_set(
                test_set, settings.graders, judge=settings.judge, judge_repeat=settings.judge_repeat
            )
            return agent, graders
        graders = build_set_graders(
            test_set,
            settings.grader_specs,
            judge=settings.judge,
            options=PYTEST_OPTIONS,
            judge_repeat=settings.judge_repeat,
            pass_scores=settings.pass_scores,
        )
        return agent, graders


def _item_name(case_key: str) -> str:
    """A prompt file's row as a test name: its case key, on one line, without pytest's ``::`` separator."""
    return " ".join(case_key.split()).replace("::", ":") or case_key


class EvalCaseFailed(AssertionError):
    """The agent answered and a grader failed it: the agent's failure."""


class EvalCaseNotGraded(Exception):
    """The item could not be graded (runtime failure, no answer, a judge that broke): never the agent's failure."""


class EvalSetItem(pytest.Item):
    """One session of a test set: a single case, or a whole conversation, played and graded."""

    exports_itself = True  # with --copilot-otel-endpoint: a trace per case, with each grader's verdict

    def __init__(self, *, cases: Sequence[EvalTestCase], turns: Sequence[int] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cases = tuple(cases)
        self.turns = tuple(turns)
        self.test_set: Any = None
        self.agent: Any = None  # None: the settings' agent and graders
        self.graders: list[Any] | None = None

    def runtest(self) -> None:
        """Play the unit on the runtime host, save its evidence, and map the verdict to an outcome."""
        # on use (see the top): the grading, report and run layers and the runtime host
        from copilot_eval.grading.combine import combined_status
        from copilot_eval.reports.evidence_names import evidence_file_name
        from copilot_eval.runs.case_runner import Unit, grade_unit, play_unit
        from copilot_eval.runtime.process.host import runtime_host

        settings = self.config.stash[SETTINGS_KEY]
        # The unit key names the evidence file: the node id keeps two sets' case 3 apart.
        unit = Unit(evidence_file_name(self.nodeid).removesuffix(".json"), self.cases, 0, self.turns)
        agent = self.agent if self.agent is not None else settings.agent
        graders = self.graders if self.graders is not None else settings.graders
        evidence = runtime_host().run_sync(play_unit(unit, agent))
        results = runtime_host().run_sync(grade_unit(unit, evidence, graders, evidence_dir=settings.evidence_dir))
        if (exporter := self.config.stash.get(EXPORTER_KEY, None)) is not None:
            for index, (case, result) in enumerate(zip(self.cases, results, strict=True)):
                test_set = getattr(self.test_set, "name", None)
                exporter.export_case(case, result, evidence, turn_index=index, test_set=test_set)
        # on use (see the top): the report layers and rich
        from copilot_eval.reports.pytest_report import session_report

        if (report := session_report(self.config)) is not None:
            report.add_case_results(self.nodeid, self.cases, results)
        if self.test_set is not None and self.config.getoption("--copilot-history", default=False):
            # on use, only with --copilot-history: the history and the run layers
            from copilot_eval.pytest_history import session_history
            from copilot_eval.runs.target import runtime_agent

            if (history := session_history(self.config)) is not None:
                agent_name = getattr(settings.agent, "name", None)
                history.add_case_results(
                    self.nodeid,
                    self.test_set,
                    results,
                    agent_name=agent_name,
                    platform_answers=runtime_agent(agent) is None,
                )
        # The precedence of combine_grades: a definite fail is the agent's, whatever else happened.
        status = combined_status(result.effective_status for result in results)
        settings.tally[status.value] += 1
        self.user_properties.append(("copilot_eval_status", status.value))
        if results and results[0].evidence_path:
            self.user_properties.append(("copilot_eval_evidence", results[0].evidence_path))
        if status is CaseStatus.FAIL:
            raise EvalCaseFailed(self._explain(results, "failed"))
        if status is not CaseStatus.PASS:
            # Outcome: a failed test, not pytest's "error" (that one means a broken fixture or
            # setup) and never a skip (that would hide it). The run must not go green when the
            # platform failed, and the ERROR prefix plus the summary line say it is not the agent.
            cause = next(r.failure_reason for r in results if r.effective_status is status)
            raise EvalCaseNotGraded(
                f"{status.value.upper()} {NOT_AN_AGENT_FAILURE}: {cause}\n" + self._explain(results, "was not graded")
            )

    def _explain(self, results: list[EvalCaseResult], verb: str) -> str:
        # on use (see the top): the report layers and rich
        from copilot_eval.reports.failure_text import describe_unit

        return describe_unit(self.cases, results, verb)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | Any:
        """Our own verdicts print as their message, without a traceback into the plugin."""
        if isinstance(excinfo.value, (EvalCaseFailed, EvalCaseNotGraded)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)


__all__ = ["EvalCaseFailed", "EvalCaseNotGraded", "EvalSetFile", "EvalSetItem", "add_options", "configure"]
