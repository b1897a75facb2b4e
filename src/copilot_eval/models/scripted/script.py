"""The script format: rules, turns and faults, parsed and checked at load time."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.models.renames import deprecated_alias
from copilot_eval.models.wire.answer import ScriptedHttpError

__all__ = [
    "InvalidScriptError",
    "Rule",
    "ScriptedToolCall",
    "ScriptedTurn",
    "TurnUsage",
    "load_script",
    "parse_rules",
]

TEMPLATE_NAMES = ("working_directory", "prompt", "last_tool_result")
# `{{`, `}}` or a `{name}` placeholder; any other brace is literal text (JSON in answers stays readable).
_TEMPLATE = re.compile(r"\{\{|\}\}|\{(\w+)\}")

_RULE_KEYS = ("when", "turns")
_WHEN_KEYS = ("prompt_contains", "prompt_matches")
_TURN_KEYS = ("text", "tool_calls", "ask_user", "error", "delay_s", "malformed", "cut_off", "times", "usage")
_ASK_KEYS = ("question", "choices")
ASK_USER_TOOL = "ask_user"
"""The runtime's tool for a question to the user; offered once the session can answer one
(runtime 1.0.102: ``question`` and optional ``choices``)."""
_CALL_KEYS = ("name", "arguments", "id")
_ERROR_KEYS = ("status", "message", "retry_after")
_USAGE_KEYS = ("input_tokens", "output_tokens", "cache_read_tokens", "reasoning_tokens")


def __getattr__(name: str) -> Any:
    # Old names (ScriptError, ScriptedError, Turn) still work for one release, with a warning.

    return deprecated_alias(__name__, name, globals().__getitem__)


class InvalidScriptError(ValueError):
    """A script that cannot be used; the message names the file, rule, turn and field of every problem."""


def _all_of(parts: list[tuple[str, Any]], parse: Any) -> list[Any]:
    """Each ``(where, raw)`` parsed, every problem collected: one InvalidScriptError naming them all."""
    parsed, problems = [], []
    for where, raw in parts:
        try:
            parsed.append(parse(raw, where))
        except InvalidScriptError as exc:
            problems.append(str(exc))
    if problems:
        raise InvalidScriptError("; ".join(problems))
    return parsed


@dataclass(frozen=True)
class ScriptedToolCall:
    """One tool call the model asks for; `arguments` may hold templates in any string."""

    name: str
    arguments: Mapping[str, Any]
    id: str | None = None


# Alike in shape only to other frozen records (evidence/transcript.py's TranscriptEvent): the fields differ
# in meaning, so no base is shared.
@dataclass(frozen=True)
class TurnUsage:
    """Token counts reported for one turn instead of the computed ones."""

    input_tokens: int
    output_tokens: int
    cache_read_tokens: int | None = None
    reasoning_tokens: int | None = None


# Marks "no usage key in the turn" apart from `usage: null` (which omits usage on the wire).
COMPUTED = "computed"


@dataclass(frozen=True)
class ScriptedTurn:
    """One model answer: text and/or tool calls, or a fault (error, malformed, cut-off stream)."""

    text: str | None = None
    tool_calls: tuple[ScriptedToolCall, ...] = ()
    error: ScriptedHttpError | None = None
    delay_s: float = 0.0
    malformed: bool = False
    cut_off: bool = False
    times: int = 1
    usage: TurnUsage | str | None = COMPUTED

    @property
    def is_fault(self) -> bool:
        """True when this turn fails the model call (the runtime may retry it)."""
        return self.error is not None or self.malformed or self.cut_off


@dataclass(frozen=True)
class Rule:
    """Turns to play when the user prompt matches `when` (an empty `when` matches anything)."""

    turns: tuple[ScriptedTurn, ...]
    prompt_contains: str | None = None
    prompt_matches: str | None = None
    _pattern: re.Pattern[str] | None = field(default=None, repr=False, compare=False)

    def matches(self, prompt: str) -> bool:
        """Whether this rule answers `prompt`."""
        if self.prompt_contains is not None and self.prompt_contains not in prompt:
            return False
        return self._pattern is None or self._pattern.search(prompt) is not None


def load_script(path: str | Path) -> tuple[Rule, ...]:
    """Read rules from a YAML (.yaml/.yml) or JSON file."""
    # imported on use: PyYAML is only needed once a script file is read
    from copilot_eval.bounded_yaml import YamlRefused, load_yaml, read_yaml_text

    path = Path(path)
    try:
        text = read_yaml_text(path)  # the same size bound for a JSON script
    except YamlRefused as exc:
        raise InvalidScriptError(str(exc)) from None
    except OSError as exc:
        raise InvalidScriptError(f"{path}: cannot read script: {exc.strerror or exc}") from exc
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else load_yaml(text, source=str(path))
    except YamlRefused as exc:
        raise InvalidScriptError(str(exc)) from None
    except (ValueError, Exception) as exc:  # yaml.YAMLError and json.JSONDecodeError
        raise InvalidScriptError(
            f"{path}: not valid {'JSON' if path.suffix.lower() == '.json' else 'YAML'}: {exc}"
        ) from exc
    return parse_rules(data, source=str(path))


def parse_rules(data: Any, *, source: str | None = None) -> tuple[Rule, ...]:
    """Check and convert a script (`{"rules": [...]}` or a bare list of rules)."""
    where = source or "<script>"
    if isinstance(data, Mapping):
        _check_keys(data, ("rules",), where, "script")
        data = data.get("rules")
    if not isinstance(data, list) or not data:
        raise InvalidScriptError(f"{where}: 'rules' must be a non-empty list of rules")
    return tuple(_all_of([(f"{where}: rules[{i}]", raw) for i, raw in enumerate(data)], _parse_rule))


def _parse_rule(raw: Any, where: str) -> Rule:
    if isinstance(raw, Rule):
        return raw
    raw = _mapping(
        raw, where, _RULE_KEYS, "rule", f"{where}: a rule must be a mapping with 'turns' (and optional 'when')"
    )
    when = raw.get("when") or {}
    if not isinstance(when, Mapping):
        raise InvalidScriptError(f"{where}.when: must be a mapping")
    _check_keys(when, _WHEN_KEYS, f"{where}.when", "condition")
    contains = _opt_str(when, "prompt_contains", f"{where}.when")
    matches = _opt_str(when, "prompt_matches", f"{where}.when")
    pattern = None
    if matches is not None:
        try:
            pattern = re.compile(matches)
        except re.error as exc:
            raise InvalidScriptError(f"{where}.when.prompt_matches: bad regular expression {matches!r}: {exc}") from exc
    turns = raw.get("turns")
    if not isinstance(turns, list) or not turns:
        raise InvalidScriptError(f"{where}.turns: must be a non-empty list of turns")
    parsed = tuple(_all_of([(f"{where}.turns[{j}]", t) for j, t in enumerate(turns)], _parse_turn))
    return Rule(turns=parsed, prompt_contains=contains, prompt_matches=matches, _pattern=pattern)


def _parse_turn(raw: Any, where: str) -> ScriptedTurn:
    if isinstance(raw, ScriptedTurn):
        return raw
    raw = _mapping(
        raw, where, _TURN_KEYS, "turn", f"{where}: a turn must be a mapping (one of {', '.join(_TURN_KEYS)})"
    )
    text = _opt_str(raw, "text", where)
    if text is not None:
        _check_template(text, f"{where}.text")
    calls = _parse_calls(raw.get("tool_calls"), f"{where}.tool_calls") if "tool_calls" in raw else ()
    if "ask_user" in raw:
        calls = (*calls, _parse_question(raw["ask_user"], f"{where}.ask_user"))
    error = _parse_error(raw["error"], f"{where}.error") if raw.get("error") is not None else None
    delay = raw.get("delay_s", 0)
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or delay < 0:
        raise InvalidScriptError(f"{where}.delay_s: must be a number of seconds >= 0, got {delay!r}")
    flags = {k: raw.get(k, False) for k in ("malformed", "cut_off")}
    for key, value in flags.items():
        if not isinstance(value, bool):
            raise InvalidScriptError(f"{where}.{key}: must be true or false, got {value!r}")
    times = raw.get("times", 1)
    if isinstance(times, bool) or not isinstance(times, int) or times < 1:
        raise InvalidScriptError(f"{where}.times: must be an integer >= 1, got {times!r}")
    # Built by keyword like TrajectoryMatch in evidence/trajectory/verdict.py; alike in shape only.
    turn = ScriptedTurn(
        text=text,
        tool_calls=calls,
        error=error,
        delay_s=float(delay),
        times=times,
        usage=_parse_usage(raw["usage"], f"{where}.usage") if "usage" in raw else COMPUTED,
        **flags,
    )
    _check_turn_shape(turn, raw, where)
    return turn


def _check_turn_shape(turn: ScriptedTurn, raw: Mapping[str, Any], where: str) -> None:
    if turn.error is not None and (turn.text is not None or turn.tool_calls or turn.malformed or turn.cut_off):
        raise InvalidScriptError(
            f"{where}: 'error' cannot be combined with text, tool_calls, ask_user, malformed or cut_off"
        )
    if turn.malformed and turn.cut_off:
        raise InvalidScriptError(f"{where}: choose one of 'malformed' and 'cut_off'")
    if not turn.is_fault and turn.text is None and not turn.tool_calls:
        # A delay alone would answer nothing: say which answer it delays.
        raise InvalidScriptError(
            f"{where}: a turn needs one of text, tool_calls, ask_user, error, malformed or cut_off"
        )
    if "times" in raw and not turn.is_fault:
        raise InvalidScriptError(f"{where}.times: only a fault turn (error, malformed, cut_off) can repeat")


def _parse_calls(raw: Any, where: str) -> tuple[ScriptedToolCall, ...]:
    if not isinstance(raw, list) or not raw:
        raise InvalidScriptError(f"{where}: must be a non-empty list of {{name, arguments}}")
    calls = []
    for i, item in enumerate(raw):
        at = f"{where}[{i}]"
        if not isinstance(item, Mapping):
            raise InvalidScriptError(f"{at}: a tool call must be a mapping with 'name' and 'arguments'")
        _check_keys(item, _CALL_KEYS, at, "tool call")
        name = item.get("name")
        if not isinstance(name, str) or not name:
            raise InvalidScriptError(f"{at}.name: a tool name (non-empty string) is required")
        arguments = item.get("arguments", {})
        if not isinstance(arguments, Mapping):
            raise InvalidScriptError(f"{at}.arguments: must be a mapping of argument names to values")
        _check_templates_in(arguments, f"{at}.arguments")
        calls.append(ScriptedToolCall(name=name, arguments=dict(arguments), id=_opt_str(item, "id", at)))
    return tuple(calls)


def _parse_question(raw: Any, where: str) -> ScriptedToolCall:
    """``ask_user: "text"`` or ``{question, choices}``: a call of the runtime's ask_user tool."""
    if isinstance(raw, str):
        raw = {"question": raw}
    raw = _mapping(
        raw, where, _ASK_KEYS, "question", f"{where}: give the question as text, or {{question: ..., choices: [...]}}"
    )
    question = raw.get("question")
    if not isinstance(question, str) or not question.strip():
        raise InvalidScriptError(f"{where}.question: the question (non-empty text) is required")
    arguments: dict[str, Any] = {"question": question}
    if "choices" in raw:
        choices = raw["choices"]
        if not isinstance(choices, list) or not all(isinstance(c, str) for c in choices) or not choices:
            raise InvalidScriptError(f"{where}.choices: must be a non-empty list of strings")
        arguments["choices"] = list(choices)
    _check_templates_in(arguments, where)
    return ScriptedToolCall(name=ASK_USER_TOOL, arguments=arguments)


def _parse_error(raw: Any, where: str) -> ScriptedHttpError:
    raw = _mapping(raw, where, _ERROR_KEYS, "error", f"{where}: must be a mapping like {{status: 500, message: ...}}")
    status = raw.get("status", 500)
    if isinstance(status, bool) or not isinstance(status, int) or not 400 <= status <= 599:
        raise InvalidScriptError(f"{where}.status: must be an HTTP error status 400-599, got {status!r}")
    message = raw.get("message", f"scripted error {status}")
    if not isinstance(message, str):
        raise InvalidScriptError(f"{where}.message: must be a string")
    retry = raw.get("retry_after")
    if retry is not None and (isinstance(retry, bool) or not isinstance(retry, (int, float)) or retry < 0):
        raise InvalidScriptError(f"{where}.retry_after: must be a number of seconds >= 0, got {retry!r}")
    return ScriptedHttpError(status=status, message=message, retry_after=retry)


def _parse_usage(raw: Any, where: str) -> TurnUsage | None:
    if raw is None:
        return None
    raw = _mapping(
        raw, where, _USAGE_KEYS, "usage", f"{where}: must be a mapping of token counts, or null to omit usage"
    )
    values: dict[str, Any] = {}  # each checked below: an int >= 0, or None for an optional count
    for key in _USAGE_KEYS:
        value = raw.get(key)
        if value is None and key in ("input_tokens", "output_tokens"):
            raise InvalidScriptError(f"{where}.{key}: required when usage is given")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise InvalidScriptError(f"{where}.{key}: must be an integer >= 0, got {value!r}")
        values[key] = value
    return TurnUsage(**values)


def _mapping(raw: Any, where: str, allowed: tuple[str, ...], what: str, not_a_mapping: str) -> Mapping[str, Any]:
    # Every part of a script is a mapping of known fields: ``not_a_mapping`` says what else it may not be.
    if not isinstance(raw, Mapping):
        raise InvalidScriptError(not_a_mapping)
    _check_keys(raw, allowed, where, what)
    return raw


def _check_keys(raw: Mapping[str, Any], allowed: tuple[str, ...], where: str, what: str) -> None:
    for key in raw:
        if key not in allowed:
            raise InvalidScriptError(f"{where}: unknown field {key!r} in {what} (expected one of {', '.join(allowed)})")


def _opt_str(raw: Mapping[str, Any], key: str, where: str) -> str | None:
    value = raw.get(key)
    if value is not None and not isinstance(value, str):
        raise InvalidScriptError(f"{where}.{key}: must be a string, got {type(value).__name__}")
    return value


def _check_template(text: str, where: str) -> None:
    for match in _TEMPLATE.finditer(text):
        name = match.group(1)
        if name is not None and name not in TEMPLATE_NAMES:
            raise InvalidScriptError(
                f"{where}: unknown template {{{name}}} (expected one of "
                + ", ".join("{" + n + "}" for n in TEMPLATE_NAMES)
                + "; write {{ and }} for literal braces)"
            )


def _check_templates_in(value: Any, where: str) -> None:
    if isinstance(value, str):
        _check_template(value, where)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _check_templates_in(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_templates_in(item, f"{where}[{i}]")


def render_template(text: str, values: Mapping[str, str | None]) -> str:
    """Fill `{name}` placeholders; `{{`/`}}` become literal braces."""

    def fill(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        value = values.get(match.group(1))
        if value is None:
            raise InvalidScriptError(
                f"template {token} has no value in this run (give endpoint(working_directory=...))"
            )
        return value

    return _TEMPLATE.sub(fill, text)


def render_value(value: Any, values: Mapping[str, str | None]) -> Any:
    """Fill templates in every string inside a JSON-like value."""
    if isinstance(value, str):
        return render_template(value, values)
    if isinstance(value, Mapping):
        return {key: render_value(item, values) for key, item in value.items()}
    if isinstance(value, list):
        return [render_value(item, values) for item in value]
    return value
