"""The checks of a prompt file that look across its fields: placeholders against rows, and what can be played.

gh-models sends a placeholder no row fills to the model as written (``{{animal}}``), and a
built-in evaluator whose prompt reads ``{{expected}}`` from a row without one asks its judge about
the literal text: both are reported here, naming the field, the placeholder and the rows. A run
asks the last user message as the question, after the earlier messages, so a file without a user
message, or ending with an assistant message (a prefill, which the runtime cannot take), is
refused. Row names are case keys, so two rows may not share one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from copilot_eval.evalsets.prompt_evaluators import BUILTIN_EVALUATORS, BUILTIN_PREFIX
from copilot_eval.evalsets.prompt_reader import PromptFileParse
from copilot_eval.evalsets.prompt_text import go_text, placeholders

_SHOWN_ROWS = 10


def case_key(row: Mapping[str, Any], position: int) -> str:
    """A row's stable name: its ``name`` when it has a non-blank one, else its 1-based position."""
    name = row.get("name")
    if name is not None and not isinstance(name, (dict, list)) and go_text(name).strip():
        return go_text(name)
    return str(position)


def _rows_text(positions: Sequence[int], total: int) -> str:
    shown = ", ".join(str(p) for p in positions[:_SHOWN_ROWS])
    more = f" and {len(positions) - _SHOWN_ROWS} more" if len(positions) > _SHOWN_ROWS else ""
    return f"row{'s' if len(positions) != 1 else ''} {shown}{more} ({len(positions)} of {total})"


def _spaced(name: str) -> str:
    return (
        f"placeholder '{{{{{name}}}}}' is never filled: gh-models replaces '{{{{{name.strip()}}}}}' exactly, "
        "so remove the spaces"
    )


def _check_template(
    parse: PromptFileParse,
    at: tuple[str | int, ...],
    template: str,
    rows: Sequence[Mapping[str, Any]],
    *,
    has_rows: bool,
    extra: Sequence[str] = (),
    var_option: str = "--var",
) -> None:
    unfilled: list[str] = []
    for name in placeholders(template):
        missing = [position for position, row in enumerate(rows, start=1) if name not in row]
        if name in extra or not missing:
            continue
        if name.strip() != name:
            parse.report(at, _spaced(name))
        elif not has_rows:
            unfilled.append(name)
        elif len(missing) == len(rows):
            parse.report(at, f"placeholder {{{{{name}}}}} is filled by no testData row (nor {var_option})")
        else:
            parse.report(at, f"placeholder {{{{{name}}}}} is not filled in {_rows_text(missing, len(rows))}")
    if unfilled:
        names = ", ".join(f"{{{{{name}}}}}" for name in unfilled)
        options = " ".join(f"{var_option} {name}=VALUE" for name in unfilled)
        plural = "s have" if len(unfilled) > 1 else " has"
        if parse.path.name.lower().endswith(".prompt.md"):  # a VS Code prompt file's rows live in its sidecar
            sidecar = parse.path.name[: -len(".prompt.md")] + ".inputs.yaml"
            parse.report(at, f"placeholder{plural} no value: {names}; give {options}, or the values in {sidecar}")
        else:
            parse.report(at, f"placeholder{plural} no value: {names}; the file has no testData, so give {options}")


def effective_rows(parse: PromptFileParse, variables: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each case's variables: the ``--var`` values under each row's own (a row wins), or the values alone without rows."""
    if parse.rows is None:
        return [dict(variables)]
    return [{**variables, **row} for row in parse.rows]


def _playable(parse: PromptFileParse) -> None:
    assert parse.record is not None
    messages = parse.record.messages
    if not messages:
        return  # already reported by the reader
    if not any(message.role == "user" for message in messages):
        parse.report(("messages",), "no user message: copilot-eval asks the last user message as the question")
    elif messages[-1].role == "assistant":
        parse.report(
            ("messages", len(messages) - 1),
            "the last message is an assistant message; copilot-eval asks the last user message, and the runtime "
            "cannot continue a prefilled answer: end the messages with a user message",
        )


def _unique_keys(parse: PromptFileParse) -> None:
    seen: dict[str, int] = {}
    for position, row in enumerate(parse.rows or [], start=1):
        key = case_key(row, position)
        if key in seen:
            parse.report(
                ("testData", position - 1),
                f"row {position} has the case key {key!r} of row {seen[key]}: a row's name (else its position) "
                "names its case in every report; give each row its own name",
            )
        else:
            seen[key] = position


def check_prompt_file(
    parse: PromptFileParse, variables: Mapping[str, Any] | None = None, *, var_option: str = "--var"
) -> None:
    """Add to ``parse.problems`` what its fields together make wrong, with ``--var`` ``variables`` given.

    ``var_option`` is the option the messages name (the pytest plugin's differs from the command line's).
    """
    if parse.record is None:
        return
    rows = effective_rows(parse, variables or {})
    has_rows = parse.rows is not None
    _playable(parse)
    _unique_keys(parse)
    for index, message in enumerate(parse.record.messages):
        _check_template(
            parse, ("messages", index, "content"), message.content, rows, has_rows=has_rows, var_option=var_option
        )
    for spec in parse.evaluators:
        at: tuple[str | int, ...] = ("evaluators", spec.position - 1)
        for rule, template in spec.string_rules:
            _check_template(parse, (*at, "string", rule), template, rows, has_rows=has_rows, var_option=var_option)
        if spec.llm is not None:
            _check_template(
                parse, (*at, "llm", "prompt"), spec.llm.prompt, rows, has_rows=has_rows, extra=("completion",)
            )
        if spec.uses is not None:
            for key in BUILTIN_EVALUATORS[spec.uses]:
                missing = [position for position, row in enumerate(rows, start=1) if key not in row]
                if not missing:
                    continue
                if has_rows:
                    verb = "has" if len(missing) == 1 else "have"
                    why = f"reads each row's {key!r}; {_rows_text(missing, len(rows))} {verb} none"
                else:
                    why = f"reads {key!r}, which the file has no testData for: give {var_option} {key}=VALUE"
                parse.report((*at, "uses"), f"{BUILTIN_PREFIX}{spec.uses} {why}")


__all__ = ["case_key", "check_prompt_file", "effective_rows"]
