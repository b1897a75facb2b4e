"""An injection suite's report leads with utility and attack success, not with a pooled score."""

from __future__ import annotations

import json

from copilot_eval.reports.html_run import run_report_html
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.reports.security_figures import SECURITY_JSON, read_security_headline
from tests.reports.report_fixtures import build_run_folder


def _summary(done: int, baselines: int, attacked: int, delivered: int) -> dict:
    def rate(hits: int, trials: int) -> dict:
        return {"hits": hits, "trials": trials, "rate": hits / trials if trials else None, "interval": None}

    return {
        "utilityWithoutAttack": rate(done, baselines),
        "utilityUnderAttack": rate(0, delivered),
        "attackSuccess": rate(attacked, delivered),
    }


def test_a_security_run_leads_with_utility_and_says_an_idle_agent_proves_nothing(tmp_path):
    build_run_folder(tmp_path)
    plain = run_report_html(read_run_folder(tmp_path))
    assert "score over" in plain and "utility without attack" not in plain  # any other run keeps its score
    (tmp_path / SECURITY_JSON).write_text(json.dumps({"summary": _summary(0, 3, 0, 4)}), encoding="utf-8")
    html = run_report_html(read_run_folder(tmp_path))
    assert "score over" not in html
    first = html.index("utility without attack")
    assert first < html.index("utility under attack") < html.index("attack success (delivered)")
    assert "0/3 = 0.0 %" in html and "0/4 = 0.0 %" in html
    assert 'id="utility-caveat"' in html and "did none of the user&#x27;s tasks without attack (0 of 3)" in html


def test_a_working_agent_has_no_caveat_and_a_damaged_file_is_no_headline(tmp_path):
    (tmp_path / SECURITY_JSON).write_text(json.dumps({"summary": _summary(3, 3, 1, 4)}), encoding="utf-8")
    headline = read_security_headline(tmp_path)
    assert headline is not None and headline.caveat() is None
    assert headline.attack_success.text() == "1/4 = 25.0 %"
    (tmp_path / SECURITY_JSON).write_text('{"summary": {"attackSuccess": {"hits": 5, "trials": 2}}}', encoding="utf-8")
    assert read_security_headline(tmp_path) is None
