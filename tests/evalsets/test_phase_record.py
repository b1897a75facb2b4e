"""Time by phase in the run record: medians per phase over sessions, unknown left out (fast)."""

from __future__ import annotations

from copilot_eval.evalsets.phase_record import PHASE_NAMES, PhaseRecord, median_phases
from copilot_eval.reports.phase_words import medians_html, phase_line


def test_each_phase_median_is_over_the_sessions_that_know_it():
    records = [
        PhaseRecord(total_ms=300, model_ms=100, tools_ms=None, closing_ms=5),
        PhaseRecord(total_ms=500, model_ms=300, tools_ms=40, closing_ms=7),
        PhaseRecord(total_ms=900, model_ms=200, tools_ms=None, closing_ms=6),
    ]
    medians = median_phases(records)
    assert medians is not None and medians.sessions == 3
    assert (medians.total_ms, medians.model_ms, medians.tools_ms, medians.closing_ms) == (500, 200, 40, 6)
    assert medians.context_ms is None  # no session knew it: unknown, never 0
    assert median_phases([]) is None


def test_the_words_name_every_phase_and_say_unknown():
    line = phase_line(PhaseRecord(model_ms=12.4, closing_ms=3))
    assert line is not None and line.startswith("session start unknown · context unknown · model 12 ms")
    assert len(line.split(" · ")) == len(PHASE_NAMES)
    html = medians_html(PhaseRecord(total_ms=10, model_ms=4, sessions=2))
    assert "median over 2 sessions" in html and "4 ms" in html and 'id="phases"' in html
    assert phase_line(None) is None and medians_html(None) == ""


def test_the_record_is_camel_case_in_run_json():
    assert PhaseRecord(session_start_ms=1, host_callbacks_ms=2).model_dump(by_alias=True, exclude_none=True) == {
        "sessionStartMs": 1,
        "hostCallbacksMs": 2,
    }
