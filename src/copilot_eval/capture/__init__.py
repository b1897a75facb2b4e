"""Capture: turns the runtime's session events into a ``CopilotResult``. Pure; no I/O, no runtime.

``load_event_log`` (in its own module) is the one helper that reads a file.
"""

from copilot_eval.capture.builder import BLOCKING_KINDS, blocking_errors, result_from_events
from copilot_eval.capture.event_log import EventLogError, load_event_log
from copilot_eval.capture.run_facts import RunFacts

__all__ = ["BLOCKING_KINDS", "EventLogError", "RunFacts", "blocking_errors", "load_event_log", "result_from_events"]
