"""Security of agents: prompt-injection suites played through the real runtime, and an audit of offered tools.

``run_suite(agent, load_suite("builtin"))`` plays each task of a suite without an attack and under
each of its attacks, proves from the request audit whether each attack reached the model, and
reports utility and the targeted attack success rate with their intervals. ``audit_tools(agent)``
reads every tool the agent is offered, flags what is suspicious in its definition and pins the
definitions' hashes (docs/security.md).
"""

from copilot_eval.security.cases import SecurityCase, plan_cases
from copilot_eval.security.data_suite import DataSuite
from copilot_eval.security.dojo_agents import DojoScriptedAgent
from copilot_eval.security.dojo_suite import AgentDojoSuite
from copilot_eval.security.outcomes import Outcome, PlayOutcome, decide_outcome
from copilot_eval.security.playable import Judgement, PlayableSuite
from copilot_eval.security.rates import GroupRate, PlayResult, Rate, SecuritySummary, summarise_plays
from copilot_eval.security.runner import SecurityRun, run_suite
from copilot_eval.security.scripted_agents import ScriptedSuiteAgent
from copilot_eval.security.suite import VECTORS, InjectionSuite
from copilot_eval.security.suite_choice import open_suite
from copilot_eval.security.suite_file import BUILTIN_SUITES, SuiteError, load_suite
from copilot_eval.security.tool_audit import ToolAudit, audit_tools
from copilot_eval.security.tool_checks import ToolFinding, ToolText, check_tools
from copilot_eval.security.tool_pins import PinChange, PinFileError

__all__ = [
    "BUILTIN_SUITES",
    "VECTORS",
    "AgentDojoSuite",
    "DataSuite",
    "DojoScriptedAgent",
    "GroupRate",
    "InjectionSuite",
    "Judgement",
    "Outcome",
    "PinChange",
    "PinFileError",
    "PlayOutcome",
    "PlayResult",
    "PlayableSuite",
    "Rate",
    "ScriptedSuiteAgent",
    "SecurityCase",
    "SecurityRun",
    "SecuritySummary",
    "SuiteError",
    "ToolAudit",
    "ToolFinding",
    "ToolText",
    "audit_tools",
    "check_tools",
    "decide_outcome",
    "load_suite",
    "open_suite",
    "plan_cases",
    "run_suite",
    "summarise_plays",
]
