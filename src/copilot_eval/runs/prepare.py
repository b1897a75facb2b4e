"""One preparation path for a run: load the agent, build the graders, read and check the set once.

``copilot-eval run`` and the pytest collector both prepare through here, so an agent file, a
grader spec or a test set means the same thing in both. Errors are ``PrepareError`` with one
message naming the file or option (the caller decides the exit code or the pytest outcome).
``load_agent`` is the single place agent files are loaded for runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from copilot_eval.agent import AgentFileError, load_agent_file
from copilot_eval.bounded_yaml import load_yaml_file
from copilot_eval.evalsets import (
    EvalDataType,
    EvalSetError,
    EvalTestSet,
    load_csv,
    read_test_set_json,
    validate_eval_test_set,
)
from copilot_eval.evalsets.prompt_cases import load_prompt_file, load_prompt_folder, session_instructions
from copilot_eval.evalsets.set_kind import SetKind, kind_of_set, unknown_kind_message
from copilot_eval.evalsets.yaml_sets import read_test_set_yaml
from copilot_eval.grading.prompt_graders import parse_pass_scores, prompt_graders
from copilot_eval.grading.protocol import Grader, fit_problems, needs_reference
from copilot_eval.grading.row_methods import RowMethods, uses_row_methods
from copilot_eval.grading.similarity import TextSimilarity
from copilot_eval.grading.spec import GraderSpecError, parse_grader_spec
from copilot_eval.grading.workspace_cases import CaseWorkspaceGraders, has_case_graders
from copilot_eval.runs.prompt_agent import PromptAgentError, prompt_agent
from copilot_eval.runs.settings import HowToGrade
from copilot_eval.runs.target import runtime_agent
from copilot_eval.targets.agent import agent_from_data, is_target_file


def check_references(test_set: EvalTestSet, graders: Sequence[Grader]) -> list[str]:
    """Refuse a run when a grader needs reference answers and no case has one, or a grader's file does not fit the set."""
    fit = fit_problems(graders, test_set)
    if any(case.response.strip() for case in test_set.cases):
        return fit  # cases without one get the error "no reference answer for this case", one by one
    numbers = ", ".join(str(n) for n in dict.fromkeys(case.conversation_number for case in test_set.cases))
    return fit + [
        f"grader {getattr(g, 'name', type(g).__name__)!r} needs a reference answer and no case has one "
        f"(conversationNumber {numbers}); fill in the response column or choose graders that need none "
        "(general_quality, labels, capability, keywords)"
        for g in graders
        if needs_reference(g)
    ]


class PrepareError(ValueError):
    """Bad input for a run: a missing or unreadable file, a bad agent, a bad grader spec, an invalid set."""


@dataclass(frozen=True)
class OptionNames:
    """The option names messages speak of: the command line's or the pytest plugin's."""

    agent: str = "--agent"
    judge: str = "--judge"
    grader: str = "--grader"
    prompt_pass_score: str = "--prompt-pass-score"
    var: str = "--var"


CLI_OPTIONS = OptionNames()
PYTEST_OPTIONS = OptionNames(
    agent="--copilot-agent",
    judge="--copilot-judge",
    grader="--copilot-grader",
    prompt_pass_score="--copilot-prompt-pass-score",
    var="--copilot-var",
)


def _peek_yaml(path: Path) -> Any:
    try:
        return load_yaml_file(path)
    except (OSError, yaml.YAMLError):
        return None  # load_agent_file reports it with the file's name


def load_agent(path: str | Path, *, option: str = "--agent") -> Any:
    """Load the agent file at ``path`` for a run: a CopilotEval, or a StudioAgent when it has a ``target:``.

    PrepareError names ``option`` and the file.
    """
    path = Path(path)
    if not path.is_file():
        raise PrepareError(f"{option} {path}: agent file not found")
    try:
        data = _peek_yaml(path)
        if is_target_file(data):  # a Copilot Studio agent reached over Direct Line or the Agents SDK
            return agent_from_data(data, path)
        return load_agent_file(path)
    except (AgentFileError, ValueError) as exc:
        raise PrepareError(f"{option} {path}: {exc}") from None


def build_graders(
    specs: Sequence[str] | None, *, judge: Any = None, options: OptionNames = CLI_OPTIONS, judge_repeat: int = 1
) -> list[Any]:
    """The graders that ``specs`` name (default: similarity), each LLM judge asked ``judge_repeat`` times per answer.

    PrepareError words the problem with ``options``.
    """
    try:
        return [
            parse_grader_spec(
                spec, judge=judge, option=options.grader, judge_option=options.judge, judge_repeat=judge_repeat
            )
            for spec in (specs or ["similarity"])
        ]
    except GraderSpecError as exc:
        raise PrepareError(str(exc)) from None


def graders_for_set(
    test_set: EvalTestSet, graders: Sequence[Any], *, judge: Any = None, judge_repeat: int = 1
) -> list[Any]:
    """The graders a run of ``test_set`` uses: each row's own test method where rows name one, ``graders`` for the rest.

    A set in the per-row dialect (or the legacy template with its Testing method) is graded the way
    Copilot Studio grades it, row by row; rows that name no method get ``graders`` (``--grader``).
    """
    if not uses_row_methods(test_set):
        return list(graders)
    return [RowMethods(graders, judge=judge, judge_repeat=judge_repeat)]


def _problems_text(path: Path, problems: list[str]) -> str:
    return str(EvalSetError(path, problems))


def read_test_set(
    path: str | Path,
    *,
    profile: str | None = None,
    data_type: EvalDataType | str | None = None,
    variables: Mapping[str, str] | None = None,
    options: OptionNames | None = None,
) -> EvalTestSet:
    """Read ``path`` as the kind of set ``evalsets.set_kind`` says it is, and check it, parsing it once.

    A prompt file (``*.prompt.yml``, ``*.prompt.md``, or YAML with ``messages``) or a folder of
    ``*.prompt.md`` files is checked by its own rules with the ``--var`` ``variables``; a JSON or CSV
    set against rule set ``profile``. Raises PrepareError with one line for a missing file or one of
    no known kind (naming the kinds accepted), and every problem of a set that cannot be used.
    """
    path = Path(path)
    var_option = (options or CLI_OPTIONS).var
    if not path.exists():
        raise PrepareError(f"{path}: test set file not found")
    kind = kind_of_set(path)
    if kind is None:
        raise PrepareError(unknown_kind_message(path))
    if kind in (SetKind.PROMPT, SetKind.PROMPT_MARKDOWN, SetKind.PROMPT_FOLDER):
        return _read_prompts(path, data_type, variables, var_option)
    if variables:
        raise PrepareError(f"{var_option}: {path} is not a prompt file; only a prompt file's placeholders take values")
    test_set: EvalTestSet | None  # a CSV with problems may give none
    try:
        if kind in (SetKind.JSON, SetKind.YAML):
            test_set = read_test_set_json(path) if kind is SetKind.JSON else read_test_set_yaml(path)
            if data_type is not None:
                test_set = test_set.model_copy(update={"data_type": EvalDataType(data_type)})
            problems = validate_eval_test_set(test_set, profile)
        else:
            test_set, problems = load_csv(path, data_type=data_type, profile=profile)
    except EvalSetError as exc:
        raise PrepareError(str(exc)) from None
    except OSError as exc:
        raise PrepareError(f"{path}: cannot read the test set: {exc.strerror or exc}") from None
    if problems or test_set is None:
        raise PrepareError(_problems_text(path, problems))
    return test_set


def _read_prompts(
    path: Path, data_type: EvalDataType | str | None, variables: Mapping[str, str] | None, var_option: str
) -> EvalTestSet:
    """A prompt file, or a folder of ``*.prompt.md`` files, as a set of single-turn cases."""
    folder = path.is_dir()
    if data_type is not None and EvalDataType(data_type) is not EvalDataType.SINGLE_TURN:
        cases = "cases are single-turn" if folder else "rows are single-turn cases"
        raise PrepareError(f"--data-type {data_type}: a prompt file's {cases}, one session each")
    load = load_prompt_folder if folder else load_prompt_file
    try:
        test_set, problems, _ = load(path, variables=variables, var_option=var_option)
    except OSError as exc:
        what = "prompt files" if folder else "prompt file"
        raise PrepareError(f"{path}: cannot read the {what}: {exc.strerror or exc}") from None
    if problems or test_set is None:
        raise PrepareError(_problems_text(path, problems))
    return test_set


def check_graders_fit(test_set: EvalTestSet, graders: Sequence[Any], path: str | Path | None = None) -> None:
    """Refuse a set none of whose cases has what the chosen graders need (a reference answer)."""
    problems = check_references(test_set, graders)
    if problems:
        raise PrepareError(str(EvalSetError(path, problems)))


def build_set_graders(
    test_set: EvalTestSet,
    specs: Sequence[str] | None,
    *,
    judge: Any = None,
    options: OptionNames = CLI_OPTIONS,
    judge_repeat: int = 1,
    pass_scores: Sequence[str] | None = None,
    path: str | Path | None = None,
    row_methods: bool = True,
) -> list[Any]:
    """The graders of ``test_set``: a prompt file's evaluators (plus any ``specs``), else the ``specs`` (default similarity).

    With ``row_methods`` a set whose rows name their own test method is graded by them, ``specs``
    grading the rows that name none (``graders_for_set``); ``regrade`` turns it off, to grade with
    exactly the graders it is given.
    """
    if test_set.prompt_file is None:
        if pass_scores:
            raise PrepareError(f"{options.prompt_pass_score}: applies to prompt files only (the set's evaluators)")
        chosen = build_graders(specs, judge=judge, options=options, judge_repeat=judge_repeat)
        return graders_for_set(test_set, chosen, judge=judge, judge_repeat=judge_repeat) if row_methods else chosen
    try:
        graders: list[Any] = prompt_graders(
            test_set,
            judge=judge,
            pass_scores=parse_pass_scores(pass_scores, option=options.prompt_pass_score),
            judge_repeat=judge_repeat,
            option=options.prompt_pass_score,
            judge_option=options.judge,
        )
    except ValueError as exc:
        raise PrepareError(f"{path or test_set.name}: {exc}") from None
    if specs:
        graders += build_graders(specs, judge=judge, options=options, judge_repeat=judge_repeat)
    if not graders:
        raise PrepareError(
            f"{path or test_set.name}: the prompt file has no evaluators, so nothing would grade its answers; "
            f"add evaluators to it or give {options.grader} SPEC"
        )
    return graders


def _chosen_model(test_set: EvalTestSet, loaded: Any, agent: Any, model: str | None) -> str | None:
    """The session model chosen outside the agent file (``--model``, or a prompt file's), for the fingerprint."""
    if model is not None:
        return model
    if test_set.prompt_file is None or getattr(loaded, "model", None) is not None:
        return None
    chosen = getattr(agent, "model", None)
    return chosen if isinstance(chosen, str) else None


def surface_agent(
    test_set: EvalTestSet,
    agent_path: str | Path | None,
    *,
    model: str | None = None,
    options: OptionNames = CLI_OPTIONS,
) -> tuple[Any, str | None]:
    """The agent that plays ``test_set`` (loaded once) and the session model chosen outside its file, for its fingerprint."""
    agent, loaded = _agent(test_set, agent_path, model, options)
    return agent, _chosen_model(test_set, loaded, agent, model)


def _agent(
    test_set: EvalTestSet, agent_path: str | Path | None, model: str | None, options: OptionNames
) -> tuple[Any, Any]:
    loaded = load_agent(agent_path, option=options.agent) if agent_path is not None else None
    return set_agent(test_set, loaded, model=model, options=options, agent_path=agent_path), loaded


def set_agent(
    test_set: EvalTestSet,
    loaded: Any,
    *,
    model: str | None = None,
    options: OptionNames = CLI_OPTIONS,
    agent_path: str | Path | None = None,
) -> Any:
    """The agent that plays ``test_set`` from a loaded agent file (or None): as loaded, or a prompt file's agent.

    ``copilot-eval run`` and the pytest collector both build a set's agent here; PrepareError names
    ``options``' agent option when the agent cannot play the set.
    """
    if test_set.prompt_file is None:
        if loaded is None:
            raise PrepareError(
                f"{options.agent}: give the agent file to evaluate (a prompt file alone may run without one)"
            )
        if model is not None:
            if runtime_agent(loaded) is None:
                raise PrepareError("--model: a Copilot Studio target chooses its own model")
            return loaded.with_options(model=model)
        return loaded
    try:
        agent = prompt_agent(loaded, test_set.prompt_file, model=model, name=test_set.name)
    except PromptAgentError as exc:
        raise PrepareError(f"{test_set.prompt_file.source or test_set.name}: {exc}") from None
    if runtime_agent(agent) is None and any(session_instructions(case) for case in test_set.cases):
        shown = f" {agent_path}" if agent_path is not None else ""
        raise PrepareError(
            f"{options.agent}{shown}: a Copilot Studio target takes no instructions, and the prompt file's "
            "system message (or responseFormat) would be dropped; play it against a Copilot runtime agent"
        )
    return agent


def resolve_graders(test_set: EvalTestSet, grade: HowToGrade) -> list[Any]:
    """The graders ``grade`` names for ``test_set``: grader objects as given, specs built (the judge loaded).

    None given: similarity, or a prompt file's own evaluators. Specs are built as ``copilot-eval run``
    builds them (a set whose rows name their test method is graded by them, a prompt file's evaluators
    come first); PrepareError names the option of a bad spec or judge file.
    """
    objects = [g for g in grade.graders if not isinstance(g, str)]
    if has_case_graders(test_set) and not any(isinstance(g, CaseWorkspaceGraders) for g in objects):
        # each case's own workspace graders, beside (or instead of) the run's
        objects.append(CaseWorkspaceGraders())
    specs = grade.specs()
    if objects and specs is None:
        return objects
    plain = test_set.prompt_file is None and not uses_row_methods(test_set)  # no grader of its own
    if not objects and specs is None and plain and not grade.prompt_pass_score:
        return [TextSimilarity()]
    judge = load_agent(grade.judge, option=CLI_OPTIONS.judge) if grade.judge is not None else None
    built = build_set_graders(
        test_set, specs, judge=judge, judge_repeat=grade.judge_repeat, pass_scores=grade.prompt_pass_score
    )
    return built + objects


__all__ = [
    "CLI_OPTIONS",
    "PYTEST_OPTIONS",
    "OptionNames",
    "PrepareError",
    "build_graders",
    "build_set_graders",
    "check_graders_fit",
    "check_references",
    "graders_for_set",
    "load_agent",
    "read_test_set",
    "resolve_graders",
    "set_agent",
    "surface_agent",
]
