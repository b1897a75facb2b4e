"""`copilot-eval run FILE.prompt.yml` end to end through the real runtime, a scripted agent and a scripted judge.

One run serves every assertion (module scope): each row a case with its caseKey, the system message
as the session's instructions, the string rules, the exact choice (and the judge's "15" an error),
a built-in at four stars, the schema check, gh-models' verdicts beside ours, `--gh-json`, and a
regrade of the folder by the file's own evaluators.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import jsonschema
import pytest

from copilot_eval.evidence.result import CopilotResult
from tests.reports.test_gh_json import GH_MODELS_EVAL_JSON
from tests.runs.runs_helpers import CLI

pytestmark = pytest.mark.runtime

PROMPT = """\
name: Animal facts
description: Facts about animals, as JSON
model: openai/gpt-4o-mini
modelParameters: {temperature: 0.3}
responseFormat: json_schema
jsonSchema: |-
  {"name": "animal", "schema": {"type": "object", "required": ["name", "legs"],
   "properties": {"name": {"type": "string"}, "legs": {"type": "integer"}}}}
messages:
  - role: system
    content: You describe {{kind}} animals for children.
  - role: user
    content: "Describe a {{animal}}."
testData:
  - name: cat
    kind: small
    animal: cat
    expected: cat
  - name: spider
    kind: small
    animal: spider
    expected: spider
  - kind: big
    animal: whale
    expected: whale
evaluators:
  - name: names it
    string:
      contains: '"name": "{{expected}}"'
  - name: judged
    llm:
      modelId: openai/gpt-4.1
      prompt: "Rate from 1 to 5 how accurate this is: {{completion}}"
      choices: [{choice: "1", score: 0}, {choice: "2", score: 0.25}, {choice: "3", score: 0.5},
                {choice: "4", score: 0.75}, {choice: "5", score: 1}]
  - name: fluent
    uses: github/fluency
"""
# The agent's answers mark what the judge's script keys on; the spider's legs break the schema.
AGENT_SCRIPT = """\
rules:
  - when: {prompt_contains: "a cat."}
    turns: [{text: '{"name": "cat", "legs": 4, "mark": "CAT"}'}]
  - when: {prompt_contains: "a spider."}
    turns: [{text: '{"name": "spider", "legs": "eight", "mark": "SPIDER"}'}]
  - turns: [{text: '{"name": "Whale", "legs": 0, "mark": "WHALE"}'}]
"""
JUDGE_SCRIPT = """\
rules:
  - when: {prompt_matches: "accurate this is: .*CAT"}
    turns: [{text: "4"}]
  - when: {prompt_matches: "accurate this is: .*SPIDER"}
    turns: [{text: "2"}]
  - when: {prompt_matches: "accurate this is: .*WHALE"}
    turns: [{text: "15"}]
  - when: {prompt_contains: SPIDER}
    turns: [{text: "3"}]
  - turns: [{text: "5"}]
"""


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict[str, object]:
    folder = tmp_path_factory.mktemp("prompt-run")
    (folder / "animals.prompt.yml").write_text(PROMPT, encoding="utf-8")
    (folder / "agent-script.yaml").write_text(AGENT_SCRIPT, encoding="utf-8")
    (folder / "judge-script.yaml").write_text(JUDGE_SCRIPT, encoding="utf-8")
    (folder / "agent.yaml").write_text("name: zoo\nmodel: {scripted: agent-script.yaml}\ntimeout_s: 60\n")
    (folder / "judge.yaml").write_text("name: judge\nmodel: {scripted: judge-script.yaml}\ntimeout_s: 60\n")
    env = {**os.environ, "COLUMNS": "200"}
    command = [*CLI, "run", "animals.prompt.yml", "--agent", "agent.yaml", "--judge", "judge.yaml"]
    done = subprocess.run(
        [*command, "--out", "out", "--gh-json", "gh.json", "--no-progress", "--no-history"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    regraded = subprocess.run(
        [*CLI, "regrade", "out", "--judge", "judge.yaml", "--prompt-pass-score", "fluent=0.5", "--out", "again"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    return {"folder": folder, "run": done, "regrade": regraded}


def _results(run_json: Path) -> dict[str, dict]:
    return {result["caseKey"]: result for result in json.loads(run_json.read_text())["results"]}


def test_each_row_is_a_case_graded_by_the_files_evaluators(played):
    done = played["run"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert "note: modelParameters temperature not applied" in done.stderr
    results = _results(played["folder"] / "out" / "run.json")
    assert sorted(results) == ["3", "cat", "spider"]  # a row's name, else its position
    cat, spider, whale = results["cat"], results["spider"], results["3"]
    grades = {g["method"]: g for g in cat["grades"]}
    assert list(grades) == ["names it", "judged", "fluent", "responseFormat json_schema (animal)"]
    assert cat["status"] == "pass"
    assert (grades["judged"]["score"], grades["judged"]["passingScore"]) == (75.0, 50.0)
    assert (grades["fluent"]["score"], grades["fluent"]["passingScore"]) == (100.0, 75.0)
    # The spider: two stars fail our pass mark and pass gh-models' (score above 0); its legs break the schema.
    spider_grades = {g["method"]: g for g in spider["grades"]}
    assert spider["status"] == "fail"
    assert spider_grades["judged"]["status"] == "fail" and spider_grades["judged"]["ghModels"]["passed"] is True
    schema = spider_grades["responseFormat json_schema (animal)"]
    assert schema["explanation"] == "does not conform to the schema: at legs: 'eight' is not of type 'integer'"
    assert spider["ghModelsPassed"] is True  # gh-models passes what we fail: recorded side by side
    # The whale: `contains` ignores case as gh-models' does; the judge's "15" is an error, not the choice "1",
    # and that evaluator's error marks the case (not the run) an error.
    whale_grades = {g["method"]: g for g in whale["grades"]}
    assert whale_grades["names it"]["status"] == "pass"
    assert whale_grades["judged"]["status"] == "error"
    assert whale_grades["judged"]["explanation"] == "the judge answered '15', not one of 1, 2, 3, 4, 5"
    assert whale_grades["judged"]["ghModels"] == {
        "score": 0.0,
        "passed": False,
        "details": "LLM evaluation matched choice: '1'",
    }
    assert whale["status"] == "error" and whale["ghModelsPassed"] is False


def test_the_row_fills_the_system_message_the_session_was_given(played):
    results = _results(played["folder"] / "out" / "run.json")
    session = CopilotResult.load(played["folder"] / "out" / results["3"]["evidencePath"])
    system = json.dumps(session.model_dump(mode="json"))
    assert "You describe big animals for children." in system
    assert "Answer with one JSON object and nothing else" in system
    test_set = json.loads((played["folder"] / "out" / "test-set.json").read_text())
    assert test_set["promptFile"]["model"] == "openai/gpt-4o-mini"
    assert test_set["cases"][2]["prompt"]["variables"] == {"kind": "big", "animal": "whale", "expected": "whale"}


def test_gh_json_has_gh_models_structure_and_verdicts(played):
    document = json.loads((played["folder"] / "gh.json").read_text())
    jsonschema.validate(document, GH_MODELS_EVAL_JSON)
    assert [test["testCase"].get("name") for test in document["testResults"]] == ["cat", "spider", None]
    # gh-models' rule: the cat and the spider pass every evaluator (scores above 0), the whale's "15" reads as 1.
    assert document["summary"] == {"totalTests": 3, "passedTests": 2, "failedTests": 1, "passRate": 200 / 3}
    assert [r["evaluatorName"] for r in document["testResults"][0]["evaluationResults"]] == [
        "names it",
        "judged",
        "fluent",
    ]


def test_a_regrade_uses_the_files_evaluators_with_new_pass_marks(played):
    regraded = played["regrade"]
    assert regraded.returncode == 0, regraded.stdout + regraded.stderr
    results = _results(played["folder"] / "again" / "run.json")
    fluent = {g["method"]: g for g in results["spider"]["grades"]}["fluent"]
    # --prompt-pass-score fluent=0.5 instead of four stars: the spider's three stars now pass.
    assert (fluent["passingScore"], fluent["status"]) == (50.0, "pass")
    assert results["spider"]["caseKey"] == "spider"
