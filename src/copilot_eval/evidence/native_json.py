"""The native JSON form of a CopilotResult: versioned, lossless, written atomically."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

# The one atomic writer (fsync, then rename); kept importable from here for existing callers.
from copilot_eval.reports.atomic import write_text_atomically

if TYPE_CHECKING:
    from copilot_eval.evidence.result import CopilotResult


def result_to_dict(result: CopilotResult) -> dict[str, Any]:
    """The JSON-ready dict of a result, including derived totals for readers without Python."""
    data = result.model_dump(mode="json")
    data["derived"] = {
        "final_response": result.final_response,
        "evidence_complete": result.evidence_complete,
        "permission_requested": result.permission_requested,
        "token_usage": result.token_usage,
        "total_premium_requests": result.total_premium_requests,
    }
    return data


def save_result(result: CopilotResult, path: str | Path) -> Path:
    """Save a result as native JSON (atomic write)."""
    text = json.dumps(result_to_dict(result), indent=2, ensure_ascii=False)
    return write_text_atomically(path, text + "\n")


def load_result(path: str | Path) -> CopilotResult:
    """Load a result saved by :func:`save_result`, refusing unknown schema versions."""
    from copilot_eval.evidence.result import SCHEMA_VERSION, CopilotResult

    data = json.loads(Path(path).read_text(encoding="utf-8"))
    version = data.get("schema_version")
    if version != SCHEMA_VERSION:
        raise ValueError(f"{path}: schema_version {version!r} is not supported (expected {SCHEMA_VERSION})")
    data.pop("derived", None)
    return CopilotResult.model_validate(data)


SCHEMA_FILE = Path(__file__).parent / "schema" / "copilot-result.schema.json"
"""The published JSON Schema of native results; a test keeps it equal to the model's schema."""


def copilot_result_json_schema() -> dict[str, Any]:
    """The JSON Schema of a saved result, generated from the model (regenerate the shipped file
    with ``write_copilot_result_json_schema()`` after changing the evidence models)."""
    from copilot_eval.evidence.result import CopilotResult

    schema = CopilotResult.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://copilot-eval/schemas/copilot-result.schema.json"
    return schema


def write_copilot_result_json_schema(path: str | Path = SCHEMA_FILE) -> Path:
    """Write the generated schema to the shipped location (or ``path``)."""
    return write_text_atomically(path, json.dumps(copilot_result_json_schema(), indent=2, sort_keys=True) + "\n")
