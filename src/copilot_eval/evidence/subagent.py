"""Where ``SubagentInvocation`` used to live; it is defined in ``result`` next to ``CopilotResult``.

The two models contain each other (an invocation holds the child's result), so they share one
module instead of importing each other.
"""

from copilot_eval.evidence.result import SubagentInvocation

__all__ = ["SubagentInvocation"]
