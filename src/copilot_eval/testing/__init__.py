"""Test doubles shipped with the library: loopback fakes of Copilot Studio's two conversation protocols.

``FakeDirectLine`` (Direct Line 3.0 + the Copilot Studio token endpoint) and ``FakeAgentsSdk``
(the Agents SDK / Direct-to-Engine endpoint) follow one ``FakeAgent`` script per question; serve
them with ``LoopbackServer`` (``async with`` or ``with``).
"""

from copilot_eval.loopback_server import LoopbackServer
from copilot_eval.testing.agents_sdk_fake import FakeAgentsSdk
from copilot_eval.testing.directline_fake import FakeDirectLine
from copilot_eval.testing.fake_agent import (
    FALLBACK_TEXT,
    FakeAgent,
    HttpFault,
    PlannedStep,
    Reply,
    Step,
    answer,
    consent_card,
    end_of_conversation,
    fallback,
    grounded,
    http_error,
    message,
    messages,
    orchestrated,
    platform_error,
    silent,
    slow,
    typing_stream,
)

__all__ = [
    "FALLBACK_TEXT",
    "FakeAgent",
    "FakeAgentsSdk",
    "FakeDirectLine",
    "HttpFault",
    "LoopbackServer",
    "PlannedStep",
    "Reply",
    "Step",
    "answer",
    "consent_card",
    "end_of_conversation",
    "fallback",
    "grounded",
    "http_error",
    "message",
    "messages",
    "orchestrated",
    "platform_error",
    "silent",
    "slow",
    "typing_stream",
]
