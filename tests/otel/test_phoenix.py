"""The export against a real receiver: Arize Phoenix, started on 127.0.0.1, read back through its REST API.

One module-scoped Phoenix serves three exports: ``copilot-eval run --otel-endpoint`` on a
two-conversation set, a pytest session with ``--copilot-otel-endpoint``, and a collector that
refuses the spans costing one warning. Marked ``phoenix_receiver`` (and ``slow``):
Phoenix takes 15-30 s to start here; ``-m "not phoenix_receiver"`` leaves the module out.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.otel.phoenix_server import phoenix_command, running_phoenix

pytestmark = [pytest.mark.runtime, pytest.mark.phoenix_receiver, pytest.mark.slow]

if phoenix_command() is None:
    pytest.skip("arize-phoenix is not installed: pip install -e '.[dev]' installs it", allow_module_level=True)

SCRIPT = """\
rules:
  - when: {prompt_contains: "order"}
    turns:
      - tool_calls: [{name: create, arguments: {path: "{working_directory}/note.txt", file_text: "7\\n"}}]
      - text: "Order 7 is on its way."
  - turns:
      - text: "Hello from the shop."
"""
CSV = """\
conversationNumber,question,response
1,hello,Hello from the shop.
1,where is my order,Order 7 is on its way.
2,hi there,Something else entirely.
"""


@pytest.fixture(scope="module")
def phoenix() -> Any:
    with running_phoenix() as server:
        yield server


@pytest.fixture(scope="module")
def exported_run(phoenix, tmp_path_factory) -> dict[str, Any]:
    from copilot_eval.cli.app import app
    from copilot_eval.runtime.process.pool import close_all_pools

    folder = tmp_path_factory.mktemp("otel-run")
    (folder / "script.yaml").write_text(SCRIPT)
    (folder / "agent.yaml").write_text("name: shop\nmodel:\n  scripted: script.yaml\ntimeout_s: 60\n")
    (folder / "set.csv").write_text(CSV)
    outcome = CliRunner().invoke(
        app,
        [
            "run",
            str(folder / "set.csv"),
            "--agent",
            str(folder / "agent.yaml"),
            "--grader",
            "exact",
            "--out",
            str(folder / "out"),
            "--no-progress",
            "--no-history",
            "--otel-endpoint",
            phoenix.url,
        ],
    )
    close_all_pools()
    assert outcome.exit_code == 0, outcome.output
    # Phoenix stores what it receives in the background, and the runtime's own spans come from its
    # process on their own schedule: wait for both the three case spans and the runtime's agent spans.
    spans = phoenix.wait_for_spans(
        lambda s: (
            sum(x["name"].startswith("copilot_eval.case") for x in s) >= 3
            and sum(x["name"].startswith("invoke_agent") for x in s) >= 3
        )
    )
    return {"output": outcome.output, "spans": spans, "folder": folder}


def _cases(spans: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {s["attributes"]["copilot_eval.case.key"]: s for s in spans if s["name"].startswith("copilot_eval.case")}


def test_each_case_is_one_trace_with_its_verdicts(exported_run):
    cases = _cases(exported_run["spans"])
    assert set(cases) == {"1", "1.2", "2"}
    assert len({case["context"]["trace_id"] for case in cases.values()}) == 3  # one trace per case
    assert {k: c["attributes"]["copilot_eval.case.status"] for k, c in cases.items()} == {
        "1": "pass",
        "1.2": "pass",
        "2": "fail",
    }
    for case in cases.values():
        (verdict,) = [e for e in case["events"] if e["name"] == "gen_ai.evaluation.result"]
        attributes = verdict["attributes"]
        assert attributes["gen_ai.evaluation.name"] == "Exact match"
        assert attributes["gen_ai.evaluation.score.label"] == case["attributes"]["copilot_eval.case.status"]
        assert attributes["gen_ai.evaluation.score.value"] in (0.0, 100.0)
        assert case["attributes"]["copilot_eval.test_set.name"] == "set"
    assert "exported 3 case traces to" in exported_run["output"]


def test_the_runtimes_spans_hang_beneath_their_case(exported_run):
    spans = exported_run["spans"]
    cases = _cases(spans)
    by_trace: dict[str, list[dict[str, Any]]] = {}
    for span in spans:
        by_trace.setdefault(span["context"]["trace_id"], []).append(span)
    second = by_trace[cases["1.2"]["context"]["trace_id"]]
    names = Counter(s["name"].split(" ")[0] for s in second)
    assert names["invoke_agent"] == 1 and names["chat"] == 2 and names["execute_tool"] == 1
    assert "session.provisioning" not in names  # the session's start-up went with the conversation's first case
    first = by_trace[cases["1"]["context"]["trace_id"]]
    assert any(s["name"] == "session.provisioning" for s in first)
    ids = {s["context"]["span_id"] for s in second}
    case_id = cases["1.2"]["context"]["span_id"]
    assert all(s["parent_id"] in ids for s in second if s["context"]["span_id"] != case_id)
    (root,) = [s for s in second if s["name"] == "invoke_agent"]
    assert root["parent_id"] == case_id
    chat = next(s for s in second if s["name"].startswith("chat"))
    assert chat["attributes"]["gen_ai.usage.input_tokens"] > 0  # Phoenix reads the GenAI attributes, too
    assert not any("gen_ai.input.messages" in s["attributes"] for s in second)  # no content without the option


def test_a_pytest_session_exports_each_test_as_a_trace(phoenix, pytester):
    pytester.makepyfile(
        test_shop=textwrap.dedent(
            """
            from copilot_eval import CopilotEval, ScriptedModel

            async def test_greets(copilot_eval):
                agent = CopilotEval(name="greeter", model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "hi"}]}]}))
                result = await copilot_eval(agent, "hello")
                assert result.final_response == "bye"
            """
        )
    )
    outcome = pytester.runpytest_subprocess("--copilot-otel-endpoint", phoenix.url, "-p", "no:cacheprovider")
    outcome.assert_outcomes(failed=1)
    key = "test_shop.py::test_greets"
    spans = phoenix.wait_for_spans(lambda s: any(x["name"] == f"copilot_eval.case {key}" for x in s))
    (case,) = [s for s in spans if s["name"] == f"copilot_eval.case {key}"]
    (verdict,) = case["events"]
    assert verdict["attributes"]["gen_ai.evaluation.name"] == "pytest"
    assert verdict["attributes"]["gen_ai.evaluation.score.label"] == "fail"
    beneath = [s for s in spans if s["context"]["trace_id"] == case["context"]["trace_id"] and s is not case]
    assert any(s["name"] == "invoke_agent" and s["parent_id"] == case["context"]["span_id"] for s in beneath)


def test_a_collector_that_goes_away_costs_one_warning_and_a_bounded_flush(phoenix, tmp_path, caplog):
    import time

    from copilot_eval.evalsets import CaseStatus, EvalCaseResult
    from copilot_eval.otel import OtelSettings, RunExporter

    exporter = RunExporter(OtelSettings(endpoint=f"{phoenix.url}/v1/nothing-here", flush_s=2.0), test_set="x")
    result = EvalCaseResult(conversation_number=1, passed=True, status=CaseStatus.PASS)
    started = time.monotonic()
    for _ in range(3):
        exporter.export_case(None, result, None, turn_index=0)
    problem = exporter.close()
    assert problem is not None and time.monotonic() - started < 6
    assert len([r for r in caplog.records if r.name == "copilot_eval.otel"]) == 1
    assert Path(tmp_path).is_dir()
