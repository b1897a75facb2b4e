"""The curated public names of copilot_eval.targets and copilot_eval.testing resolve and are documented."""

from __future__ import annotations

import pytest

import copilot_eval.targets
import copilot_eval.testing


@pytest.mark.parametrize("module", [copilot_eval.targets, copilot_eval.testing])
def test_every_public_name_resolves_and_has_a_docstring(module):
    for name in module.__all__:
        value = getattr(module, name)
        if callable(value):
            assert (value.__doc__ or "").strip(), f"{module.__name__}.{name} has no docstring"
