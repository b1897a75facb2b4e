"""Test doubles shipped with the library: loopback fakes of Copilot Studio's protocols.

``FakeDirectLine`` (Direct Line 3.0 + the Copilot Studio token endpoint) and ``FakeAgentsSdk``
(the Agents SDK / Direct-to-Engine endpoint) follow one ``FakeAgent`` script per question;
``FakeStudioEval`` is the evaluation REST API with ``FakeTestSet`` results built from
``case_result`` and ``metric_result``; ``FakeGitHubComments`` is GitHub's issue-comment API (pagination,
rate limits, refusals) for ``copilot-eval comment``. Serve them with ``LoopbackServer`` (``async with`` or ``with``).
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
from copilot_eval.testing.github_fake import FakeGitHubComments
from copilot_eval.testing.studio_eval_fake import FakeStudioEval
from copilot_eval.testing.studio_eval_script import FakeTestSet, case_result, metric_result, no_answer_case

# The package's curated public names, repeating its modules' on purpose: a rename is a decision,
# pinned by tests/test_public_names.py.
__all__ = [
    "FALLBACK_TEXT",
    "FakeAgent",
    "FakeAgentsSdk",
    "FakeDirectLine",
    "FakeGitHubComments",
    "FakeStudioEval",
    "FakeTestSet",
    "HttpFault",
    "LoopbackServer",
    "PlannedStep",
    "Reply",
    "Step",
    "answer",
    "case_result",
    "consent_card",
    "end_of_conversation",
    "fallback",
    "grounded",
    "http_error",
    "message",
    "messages",
    "metric_result",
    "no_answer_case",
    "orchestrated",
    "platform_error",
    "silent",
    "slow",
    "typing_stream",
]
