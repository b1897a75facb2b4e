"""Damage to real inputs, drawn by Hypothesis as short recipes that replay exactly.

A recipe is a list of small tuples (``("drop", 4)``, ``("retype", 7, ("data", "toolCallId"), 0)``):
Hypothesis shrinks it to the fewest steps, and a failing one is kept as a regular test by writing
the recipe down next to the real file it damages.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

# A value of the wrong type for whatever field it replaces.
WRONG_VALUES = [None, "", "x", 0, -1, 2**40, 1.5, True, [], {}, ["a"], {"k": 1}]
JUNK = [
    b'"',
    b",",
    b"\n",
    b"\r",
    b"\r\n",
    b"\x00",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xe9",
    b"\t",
    b'""',
    b"0",
    b"-1",
    b"99999999999999999999",
    b"   ",
    b":",
    b"- ",
    b"{",
    b"[",
    b"'",
    b"#",
    b"*",
    b"&a",
    b"!!python/name:os.system",
]
Op = tuple[Any, ...]


def paths_of(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path inside nested dicts and lists (the value itself excluded)."""
    found: list[tuple[Any, ...]] = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found.append((*prefix, key))
        found.extend(paths_of(item, (*prefix, key)))
    return found


def _parent(root: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        root = root[key]
    return root


def apply_tree_op(tree: Any, op: Op) -> None:
    """Apply one field-level step to a JSON-like tree, in place."""
    action, path = op[0], op[1]
    parent = _parent(tree, path)
    if action == "remove":
        del parent[path[-1]]
    elif action == "retype":
        parent[path[-1]] = copy.deepcopy(op[2])
    elif action == "copy_to":  # a dict key cannot repeat: its value lands on a sibling key too
        parent[op[2]] = copy.deepcopy(parent[path[-1]])
    elif action == "repeat":
        parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))


@st.composite
def tree_op(draw: st.DrawFn, tree: Any) -> Op | None:
    """One field-level step valid for ``tree`` (``None`` when it has no fields)."""
    paths = paths_of(tree)
    if not paths:
        return None
    path = draw(st.sampled_from(paths))
    action = draw(st.sampled_from(["remove", "retype", "retype", "copy"]))
    if action == "retype":
        return ("retype", path, draw(st.sampled_from(WRONG_VALUES)))
    if action == "copy":
        parent = _parent(tree, path)
        if isinstance(parent, list):
            return ("repeat", path)
        return ("copy_to", path, draw(st.sampled_from(sorted(parent, key=str))))
    return ("remove", path)


def apply_recipe(items: list[Any], recipe: list[Op]) -> list[Any]:
    """A copy of ``items`` with the recipe's steps applied in order (``items`` is left intact)."""
    result = list(items)  # items are copied only when a step changes one (see "field")
    for op in recipe:
        action = op[0]
        if action == "swap":
            result[op[1]], result[op[2]] = result[op[2]], result[op[1]]
        elif action == "move":
            result.insert(op[2], result.pop(op[1]))
        elif action == "duplicate":
            result.insert(op[2], result[op[1]])
        elif action == "drop":
            del result[op[1]]
        elif action == "truncate":
            result = result[: op[1]]
        elif action == "field":
            result[op[1]] = copy.deepcopy(result[op[1]])
            apply_tree_op(result[op[1]], op[2])
    return result


@st.composite
def recipes(draw: st.DrawFn, items: list[Any], *, max_steps: int = 5, fields: bool = True) -> list[Op]:
    """Steps that reorder, duplicate, drop, truncate or (``fields``) damage single items."""
    current = list(items)
    recipe: list[Op] = []
    for _ in range(draw(st.integers(1, max_steps))):
        if not current:
            break
        i = draw(st.integers(0, len(current) - 1))
        actions = ["swap", "move", "duplicate", "drop", "truncate"] + (["field"] * 3 if fields else [])
        action = draw(st.sampled_from(actions))
        if action in ("swap", "move"):
            op: Op = (action, i, draw(st.integers(0, len(current) - 1)))
        elif action == "duplicate":
            op = (action, i, draw(st.integers(0, len(current))))
        elif action in ("drop", "truncate"):
            op = (action, i)
        else:
            step = draw(tree_op(current[i]))
            if step is None:
                continue
            op = ("field", i, step)
        recipe.append(op)
        current = apply_recipe(current, [op])
    return recipe


def apply_byte_recipe(data: bytes, recipe: list[Op]) -> bytes:
    """File bytes with the recipe's line and byte steps applied in order."""
    for op in recipe:
        if op[0] == "lines":
            data = b"\n".join(apply_recipe(data.split(b"\n"), op[1]))
        elif op[0] == "insert":
            data = data[: op[1]] + op[2] + data[op[1] :]
        elif op[0] == "delete":
            data = data[: op[1]] + data[op[1] + op[2] :]
    return data


@st.composite
def byte_recipes(draw: st.DrawFn, data: bytes, *, max_steps: int = 4) -> list[Op]:
    """Lines swapped, duplicated or cut, and separators, quotes or junk inserted or bytes deleted."""
    recipe: list[Op] = []
    if draw(st.booleans()):
        recipe.append(("lines", draw(recipes(data.split(b"\n"), max_steps=2, fields=False))))
    current = apply_byte_recipe(data, recipe)
    for _ in range(draw(st.integers(0, max_steps))):
        at = draw(st.integers(0, len(current)))
        if draw(st.booleans()) and at < len(current):
            op: Op = ("delete", at, draw(st.integers(1, 8)))
        else:
            op = ("insert", at, draw(st.sampled_from(JUNK)))
        recipe.append(op)
        current = apply_byte_recipe(current, [op])
    return recipe


@st.composite
def tree_recipes(draw: st.DrawFn, tree: Any, *, max_steps: int = 4) -> list[Op]:
    """Field-level steps (remove, retype, copy) for one JSON-like tree such as a parsed YAML file."""
    current = copy.deepcopy(tree)
    recipe: list[Op] = []
    for _ in range(draw(st.integers(1, max_steps))):
        step = draw(tree_op(current))
        if step is None:
            break
        recipe.append(step)
        apply_tree_op(current, step)
    return recipe


def apply_tree_recipe(tree: Any, recipe: list[Op]) -> Any:
    """A deep copy of ``tree`` with the field-level steps applied."""
    result = copy.deepcopy(tree)
    for step in recipe:
        apply_tree_op(result, step)
    return result
