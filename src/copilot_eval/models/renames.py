"""Names of the models layer that were renamed, kept for one release as deprecated aliases.

Each old name still resolves to the same object (so ``except ScriptError`` keeps catching), but
using it warns with DeprecationWarning naming the new one. CHANGELOG.md lists every rename.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

__all__ = ["RENAMED", "deprecated_alias"]

# old name -> new name (all live in copilot_eval.models.scripted.script)
RENAMED = {
    "ScriptError": "InvalidScriptError",
    "ScriptedError": "ScriptedHttpError",
    "Turn": "ScriptedTurn",
}


def deprecated_alias(module: str, name: str, resolve: Callable[[str], Any]) -> Any:
    """The object now called ``RENAMED[name]``, with a DeprecationWarning; AttributeError for other names."""
    new = RENAMED.get(name)
    if new is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    warnings.warn(
        f"{module}.{name} is deprecated and will be removed in the next release; use {new}",
        DeprecationWarning,
        stacklevel=3,
    )
    return resolve(new)
