"""The native JSON form of a CopilotResult: versioned, lossless, written atomically.

The form itself is defined next to the model (``CopilotResult.save`` / ``load`` in ``result``);
this module adds the published JSON Schema and the function-style names used since release one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.evidence.result import CopilotResult

SCHEMA_FILE = Path(__file__).parent / "schema" / "copilot-result.schema.json"
"""The published JSON Schema of native results; a test keeps it equal to the model's schema."""


def save_result(result: CopilotResult, path: str | Path) -> Path:
    """Save a result as native JSON (atomic write, secrets redacted); same as ``result.save(path)``."""
    return result.save(path)


def load_result(path: str | Path) -> CopilotResult:
    """Load a result saved by :func:`save_result`; same as ``CopilotResult.load(path)``."""
    return CopilotResult.load(path)


def copilot_result_json_schema() -> dict[str, Any]:
    """The JSON Schema of a saved result, generated from the model (regenerate the shipped file
    with ``write_copilot_result_json_schema()`` after changing the evidence models)."""
    schema = CopilotResult.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://copilot-eval/schemas/copilot-result.schema.json"
    return schema


def write_copilot_result_json_schema(path: str | Path = SCHEMA_FILE) -> Path:
    """Write the generated schema to the shipped location (or ``path``)."""
    return write_text_atomically(path, json.dumps(copilot_result_json_schema(), indent=2, sort_keys=True) + "\n")


__all__ = [
    "SCHEMA_FILE",
    "copilot_result_json_schema",
    "load_result",
    "save_result",
    "write_copilot_result_json_schema",
]
