"""People beside the judges: verdicts stored with who and when, effective verdicts, agreement per grader.

The agreement figures are checked against an example computed by hand (below), once on the pure
figures and once through the history, a labels file and `copilot-eval history agreement --json`.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets.agreement_stats import agreement
from copilot_eval.history import HistoryError, HistoryStore, resolve_history
from copilot_eval.history.agreement import grader_agreement
from copilot_eval.history.human_verdicts import HumanLabel, add_verdicts, given_verdicts, rescore
from copilot_eval.history.ingest import record_after_run
from copilot_eval.history.labels_file import LabelsFileError, read_labels
from copilot_eval.history.review_queue import DISAGREE, UNSTABLE, review_queue, stored_folder
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.runs.finish import FinishOptions, FolderRun, finish_run_folders
from tests.history.people_fixtures import write_graded_run

# The hand-computed example: 20 answers people reviewed, "pass" the positive class.
#   both pass 8, grader fail / person pass 2, grader pass / person fail 3, both fail 7.
#   TPR = 8 / (8 + 2) = 0.8          TNR = 7 / (7 + 3) = 0.7          accuracy p_o = 15 / 20 = 0.75
#   grader passes 11 of 20, person 10 of 20: p_e = 0.55 * 0.5 + 0.45 * 0.5 = 0.5
#   kappa = (0.75 - 0.5) / (1 - 0.5) = 0.5
#   Wilson 95 % interval of 15 of 20 (z = 1.95996): centre (0.75 + z²/40) / (1 + z²/20) = 0.70972,
#   half-width z * sqrt(0.75 * 0.25 / 20 + z²/1600) / (1 + z²/20) = 0.17842: [0.53130, 0.88814];
#   through kappa's formula: [(0.53130 - 0.5) / 0.5, (0.88814 - 0.5) / 0.5] = [0.0626, 0.7763]
GRADER = ["pass"] * 8 + ["fail"] * 2 + ["pass"] * 3 + ["fail"] * 7
PERSON = ["pass"] * 10 + ["fail"] * 10


def test_the_agreement_figures_match_the_hand_computed_example():
    figures = agreement([(g == "pass", p == "pass") for g, p in zip(GRADER, PERSON, strict=True)])
    assert (figures.both_pass, figures.grader_fail_person_pass, figures.grader_pass_person_fail, figures.both_fail) == (
        8,
        2,
        3,
        7,
    )
    assert (figures.true_positive_rate, figures.true_negative_rate, figures.accuracy) == (0.8, 0.7, 0.75)
    assert figures.kappa == pytest.approx(0.5)
    low, high = figures.kappa_interval
    assert (low, high) == (pytest.approx(0.0626, abs=1e-4), pytest.approx(0.7763, abs=1e-4))


def test_kappa_where_chance_decides_everything_is_unknown_and_ten_agreeing_answers_are_not_certainty():
    one_class = agreement([(True, True)] * 6)
    assert one_class.kappa is None and one_class.kappa_interval is None and one_class.accuracy == 1.0
    assert agreement([]).kappa is None and agreement([]).true_positive_rate is None
    ten = agreement([(True, True)] * 5 + [(False, False)] * 5)
    assert ten.kappa == 1.0 and ten.kappa_interval[0] == pytest.approx(0.445, abs=1e-3)  # not [1, 1]


def _store(tmp_path) -> HistoryStore:
    location = resolve_history(str(tmp_path / "history.db"))
    assert location is not None
    return HistoryStore.open(location)


def test_verdicts_are_stored_with_who_and_when_and_the_latest_stands(tmp_path):
    folder = write_graded_run(tmp_path / "run", [["pass"], ["fail"], ["pass"]])
    with _store(tmp_path) as store:
        _, run_id = stored_folder(store, folder)
        add_verdicts(store, run_id, [HumanLabel("2.1", "pass", "ada", note="the judge missed the table")])
        later = datetime(2030, 1, 1, tzinfo=UTC)
        add_verdicts(store, run_id, [HumanLabel("3.1", "fail", "bob", given_at=later, source="import")])
        add_verdicts(store, run_id, [HumanLabel("3.1", "pass", "cy", given_at=datetime(2029, 1, 1, tzinfo=UTC))])
        given = given_verdicts(store, run_id)
        assert (given[("2.1", 0)].reviewer, given[("2.1", 0)].note) == ("ada", "the judge missed the table")
        assert (given[("3.1", 0)].verdict, given[("3.1", 0)].reviewer) == ("fail", "bob")  # given last, by its time
        rescored = rescore(store, run_id)
        assert [(v.case_key, v.status, v.by) for v in rescored.verdicts] == [
            ("1.1", "pass", "graders"),
            ("2.1", "pass", "person"),
            ("3.1", "fail", "person"),
        ]
        assert (rescored.reviewed, rescored.changed) == (2, 2)
        assert rescored.summary() == (
            "people reviewed 2 of 3 case results and changed 2 verdicts: score 66.67% by the graders, "
            "66.67% with people's"
        )
        with pytest.raises(HistoryError, match=r"has no case 9\.1 \(its cases: 1\.1, 2\.1, 3\.1\)"):
            add_verdicts(store, run_id, [HumanLabel("9.1", "pass", "ada")])
    with pytest.raises(ValueError, match="not pass or fail"):
        HumanLabel("1.1", "maybe", "ada")


def test_the_queue_puts_disagreeing_graders_then_a_wavering_judge_first(tmp_path):
    folder = write_graded_run(
        tmp_path / "run",
        [["pass", "pass"], ["pass", "pass"], ["pass", "fail"], ["fail", "fail"]],
        methods=("Judge A", "Text similarity"),
        unstable=[2],
    )
    queue = review_queue(read_run_folder(folder), {})
    assert [(item.case_key, item.first_because) for item in queue] == [
        ("3.1", DISAGREE),
        ("2.1", UNSTABLE),
        ("1.1", None),
        ("4.1", None),
    ]
    assert (
        queue[0].question == "Question 3?" and queue[0].reference == "Reference 3." and queue[0].answer == "Answer 3."
    )


def _labels(tmp_path, rows: list[str]):
    path = tmp_path / "labels.csv"
    path.write_text("\n".join(["case,verdict,reviewer,note", *rows]) + "\n", encoding="utf-8")
    return path


def test_a_labels_file_is_read_and_every_problem_named_by_line(tmp_path):
    labels = read_labels(_labels(tmp_path, ["3,Pass,ada,ok", "4.2,fail,,", ""]), reviewer="ops")
    assert [(x.case_key, x.verdict, x.reviewer, x.note) for x in labels] == [
        ("3.1", "pass", "ada", "ok"),
        ("4.2", "fail", "ops", None),
    ]
    with pytest.raises(LabelsFileError) as bad:
        read_labels(_labels(tmp_path, ["three,pass,ada,", "2,maybe,ada,", "3,pass,,"]))
    assert bad.value.problems == [
        "line 2, case: 'three' is not a case number (3, or 3.2 for turn 2)",
        "line 3, verdict: 'maybe' is not pass or fail",
        "line 4, reviewer: empty; fill it in or give --reviewer",
    ]


def test_agreement_through_the_history_matches_the_hand_computed_example(tmp_path):
    folder = write_graded_run(tmp_path / "run", [[g, "pass"] for g in GRADER], methods=("Judge A", "Always pass"))
    labels = _labels(tmp_path, [f"{n},{verdict},ada," for n, verdict in enumerate(PERSON, start=1)])
    url = str(tmp_path / "history.db")
    runner = CliRunner()
    imported = runner.invoke(app, ["review", str(folder), "--import", str(labels), "--history", url])
    assert imported.exit_code == 0, imported.output
    assert "imported 20 verdicts" in imported.output
    assert "people reviewed 20 of 20 case results and changed 5 verdicts" in imported.output
    done = runner.invoke(app, ["history", "agreement", "--json", "--history", url])
    assert done.exit_code == 0, done.output
    graders = {g["grader"]: g for g in json.loads(done.output)["graders"]}
    judge = graders["Judge A"]
    assert (judge["count"], judge["truePositiveRate"], judge["trueNegativeRate"], judge["accuracy"]) == (
        20,
        0.8,
        0.7,
        0.75,
    )
    assert judge["kappa"] == 0.5 and judge["kappaInterval"] == {
        "low": pytest.approx(0.0626, abs=1e-4),
        "high": pytest.approx(0.7763, abs=1e-4),
    }
    assert judge["belowMinKappa"] is True  # 0.5 < 0.6
    always = graders["Always pass"]
    assert (always["truePositiveRate"], always["trueNegativeRate"], always["kappa"]) == (1.0, 0.0, 0.0)
    only = runner.invoke(app, ["history", "agreement", "--grader", "Judge A", "--min-kappa", "0.4", "--history", url])
    assert "Judge A" in only.output and "Always pass" not in only.output and "below the floor" not in only.output


def test_a_run_graded_by_a_distrusted_grader_says_so_in_its_report(tmp_path):
    folder = write_graded_run(tmp_path / "reviewed", [[g] for g in GRADER])
    with _store(tmp_path) as store:
        _, run_id = stored_folder(store, folder)
        labels = [HumanLabel(f"{n}.1", v, "ada") for n, v in enumerate(PERSON, start=1)]
        add_verdicts(store, run_id, labels)
        assert [a.grader for a in grader_agreement(store) if a.below(0.6)] == ["Judge A"]
    later = write_graded_run(tmp_path / "tonight", [["pass"], ["fail"]], started=datetime(2027, 1, 6, 9, 0, tzinfo=UTC))
    note = record_after_run([later], history=str(tmp_path / "history.db"))
    assert note is not None and note.ok
    [notices] = note.notices  # one tuple per folder recorded
    assert notices and notices[0].startswith("grader 'Judge A' agrees with people at kappa 0.50")
    # The finisher records the run before it writes the report, which shows the notices (written once).
    found = read_run_folder(later)
    assert found.test_set is not None
    finish_run_folders(
        [FolderRun(later, found.run, found.test_set)], FinishOptions(history=str(tmp_path / "history.db"))
    )
    assert "below the floor of 0.6" in (later / "report.html").read_text(encoding="utf-8")


def test_the_history_sets_a_local_run_beside_the_platforms_part_by_part(tmp_path):
    ours = write_graded_run(
        tmp_path / "ours", [["pass"], ["fail"]], methods=("General quality",), parts={2: {"completeness": "No"}}
    )
    platform = write_graded_run(
        tmp_path / "platform",
        [["pass"], ["pass"]],
        methods=("GeneralQuality",),
        agent="Copilot Studio bot b1 (draft)",
        started=datetime(2027, 1, 5, 10, 0, tzinfo=UTC),
    )
    url = str(tmp_path / "history.db")
    runner = CliRunner()
    assert runner.invoke(app, ["history", "ingest", str(ours), str(platform), "--history", url]).exit_code == 0
    done = runner.invoke(app, ["history", "parts", "--set", "people", "--json", "--history", url])
    assert done.exit_code == 0, done.output
    cases = {case["key"]: case for case in json.loads(done.output)["cases"]}
    assert cases["1.1"]["differing"] == [] and cases["2.1"]["differing"] == ["completeness"]
    assert [(r["grader"], r["status"], r["parts"]["completeness"]) for r in cases["2.1"]["runs"]] == [
        ("GeneralQuality", "pass", "Yes"),
        ("General quality", "fail", "No"),
    ]
    # A wide terminal: the assertion reads the names, which a narrow one wraps inside their cells.
    table = runner.invoke(app, ["history", "parts", "--set", "people", "--history", url], env={"COLUMNS": "200"})
    assert "General quality part by part" in table.output and "Copilot Studio bot b1" in table.output
