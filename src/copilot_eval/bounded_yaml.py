"""The one way copilot-eval reads YAML: bounded in size, alias expansion and depth before anything is built.

YAML's anchors and aliases let a file of a few hundred bytes stand for billions of nodes (the
"billion laughs"): PyYAML builds such a document as shared objects, but whatever walks it next
(a builder that copies, a fingerprint, a JSON dump) hangs or runs out of memory. Every YAML the
tool reads comes from someone: agent files, scripted model files, prompt files, injection suites,
trajectory files. So every reader goes through this module, which

- refuses a file over ``MAX_YAML_BYTES`` from its size on disk, before reading it;
- composes the document (linear in its text: an alias is a reference, not a copy), then counts the
  nodes the document stands for with each alias expanded, memoised per node so the count costs one
  pass over what was written, and refuses a document whose aliases add more than
  ``MAX_ALIAS_NODES`` nodes, or one that refers to itself;
- refuses a document nested deeper than ``MAX_DEPTH`` (PyYAML's own composer recurses and would
  fail with a RecursionError first on the pure-Python parser).

A refusal is a ``YamlRefused``, a ``yaml.YAMLError``, so every reader's existing handling of a
malformed file (the file named, exit 2) applies to it unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

#: The largest YAML file read (8 MiB); a real agent, prompt or suite file is a few kB, a large prompt file ~0.5 MB.
MAX_YAML_BYTES = 8 * 1024 * 1024
#: How many nodes the aliases of one document may add when expanded (what was written is bounded by the size).
MAX_ALIAS_NODES = 100_000
#: How deeply collections may nest.
MAX_DEPTH = 200


class YamlRefused(yaml.YAMLError):
    """A YAML file or text this tool will not build: too large, an alias bomb, or nested too deeply."""


def _loader_class() -> type[yaml.SafeLoader]:
    # libyaml's parser when PyYAML has it: faster, and it does not recurse in Python while composing.
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def check_yaml_size(path: Path) -> None:
    """Refuse ``path`` when it is larger than ``MAX_YAML_BYTES``, from its size on disk (before it is read)."""
    size = path.stat().st_size
    if size > MAX_YAML_BYTES:
        raise YamlRefused(
            f"{path}: {size:,} bytes is more than the {MAX_YAML_BYTES:,} bytes a YAML file may have here; "
            "split the file or shorten it"
        )


def read_yaml_text(path: Path) -> str:
    """The text of the YAML file at ``path``, refused before reading when it is over the size limit."""
    check_yaml_size(path)
    return path.read_text(encoding="utf-8")


def check_node(node: Node | None, *, source: str = "YAML") -> None:
    """Refuse a composed document whose aliases expand past ``MAX_ALIAS_NODES`` or that nests past ``MAX_DEPTH``."""
    if node is None:
        return
    expanded: dict[int, int] = {}  # node id -> nodes it stands for, expanded
    written: set[int] = set()
    on_path: set[int] = set()
    # Iterative post-order walk: (node, depth, children done?)
    stack: list[tuple[Node, int, bool]] = [(node, 1, False)]
    while stack:
        current, depth, done = stack.pop()
        key = id(current)
        if done:
            on_path.discard(key)
            expanded[key] = 1 + sum(expanded[id(child)] for child in _children(current))
            continue
        written.add(key)
        if key in expanded:
            continue  # an alias of a node already counted: its count is known, nothing to walk again
        if key in on_path:
            raise YamlRefused(f"{source}: an alias refers to the collection that contains it; write the data out")
        if depth > MAX_DEPTH:
            raise YamlRefused(f"{source}: nested more than {MAX_DEPTH} levels deep; flatten the document")
        on_path.add(key)
        stack.append((current, depth, True))
        stack.extend((child, depth + 1, False) for child in _children(current))
    added = expanded[id(node)] - len(written)
    if added > MAX_ALIAS_NODES:
        raise YamlRefused(
            f"{source}: its aliases (*name) expand to {added:,} more nodes than are written, over the limit of "
            f"{MAX_ALIAS_NODES:,} (a YAML alias bomb?); write the repeated parts out or use fewer aliases"
        )


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def compose_yaml(text: str, *, source: str = "YAML", loader: type[Any] | None = None) -> Node | None:
    """Compose ``text`` as one document with ``loader`` (a SafeLoader subclass), refused past the bounds."""
    if len(text) > MAX_YAML_BYTES:
        raise YamlRefused(f"{source}: more than the {MAX_YAML_BYTES:,} bytes a YAML document may have here")
    instance = (loader or _loader_class())(text)
    try:
        try:
            node = instance.get_single_node()
        except RecursionError:
            raise YamlRefused(f"{source}: nested too deeply to read; flatten the document") from None
        check_node(node, source=source)
        return node
    finally:
        instance.dispose()


def load_yaml(text: str, *, source: str = "YAML", loader: type[Any] | None = None) -> Any:
    """``yaml.safe_load`` with bounds: the value of one document, or ``YamlRefused`` past a limit."""
    instance = (loader or _loader_class())("")
    try:
        node = compose_yaml(text, source=source, loader=loader)
        if node is None:
            return None
        return instance.construct_document(node)
    finally:
        instance.dispose()


def load_yaml_file(path: Path, *, loader: type[Any] | None = None) -> Any:
    """The value of the YAML file at ``path``, refused before reading when too large and before building when a bomb."""
    return load_yaml(read_yaml_text(path), source=str(path), loader=loader)


__all__ = [
    "MAX_ALIAS_NODES",
    "MAX_DEPTH",
    "MAX_YAML_BYTES",
    "YamlRefused",
    "check_node",
    "check_yaml_size",
    "compose_yaml",
    "load_yaml",
    "load_yaml_file",
    "read_yaml_text",
]
