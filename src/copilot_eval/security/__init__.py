"""Security of agents: prompt-injection suites played through the real runtime, and an audit of offered tools.

``run_suite(agent, load_suite("builtin"))`` plays each task of a suite without an attack and under
each of its attacks, proves from the request audit whether each attack reached the model, and
reports utility and the targeted attack success rate with their intervals (docs/security.md).
"""

from copilot_eval.security.cases import SecurityCase, plan_cases
from copilot_eval.security.outcomes import Outcome, PlayOutcome, decide_outcome
from copilot_eval.security.rates import GroupRate, PlayResult, Rate, SecuritySummary, summarise_plays
from copilot_eval.security.runner import SecurityRun, run_suite
from copilot_eval.security.scripted_agents import ScriptedSuiteAgent
from copilot_eval.security.suite import VECTORS, InjectionSuite
from copilot_eval.security.suite_file import BUILTIN_SUITES, SuiteError, load_suite

__all__ = [
    "BUILTIN_SUITES",
    "VECTORS",
    "GroupRate",
    "InjectionSuite",
    "Outcome",
    "PlayOutcome",
    "PlayResult",
    "Rate",
    "ScriptedSuiteAgent",
    "SecurityCase",
    "SecurityRun",
    "SecuritySummary",
    "SuiteError",
    "decide_outcome",
    "load_suite",
    "plan_cases",
    "run_suite",
    "summarise_plays",
]
