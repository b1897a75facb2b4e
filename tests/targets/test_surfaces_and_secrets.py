"""Several surfaces in one `copilot-eval run`, the Raybot record reproduced, and secrets never written."""

from __future__ import annotations

import importlib.util
import json
import logging
from pathlib import Path

from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.testing import FakeAgent, FakeAgentsSdk, FakeDirectLine, LoopbackServer, grounded

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "copilot-studio" / "run_example.py"


def _load_example():
    spec = importlib.util.spec_from_file_location("raybot_run_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_seed_raybot_record_is_reproduced_with_three_surfaces(tmp_path, capsys):
    # Draft and Published record runtime limitations: the run is no verdict on the agent there. That is
    # the platform's row (3), which comes before the gate's (1), and the one line names both surfaces.
    # (In this process: the example's `raise SystemExit(main())` hands the same code to the shell.)
    assert _load_example().main(["--out", str(tmp_path), "--fail-under", "50"]) == 3
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line.startswith(
        "exit 3 (the platform or the infrastructure): raybot-draft: a runtime limitation is confirmed"
    )
    assert "; raybot-published: no case could be graded; a runtime limitation is confirmed" in line
    assert "raybot-preview" not in line
    runs = {
        name: json.loads((tmp_path / f"raybot-{name}" / "run.json").read_text())
        for name in ("draft", "published", "preview")
    }
    draft, published, preview = runs["draft"], runs["published"], runs["preview"]
    assert (draft["generalQualityPercent"], draft["passed"], draft["failed"]) == (0, 0, 6)
    assert (published["errored"], published["passed"], published["failed"]) == (6, 0, 0)
    assert (preview["generalQualityPercent"], preview["passed"]) == (100, 6)
    assert preview.get("runtimeLimitation") is None
    for limited in (draft, published):
        assert limited["limitationStanding"] == "confirmed"
        assert limited["limitationConfirmedBy"] == [
            "surface raybot-preview answered the same 6 questions well: 6 of 6 passed (100%) with 4 distinct citations"
        ]
        assert not limited["runtimeLimitation"].startswith(("Suspected", "Confirmed"))  # the standing is a field
        assert limited["confidence"] == "CONFIRMED"
    comparison = json.loads((tmp_path / "comparison.json").read_text())
    assert [s["label"] for s in comparison["surfaces"]] == ["raybot-draft", "raybot-published", "raybot-preview"]
    first = comparison["cases"][0]["surfaces"]
    assert [first[label][0]["status"] for label in ("raybot-draft", "raybot-published", "raybot-preview")] == [
        "fail",
        "error",
        "pass",
    ]


def test_two_surfaces_name_the_bad_agent_file(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text("target: {type: directline, token_endpoint: 'https://example.invalid/token'}\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("target: {type: directline}\n")
    csv = tmp_path / "set.csv"
    csv.write_text('"conversationNumber","question","response"\n"1","q","r"\n')
    result = CliRunner().invoke(
        app,
        ["run", str(csv), "--agent", str(good), "--agent", str(bad), "--out", str(tmp_path / "out"), "--no-progress"],
    )
    assert result.exit_code == 2
    assert f"--agent {bad}: {bad}: target: give exactly one of token_endpoint" in result.output


def test_no_secret_or_token_reaches_any_file_written_or_the_output(tmp_path, monkeypatch, caplog):
    dl_secret, user_token = "CANARY-dl-secret-0b7c5e21", "CANARY-entra-token-9d3f44aa"
    monkeypatch.setenv("CANARY_DL_SECRET", dl_secret)
    monkeypatch.setenv("CANARY_PP_TOKEN", user_token)
    caplog.set_level(logging.DEBUG)
    agent = FakeAgent(rules=[("ray", grounded("Ray runs tasks [1].", [("https://docs.ray.io/x", "X")]))])
    directline = FakeDirectLine(agent, secret=dl_secret)
    sdk = FakeAgentsSdk(agent, token=user_token)
    csv = tmp_path / "set.csv"
    csv.write_text(
        '"conversationNumber","question","response"\n"1","What does ray run?","Ray runs tasks [1]."\n'
        '"2","Unknown question","I do not know."\n'
    )
    with LoopbackServer(directline), LoopbackServer(sdk):
        (tmp_path / "dl.yaml").write_text(
            f"name: dl\ntarget:\n  type: directline\n  secret_env: CANARY_DL_SECRET\n  directline_url: "
            f"{directline.directline_url}\n  quiet_s: 0.3\n  poll_interval_s: 0.05\n"
        )
        (tmp_path / "sdk.yaml").write_text(
            f"name: sdk\ntarget:\n  type: copilot-studio\n  direct_connect_url: {sdk.direct_connect_url}\n"
            "  token_env: CANARY_PP_TOKEN\n"
        )
        out = tmp_path / "out"
        result = CliRunner().invoke(
            app,
            [
                "run",
                str(csv),
                "--agent",
                str(tmp_path / "dl.yaml"),
                "--agent",
                str(tmp_path / "sdk.yaml"),
                "--out",
                str(out),
                "--no-progress",
            ],
        )
    assert result.exit_code == 0, result.output
    issued = list(directline._tokens)  # every Direct Line token the fake handed out
    assert issued
    written = [path for path in out.rglob("*") if path.is_file()]
    assert len(written) >= 8  # two run folders (run.json, results.csv, checkpoint, evidence) + comparison.json
    for path in written:
        text = path.read_text(encoding="utf-8")
        for secret in (dl_secret, user_token, *issued):
            assert secret not in text, f"{secret} written to {path}"
    for secret in (dl_secret, user_token, *issued):
        assert secret not in result.output and secret not in caplog.text
    evidence = json.loads(next((out / "dl" / "evidence").glob("*.json")).read_text())
    assert evidence["http"] and evidence["turns"][0]["activities"]  # the evidence is there, only without secrets
