"""A prompt file's ``responseFormat``: the answer must be one JSON object, conforming to ``jsonSchema`` when given.

Through GitHub Models' API the format is enforced while the model writes; the Copilot runtime
takes no response format, so the session is told the format (``prompt_cases.answer_format_instruction``)
and this grader checks the answer it gave. The answer is the trimmed text: JSON wrapped in a code
fence, or with prose around it, is not one JSON object and fails, as the program reading the
answer would fail on it. A non-conforming answer fails naming the first schema error.
"""

from __future__ import annotations

import json
from typing import Any

from copilot_eval.evalsets import EvalTestCase
from copilot_eval.evalsets.prompt_text import go_trim
from copilot_eval.grading.protocol import CaseEvidence, Grade, passed_if, ungradable

# jsonschema is imported when a set has a schema: it takes about 0.1 s to import, and most test sets have none.


def _first_error(schema: dict[str, Any], value: Any) -> str | None:
    import jsonschema

    validator = jsonschema.validators.validator_for(schema)(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(value))
    if error is None:
        return None
    where = "/".join(str(part) for part in error.absolute_path)
    return f"{'at ' + where + ': ' if where else ''}{error.message}"


class ResponseFormatCheck:
    """Pass when the answer is one JSON object (and, with a schema, conforms to it)."""

    needs_reference = False

    def __init__(self, response_format: str, json_schema: dict[str, Any] | None = None) -> None:
        if response_format not in ("json_object", "json_schema"):
            raise ValueError(f"responseFormat {response_format!r} has nothing to check")
        self.response_format = response_format
        self.schema = (json_schema or {}).get("schema") if response_format == "json_schema" else None
        schema_name = (json_schema or {}).get("name")
        self.name = f"responseFormat {response_format}" + (f" ({schema_name})" if schema_name else "")

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """Parse the trimmed answer as JSON, then check it against the schema; the reason names what failed."""
        if (error := ungradable(self.name, case, evidence, needs_reference=False, passing_score=100.0)) is not None:
            return error
        answer = go_trim(evidence.answer or "")
        try:
            value = json.loads(answer)
        except ValueError as exc:
            fenced = answer.startswith("```")
            why = "JSON inside a code fence, not bare JSON" if fenced else f"not JSON ({exc})"
            return Grade(self.name, passed_if(False), f"the answer is {why}", score=0.0, passing_score=100.0)
        if not isinstance(value, dict):
            return Grade(
                self.name,
                passed_if(False),
                f"the answer is JSON but not an object ({type(value).__name__})",
                score=0.0,
                passing_score=100.0,
            )
        problem = _first_error(self.schema, value) if isinstance(self.schema, dict) else None
        if problem is not None:
            return Grade(
                self.name,
                passed_if(False),
                f"does not conform to the schema: {problem}",
                score=0.0,
                passing_score=100.0,
            )
        done = "a JSON object conforming to the schema" if self.schema is not None else "a JSON object"
        return Grade(self.name, passed_if(True), f"the answer is {done}", score=100.0, passing_score=100.0)


__all__ = ["ResponseFormatCheck"]
