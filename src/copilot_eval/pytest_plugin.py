"""pytest plugin: the ``copilot_eval`` fixture, a few options, and evidence files per test.

With ``--copilot-agent``, test-set CSV files become test items too (``pytest_evalset``).

Thin on purpose: options and fixtures only; running is `run_copilot`'s job. The runtime pool is
shared by every test that runs in the same event loop and closed at the end of the session.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

_EVIDENCE_DIR_KEY = pytest.StashKey[Path | None]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Options for the default model and for evidence files."""
    group = parser.getgroup("copilot-eval")
    group.addoption("--copilot-model", default=os.environ.get("COPILOT_EVAL_MODEL"),
                    help="default model for agents that name none (env COPILOT_EVAL_MODEL)")
    group.addoption("--copilot-provider-url", default=os.environ.get("COPILOT_EVAL_PROVIDER_URL"),
                    help="BYOK endpoint base URL for agents without a provider (env COPILOT_EVAL_PROVIDER_URL)")
    group.addoption("--copilot-provider-type", default="openai", choices=["openai", "azure", "anthropic"],
                    help="BYOK provider type (default openai)")
    group.addoption("--copilot-api-key-env", default=None,
                    help="name of the environment variable holding the BYOK API key")
    group.addoption("--copilot-evidence-dir", default=os.environ.get("COPILOT_EVAL_EVIDENCE_DIR"),
                    help="write each run's CopilotResult JSON into this directory")
    from copilot_eval.pytest_evalset import add_options

    add_options(group)


def pytest_configure(config: pytest.Config) -> None:
    """Remember where evidence goes; with ``--copilot-agent``, collect test-set CSV files too."""
    directory = config.getoption("--copilot-evidence-dir", default=None)
    config.stash[_EVIDENCE_DIR_KEY] = Path(directory) if directory else None
    if config.getoption("--copilot-agent", default=None):
        from copilot_eval.pytest_evalset import configure

        configure(config, config.stash[_EVIDENCE_DIR_KEY])


def _default_provider(config: pytest.Config) -> Any:
    url = config.getoption("--copilot-provider-url")
    if not url:
        return None
    from copilot_eval.models.byok import ByokProvider

    return ByokProvider(type=config.getoption("--copilot-provider-type"), base_url=url,
                        api_key_env=config.getoption("--copilot-api-key-env"))


def _evidence_name(nodeid: str, index: int) -> str:
    from copilot_eval.reports.evidence_names import evidence_file_name

    return evidence_file_name(nodeid, index)


@pytest.fixture
def copilot_eval(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """``result = await copilot_eval(agent, prompt)``: run through the real runtime, get evidence."""
    from copilot_eval.runtime.session.runner import run_copilot

    config = request.config
    evidence_dir = config.stash.get(_EVIDENCE_DIR_KEY, None)
    runs = 0

    async def run(agent: Any, prompt: str | Sequence[str], **options: Any) -> Any:
        nonlocal runs
        options.setdefault("default_model", config.getoption("--copilot-model"))
        options.setdefault("default_provider", _default_provider(config))
        result = await run_copilot(agent, prompt, **options)
        if evidence_dir is not None:
            result.save(evidence_dir / _evidence_name(request.node.nodeid, runs))
        runs += 1
        return result

    return run


@pytest.fixture
def ab_run(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """``ab = await ab_run(prompt, baseline, candidate, repeat=2)``: both agents, isolated runs."""
    from copilot_eval.runs.ab import ab_run as run_ab

    config = request.config
    evidence_dir = config.stash.get(_EVIDENCE_DIR_KEY, None)

    async def run(prompt: str | Sequence[str], baseline: Any, candidate: Any, **options: Any) -> Any:
        options.setdefault("default_model", config.getoption("--copilot-model"))
        options.setdefault("default_provider", _default_provider(config))
        outcome = await run_ab(prompt, baseline, candidate, **options)
        if evidence_dir is not None:
            for index, result in enumerate(outcome.results):
                result.save(evidence_dir / _evidence_name(f"{request.node.nodeid}-ab-{result.comparison_role}", index))
        return outcome

    return run


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop the runtimes the session started (an exit hook catches anything left)."""
    from copilot_eval.runtime.process.pool import close_all_pools

    close_all_pools()
