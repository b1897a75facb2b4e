"""The public names of the package and of each public subpackage, pinned here.

Adding or dropping a public name is a decision: the test fails until ``PUBLIC`` below (and
CHANGELOG.md) say so. Beside the pins: every name resolves and explains itself, each ``__all__``
is sorted the way ruff sorts it, and an eagerly loaded package binds no public name it does not list.
"""

from __future__ import annotations

import importlib
import inspect
import types
from pathlib import Path

import pytest

import copilot_eval

PUBLIC: dict[str, list[str]] = {
    "copilot_eval": [
        "ABResult",
        "ByokProvider",
        "CallTool",
        "ContentItem",
        "CopilotEval",
        "CopilotResult",
        "CustomAgent",
        "FunctionModel",
        "HostRequest",
        "InvalidScriptError",
        "ModelPrice",
        "ModelSource",
        "Recorder",
        "Regex",
        "Replay",
        "RuntimePool",
        "SamplingRequest",
        "ScriptedModel",
        "Step",
        "SubagentInvocation",
        "ToolCall",
        "ToolException",
        "TrajectoryMatch",
        "Turn",
        "UsageEntry",
        "UserAnswer",
        "UserRequest",
        "ab_run",
        "assert_trajectory",
        "redact",
        "register_secret",
        "result_from_events",
        "run_copilot",
        "run_copilot_sync",
        "__version__",
    ],
    "copilot_eval.agent": [
        "AgentFileError",
        "CopilotEval",
        "CustomAgent",
        "load_agent_file",
    ],
    "copilot_eval.capture": [
        "BLOCKING_KINDS",
        "EventLogError",
        "RunFacts",
        "blocking_errors",
        "load_event_log",
        "result_from_events",
    ],
    "copilot_eval.evalsets": [
        "CONVERSATION",
        "COPILOT_STUDIO",
        "COPILOT_STUDIO_MAX_CONVERSATIONS",
        "COPILOT_STUDIO_MAX_CONVERSATION_PAIRS",
        "COPILOT_STUDIO_MAX_QUESTIONS",
        "COPILOT_STUDIO_QUESTION_MAX_LENGTH",
        "DEFAULT_RULE_SET",
        "EVAL_CSV_COLUMNS",
        "EVAL_IMPORT_MAX_BYTES",
        "EVAL_MAX_CONVERSATION_PAIRS",
        "EVAL_REFERENCE_MAX_LENGTH",
        "LEGACY_SINGLE_RESPONSE",
        "RULE_SETS",
        "SEED",
        "SINGLE_RESPONSE",
        "TEMPLATES",
        "CaseRepeatRecord",
        "CaseStatus",
        "Confidence",
        "ConfidenceMixin",
        "Conversation",
        "CsvTemplate",
        "EvalCaseResult",
        "EvalDataType",
        "EvalRun",
        "EvalSetError",
        "EvalSetReadError",
        "EvalSetWriteError",
        "EvalTestCase",
        "EvalTestSet",
        "ExportJoinRecord",
        "ExportedResult",
        "GradeRecord",
        "JudgeTally",
        "LimitationStanding",
        "PlatformRunRecord",
        "RuleSet",
        "SnapshotRecord",
        "check_csv",
        "check_json",
        "csv_text",
        "group_conversations",
        "load_csv",
        "looks_like_test_set",
        "play_groups",
        "preamble_lines",
        "read_csv",
        "read_results_export",
        "read_run_json",
        "read_test_set_json",
        "reference_length",
        "rule_set_named",
        "run_from_json",
        "template_named",
        "test_set_from_json",
        "to_json",
        "turn_numbers",
        "validate_eval_test_set",
        "weakest_confidence",
        "write_csv",
        "write_json",
    ],
    "copilot_eval.evidence": [
        "SCHEMA_VERSION",
        "STOP_REASONS",
        "CaptureError",
        "ContentItem",
        "CopilotResult",
        "DiscoveredSkill",
        "HostRequest",
        "McpServerStatus",
        "ModelPrice",
        "PermissionRecord",
        "RequestAuditRecord",
        "SkillDiscovery",
        "StopReason",
        "SubagentInvocation",
        "ToolCall",
        "ToolException",
        "ToolImage",
        "ToolProgress",
        "Turn",
        "UsageEntry",
        "estimate_cost",
    ],
    "copilot_eval.evidence.trajectory": [
        "ANY",
        "CALL_KINDS",
        "METRICS",
        "AnyValue",
        "CallKind",
        "Equals",
        "MatchMode",
        "Metric",
        "ObservedCall",
        "Regex",
        "Step",
        "StepLike",
        "TrajectoryMatch",
        "assert_trajectory",
        "check_trajectory",
        "match_trajectory",
    ],
    "copilot_eval.grading": [
        "SPEC_FORMS",
        "CapabilityUse",
        "CaseEvidence",
        "CompareMeaning",
        "ExactMatch",
        "GeneralQuality",
        "Grade",
        "Grader",
        "GraderSpecError",
        "KeywordMatch",
        "LabelClassifier",
        "LlmJudge",
        "Normalisation",
        "TextSimilarity",
        "combine_grades",
        "parse_grader_spec",
        "parse_judge_answer",
    ],
    "copilot_eval.history": [
        "DEFAULT_HISTORY_FILE",
        "HISTORY_ENV",
        "JSON_SCHEMA_VERSION",
        "AddOutcome",
        "CaseRecord",
        "HistoryError",
        "HistoryLocation",
        "HistoryLocationError",
        "HistoryNote",
        "HistoryStore",
        "Provenance",
        "RunRecord",
        "SeriesData",
        "SeriesTrends",
        "detect_provenance",
        "ingest_folders",
        "list_runs",
        "load_series",
        "ranked",
        "record_after_run",
        "resolve_history",
        "run_key",
        "runs_document",
        "series_names",
        "series_trends",
        "trends_document",
    ],
    "copilot_eval.models": [
        "NO_RULE_TEXT",
        "NO_TURN_TEXT",
        "AgentConfigError",
        "ByokModel",
        "CallTool",
        "FunctionModel",
        "GitHubModel",
        "InvalidScriptError",
        "LiveModelsForbidden",
        "ModelSource",
        "Recorder",
        "Replay",
        "ScriptedCall",
        "ScriptedEndpoint",
        "ScriptedModel",
        "ScriptedServer",
    ],
    "copilot_eval.models.function": [
        "CallTool",
        "FunctionModel",
    ],
    "copilot_eval.models.replay": [
        "CASSETTE_VERSION",
        "CassetteChooser",
        "CassetteError",
        "Recorder",
        "Replay",
    ],
    "copilot_eval.models.scripted": [
        "NO_RULE_TEXT",
        "NO_TURN_TEXT",
        "PLACEHOLDER_API_KEY",
        "UNUSED_BASE_URL",
        "InvalidScriptError",
        "Rule",
        "ScriptedCall",
        "ScriptedEndpoint",
        "ScriptedHttpError",
        "ScriptedModel",
        "ScriptedServer",
        "ScriptedToolCall",
        "ScriptedTurn",
        "TurnUsage",
    ],
    "copilot_eval.platform_runs": [
        "ExportJoin",
        "ExportJoinError",
        "StudioInputError",
        "StudioOptions",
        "StudioOutcome",
        "case_status",
        "confirm_with_folders",
        "join_export",
        "metric_grade",
        "platform_run",
        "read_studio_run",
        "resolve_test_set",
        "run_from_export",
        "run_from_studio",
        "start_studio_run",
    ],
    "copilot_eval.redaction": [
        "GITHUB_TOKEN_VARIABLES",
        "MIN_SECRET_LENGTH",
        "SHAPE_KINDS",
        "RedactingStream",
        "contains_secret",
        "forget_secrets",
        "is_secret_name",
        "marker",
        "redact",
        "redact_bytes",
        "redact_data",
        "redact_log_record",
        "register_environment_secrets",
        "register_secret",
        "register_server_secrets",
        "registered_secret_names",
    ],
    "copilot_eval.reports": [
        "RESULTS_CSV",
        "RUN_JSON",
        "RUN_SCHEMA_VERSION",
        "RunComparison",
        "RunFolder",
        "compare_runs",
        "comparison_html",
        "comparison_markdown",
        "describe_unit",
        "evidence_file_name",
        "evidence_table",
        "junit_xml",
        "print_summary",
        "read_run_folder",
        "render_result",
        "results_csv_text",
        "run_report_html",
        "run_summary_markdown",
        "summary_table",
        "totals_line",
        "unit_evidence_name",
        "write_junit",
        "write_results_csv",
        "write_run_outputs",
        "write_run_report",
    ],
    "copilot_eval.runs": [
        "CHECKPOINT_NAME",
        "DEFAULT_CONCURRENCY",
        "KNOWN_ERROR_CODES",
        "KNOWN_FALLBACK_TEXTS",
        "CaseRepeats",
        "Checkpoint",
        "CheckpointError",
        "Limitation",
        "Unit",
        "check_references",
        "confirm_limitation",
        "detect_runtime_limitation",
        "flaky_cases",
        "pass_rates",
        "plan_units",
        "platform_error_code",
        "repeat_stats",
        "run_eval_set",
        "run_unit",
        "summarise",
    ],
    "copilot_eval.studio_eval": [
        "API_VERSION",
        "DEFAULT_API_URL",
        "DEFAULT_POLL_S",
        "DEFAULT_TIMEOUT_S",
        "READ_PERMISSION",
        "REPORTED_DAILY_RUNS",
        "WRITE_PERMISSION",
        "AuthenticationError",
        "BadRequestError",
        "LedgerEntry",
        "NotFoundError",
        "Operation",
        "PermissionDeniedError",
        "PublishedRunError",
        "RunInProgressError",
        "RunLedger",
        "RunTimeoutError",
        "ServerError",
        "StudioCaseResult",
        "StudioEvalClient",
        "StudioEvalError",
        "StudioMetricResult",
        "StudioRun",
        "StudioRunStatus",
        "StudioSnapshot",
        "StudioTestSet",
        "StudioTokenError",
        "ThrottledError",
        "TokenProvider",
        "TransportError",
        "UnexpectedResponseError",
        "progress_line",
        "scope_for_api",
        "token_from_env",
        "token_from_login",
        "wait_for_run",
    ],
    "copilot_eval.targets": [
        "Attachment",
        "Citation",
        "CopilotStudioTarget",
        "DirectLineTarget",
        "HttpExchange",
        "StudioAgent",
        "TargetConfigError",
        "TargetResult",
        "TargetTurn",
        "is_target_file",
        "load_target_agent_file",
        "parse_target",
    ],
    "copilot_eval.testing": [
        "FALLBACK_TEXT",
        "FakeAgent",
        "FakeAgentsSdk",
        "FakeDirectLine",
        "FakeStudioEval",
        "FakeTestSet",
        "HttpFault",
        "LoopbackServer",
        "PlannedStep",
        "Reply",
        "Step",
        "answer",
        "case_result",
        "consent_card",
        "end_of_conversation",
        "fallback",
        "grounded",
        "http_error",
        "message",
        "messages",
        "metric_result",
        "no_answer_case",
        "orchestrated",
        "platform_error",
        "silent",
        "slow",
        "typing_stream",
    ],
}

SRC = Path(copilot_eval.__file__).parent


def isort_key(name: str) -> tuple[int, str]:
    """ruff's RUF022 order: SCREAMING_CASE constants, then CamelCase classes, then everything else."""
    if name.isupper():
        return 0, name
    return (1, name) if name[:1].isupper() else (2, name)


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_public_names_are_exactly_the_pinned_ones(module: str) -> None:
    exported = list(importlib.import_module(module).__all__)
    added, dropped = sorted(set(exported) - set(PUBLIC[module])), sorted(set(PUBLIC[module]) - set(exported))
    assert exported == PUBLIC[module], f"{module}: added {added}, dropped {dropped}; update PUBLIC and CHANGELOG.md"


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_every_public_name_resolves_and_has_a_docstring(module: str) -> None:
    package = importlib.import_module(module)
    for name in package.__all__:
        value = getattr(package, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert (value.__doc__ or "").strip(), f"{module}.{name} has no docstring"


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_all_is_sorted_and_has_no_duplicates(module: str) -> None:
    names = [name for name in importlib.import_module(module).__all__ if not name.startswith("__")]
    assert len(set(names)) == len(names), f"{module}.__all__ lists a name twice"
    assert names == sorted(names, key=isort_key), f"{module}.__all__ is not sorted"


def test_the_sort_order_is_constants_then_classes_then_functions() -> None:
    assert sorted(["run", "Run", "RUN", "abc", "ABC"], key=isort_key) == ["ABC", "RUN", "Run", "abc", "run"]


def test_every_package_with_public_names_is_pinned() -> None:
    packages = {
        ".".join(init.parent.relative_to(SRC.parent).parts)
        for init in SRC.rglob("__init__.py")
        if "__all__" in init.read_text(encoding="utf-8")
    }
    assert packages <= set(PUBLIC), f"pin the public names of {sorted(packages - set(PUBLIC))}"


# Packages that load their names on first use bind nothing up front; the rest are checked.
EAGER = sorted(module for module in PUBLIC if not hasattr(importlib.import_module(module), "__getattr__"))


@pytest.mark.parametrize("module", EAGER)
def test_a_package_binds_no_public_name_it_does_not_list(module: str) -> None:
    package = importlib.import_module(module)
    unlisted = [
        name
        for name, value in vars(package).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType)
        and getattr(value, "__module__", module).startswith("copilot_eval")
        and name not in package.__all__
    ]
    assert not unlisted, f"{module} binds {unlisted} without listing them in __all__"
