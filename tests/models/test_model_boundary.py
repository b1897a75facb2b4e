"""The model boundary: what CopilotEval(model=...) accepts, the no-live-models switch, the renamed names."""

from __future__ import annotations

import warnings

import pytest

from copilot_eval import ByokProvider, CopilotEval, FunctionModel, ScriptedModel, run_copilot
from copilot_eval.models.base import ModelSource
from copilot_eval.models.choice import choose_model
from copilot_eval.models.guard import NO_LIVE_MODELS_ENV, LiveModelsForbidden

SCRIPT = {"rules": [{"turns": [{"text": "scripted hello"}]}]}


def test_every_built_in_source_is_a_model_source() -> None:
    from copilot_eval.models import ByokModel, GitHubModel

    provider = ByokProvider(base_url="http://127.0.0.1:1/v1")
    for source in (
        ScriptedModel.from_dict(SCRIPT),
        FunctionModel(lambda m, t: "x"),
        GitHubModel("gpt-4.1"),
        ByokModel("llama", provider),
    ):
        assert isinstance(source, ModelSource), source


def test_a_model_that_is_not_a_source_is_refused_naming_the_field() -> None:
    with pytest.raises(ValueError, match=r"model\n.*must be a model name or a model source.*got object"):
        CopilotEval(model=object())


def test_choice_names_where_answers_come_from() -> None:
    provider = ByokProvider(base_url="http://127.0.0.1:1/v1")
    assert choose_model(CopilotEval(model="gpt-4.1")).description == "GitHub-hosted"
    byok = choose_model(CopilotEval(model="llama", provider=provider))
    assert byok.description == "BYOK http://127.0.0.1:1/v1" and byok.provider["base_url"] == "http://127.0.0.1:1/v1"
    assert byok.endpoint_factory(working_directory="/tmp") is None  # requests reach the real endpoint
    scripted = choose_model(CopilotEval(model=ScriptedModel.from_dict(SCRIPT)))
    assert scripted.description == "scripted (scripted-model)" and scripted.endpoint_factory() is not None


def test_live_models_refuse_to_start_when_forbidden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NO_LIVE_MODELS_ENV, "1")
    provider = ByokProvider(base_url="http://127.0.0.1:1/v1")
    with pytest.raises(LiveModelsForbidden, match=r"'gpt-4.1' \(GitHub-hosted\) is a live model.*ScriptedModel"):
        choose_model(CopilotEval(model="gpt-4.1"))
    with pytest.raises(LiveModelsForbidden, match=r"BYOK http://127.0.0.1:1/v1"):
        choose_model(CopilotEval(model="llama", provider=provider))
    assert choose_model(CopilotEval(model=ScriptedModel.from_dict(SCRIPT))).model == "scripted-model"
    assert choose_model(CopilotEval(model=FunctionModel(lambda m, t: "x"))).model == "function-model"
    monkeypatch.setenv(NO_LIVE_MODELS_ENV, "0")
    assert choose_model(CopilotEval(model="gpt-4.1")).model == "gpt-4.1"


async def test_a_forbidden_live_model_fails_before_any_runtime_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NO_LIVE_MODELS_ENV, "1")
    with pytest.raises(LiveModelsForbidden):
        await run_copilot(CopilotEval(model="gpt-4.1"), "hello")


PLUGIN_TEST = """
from copilot_eval import CopilotEval, ScriptedModel

async def test_live(copilot_eval):
    await copilot_eval(CopilotEval(model="gpt-4.1"), "hi")

async def test_scripted(copilot_eval):
    model = ScriptedModel.from_dict({"rules": [{"turns": [{"text": "ok"}]}]})
    result = await copilot_eval(CopilotEval(model=model), "hi")
    assert result.final_response == "ok"
"""


@pytest.mark.runtime
def test_the_pytest_option_forbids_live_models(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(NO_LIVE_MODELS_ENV, raising=False)
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_guard=PLUGIN_TEST)
    outcome = pytester.runpytest_subprocess("--copilot-no-live-models", "-p", "no:cacheprovider")
    outcome.assert_outcomes(passed=1, failed=1)
    outcome.stdout.fnmatch_lines(["*LiveModelsForbidden*'gpt-4.1' (GitHub-hosted) is a live model*"])


def test_old_names_still_work_and_warn() -> None:
    import copilot_eval.models as models
    import copilot_eval.models.scripted as scripted
    import copilot_eval.models.scripted.script as script

    for module, old, new in [
        (scripted, "ScriptError", "InvalidScriptError"),
        (scripted, "ScriptedError", "ScriptedHttpError"),
        (script, "Turn", "ScriptedTurn"),
        (models, "ScriptError", "InvalidScriptError"),
    ]:
        with pytest.warns(DeprecationWarning, match=f"{old} is deprecated.*use {new}"):
            value = getattr(module, old)
        assert value is getattr(scripted, new)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="NoSuchName"):
            scripted.NoSuchName  # noqa: B018
