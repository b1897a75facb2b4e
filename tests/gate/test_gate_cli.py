"""`copilot-eval baseline bless|list|show` and `copilot-eval gate` end to end on run folders and a history database."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.history import HistoryStore, resolve_history
from copilot_eval.history.baselines import list_baselines
from tests.gate.gate_fixtures import gate_run

RECENT = datetime.now(UTC) - timedelta(hours=2)


def cli(*args: str):
    return CliRunner().invoke(app, [str(arg) for arg in args])


def test_bless_list_show_and_a_baseline_that_moves_only_when_blessed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTOR", "octocat")
    db = tmp_path / "history.db"
    first = gate_run(tmp_path / "main-1", ["pass", "pass", "fail"], run_at=RECENT, tools={1: ["lookup_order"]})
    blessed = cli("baseline", "bless", first, "--history", db)
    assert blessed.exit_code == 0, blessed.output
    assert "as baseline 'shop@shop-agent' of shop / shop-agent; the run was stored" in blessed.output
    later = gate_run(tmp_path / "main-2", ["pass", "pass", "pass"], run_at=RECENT + timedelta(minutes=5))
    assert cli("history", "ingest", later, "--history", db).exit_code == 0  # a newer run does not move it
    with HistoryStore.open(resolve_history(str(db))) as store:  # type: ignore[arg-type]
        (baseline,) = list_baselines(store)
    assert baseline.run["run_folder"] == str(first.resolve()) and baseline.blessed_by == "octocat"
    assert baseline.case_steps == {"1.1": ["lookup_order"], "2.1": [], "3.1": []}
    assert baseline.runtime_version == "1.0.102"
    shown = cli("baseline", "show", "shop@shop-agent", "--history", db, "--json")
    document = json.loads(shown.stdout)
    assert document["blessedBy"] == "octocat" and document["scorePercent"] == 66.67 and document["casesWithSteps"] == 3
    moved = cli("baseline", "bless", later, "--history", db)
    assert f"(it named run {document['run']} before)" in moved.output and "the run was already stored" in moved.output
    listed = json.loads(cli("baseline", "list", "--history", db, "--json").stdout)
    assert [b["name"] for b in listed["baselines"]] == ["shop@shop-agent"] and listed["baselines"][0]["passed"] == 3
    named = cli("baseline", "bless", first, "--name", "release-1.2", "--history", db)
    assert named.exit_code == 0
    text = cli("baseline", "list", "--history", db).output
    assert "release-1.2: run" in text and "shop@shop-agent: run" in text and "by octocat" in text
    assert cli("baseline", "show", "nope", "--history", db).exit_code == 2
    plain = cli("baseline", "show", "release-1.2", "--history", db).output
    assert "blessedBy: octocat" in plain and "None" not in plain  # blessed without --note: no "note: None"


def test_the_gate_finds_regressions_errors_and_golden_cases_and_says_so_everywhere(tmp_path):
    db = tmp_path / "history.db"
    main = gate_run(tmp_path / "main", ["pass", "pass", "pass", "fail"], run_at=RECENT,
                    tools={1: ["lookup_order", "refund"], 2: ["lookup_order"]})  # fmt: skip
    assert cli("baseline", "bless", main, "--history", db).exit_code == 0
    pr = gate_run(tmp_path / "pr", ["fail", "pass", "error", "pass"], run_at=RECENT + timedelta(hours=1),
                  tools={1: ["lookup_order", "send_email"], 2: ["lookup_order"]})  # fmt: skip
    md, junit = tmp_path / "gate.md", tmp_path / "gate.xml"
    result = cli("gate", pr, "--history", db, "--markdown", md, "--junit", junit,
                 "--details-url", "https://ci.example/report.html")  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "1 regressed, 1 improved, 1 in error" in result.output
    assert "regressed: case 1: pass -> fail: case 1: fail" in result.output
    assert "exit 1 (below a gate): 1 regression(s), more than --max-regressions 0" in result.output
    text = md.read_text()
    assert "Compared with baseline " in text and "Baseline: baseline" not in text
    assert "score 75% (95% 30.1-95.4%) over 4 -> 66.67% (95% 20.8-93.9%) over 3" in text
    assert (
        "| [case 1](https://ci.example/report.html#case-1-r0) | Question number 1: what does the shop sell? | pass | fail |"
        in text
    )
    assert "```diff\n  lookup_order\n- refund\n+ send_email\n```" in text
    assert "### Errors now (not graded: not a regression, not a pass) (1)" in text and "### Improved (1)" in text
    assert "| tokens | 2,000 | 2,000 |" in text and "| premium requests | 4 | 4 |" in text
    suite = ET.parse(junit).getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("4", "1", "1")
    assert cli("gate", pr, "--history", db, "--max-regressions", "1").exit_code == 0
    golden = tmp_path / "golden.txt"
    golden.write_text("# cases that must never regress\n1.1\n")
    assert cli("gate", pr, "--history", db, "--max-regressions", "5", "--golden", golden).exit_code == 1
    golden.write_text("3.1\n")
    hidden = cli("gate", pr, "--history", db, "--max-regressions", "5", "--golden", golden)
    assert hidden.exit_code == 3 and "golden case(s) in error, not graded: 3.1" in hidden.output
    document = json.loads(cli("gate", pr, "--history", db, "--json").stdout)
    assert document["exitCode"] == 1 and document["counts"]["regressed"] == 1
    assert [c["kind"] for c in document["cases"]] == ["regressed", "unchanged", "error", "improved"]


def test_repeats_are_gated_by_the_one_sided_test(tmp_path):
    main = gate_run(tmp_path / "main", [["pass"] * 3, ["pass"] * 10], run_at=RECENT)
    pr = gate_run(tmp_path / "pr", [["pass", "pass", "fail"], ["pass"] * 2 + ["fail"] * 8], run_at=RECENT)
    result = cli("gate", pr, "--baseline-dir", main, "--markdown", "-")
    assert result.exit_code == 1
    assert "| 10/10 | 2/10 (p=0.000357) |" in result.stdout
    assert "### Lower, not significant (1)" in result.stdout and "case 1: 3/3 -> 2/3" in result.stdout


def test_no_baseline_says_how_to_bless_one_and_a_stale_one_is_named(tmp_path):
    db = tmp_path / "history.db"
    pr = gate_run(tmp_path / "pr", ["pass"], run_at=RECENT)
    assert cli("history", "ingest", pr, "--history", db).exit_code == 0
    missing = cli("gate", pr, "--history", db)
    assert missing.exit_code == 2
    assert "No baseline of shop@shop-agent is in the history" in missing.output
    assert "copilot-eval baseline bless RUN_DIR" in missing.output
    assert "Baseline 'other' is not in the history" in cli("gate", pr, "--history", db, "--baseline", "other").output
    old = gate_run(tmp_path / "old", ["pass"], run_at=RECENT - timedelta(days=10), runtime="1.0.90")
    assert cli("baseline", "bless", old, "--history", db).exit_code == 0
    stale = cli("gate", pr, "--history", db)
    assert stale.exit_code == 0
    assert "stale baseline: the baseline ran 10 days ago (more than --stale-days 7)" in stale.output
    assert "stale baseline: another runtime version (1.0.90 -> 1.0.102)" in stale.output
    assert "ran 10 days" not in cli("gate", pr, "--history", db, "--stale-days", "30").output
    assert cli("gate", tmp_path / "nowhere", "--history", db).exit_code == 2
    # No database at all: nothing recorded, and how to bless a baseline, as with one that has none.
    empty = cli("gate", pr, "--history", tmp_path / "never.db")
    assert empty.exit_code == 2
    said = " ".join(empty.output.split())
    assert "no history database at" in said and "copilot-eval baseline bless RUN_DIR" in said


def test_a_run_that_measures_the_platform_is_undecidable(tmp_path):
    main = gate_run(tmp_path / "main", ["pass", "pass"], run_at=RECENT)
    pr = gate_run(tmp_path / "pr", ["fail", "fail"], run_at=RECENT, limitation="every answer was the fallback")
    result = cli("gate", pr, "--baseline-dir", main)
    assert result.exit_code == 3
    assert (
        "exit 3 (the platform or the infrastructure): a runtime limitation is recorded: the score measures the platform"
        in result.output
    )
