"""pytest plugin: the ``copilot_eval`` fixture, a few options, and evidence files per test.

With ``--copilot-agent``, test-set CSV files become test items too (``pytest_evalset``).

Thin on purpose: options and fixtures only; running is `run_copilot`'s job. The runtime pool is
shared by every test that runs in the same event loop and closed at the end of the session.
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.pytest_budget import MARKER_HELP as BUDGET_MARKER_HELP
from copilot_eval.pytest_budget import add_budget_options, check_budgets, with_budgets
from copilot_eval.pytest_evalset import add_options, configure
from copilot_eval.pytest_otel import add_otel_options, close_export, configure_export, export_test, note_run
from copilot_eval.pytest_repeat import DEPENDENCE_KEY, MARKER, MARKER_HELP, wrap_repeated_items
from copilot_eval.redaction import contains_secret, redact

# pytest imports this plugin at the start of every test session of a user who installed copilot-eval, and most of
# those sessions never run an agent. So only what every session needs is imported above (pytest_evalset's options
# bring the test-set model with them); the rest is imported inside the hook or fixture that first needs it, each
# marked "on use" with what it would load. Measured with python -X importtime: the run, report, trigger, lift and
# history layers and the Copilot SDK add 100 to 500 modules each; even the small models and workspace packages add 5
# to 10 % to this plugin's import.

_EVIDENCE_DIR_KEY = pytest.StashKey[Path | None]()
_LIVE_SWITCH_KEY = pytest.StashKey[str | None]()  # the env value before --copilot-no-live-models set it
_SHARD_KEY = pytest.StashKey[Any]()  # the ShardInfo of --copilot-shard, or None
_CASSETTES_KEY = pytest.StashKey[list[Any]]()  # every CassetteDir the session recorded to or replayed from
_WORKSPACES_KEY = pytest.StashKey[list[Any]]()  # the workspaces a test made, for its report's patch section
WORKSPACE_SECTION = "copilot workspace patch"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Options for the default model and for evidence files."""
    group = parser.getgroup("copilot-eval")
    # One addoption call per option, pytest's own form: the calls look alike, each declares another option.
    group.addoption(
        "--copilot-model",
        default=os.environ.get("COPILOT_EVAL_MODEL"),
        help="default model for agents that name none (env COPILOT_EVAL_MODEL)",
    )
    group.addoption(
        "--copilot-provider-url",
        default=os.environ.get("COPILOT_EVAL_PROVIDER_URL"),
        help="BYOK endpoint base URL for agents without a provider (env COPILOT_EVAL_PROVIDER_URL)",
    )
    group.addoption(
        "--copilot-provider-type",
        default="openai",
        choices=["openai", "azure", "anthropic"],
        help="BYOK provider type (default openai)",
    )
    group.addoption(
        "--copilot-api-key-env", default=None, help="name of the environment variable holding the BYOK API key"
    )
    group.addoption(
        "--copilot-no-live-models",
        action="store_true",
        default=False,
        help="refuse GitHub-hosted and BYOK models: only scripted, function and replayed models run "
        "(env COPILOT_EVAL_NO_LIVE_MODELS=1)",
    )
    group.addoption(
        "--copilot-record",
        default=None,
        metavar="DIR",
        help="record every live model call of the copilot_eval fixture to DIR (one cassette per test)",
    )
    group.addoption(
        "--copilot-replay",
        default=None,
        metavar="DIR",
        help="answer live models from the cassettes in DIR, offline (see docs/replay.md)",
    )
    group.addoption(
        "--copilot-record-missing",
        action="store_true",
        default=False,
        help="with --copilot-record: keep what DIR holds and record only the calls it lacks",
    )
    group.addoption(
        "--copilot-allow-replayed-repeats",
        action="store_true",
        default=False,
        help="let copilot_repeat tests run more than once over --copilot-replay (every try replays the same "
        "answers; the test says its repeats are not independent)",
    )
    group.addoption(
        "--copilot-evidence-dir",
        default=os.environ.get("COPILOT_EVAL_EVIDENCE_DIR"),
        help="write each run's CopilotResult JSON into this directory",
    )
    group.addoption(
        "--copilot-report",
        default=os.environ.get("COPILOT_EVAL_REPORT"),
        metavar="report.html",
        help="write a self-contained HTML report of the session: every test, and the evidence of "
        "each agent run (env COPILOT_EVAL_REPORT)",
    )
    group.addoption(
        "--copilot-shard",
        default=os.environ.get("COPILOT_EVAL_SHARD"),
        metavar="I/N",
        help="run only shard I of N of the collected tests (stable by node id, balanced by count), "
        "so a CI matrix of N jobs splits the suite (env COPILOT_EVAL_SHARD)",
    )
    group.addoption(
        "--copilot-history",
        action="store_true",
        default=False,
        help="record the session's agent tests and test-set items in the history database (docs/history.md)",
    )
    group.addoption(
        "--copilot-history-url",
        default=None,
        metavar="URL",
        help="history database for --copilot-history (default: env COPILOT_EVAL_HISTORY, else "
        ".copilot-eval/history.db in the rootdir)",
    )

    add_budget_options(group)
    add_options(group)
    add_otel_options(group)


_ASYNCIO_LOOP_SCOPE = "asyncio_default_fixture_loop_scope"


def _default_asyncio_loop_scope(config: pytest.Config) -> None:
    """Give pytest-asyncio the fixture loop scope its next versions default to, when nothing set one.

    pytest-asyncio (installed with us) warns in every session whose configuration leaves
    ``asyncio_default_fixture_loop_scope`` unset, so a starter suite, with no configuration of its
    own, would show a deprecation warning on its first run (and fail under ``-W error``). A value the
    user set, in a configuration file or with ``-o``, is kept. pytest has no public way for a plugin
    to give another plugin's setting a default, so the value is put in the configuration's cache of
    settings, which ``getini`` reads first; where that cache is not there, nothing changes.
    """
    try:
        if config.getini(_ASYNCIO_LOOP_SCOPE):
            return
    except ValueError:  # pytest-asyncio is not installed: nothing to default
        return
    cache = getattr(config, "_inicache", None)
    if isinstance(cache, dict):
        cache[_ASYNCIO_LOOP_SCOPE] = "function"


@pytest.hookimpl(tryfirst=True)  # before pytest-asyncio's own configure reads the setting
def pytest_configure(config: pytest.Config) -> None:
    """Remember where evidence goes; with ``--copilot-agent``, collect test-set CSV files too."""
    _default_asyncio_loop_scope(config)
    config.addinivalue_line("markers", MARKER_HELP)
    config.addinivalue_line("markers", BUDGET_MARKER_HELP)
    configure_export(config)
    config.stash[_SHARD_KEY] = _shard_option(config.getoption("--copilot-shard", default=None))
    directory = config.getoption("--copilot-evidence-dir", default=None)
    config.stash[_EVIDENCE_DIR_KEY] = Path(directory) if directory else None
    report = config.getoption("--copilot-report", default=None)
    # Only the controlling process writes the report (pytest-xdist workers have `workerinput`).
    if report and not hasattr(config, "workerinput"):
        # on use (see the top): the report layers and rich
        from copilot_eval.reports.pytest_report import register_session_report

        register_session_report(config, report)
    if config.getoption("--copilot-history", default=False) and not hasattr(config, "workerinput"):
        # on use, only with --copilot-history: the run layers and the history
        from copilot_eval.pytest_history import register_history

        register_history(config)
    if config.getoption("--copilot-record", default=None) and config.getoption("--copilot-replay", default=None):
        raise pytest.UsageError("--copilot-record and --copilot-replay exclude each other: give one of them")
    if config.getoption("--copilot-no-live-models", default=False):
        # on use (see the top): the models package
        from copilot_eval.models.guard import NO_LIVE_MODELS_ENV

        # Through the environment, so that every run of this session (and any worker process) sees it.
        config.stash[_LIVE_SWITCH_KEY] = os.environ.get(NO_LIVE_MODELS_ENV)
        os.environ[NO_LIVE_MODELS_ENV] = "1"
    if config.getoption("--copilot-agent", default=None):
        configure(config, config.stash[_EVIDENCE_DIR_KEY])


def _shard_option(text: str | None) -> Any:
    if not text:
        return None
    # on use, only with --copilot-shard: the run layers
    from copilot_eval.runs.shards import ShardError, parse_shard

    try:
        return parse_shard(text, option="--copilot-shard")
    except ShardError as exc:
        raise pytest.UsageError(str(exc)) from None


def _deselect_other_shards(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With ``--copilot-shard I/N``, deselect the items of the other shards (the same split on every machine)."""
    shard = config.stash.get(_SHARD_KEY, None)
    if shard is None:
        return
    # on use, only with --copilot-shard: the run layers
    from copilot_eval.runs.shards import select_node_ids

    keep = select_node_ids([item.nodeid for item in items], shard)
    deselected = [item for item in items if item.nodeid not in keep]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if item.nodeid in keep]


def pytest_unconfigure(config: pytest.Config) -> None:
    """Give the environment back as it was before ``--copilot-no-live-models``."""
    if _LIVE_SWITCH_KEY in config.stash:
        # on use (see the top): the models package
        from copilot_eval.models.guard import NO_LIVE_MODELS_ENV

        before = config.stash[_LIVE_SWITCH_KEY]
        if before is None:
            os.environ.pop(NO_LIVE_MODELS_ENV, None)
        else:
            os.environ[NO_LIVE_MODELS_ENV] = before


def _default_provider(config: pytest.Config) -> Any:
    url = config.getoption("--copilot-provider-url")
    if not url:
        return None
    # on use (see the top): the models package
    from copilot_eval.models.byok import ByokProvider

    return ByokProvider(
        type=config.getoption("--copilot-provider-type"),
        base_url=url,
        api_key_env=config.getoption("--copilot-api-key-env"),
    )


def _cassettes(config: pytest.Config, nodeid: str) -> Any:
    """This test's cassette (one file per test, shared by its runs), or None without record/replay."""
    record, replay = config.getoption("--copilot-record"), config.getoption("--copilot-replay")
    if not record and not replay:
        return None
    # on use (see the top): the models package
    from copilot_eval.models.replay.wrap import cassette_store

    store = cassette_store(
        record=record, replay=replay, record_missing=config.getoption("--copilot-record-missing"), cassette=nodeid
    )
    config.stash.setdefault(_CASSETTES_KEY, []).append(store)  # for the session's closing line
    return store


def _evidence_name(nodeid: str, index: int) -> str:
    # on use (see the top): the report layers and rich
    from copilot_eval.reports.evidence_names import evidence_file_name

    return evidence_file_name(nodeid, index)


def _add_to_report(config: pytest.Config, nodeid: str, result: Any, saved: Path | None) -> None:
    # on use (see the top): the report layers and rich
    from copilot_eval.reports.pytest_report import session_report

    report = session_report(config)
    if report is not None:
        report.add_result(nodeid, result, saved)
    if config.getoption("--copilot-history", default=False):
        # on use, only with --copilot-history: the run layers and the history
        from copilot_eval.pytest_history import session_history

        if (history := session_history(config)) is not None:
            history.add_result(nodeid, result, saved)


def _note_dependence(node: pytest.Item, agent: Any) -> None:
    """Remember whether this run's model could answer differently on another try (for copilot_repeat)."""
    # on use (see the top): the run layers
    from copilot_eval.runs.independence import repeat_dependence_of

    node.stash.setdefault(DEPENDENCE_KEY, []).append(repeat_dependence_of(agent))


@pytest.fixture
def copilot_eval(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """``result = await copilot_eval(agent, prompt)``: run through the real runtime, get evidence."""
    # on use (see the top): the runtime and the Copilot SDK (about 0.6 s)
    from copilot_eval.runtime.session.runner import run_copilot

    config = request.config
    evidence_dir = config.stash.get(_EVIDENCE_DIR_KEY, None)
    runs = 0
    cassettes = _cassettes(config, request.node.nodeid)

    async def run(agent: Any, prompt: str | Sequence[str], **options: Any) -> Any:
        nonlocal runs
        options.setdefault("default_model", config.getoption("--copilot-model"))
        options.setdefault("default_provider", _default_provider(config))
        if cassettes is not None:
            # on use (see the top): the models package
            from copilot_eval.models.replay.wrap import with_cassette

            agent = with_cassette(
                agent, cassettes, default_model=options["default_model"], default_provider=options["default_provider"]
            )
        agent = with_budgets(agent, config, request.node)
        _note_dependence(request.node, agent)
        result = await run_copilot(agent, prompt, **options)
        saved = None
        if evidence_dir is not None:
            saved = result.save(evidence_dir / _evidence_name(request.node.nodeid, runs))
        _add_to_report(config, request.node.nodeid, result, saved)
        note_run(request.node, result)
        runs += 1
        return result

    return run


@pytest.fixture
def ab_run(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """``ab = await ab_run(prompt, baseline, candidate, repeat=2)``: both agents, isolated runs."""
    # on use (see the top): the run layers, the runtime and the Copilot SDK
    from copilot_eval.runs.ab import ab_run as run_ab

    config = request.config
    evidence_dir = config.stash.get(_EVIDENCE_DIR_KEY, None)

    async def run(prompt: str | Sequence[str], baseline: Any, candidate: Any, **options: Any) -> Any:
        options.setdefault("default_model", config.getoption("--copilot-model"))
        options.setdefault("default_provider", _default_provider(config))
        baseline, candidate = (with_budgets(agent, config, request.node) for agent in (baseline, candidate))
        outcome = await run_ab(prompt, baseline, candidate, **options)
        for index, result in enumerate(outcome.results):
            saved = None
            if evidence_dir is not None:
                saved = result.save(
                    evidence_dir / _evidence_name(f"{request.node.nodeid}-ab-{result.comparison_role}", index)
                )
            _add_to_report(config, request.node.nodeid, result, saved)
            note_run(request.node, result)
        return outcome

    return run


@pytest.fixture
def copilot_workspace(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """``ws = copilot_workspace("fixtures/repo", protect=["tests/**"])``: a fresh copy of a folder to work in.

    ``ws.agent(agent)`` works there, ``ws.conclude(result)`` reads what it left, ``ws.run(cmd)`` runs a
    command there; the patch (and any honesty finding) is attached to the test's report.
    """
    # on use (see the top): the workspace package
    from copilot_eval.workspace.handle import Workspace

    def make(source: str | Path, **options: Any) -> Any:
        workspace = Workspace.from_folder(source, **options)
        request.node.stash.setdefault(_WORKSPACES_KEY, []).append(workspace)
        return workspace

    return make


def _workspace_sections(item: pytest.Item) -> list[tuple[str, str]]:
    """The patch of every workspace the test made (concluded now if the test did not), with its findings.

    With ``--copilot-evidence-dir`` each patch is also kept there, beside the test's evidence.
    """
    sections = []
    evidence_dir = item.config.stash.get(_EVIDENCE_DIR_KEY, None)
    made: list[Any] = item.stash.get(_WORKSPACES_KEY, [])
    for index, workspace in enumerate(made):
        outcome = workspace.outcome or workspace.conclude()
        found = "".join(f"# finding: {f.kind} {f.path} ({f.detail})\n" for f in outcome.findings)
        sections.append((f"{WORKSPACE_SECTION} ({workspace.path})", found + (outcome.patch or "(no changes)\n")))
        if evidence_dir is not None:
            name = _evidence_name(item.nodeid, index).removesuffix(".json") + ".workspace.patch"
            write_text_atomically(Path(evidence_dir) / name, found + outcome.patch)
    return sections


@pytest.fixture(name="trigger_eval")
def trigger_eval_fixture(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """``run = await trigger_eval(agent, "triggers.yaml", runs=3)``: a trigger evaluation in a test (docs/skills.md).

    The set may be a path (read with ``read_trigger_set``, ``skill=`` for a skill-creator file) or a
    ``TriggerSet``; each play's evidence goes where the fixture's runs go, and into the report.
    """
    # on use (see the top): the trigger layers, the runtime and the Copilot SDK
    from copilot_eval.triggers import TriggerSet, read_trigger_set
    from copilot_eval.triggers import trigger_eval as play_triggers

    config = request.config
    evidence_dir = config.stash.get(_EVIDENCE_DIR_KEY, None)

    async def run(agent: Any, trigger_set: Any, *, skill: str | None = None, **options: Any) -> Any:
        chosen = trigger_set if isinstance(trigger_set, TriggerSet) else read_trigger_set(trigger_set, skill=skill)
        agent = with_budgets(agent, config, request.node)
        _note_dependence(request.node, agent)
        played = await play_triggers(agent, chosen, **options)
        for index, (key, result) in enumerate(sorted(played.results.items())):
            saved = None
            if evidence_dir is not None:
                saved = result.save(evidence_dir / _evidence_name(f"{request.node.nodeid}-{key}", index))
            _add_to_report(config, request.node.nodeid, result, saved)
            note_run(request.node, result)
        return played

    return run


@pytest.fixture(name="lift_eval")
def lift_eval_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[..., Any]:
    """``run = await lift_eval("cases.csv", agent, vary="skill:NAME")``: a lift run in a test (docs/lift.md).

    Give ``vary=`` (one agent) or ``arms={"control": a, "treatment": b}`` (two agents, control first);
    ``repeat``, ``graders``, ``concurrency``, ``seed`` and ``min_lift``/``max_regression`` as the command
    takes them. The run folder is the test's own temporary folder; every play goes into the report.
    """
    # on use (see the top): the lift and run layers, the runtime and the Copilot SDK
    from copilot_eval.lift import LiftGates, expectations_of, vary_arms
    from copilot_eval.lift import lift_eval as play_lift
    from copilot_eval.runs.finish import FinishOptions
    from copilot_eval.runs.prepare import read_test_set
    from copilot_eval.runs.settings import RunSettings

    config = request.config

    async def run(
        test_set: Any,
        agent: Any = None,
        *,
        vary: str | None = None,
        arms: dict[str, Any] | None = None,
        repeat: int = 3,
        graders: tuple[Any, ...] = (),
        concurrency: int = 4,
        seed: int = 42,
        min_lift: float | None = None,
        max_regression: float | None = None,
    ) -> Any:
        if (vary is None) == (arms is None) or (vary is not None and agent is None):
            raise ValueError("lift_eval: give an agent with vary='skill:NAME', or arms={'control': a, 'treatment': b}")
        chosen = read_test_set(test_set) if isinstance(test_set, (str, Path)) else test_set
        budgeted = {name: with_budgets(a, config, request.node) for name, a in (arms or {}).items()}
        made = (
            vary_arms(with_budgets(agent, config, request.node), vary)
            if vary is not None
            else expectations_of(budgeted)
        )
        out = tmp_path / f"lift-{len(list(tmp_path.glob('lift-*')))}"  # each lift its own folder (its checkpoints)
        settings = RunSettings.of(repeat=repeat, graders=tuple(graders), concurrency=concurrency, out=out)
        gates = LiftGates(min_lift=min_lift, max_regression=max_regression)
        played = await play_lift(chosen, made, settings, seed=seed, gates=gates, finish=FinishOptions(no_history=True))
        for units in played.results.values():
            for _, result in sorted(units.items()):
                _add_to_report(config, request.node.nodeid, result, None)
                note_run(request.node, result)
        return played

    return run


OUR_ASYNC_FIXTURES = frozenset({"copilot_eval", "ab_run", "trigger_eval", "lift_eval"})


@pytest.hookimpl(hookwrapper=True)
def pytest_pycollect_makeitem(collector: Any, name: str, obj: object) -> Any:
    """Mark ``async def`` tests that ask for our fixtures as asyncio tests.

    So the README's example runs in a bare folder: pytest-asyncio's default (strict) mode skips
    unmarked async tests, and a user should not need an ini file or a conftest to await a run.
    The mark is put on the function before pytest builds its item, which is when pytest-asyncio
    decides. Tests already marked (or auto mode) are left alone.
    """
    if inspect.iscoroutinefunction(obj) and collector.funcnamefilter(name):
        marks = getattr(obj, "pytestmark", [])
        wanted = set(inspect.signature(obj).parameters) & OUR_ASYNC_FIXTURES
        if wanted and not any(getattr(mark, "name", None) == "asyncio" for mark in marks):
            pytest.mark.asyncio(obj)
    yield


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep this shard's items (``--copilot-shard I/N``), refuse a bad usage budget, then turn every
    ``@pytest.mark.copilot_repeat(K, min_pass_rate=P)`` test into K tries with one verdict."""
    _deselect_other_shards(config, items)
    check_budgets(config, items)
    if any(item.get_closest_marker(MARKER) is not None for item in items):
        wrap_repeated_items(config, items)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Scrub registered secrets from a test's failure text and captured output before any report."""
    outcome = yield

    report = outcome.get_result()
    if report.when == "call":
        report.sections.extend(_workspace_sections(item))
    if report.longrepr is not None and contains_secret(text := str(report.longrepr)):
        report.longrepr = redact(text)  # plain text from here on: the formatted failure, minus secrets
    report.sections = [(title, redact(content)) for title, content in report.sections]
    if report.when == "call" or (report.when == "setup" and not report.passed):
        export_test(item, report)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Say where the session's cassettes went (--copilot-record) or what was served from them (--copilot-replay)."""
    stores = config.stash.get(_CASSETTES_KEY, [])
    if not stores:
        return
    # on use (see the top): the models package
    from copilot_eval.models.replay.wrap import cassette_summary

    for line in cassette_summary(stores):
        terminalreporter.write_line(f"copilot-eval: {line}")


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop the runtimes the session started (an exit hook catches anything left)."""
    # A session that started a runtime imported the pool; one that never ran an agent (most sessions
    # that load this plugin) has nothing to stop, and importing the pool would load the Copilot SDK
    # (about 1.7 s of CPU here) for nothing.
    pool = sys.modules.get("copilot_eval.runtime.process.pool")
    if pool is not None:
        pool.close_all_pools()
    if (problem := close_export(session.config)) is not None:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(problem, yellow=True)
