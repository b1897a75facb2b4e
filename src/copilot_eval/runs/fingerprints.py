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

import yaml

from copilot_eval.agent.agent_files import agent_files
from copilot_eval.bounded_yaml import load_yaml_file
from copilot_eval.evalsets import EvalTestSet, RunFingerprints

PREFIX = "sha256:"


def _digest(data: bytes) -> str:
    return PREFIX + hashlib.sha256(data).hexdigest()


def _canonical(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def test_set_fingerprint(test_set: EvalTestSet) -> str:
    """The hash of what the set asks and expects: data type and cases in order (not its name or comments)."""
    # A row's own pass mark joins its case only when given, so sets without one hash as they always did.
    cases: list[list[object]] = [
        [c.conversation_number, c.question, c.response, c.testing_method]
        + ([c.passing_score] if c.passing_score is not None else [])
        # a case's workspace (fixture, setup, protected paths, graders) is what it asks and expects too;
        # only when given, and as written in the set (a path as the file says it, not this machine's)
        + ([c.workspace.model_dump(mode="json", by_alias=True)] if c.workspace is not None else [])
        for c in test_set.cases
    ]
    content: dict[str, object] = {"dataType": test_set.data_type.value, "cases": cases}
    if test_set.prompt_file is not None:
        # A prompt file's rows are asked with their own instructions and earlier messages, and graded by the
        # file's evaluators: all of it is what the set asks and expects. Absent for other sets, whose hash stays.
        for case, entry in zip(test_set.cases, cases, strict=True):
            entry.append(case.case_key)
            entry.append(case.prompt.model_dump(mode="json", by_alias=True) if case.prompt is not None else None)
        content["promptFile"] = test_set.prompt_file.model_dump(mode="json", by_alias=True, exclude={"source"})
    return _digest(_canonical(content))


vars(test_set_fingerprint)["__test__"] = False  # not a pytest test: pytest reads this flag, which a def cannot declare


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


#: What an agent file says about where its agent is reached and what it is called, not what it is.
SURFACE_KEYS = ("target", "name")


def played_agent_fingerprint(path: str | Path) -> str:
    """The hash of the agent a surface plays: its file without ``target`` and ``name``, and every file it names.

    Two surfaces of one agent (a draft and its published channel, the same agent file reached two
    ways) hash the same; other instructions, another model or script hash apart. Only such surfaces
    may confirm each other's runtime limitation; others are an A/B comparison of two agents.
    """
    files = agent_files(path)
    digest = hashlib.sha256()
    for name, file in files.files():
        if file.resolve() == files.agent_file:
            try:
                data = load_yaml_file(file)
            except (OSError, UnicodeDecodeError, yaml.YAMLError):
                data = None
            if isinstance(data, dict):
                kept = {key: value for key, value in data.items() if key not in SURFACE_KEYS}
                content = hashlib.sha256(json.dumps(kept, sort_keys=True, default=str).encode("utf-8")).hexdigest()
            else:
                content = _file_digest(file)
            name = "<agent file>"  # draft.yaml and published.yaml are one agent
        else:
            content = _file_digest(file)
        digest.update(f"{name}\0{content}\n".encode())
    return PREFIX + digest.hexdigest()


def model_agent_fingerprint(agent_path: str | Path | None, model: str) -> str:
    """The hash of an agent whose session model was chosen on the command line (``--model``) or by a prompt file."""
    base = agent_fingerprint(agent_path) if agent_path is not None else None
    return _digest(_canonical({"agent": base, "model": model}))


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
    specs: Sequence[str] | None,
    *,
    judge_path: str | Path | None = None,
    judge_repeat: int = 1,
    prompt_pass_scores: Sequence[str] | None = None,
    default: Sequence[str] = ("similarity",),
) -> str:
    """The hash of the grader specs as given (``default`` when none: similarity, nothing for a prompt file,
    whose evaluators are in the set's hash), of the files they name, of the judge agent, if any, of how
    many times each judge is asked (``--judge-repeat``) and of a prompt file's pass marks."""
    specs = list(specs or default)
    judge = agent_fingerprint(judge_path) if judge_path is not None else None
    content: dict[str, object] = {"graders": specs, "judge": judge}
    # Keys only when they matter, so that the fingerprints of runs without them stay as they were.
    if files := _named_files(specs):
        content["files"] = files
    if judge_repeat != 1:
        content["judgeRepeat"] = judge_repeat
    if prompt_pass_scores:
        content["promptPassScores"] = list(prompt_pass_scores)
    return _digest(_canonical(content))


def run_fingerprints(
    test_set: EvalTestSet,
    *,
    agent_path: str | Path | None = None,
    grader_specs: Sequence[str] | None = None,
    judge_path: str | Path | None = None,
    judge_repeat: int = 1,
    prompt_pass_scores: Sequence[str] | None = None,
    session_model: str | None = None,
) -> RunFingerprints:
    """All three fingerprints; the agent's is None when the agent is not a file and no model was chosen for it
    (``session_model``: a prompt file's model, or ``--model``)."""
    agent: str | None = None
    played = played_agent_fingerprint(agent_path) if agent_path is not None else None
    if session_model is not None:
        agent = model_agent_fingerprint(agent_path, session_model)
        played = _digest(_canonical({"playedAgent": played, "model": session_model}))
    elif agent_path is not None:
        agent = agent_fingerprint(agent_path)
    return RunFingerprints(
        test_set=test_set_fingerprint(test_set),
        agent=agent,
        played_agent=played,
        graders=set_graders_fingerprint(
            test_set,
            grader_specs,
            judge_path=judge_path,
            judge_repeat=judge_repeat,
            prompt_pass_scores=prompt_pass_scores,
        ),
    )


def set_graders_fingerprint(
    test_set: EvalTestSet,
    grader_specs: Sequence[str] | None,
    *,
    judge_path: str | Path | None = None,
    judge_repeat: int = 1,
    prompt_pass_scores: Sequence[str] | None = None,
) -> str:
    """The graders' fingerprint of a run of ``test_set``; no ``--grader`` means run's default for that set.

    The default is a prompt file's own evaluators (no spec), else ``similarity``: ``run`` and
    ``regrade`` both hash through here, so a regrade with run's default matches the run it regrades.
    """
    return graders_fingerprint(
        grader_specs,
        judge_path=judge_path,
        judge_repeat=judge_repeat,
        prompt_pass_scores=prompt_pass_scores,
        default=() if test_set.prompt_file is not None else ("similarity",),
    )


__all__ = [
    "agent_fingerprint",
    "graders_fingerprint",
    "model_agent_fingerprint",
    "played_agent_fingerprint",
    "run_fingerprints",
    "set_graders_fingerprint",
    "test_set_fingerprint",
]
