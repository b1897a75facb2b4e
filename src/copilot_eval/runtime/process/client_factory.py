"""Start one Copilot runtime process over stdio, the way every part of the tool does it.

stdio rather than TCP: the runtime dies with its pipe, so a crashed Python process cannot leave
an orphaned runtime behind. Each runtime runs in a process group of its own: a Ctrl-C or a CI
job's signal to the command's group reaches the command, which stops its runtimes itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from copilot_eval.runtime.process.environment import EnvironmentPolicy, runtime_environment
from copilot_eval.runtime.process.home import new_copilot_home
from copilot_eval.runtime.process.trace_file import trace_environment
from copilot_eval.runtime.sdk_internals import (
    keep_wire_events,
    parse_timestamps_quickly,
    send_disable_model_invocation,
    start_runtimes_in_their_own_process_group,
)

if TYPE_CHECKING:  # the agent package loads its models: only the name is needed here
    from copilot_eval.agent.config import ClientMode

# The SDK is imported when a runtime is started: `copilot-eval setup` imports this module (through install) and must
# not load it (about 0.6 s).

__all__ = ["start_client"]


async def start_client(
    executable: Path,
    *,
    request_handler: Any = None,
    mode: ClientMode = "copilot-cli",
    github_token: str | None = None,
    base_directory: Path | None = None,
    environment: EnvironmentPolicy | None = None,
    trace_file: Path | None = None,
    trace_content: bool = False,
) -> Any:
    """Start a CopilotClient on the given runtime executable and return it, started.

    ``environment`` says which variables the runtime (and so its MCP servers and the agent's
    shell) receives; the default passes the whole environment on. With ``trace_file`` the runtime
    writes its OpenTelemetry spans there (message content only with ``trace_content``).
    """
    from copilot import CopilotClient, RuntimeConnection

    keep_wire_events()  # evidence is built from what the runtime sent, not the SDK's typed subset
    parse_timestamps_quickly()  # the SDK's dateutil parse of every event's timestamp: a fifth of our Python CPU
    send_disable_model_invocation()  # the switch runtime 1.0.102 reads for "the model may not pick this agent"
    start_runtimes_in_their_own_process_group()  # a signal meant for the command reaches the command only
    env = runtime_environment(environment)
    if trace_file is not None:
        env.update(trace_environment(trace_file, capture_content=trace_content))
    client = CopilotClient(
        connection=RuntimeConnection.for_stdio(path=str(executable)),
        env=env,
        base_directory=str(base_directory or new_copilot_home()),
        request_handler=request_handler,
        log_level="error",
        github_token=github_token,
        use_logged_in_user=None if github_token else True,
        mode=mode,
    )
    await client.start()
    return client
