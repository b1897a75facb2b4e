"""JSON Schemas of the test-set and run files, generated from the models and shipped as files.

The shipped files let tools outside Python (editors, CI linters) check a file; a test keeps them
equal to what the models generate. Regenerate with ``python -m copilot_eval.evalsets.schema_files``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from copilot_eval.evalsets.model import EvalTestSet
from copilot_eval.evalsets.run_model import EvalRun

SCHEMA_DIR = Path(__file__).with_name("schemas")

#: Shipped schema file name -> model it describes.
SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "eval-test-set.schema.json": EvalTestSet,
    "eval-run.schema.json": EvalRun,
}


def generate_schema(file_name: str) -> dict[str, Any]:
    """Return the JSON Schema for the shipped file ``file_name``, generated from its model."""
    model = SCHEMA_MODELS[file_name]
    schema = model.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def schema_text(file_name: str) -> str:
    """Return the exact text the shipped file ``file_name`` should contain."""
    return json.dumps(generate_schema(file_name), indent=2, ensure_ascii=False) + "\n"


def load_schema(file_name: str) -> dict[str, Any]:
    """Return the shipped schema ``file_name`` as loaded from the package."""
    schema: dict[str, Any] = json.loads((SCHEMA_DIR / file_name).read_text(encoding="utf-8"))
    return schema


def write_schemas() -> list[Path]:
    """Regenerate every shipped schema file; return the paths written."""
    written = []
    for file_name in SCHEMA_MODELS:
        path = SCHEMA_DIR / file_name
        path.write_text(schema_text(file_name), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_schemas():
        print(written_path)


__all__ = ["SCHEMA_DIR", "SCHEMA_MODELS", "generate_schema", "load_schema", "schema_text", "write_schemas"]
