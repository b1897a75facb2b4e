"""`run_suite` takes a suite's name as `attack --suite` does, and says what it needs for anything else."""

from __future__ import annotations

import pytest

from copilot_eval import CopilotEval
from copilot_eval.security.runner import _suite_of


def test_a_name_loads_the_named_suite_and_a_wrong_type_is_named():
    builtin = _suite_of("builtin")
    assert builtin.name == "builtin" and builtin.tasks
    assert _suite_of(builtin) is builtin
    with pytest.raises(TypeError, match=r"run_suite: suite is int; give a suite \(load_suite\(PATH\)"):
        _suite_of(3)


async def test_run_suite_refuses_a_wrong_suite_before_it_plays():
    from copilot_eval.security import run_suite

    with pytest.raises(TypeError, match="run_suite: suite is dict"):
        await run_suite(CopilotEval(model="gpt-4.1"), {"name": "mine"})  # type: ignore[arg-type]
