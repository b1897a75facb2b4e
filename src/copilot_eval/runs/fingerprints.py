"""Fingerprints: one content hash per input of a run, each computed by one function here.

``sha256:<hex>`` of the test set's cases, of the agent file and every file it names (see
``agent.agent_files``), and of the grader specs with the files they name (a trajectory file), the
judge agent's fingerprint and how many times each judge is asked. Shards of one
run must agree on all three before they are merged; the history store groups runs by them.
Paths enter the agent's hash as written relative to its folder, so the same agent checked out on
two machines hashes the same.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from copilot_eval.agent.agent_files import agent_files
from copilot_eval.evalsets import EvalTestSet, RunFingerprints

PREFIX = "sha256:"


def _digest(data: bytes) -> str:
    return PREFIX + hashlib.sha256(data).hexdigest()


def _canonical(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def test_set_fingerprint(test_set: EvalTestSet) -> str:
    """The hash of what the set asks and expects: data type and cases in order (not its name or comments)."""
    # A row's own pass mark joins its case only when given, so sets without one hash as they always did.
    cases = [
        [c.conversation_number, c.question, c.response, c.testing_method]
        + ([c.passing_score] if c.passing_score is not None else [])
        for c in test_set.cases
    ]
    return _digest(_canonical({"dataType": test_set.data_type.value, "cases": cases}))


test_set_fingerprint.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def agent_fingerprint(path: str | Path) -> str:
    """The hash of the agent file and the content of every file it names (script, custom agents, skills ...)."""
    digest = hashlib.sha256()
    for name, file in agent_files(path).files():
        try:
            content = hashlib.sha256(file.read_bytes()).hexdigest()
        except OSError:
            content = "unreadable"
        digest.update(f"{name}\0{content}\n".encode())
    return PREFIX + digest.hexdigest()


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "unreadable"


def _named_files(specs: Sequence[str]) -> dict[str, str]:
    """spec -> the content hash of the file it names, for the specs that name one (``trajectory:FILE``)."""
    files = {}
    for spec in specs:
        name, _, argument = spec.strip().partition(":")
        if name.strip().lower().replace("-", "_") == "trajectory" and argument.strip():
            files[spec] = _file_digest(Path(argument.strip()))
    return files


def graders_fingerprint(
    specs: Sequence[str] | None, *, judge_path: str | Path | None = None, judge_repeat: int = 1
) -> str:
    """The hash of the grader specs as given (default similarity), of the files they name, of the judge
    agent, if any, and of how many times each judge is asked (``--judge-repeat``)."""
    specs = list(specs or ["similarity"])
    judge = agent_fingerprint(judge_path) if judge_path is not None else None
    content: dict[str, object] = {"graders": specs, "judge": judge}
    # Keys only when they matter, so that the fingerprints of runs without them stay as they were.
    if files := _named_files(specs):
        content["files"] = files
    if judge_repeat != 1:
        content["judgeRepeat"] = judge_repeat
    return _digest(_canonical(content))


def run_fingerprints(
    test_set: EvalTestSet,
    *,
    agent_path: str | Path | None = None,
    grader_specs: Sequence[str] | None = None,
    judge_path: str | Path | None = None,
    judge_repeat: int = 1,
) -> RunFingerprints:
    """All three fingerprints; the agent's is None when the agent is not a file."""
    return RunFingerprints(
        test_set=test_set_fingerprint(test_set),
        agent=agent_fingerprint(agent_path) if agent_path is not None else None,
        graders=graders_fingerprint(grader_specs, judge_path=judge_path, judge_repeat=judge_repeat),
    )


__all__ = ["agent_fingerprint", "graders_fingerprint", "run_fingerprints", "test_set_fingerprint"]
