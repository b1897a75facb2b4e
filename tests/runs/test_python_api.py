"""The Python calls that play and finish show the engine's whole signature to help() and to callers."""

from __future__ import annotations

import inspect
import pydoc

import pytest

from copilot_eval.runs import play_eval_set, run_eval_set, run_surfaces
from copilot_eval.runs.surfaces import play_surfaces


@pytest.mark.parametrize(("call", "engine"), [(run_eval_set, play_eval_set), (run_surfaces, play_surfaces)])
def test_the_calls_take_the_engines_parameters_under_their_own_name_and_doc(call, engine):
    assert inspect.signature(call) == inspect.signature(engine)
    assert inspect.iscoroutinefunction(call)
    assert call.__module__ == "copilot_eval.runs.python_api" and call.__doc__ != engine.__doc__
    shown = pydoc.render_doc(call, renderer=pydoc.plaintext)
    assert f"async {call.__name__}(test_set" in shown and "validate: 'bool' = True" in shown
    assert "and finish" in shown  # the call's own docstring, not the engine's


def test_a_misspelt_keyword_is_refused_before_anything_plays():
    with pytest.raises(TypeError, match="pol"):
        run_eval_set(None, None, pol=3).send(None)
