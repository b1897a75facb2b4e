"""`copilot-eval run ... --gate NAME`: the run gated as it ends, its exit code the worse of the run's and the gate's."""

from __future__ import annotations

from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.testing import LoopbackServer
from tests.gate.test_action import _agent, _shop, _test_set


def test_run_gates_as_it_ends_against_the_series_baseline(tmp_path):
    test_set, history = _test_set(tmp_path), tmp_path / "history.db"
    with LoopbackServer(_shop(deposit_broken=False)) as good, LoopbackServer(_shop(deposit_broken=True)) as worse:
        main = ["run", test_set, "--agent", _agent(tmp_path, good.app, "main"), "--out", tmp_path / "main",
                "--no-progress", "--history", history]  # fmt: skip
        missing = CliRunner().invoke(app, [str(a) for a in [*main, "--gate", "auto"]])
        assert missing.exit_code == 2 and "Bless one from a run on your main branch" in missing.output
        assert (tmp_path / "main" / "run.json").is_file()  # the run is kept whatever the gate says
        assert (
            CliRunner().invoke(app, ["baseline", "bless", str(tmp_path / "main"), "--history", str(history)]).exit_code
            == 0
        )
        pr = ["run", test_set, "--agent", _agent(tmp_path, worse.app, "pr"), "--out", tmp_path / "pr",
              "--no-progress", "--history", history, "--gate", "auto"]  # fmt: skip
        gated = CliRunner().invoke(app, [str(a) for a in pr])
        allowed = CliRunner().invoke(app, [str(a) for a in [*pr, "--max-regressions", "1", "--out", tmp_path / "pr2"]])
    assert gated.exit_code == 1, gated.output
    assert "gate against baseline shop@shop-agent: 1 regressed" in gated.output
    assert "exit 1 (below a gate): 1 regression(s), more than --max-regressions 0" in gated.output
    assert "## copilot-eval gate: below the gate" in (tmp_path / "pr" / "gate.md").read_text()
    assert allowed.exit_code == 0, allowed.output
    no_gate = CliRunner().invoke(
        app, ["run", str(test_set), "--agent", str(tmp_path / "main.yaml"), "--max-regressions", "2"]
    )
    assert no_gate.exit_code == 2 and "give --gate NAME (or --gate auto)" in no_gate.output
