"""Usage budgets in pytest: ``--copilot-max-tokens`` and friends, and ``@pytest.mark.copilot_budget``.

The options are defaults for every agent the session runs that sets no budget of that kind
itself; the marker sets a test's budget whatever the agent says (the test knows what the case
may spend). Both become the agent's own fields (``max_tokens``, ``max_premium_requests``,
``max_ai_credits``), so a run over its budget ends as any run does: ``usage_budget_exceeded``.
"""

from __future__ import annotations

from typing import Any

import pytest

# The plugin imports this module in every pytest session; the agent model is imported only for a credit limit (marked
# "on use").

MARKER = "copilot_budget"
MARKER_HELP = (
    f"{MARKER}(*, max_tokens=None, max_premium_requests=None, max_ai_credits=None): the usage budget of "
    "each agent run in this test (see docs/cost.md)"
)
BUDGETS = ("max_tokens", "max_premium_requests", "max_ai_credits")
_OPTIONS = {name: "--copilot-" + name.replace("_", "-") for name in BUDGETS}

__all__ = ["BUDGETS", "MARKER", "MARKER_HELP", "add_budget_options", "check_budgets", "with_budgets"]


# budget -> its value's type, metavar and help; every budget option is one of these, unset by default
_FORMS: dict[str, tuple[type, str, str]] = {
    "max_tokens": (
        int,
        "N",
        "stop an agent run after the model call that takes it past N tokens (input plus output), "
        "for agents that set no max_tokens",
    ),
    "max_premium_requests": (float, "N", "the same for premium requests (max_premium_requests)"),
    "max_ai_credits": (
        float,
        "X",
        "the runtime's session limit in AI credits (at least 30), for agents that set no max_ai_credits",
    ),
}


def add_budget_options(group: Any) -> None:
    """The budget options: defaults for agents that set none."""
    for name in BUDGETS:
        kind, metavar, text = _FORMS[name]
        group.addoption(_OPTIONS[name], type=kind, default=None, metavar=metavar, help=text)


def _marker_budgets(node: pytest.Item) -> dict[str, Any]:
    marker = node.get_closest_marker(MARKER)
    if marker is None:
        return {}
    unknown = sorted(set(marker.kwargs) - set(BUDGETS))
    if marker.args or unknown:
        raise pytest.UsageError(
            f"{node.nodeid}: {MARKER} takes keyword arguments only, of {', '.join(BUDGETS)}"
            + (f" (got {', '.join(unknown)})" if unknown else "")
        )
    return {name: value for name, value in marker.kwargs.items() if value is not None}


def check_budgets(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Refuse a bad budget option or marker before any test runs, naming it."""
    credits = config.getoption(_OPTIONS["max_ai_credits"], default=None)
    if credits is not None:
        # on use, only with a credit limit: the agent model (about 14 % of the plugin's import)
        from copilot_eval.agent.config import MIN_SESSION_AI_CREDITS

        if credits < MIN_SESSION_AI_CREDITS:
            raise pytest.UsageError(
                f"{_OPTIONS['max_ai_credits']}: the runtime's smallest session limit is "
                f"{MIN_SESSION_AI_CREDITS:g} AI credits, got {credits:g}"
            )
    for name in ("max_tokens", "max_premium_requests"):
        value = config.getoption(_OPTIONS[name], default=None)
        if value is not None and value < (1 if name == "max_tokens" else 0):
            raise pytest.UsageError(
                f"{_OPTIONS[name]}: expected a number of at least {1 if name == 'max_tokens' else 0}, got {value:g}"
            )
    for item in items:
        _marker_budgets(item)


def with_budgets(agent: Any, config: pytest.Config, node: pytest.Item | None = None) -> Any:
    """``agent`` with the test's marker budgets and the session's default budgets applied.

    A Copilot Studio target has no budgets of its own (it reports no usage): it is returned as it is.
    """
    if not all(hasattr(agent, name) for name in BUDGETS):
        return agent
    changes = {
        name: config.getoption(option)
        for name, option in _OPTIONS.items()
        if getattr(agent, name) is None and config.getoption(option, default=None) is not None
    }
    if node is not None:
        changes.update(_marker_budgets(node))
    if not changes:
        return agent
    try:
        return agent.with_options(**changes)
    except ValueError as error:  # pydantic's ValidationError names the field and the rule
        raise pytest.UsageError(f"copilot-eval usage budget: {error}") from None
