"""The request-handler chain of one run, built in one place.

Outermost the model-call log (it sees what the gate and the audit refused), then the stop gate,
then the request audit when asked for, then the run's own endpoint (a ScriptedModel, a
FunctionModel, a Replay, a Recorder), or the real endpoint when the model source has none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from copilot_eval.runtime.requests.model_calls import ModelCallLog
from copilot_eval.runtime.requests.request_audit import AuditingEndpoint
from copilot_eval.runtime.requests.run_control import RunControl
from copilot_eval.runtime.requests.stop_gate import StopGate

__all__ = ["RequestChain", "build_request_chain"]


@dataclass
class RequestChain:
    """One run's handlers: ``head`` is what the router registers for the session."""

    head: ModelCallLog
    gate: StopGate
    auditor: AuditingEndpoint | None
    endpoint: Any

    @property
    def model_calls(self) -> ModelCallLog:
        """The outermost link, which knows how the run's model calls went."""
        return self.head


def build_request_chain(endpoint: Any, control: RunControl, *, audit: bool = False) -> RequestChain:
    """Log -> stop gate -> (audit) -> ``endpoint`` (None: the real model endpoint)."""
    auditor = AuditingEndpoint(endpoint, control) if audit else None
    gate = StopGate(auditor or endpoint, control)
    return RequestChain(head=ModelCallLog(gate), gate=gate, auditor=auditor, endpoint=endpoint)
