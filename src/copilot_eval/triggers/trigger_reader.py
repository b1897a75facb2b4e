"""Reading a trigger set from the file people wrote: every problem at once, each with its file and line.

Three shapes are read:

- our own YAML or JSON: ``{name?, description?, siblings?, prompts: [{prompt, expected, tags?}]}``
  (a bare list of prompts is accepted too);
- a CSV with the header ``prompt,expected[,tags]`` (tags separated by ``;`` or ``|``);
- Anthropic's skill-creator trigger JSON as published, ``[{"query": ..., "should_trigger": true}]``
  (and ``{"evals": [...]}`` with ``prompt`` or ``query``, as some of its ports write it), which is
  about one skill: the caller names it (``skill=``), ``true`` expects it and ``false`` expects ``none``.

YAML and JSON go through the project's one YAML reader (``evalsets.prompt_yaml.read_yaml``), which
keeps the line of every value, so a problem in a JSON file names its line as well.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from copilot_eval.evalsets.prompt_yaml import YamlDocument, read_yaml
from copilot_eval.suggest import unknown_key
from copilot_eval.triggers.trigger_set import NONE, TriggerPrompt, TriggerSet, TriggerSetError

__all__ = ["MAX_PROMPTS", "MAX_SET_BYTES", "read_trigger_set", "trigger_set_from_data"]

MAX_SET_BYTES = 5 * 1024 * 1024  # a trigger set is text a person wrote; more is a mistake, not a set
MAX_PROMPTS = 5000
_SET_KEYS = ("name", "description", "siblings", "prompts")
_PROMPT_KEYS = ("prompt", "expected", "tags")
_CREATOR_KEYS = ("query", "should_trigger")


def _where(document: YamlDocument | None, path: tuple[str | int, ...]) -> str:
    line = document.line(path) if document is not None else None
    return f"line {line}: " if line is not None else ""


def _tags(value: Any) -> tuple[list[str], str | None]:
    if value is None:
        return [], None
    if isinstance(value, str):
        value = [part for chunk in value.replace("|", ";").split(";") for part in chunk.split(",")]
    if not isinstance(value, list) or not all(isinstance(tag, str) for tag in value):
        return [], "tags: expected a list of words (near-miss, explicit, implicit, negative-control, or your own)"
    return [tag.strip() for tag in value if tag.strip()], None


def _expected(value: Any) -> tuple[str | None, str | None]:
    if isinstance(value, bool) or not isinstance(value, str) or not value.strip():
        return None, f"expected: give the skill or custom agent's name, or '{NONE}' (got {value!r})"
    text = value.strip()
    return (NONE if text.lower() == NONE else text), None


def _our_prompts(
    items: list[Any], document: YamlDocument | None, base: tuple[str | int, ...]
) -> tuple[list[TriggerPrompt], list[str]]:
    prompts: list[TriggerPrompt] = []
    problems: list[str] = []
    for index, item in enumerate(items):
        path = (*base, index)
        where = f"{_where(document, path)}prompts[{index}]: "
        if not isinstance(item, dict):
            problems.append(f"{where}expected a mapping with prompt and expected, got {type(item).__name__}")
            continue
        problems += [f"{where}{unknown_key(key, _PROMPT_KEYS)}" for key in item if key not in _PROMPT_KEYS]
        text = item.get("prompt")
        if not isinstance(text, str) or not text.strip():
            problems.append(f"{where}prompt: give the prompt's text (a non-empty string)")
        expected, wrong = _expected(item.get("expected"))
        if wrong:
            problems.append(f"{_where(document, (*path, 'expected'))}prompts[{index}].{wrong}")
        tags, bad_tags = _tags(item.get("tags"))
        if bad_tags:
            problems.append(f"{where}{bad_tags}")
        if isinstance(text, str) and text.strip() and expected is not None:
            line = document.line(path) if document is not None else None
            prompts.append(TriggerPrompt(len(prompts) + 1, text.strip(), expected, tuple(tags), line))
    return prompts, problems


def _creator_prompts(
    items: list[Any], document: YamlDocument | None, skill: str | None
) -> tuple[list[TriggerPrompt], list[str]]:
    problems: list[str] = []
    if skill is None:
        problems.append(
            "a skill-creator trigger file (query, should_trigger) is about one skill: name it "
            "(--skill NAME, or skill= in Python)"
        )
    prompts: list[TriggerPrompt] = []
    for index, item in enumerate(items):
        where = f"{_where(document, (index,))}[{index}]: "
        if not isinstance(item, dict):
            problems.append(f"{where}expected an object with query and should_trigger")
            continue
        query, should = item.get("query"), item.get("should_trigger")
        if not isinstance(query, str) or not query.strip():
            problems.append(f"{where}query: give the prompt's text (a non-empty string)")
        if not isinstance(should, bool):
            problems.append(f"{where}should_trigger: expected true or false, got {should!r}")
        if isinstance(query, str) and query.strip() and isinstance(should, bool) and skill is not None:
            line = document.line((index,)) if document is not None else None
            expected = skill if should else NONE
            prompts.append(TriggerPrompt(len(prompts) + 1, query.strip(), expected, (), line))
    return prompts, problems


def _is_creator(value: Any) -> bool:
    return isinstance(value, list) and any(isinstance(item, dict) and "should_trigger" in item for item in value)


def _creator_items(value: Any) -> Any:
    """skill-creator's list; the ``{"evals": [...]}`` form some of its ports write, with ``prompt`` for ``query``."""
    if isinstance(value, dict) and set(value) == {"evals"} and isinstance(value["evals"], list):
        return [
            {("query" if key == "prompt" else key): v for key, v in item.items()} if isinstance(item, dict) else item
            for item in value["evals"]
        ]
    return value


def trigger_set_from_data(
    value: Any, *, name: str, source: str, skill: str | None = None, document: YamlDocument | None = None
) -> TriggerSet:
    """A trigger set from already parsed data (our shape or skill-creator's); raises TriggerSetError."""
    problems: list[str] = []
    description, siblings = None, ()
    wrapped = isinstance(value, dict) and set(value) == {"evals"}
    value = _creator_items(value)
    if _is_creator(value):
        # the lines of a wrapped list are under "evals"; the problems still say the item
        prompts, problems = _creator_prompts(value, None if wrapped else document, skill)
    elif isinstance(value, list):
        prompts, problems = _our_prompts(value, document, ())
    elif isinstance(value, dict):
        problems += [
            f"{_where(document, (key,))}{unknown_key(key, _SET_KEYS)}" for key in value if key not in _SET_KEYS
        ]
        name = str(value.get("name") or name)
        description = value.get("description") if isinstance(value.get("description"), str) else None
        raw_siblings = value.get("siblings") or []
        if not isinstance(raw_siblings, list) or not all(isinstance(s, str) and s.strip() for s in raw_siblings):
            problems.append(f"{_where(document, ('siblings',))}siblings: expected a list of skill or agent names")
            raw_siblings = []
        siblings = tuple(s.strip() for s in raw_siblings)
        items = value.get("prompts")
        if not isinstance(items, list):
            problems.append(f"{_where(document, ('prompts',))}prompts: expected a list of {{prompt, expected, tags}}")
            items = []
        prompts, more = _our_prompts(items, document, ("prompts",))
        problems += more
    else:
        problems.append("expected a mapping with prompts, a list of prompts, or skill-creator's list of queries")
        prompts = []
    problems += _set_problems(prompts, already=problems)
    if problems:
        raise TriggerSetError(source, problems)
    return TriggerSet(name=name, prompts=tuple(prompts), source=source, description=description, extra_names=siblings)


def _set_problems(prompts: list[TriggerPrompt], *, already: list[str]) -> list[str]:
    problems: list[str] = []
    if not prompts and not already:  # a set whose every prompt is wrong says so prompt by prompt
        problems.append("the set holds no prompt")
    if len(prompts) > MAX_PROMPTS:
        problems.append(f"{len(prompts)} prompts: a trigger set holds at most {MAX_PROMPTS}; split it")
    seen: dict[str, TriggerPrompt] = {}
    for item in prompts:
        first = seen.setdefault(item.prompt, item)
        if first is not item:
            at = f"line {item.line}: " if item.line else ""
            was = f" (line {first.line})" if first.line else ""
            if first.expected != item.expected:
                problems.append(
                    f"{at}the prompt {item.prompt[:60]!r} is already labelled {first.expected!r}{was}, "
                    f"here {item.expected!r}: one prompt has one expected choice"
                )
            else:
                problems.append(
                    f"{at}the prompt {item.prompt[:60]!r} is written twice{was}; keep one (--runs repeats it)"
                )
    return problems


def _read_csv(text: str, source: str, name: str) -> TriggerSet:
    rows = csv.reader(io.StringIO(text))
    header = [cell.strip().lower() for cell in next(rows, [])]
    if header[:2] != ["prompt", "expected"] or len(header) > 3 or (len(header) == 3 and header[2] != "tags"):
        raise TriggerSetError(source, [f"line 1: the header must be prompt,expected[,tags], got {','.join(header)!r}"])
    problems: list[str] = []
    prompts: list[TriggerPrompt] = []
    for row in rows:
        line = rows.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header):
            problems.append(f"line {line}: {len(row)} cells, the header has {len(header)} (quote a prompt with commas)")
            continue
        cells = dict(zip(header, row, strict=False))
        text = (cells.get("prompt") or "").strip()
        expected, wrong = _expected(cells.get("expected"))
        if not text:
            problems.append(f"line {line}: prompt: the cell is empty")
        if wrong:
            problems.append(f"line {line}: {wrong}")
        tags, _ = _tags(cells.get("tags") or None)
        if text and expected is not None:
            prompts.append(TriggerPrompt(len(prompts) + 1, text, expected, tuple(tags), line))
    problems += _set_problems(prompts, already=problems)
    if problems:
        raise TriggerSetError(source, problems)
    return TriggerSet(name=name, prompts=tuple(prompts), source=source)


def read_trigger_set(path: str | Path, *, skill: str | None = None) -> TriggerSet:
    """Read a trigger set (``.yaml``/``.yml``/``.json``/``.csv``); raises TriggerSetError naming every problem.

    ``skill`` names the skill a skill-creator trigger file is about (that format does not say).
    """
    file = Path(path)
    source = str(file)
    try:
        if file.stat().st_size > MAX_SET_BYTES:
            raise TriggerSetError(
                source, [f"the file is over {MAX_SET_BYTES // (1024 * 1024)} MB; a trigger set is smaller"]
            )
        text = file.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise TriggerSetError(source, [f"cannot read the file: {error}"]) from error
    suffix = file.suffix.lower()
    if suffix == ".csv":
        return _read_csv(text, source, file.stem)
    if suffix not in (".yaml", ".yml", ".json"):
        raise TriggerSetError(
            source, [f"unknown kind of file {suffix or '(no suffix)'!r}: use .yaml, .yml, .json or .csv"]
        )
    document = read_yaml(text)
    if document.problems:
        raise TriggerSetError(source, document.problems)
    return trigger_set_from_data(document.value, name=file.stem, source=source, skill=skill, document=document)
