"""Evidence: the result model of a run. Pure data; of the project it imports only the leaf modules."""

from copilot_eval.evidence.audit import RequestAuditRecord
from copilot_eval.evidence.capture_error import CaptureError
from copilot_eval.evidence.content import ContentItem, ToolProgress
from copilot_eval.evidence.customizations import CustomizationFile
from copilot_eval.evidence.hook import HookDecision
from copilot_eval.evidence.host_request import HostRequest
from copilot_eval.evidence.mcp_server import McpServerStatus
from copilot_eval.evidence.permission import PermissionRecord
from copilot_eval.evidence.phase_times import PhaseTimes
from copilot_eval.evidence.played_on import PlayedOn
from copilot_eval.evidence.rate_limit import RateLimit
from copilot_eval.evidence.result import SCHEMA_VERSION, CopilotResult, SubagentInvocation
from copilot_eval.evidence.runtime_trace import RuntimeTrace, TraceSpan, TraceSpanEvent
from copilot_eval.evidence.skills import DiscoveredSkill, SkillDiscovery
from copilot_eval.evidence.stop_reason import STOP_REASONS, StopReason
from copilot_eval.evidence.tool_call import LargeOutput, ToolCall, ToolException, ToolImage
from copilot_eval.evidence.turn import Turn
from copilot_eval.evidence.usage import ModelPrice, UsageEntry, estimate_cost

__all__ = [
    "SCHEMA_VERSION",
    "STOP_REASONS",
    "CaptureError",
    "ContentItem",
    "CopilotResult",
    "CustomizationFile",
    "DiscoveredSkill",
    "HookDecision",
    "HostRequest",
    "LargeOutput",
    "McpServerStatus",
    "ModelPrice",
    "PermissionRecord",
    "PhaseTimes",
    "PlayedOn",
    "RateLimit",
    "RequestAuditRecord",
    "RuntimeTrace",
    "SkillDiscovery",
    "StopReason",
    "SubagentInvocation",
    "ToolCall",
    "ToolException",
    "ToolImage",
    "ToolProgress",
    "TraceSpan",
    "TraceSpanEvent",
    "Turn",
    "UsageEntry",
    "estimate_cost",
]
