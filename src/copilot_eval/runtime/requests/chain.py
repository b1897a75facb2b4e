"""The request-handler chain of one run, built in one place.

Outermost the model-call log (it sees what the gate and the audit refused), then the stop gate,
then the request audit when asked for, then, where the run sees its requests anyway, the
tool-definition log (the tools the model was offered) and the tool-message log (what the model
was sent for each tool call), then the run's own endpoint (a ScriptedModel, a FunctionModel, a
Replay, a Recorder), or the real endpoint when the model source has none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from copilot_eval.runtime.requests.customization_sightings import CustomizationProbe
from copilot_eval.runtime.requests.model_calls import ModelCallLog
from copilot_eval.runtime.requests.request_audit import AuditingEndpoint
from copilot_eval.runtime.requests.run_control import RunControl
from copilot_eval.runtime.requests.stop_gate import StopGate
from copilot_eval.runtime.requests.tool_definitions import ToolDefinitionLog
from copilot_eval.runtime.requests.tool_messages import ToolMessageLog

__all__ = ["RequestChain", "build_request_chain"]


@dataclass
class RequestChain:
    """One run's handlers: ``head`` is what the router registers for the session."""

    head: ModelCallLog
    gate: StopGate
    auditor: AuditingEndpoint | None
    endpoint: Any
    tool_messages: ToolMessageLog | None = None
    tool_definitions: ToolDefinitionLog | None = None

    @property
    def model_calls(self) -> ModelCallLog:
        """The outermost link, which knows how the run's model calls went."""
        return self.head


def build_request_chain(
    endpoint: Any,
    control: RunControl,
    *,
    audit: bool = False,
    markers: tuple[str, ...] = (),
    customizations: tuple[CustomizationProbe, ...] = (),
) -> RequestChain:
    """Log -> stop gate -> (audit) -> (tool definitions -> tool messages) -> ``endpoint`` (None: the real endpoint).

    The tool definitions and messages are read where the requests are ours to see: an in-process
    model source, or a real model with the audit on (its bodies are read anyway).
    """
    seen = endpoint is not None or audit
    notes = ToolMessageLog(endpoint) if seen else None
    definitions = ToolDefinitionLog(notes) if notes is not None else None
    inner = definitions or endpoint
    auditor = AuditingEndpoint(inner, control, markers=markers, customizations=customizations) if audit else None
    gate = StopGate(auditor or inner, control)
    return RequestChain(
        head=ModelCallLog(gate),
        gate=gate,
        auditor=auditor,
        endpoint=endpoint,
        tool_messages=notes,
        tool_definitions=definitions,
    )
