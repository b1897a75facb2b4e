"""StudioAgent: a Copilot Studio agent as a target, played one conversation per call.

``play(prompts)`` opens one conversation, sends the prompts in order and returns a TargetResult.
A turn that fails ends the conversation there (later prompts are not asked), as a failed Copilot
runtime session does. ``timeout_s`` bounds every turn (and the opening) separately.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml

from copilot_eval.bounded_yaml import YamlRefused, load_yaml_file
from copilot_eval.suggest import did_you_mean
from copilot_eval.targets.agents_sdk import AgentsSdkConversation
from copilot_eval.targets.config import CopilotStudioTarget, DirectLineTarget, TargetConfigError, parse_target
from copilot_eval.targets.directline import DirectLineConversation
from copilot_eval.targets.evidence import TargetResult
from copilot_eval.targets.http import Exchanges, Secrets, TargetHttpError
from copilot_eval.targets.tokens import TokenError, token_source

DEFAULT_TIMEOUT_S = 60.0
_AGENT_KEYS = ("name", "target", "timeout_s", "description")


@dataclass(frozen=True)
class StudioAgent:
    """A named Copilot Studio agent reached over Direct Line or the Agents SDK endpoint."""

    target: DirectLineTarget | CopilotStudioTarget
    name: str | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    transport: Any = field(default=None, repr=False, compare=False)  # an httpx transport, for tests

    def __post_init__(self) -> None:
        if not self.timeout_s > 0:
            raise TargetConfigError(f"timeout_s: must be positive (got {self.timeout_s!r})")

    @classmethod
    def from_file(cls, path: str | Path) -> StudioAgent:
        """Read an agent file whose ``target:`` names a Copilot Studio agent."""
        return load_target_agent_file(path)

    def _conversation(self, exchanges: Exchanges) -> Any:
        if isinstance(self.target, DirectLineTarget):
            return DirectLineConversation(self.target, exchanges, timeout_s=self.timeout_s)

        return AgentsSdkConversation(self.target, exchanges, timeout_s=self.timeout_s, token=token_source(self.target))

    async def play(self, prompts: Sequence[str]) -> TargetResult:
        """Play ``prompts`` as one conversation and return its evidence (never raises for platform failures)."""
        started = time.monotonic()
        result = TargetResult(target_type=self.target.type, agent_name=self.name)
        secrets = Secrets()
        limits = httpx.Timeout(self.timeout_s, connect=min(self.timeout_s, 10.0))
        async with httpx.AsyncClient(timeout=limits, transport=self.transport, follow_redirects=True) as http:
            exchanges = Exchanges(http, secrets, max_retries=getattr(self.target, "max_retries", 2))
            conversation = self._conversation(exchanges)
            try:
                result.greeting = await conversation.open()
                result.conversation_id = conversation.conversation_id
                for prompt in prompts:
                    turn = await conversation.ask(prompt)
                    result.turns.append(turn)
                    if turn.error is not None:
                        break
            except (TargetHttpError, TokenError) as exc:
                result.error = exc.describe() if isinstance(exc, TargetHttpError) else str(exc)
            finally:
                closing = getattr(conversation, "close", None)
                if closing is not None:
                    await closing()
            result.http = exchanges.records
            result.capture_errors = list(getattr(conversation, "capture_errors", []))
        failed = next((turn for turn in result.turns if turn.error is not None), None)
        if result.error is None and failed is not None:
            result.error = failed.error
        result.success = result.error is None and len(result.turns) == len(prompts)
        timed_out = failed is not None and failed.ended_by == "timeout"
        result.stop_reason = "completed" if result.success else ("timeout" if timed_out else "execution_error")
        result.duration_ms = round((time.monotonic() - started) * 1000, 1)
        # Belt and braces: whatever a platform echoed back, no secret we held is kept.
        return TargetResult.model_validate(secrets.scrub(result.model_dump(mode="json")))


def is_target_file(data: Any) -> bool:
    """Whether parsed agent-file data describes a target (a top-level ``target:`` key)."""
    return isinstance(data, dict) and "target" in data


def agent_from_data(data: dict[str, Any], file: str | Path) -> StudioAgent:
    """A StudioAgent from parsed agent-file data; errors name the file and the field."""
    unknown = sorted(set(data) - set(_AGENT_KEYS))
    if unknown:
        guesses = "".join(did_you_mean(str(key), _AGENT_KEYS) for key in unknown)
        raise TargetConfigError(
            f"{file}: unknown field(s) {unknown}{guesses} for a target agent "
            "(expected name, target, timeout_s; models and tools belong to Copilot runtime agents)"
        )
    timeout = data.get("timeout_s", DEFAULT_TIMEOUT_S)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
        raise TargetConfigError(f"{file}: timeout_s: expected a positive number of seconds, got {timeout!r}")
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise TargetConfigError(f"{file}: name: expected text, got {name!r}")
    return StudioAgent(target=parse_target(data["target"], file=file), name=name, timeout_s=float(timeout))


def load_target_agent_file(path: str | Path) -> StudioAgent:
    """Read an agent YAML file with a ``target:`` block into a StudioAgent."""
    file = Path(path)
    try:
        data = load_yaml_file(file)
    except FileNotFoundError:
        raise TargetConfigError(f"{file}: agent file not found") from None
    except YamlRefused as error:
        raise TargetConfigError(str(error)) from None
    except yaml.YAMLError as error:
        raise TargetConfigError(f"{file}: not valid YAML: {error}") from None
    if not is_target_file(data):
        raise TargetConfigError(f"{file}: no `target:` block (this is not a Copilot Studio target agent file)")
    return agent_from_data(data, file)


__all__ = ["DEFAULT_TIMEOUT_S", "StudioAgent", "agent_from_data", "is_target_file", "load_target_agent_file"]
