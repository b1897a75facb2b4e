"""YAML of prompt files read the way gh-models' Go decoder (yaml.v3) reads it, with the line of every value.

PyYAML follows YAML 1.1, gh-models' decoder mostly 1.2, and the difference reaches the prompt:
``yes`` and ``on`` stay text there (PyYAML makes them booleans), a date stays the text it was
written as (PyYAML makes it a date), and a mapping key written twice is an error there (PyYAML
keeps the last). So the document is composed with no implicit types at all, and this module
resolves plain scalars itself: ``null``/``~``/empty, ``true``/``false`` in their three spellings,
integers with a ``0x``/``0o``/``0b`` or leading-zero prefix, decimal floats and ``.inf``/``.nan``.
The C parser is used when PyYAML has it: a 437 kB file composes in about 15 ms instead of 0.7 s.
Composition goes through ``bounded_yaml`` (size, alias expansion and depth limits), since the
builder below copies every alias it meets.
"""

from __future__ import annotations

import base64
import math
import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from copilot_eval.bounded_yaml import YamlRefused, compose_yaml

#: A path to a value in the document: keys and positions, e.g. ("testData", 2, "input").
Path = tuple[str | int, ...]

_STR = "tag:yaml.org,2002:str"
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_TRUE = frozenset({"true", "True", "TRUE"})
_FALSE = frozenset({"false", "False", "FALSE"})
_INFINITIES = {".inf": math.inf, ".Inf": math.inf, ".INF": math.inf}
_NANS = frozenset({".nan", ".NaN", ".NAN"})
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_PREFIXED = re.compile(r"^([-+]?)0([xob])([0-9a-fA-F]+)$")
_OCTAL = re.compile(r"^([-+]?)0([0-7]+)$")
_DECIMAL = re.compile(r"^[-+]?[0-9]+$")


class _PyComposer(yaml.SafeLoader):
    """Every plain scalar composes as text; ``plain_value`` decides its type as yaml.v3 would."""

    yaml_implicit_resolvers: dict[Any, Any] = {}  # noqa: RUF012 - PyYAML reads the class attribute


_Composer: type[yaml.SafeLoader] | type[Any] = _PyComposer
if getattr(yaml, "__with_libyaml__", False):

    class _CComposer(yaml.CSafeLoader):
        """The same, on libyaml's parser (about 50 times faster on a large file)."""

        yaml_implicit_resolvers: dict[Any, Any] = {}  # noqa: RUF012 - PyYAML reads the class attribute

    _Composer = _CComposer


def _integer(text: str) -> int | None:
    plain = text.replace("_", "")
    if _DECIMAL.match(plain):
        # Go reads a leading zero as octal; a decimal digit 8 or 9 after it makes it no integer (a float below).
        octal = _OCTAL.match(plain)
        if octal:
            value = int(octal.group(2), 8)
            return -value if octal.group(1) == "-" else value
        if len(plain.lstrip("+-")) > 1 and plain.lstrip("+-").startswith("0"):
            return None
        return int(plain)
    prefixed = _PREFIXED.match(plain)
    if prefixed:
        base = {"x": 16, "o": 8, "b": 2}[prefixed.group(2)]
        try:
            value = int(prefixed.group(3), base)
        except ValueError:
            return None
        return -value if prefixed.group(1) == "-" else value
    return None


def plain_value(text: str) -> Any:
    """The value of a plain (unquoted, untagged) scalar as gh-models' decoder resolves it into an untyped value."""
    if text in _NULLS:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    if text and text[0] in "+-.0123456789":
        sign = -1.0 if text.startswith("-") else 1.0
        unsigned = text.lstrip("+-")
        if unsigned in _INFINITIES and len(text) - len(unsigned) <= 1:
            return sign * math.inf
        if text in _NANS:
            return math.nan
        number = _integer(text)
        if number is not None:
            return number
        if _FLOAT.match(text.replace("_", "")):
            return float(text.replace("_", ""))
    return text


def _plain(node: ScalarNode) -> bool:
    # The pure-Python composer marks a plain scalar with style None, the C one with ''.
    return not node.style


@dataclass
class YamlDocument:
    """A composed document: its value, the 1-based line where each value starts, and what was wrong with it."""

    value: Any = None
    lines: dict[Path, int] = field(default_factory=dict)
    key_lines: dict[Path, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def line(self, path: Path) -> int | None:
        """The line of the key or item at ``path``, or of its nearest enclosing one (the document's first line)."""
        while path:
            if path in self.key_lines:
                return self.key_lines[path]
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), None)


class _Builder:
    """Turns composed nodes into plain values, noting each value's line and every duplicate key."""

    def __init__(self, document: YamlDocument) -> None:
        self.document = document

    def build(self, node: Node, path: Path) -> Any:
        self.document.lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, ScalarNode):
            return self._scalar(node)
        if isinstance(node, SequenceNode):
            return [self.build(item, (*path, index)) for index, item in enumerate(node.value)]
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        return None  # pragma: no cover - PyYAML composes only these three

    def _scalar(self, node: ScalarNode) -> Any:
        if node.tag == _STR:
            return plain_value(node.value) if _plain(node) else node.value
        if node.tag == "tag:yaml.org,2002:binary":
            # yaml.v3 decodes !!binary into its bytes; as text they are what a placeholder would show.
            try:
                return base64.b64decode(node.value).decode("utf-8", errors="replace")
            except ValueError:
                return node.value
        if node.tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool"):
            value = plain_value(node.value)
            return value if not isinstance(value, str) else node.value
        if node.tag == "tag:yaml.org,2002:null":
            return None
        return node.value  # any other tag: its text, as the decoder keeps an unknown tag's scalar

    def _mapping(self, node: MappingNode, path: Path) -> dict[str, Any]:
        result: dict[str, Any] = {}
        seen: dict[str, int] = {}
        merged: list[dict[str, Any]] = []
        for key_node, value_node in node.value:
            if isinstance(key_node, ScalarNode) and key_node.value == "<<" and _plain(key_node):
                source = self.build(value_node, path)
                merged.extend(source if isinstance(source, list) else [source])
                continue
            # A key is read as its text (gh-models decodes test-data keys into strings).
            key = str(key_node.value) if isinstance(key_node, ScalarNode) else str(self.build(key_node, path))
            line = key_node.start_mark.line + 1
            if key in seen:
                self.document.problems.append(
                    f"line {line}: key {key!r} is already defined at line {seen[key]} (gh-models refuses the file)"
                )
                continue
            seen[key] = line
            self.document.key_lines[(*path, key)] = line
            result[key] = self.build(value_node, (*path, key))
        for source in merged:  # keys written in the mapping itself win over merged ones
            if isinstance(source, dict):
                for key, value in source.items():
                    result.setdefault(key, value)
        return result


def read_yaml(text: str) -> YamlDocument:
    """Compose ``text`` as one YAML document and build its value; a syntax error is a problem with its line."""
    document = YamlDocument()
    try:
        node = compose_yaml(text, source="the file", loader=_Composer)
    except YamlRefused as exc:
        document.problems.append(str(exc).removeprefix("the file: "))
        return document
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        document.problems.append(f"{where}not valid YAML: {exc.problem or exc}")
        return document
    except yaml.YAMLError as exc:
        document.problems.append(f"not valid YAML: {exc}")
        return document
    if node is not None:
        document.value = _Builder(document).build(node, ())
    return document


__all__ = ["Path", "YamlDocument", "plain_value", "read_yaml"]
