"""Evaluation test sets and runs in the Copilot Studio shape: model, validation, CSV and JSON; and prompt files.

GitHub's prompt files (``*.prompt.yml``, as gh-models reads them) load into the same model: each
``testData`` row one case, the file's settings and evaluators on the set (``load_prompt_file``).

Field trap: ``EvalTestCase.response`` is the *reference* answer (named after the CSV column);
what the agent produced is ``EvalCaseResult.actual_response``.

This layer imports nothing else of copilot_eval but the leaf modules (the atomic writer, which
redacts), so it can be used to check files without the Copilot runtime installed. The results
CSV of a run is an output file: ``copilot_eval.reports`` writes it.
"""

from __future__ import annotations

from copilot_eval.evalsets.confidence import Confidence, ConfidenceMixin, weakest_confidence
from copilot_eval.evalsets.conversations import Conversation, group_conversations, play_groups, turn_numbers
from copilot_eval.evalsets.csv_reader import CsvCheck, check_csv, inspect_csv, load_csv, looks_like_test_set, read_csv
from copilot_eval.evalsets.csv_templates import (
    CONVERSATION,
    LEGACY_SINGLE_RESPONSE,
    METHOD_ROWS,
    SINGLE_RESPONSE,
    TEMPLATES,
    CsvTemplate,
    template_named,
)
from copilot_eval.evalsets.csv_writer import csv_text, write_csv
from copilot_eval.evalsets.errors import EvalSetError, EvalSetReadError, EvalSetWriteError
from copilot_eval.evalsets.json_io import (
    check_json,
    read_run_json,
    read_test_set_json,
    run_from_json,
    test_set_from_json,
    to_json,
    write_json,
)
from copilot_eval.evalsets.limits import (
    COPILOT_STUDIO_MAX_CONVERSATION_PAIRS,
    COPILOT_STUDIO_MAX_CONVERSATIONS,
    COPILOT_STUDIO_MAX_QUESTIONS,
    COPILOT_STUDIO_QUESTION_MAX_LENGTH,
    EVAL_CSV_COLUMNS,
    EVAL_IMPORT_MAX_BYTES,
    EVAL_MAX_CONVERSATION_PAIRS,
    EVAL_REFERENCE_MAX_LENGTH,
)
from copilot_eval.evalsets.model import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.evalsets.platform_record import ExportJoinRecord, PlatformRunRecord, SnapshotRecord
from copilot_eval.evalsets.preamble import preamble_lines
from copilot_eval.evalsets.prompt_cases import load_prompt_file, looks_like_prompt_file
from copilot_eval.evalsets.prompt_model import GhModelsVerdict, PromptFileRecord, PromptMessage, PromptRow
from copilot_eval.evalsets.results_reader import ExportedResult, read_results_export
from copilot_eval.evalsets.rule_sets import COPILOT_STUDIO, DEFAULT_RULE_SET, RULE_SETS, SEED, RuleSet, rule_set_named
from copilot_eval.evalsets.run_execution import ConcurrencyChange, ExecutionRecord, RetryRecord, WorkerInfo
from copilot_eval.evalsets.run_model import (
    CaseRepeatRecord,
    CaseStatus,
    EvalCaseResult,
    EvalRun,
    GradeRecord,
    JudgeTally,
    LimitationStanding,
    RunUsage,
    SpentUsage,
)
from copilot_eval.evalsets.run_provenance import MergeRecord, RunFingerprints, ShardInfo
from copilot_eval.evalsets.validation import reference_length, validate_eval_test_set
from copilot_eval.evalsets.workspace_model import CaseWorkspace, WorkspaceFinding, WorkspaceRecord

__all__ = [
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
    "METHOD_ROWS",
    "RULE_SETS",
    "SEED",
    "SINGLE_RESPONSE",
    "TEMPLATES",
    "CaseRepeatRecord",
    "CaseStatus",
    "CaseWorkspace",
    "ConcurrencyChange",
    "Confidence",
    "ConfidenceMixin",
    "Conversation",
    "CsvCheck",
    "CsvTemplate",
    "EvalCaseResult",
    "EvalDataType",
    "EvalRun",
    "EvalSetError",
    "EvalSetReadError",
    "EvalSetWriteError",
    "EvalTestCase",
    "EvalTestSet",
    "ExecutionRecord",
    "ExportJoinRecord",
    "ExportedResult",
    "GhModelsVerdict",
    "GradeRecord",
    "JudgeTally",
    "LimitationStanding",
    "MergeRecord",
    "PlatformRunRecord",
    "PromptFileRecord",
    "PromptMessage",
    "PromptRow",
    "RetryRecord",
    "RuleSet",
    "RunFingerprints",
    "RunUsage",
    "ShardInfo",
    "SnapshotRecord",
    "SpentUsage",
    "WorkerInfo",
    "WorkspaceFinding",
    "WorkspaceRecord",
    "check_csv",
    "check_json",
    "csv_text",
    "group_conversations",
    "inspect_csv",
    "load_csv",
    "load_prompt_file",
    "looks_like_prompt_file",
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
]
