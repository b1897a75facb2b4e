"""The three surfaces of the seed's Raybot agent, as local fakes of Copilot Studio's two protocols.

- draft: the system fallback for every question (Direct Line, token endpoint);
- published: HTTP 500 for every question (Direct Line, token endpoint);
- preview: the six questions grounded with docs.ray.io citations (Agents SDK endpoint).

``raybot_surfaces(folder)`` starts the fakes on loopback and writes one agent file per surface
into ``folder``; the agent files are what a real setup would contain, with real URLs instead.
"""

from __future__ import annotations

import contextlib
import csv
import os
from collections.abc import Iterator
from pathlib import Path

from copilot_eval.testing import (
    FakeAgent,
    FakeAgentsSdk,
    FakeDirectLine,
    LoopbackServer,
    fallback,
    grounded,
    http_error,
)

HERE = Path(__file__).resolve().parent
TEST_SET = HERE / "raybot.csv"
PREVIEW_TOKEN_ENV = "RAYBOT_PREVIEW_TOKEN"
DOCS = {
    "tasks": ("https://docs.ray.io/en/latest/ray-core/tasks.html", "Tasks - Ray documentation"),
    "actors": ("https://docs.ray.io/en/latest/ray-core/actors.html", "Actors - Ray documentation"),
    "objects": ("https://docs.ray.io/en/latest/ray-core/objects.html", "Objects - Ray documentation"),
    "start": ("https://docs.ray.io/en/latest/ray-core/starting-ray.html", "Starting Ray - Ray documentation"),
}
SOURCE_OF = {1: "tasks", 2: "actors", 3: "objects", 4: "start", 5: "tasks", 6: "objects"}


def _preview_agent() -> FakeAgent:
    with TEST_SET.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    rules = [
        (row["question"], grounded(row["response"] + " [1]", [DOCS[SOURCE_OF[int(row["conversationNumber"])]]]))
        for row in rows
    ]
    return FakeAgent(rules=rules, name="Raybot (preview)")


def _agent_file(folder: Path, name: str, target: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\ntarget:\n{target}timeout_s: 20\n", encoding="utf-8")
    return path


@contextlib.contextmanager
def raybot_surfaces(folder: Path) -> Iterator[list[Path]]:
    """Start the three fake surfaces and yield their agent files (draft, published, preview)."""
    draft = FakeDirectLine(FakeAgent(default=fallback(), name="Raybot (draft)"), schema="cr123_raybot")
    published = FakeDirectLine(
        FakeAgent(default=http_error(500, "InternalServerError"), name="Raybot"), schema="cr123_raybot"
    )
    preview = FakeAgentsSdk(_preview_agent(), schema="cr123_raybot", token="preview-user-token")
    os.environ.setdefault(PREVIEW_TOKEN_ENV, preview.token)  # a real setup exports a user-delegated token
    folder.mkdir(parents=True, exist_ok=True)
    with LoopbackServer(draft), LoopbackServer(published), LoopbackServer(preview):
        fast = "  quiet_s: 0.5\n  poll_interval_s: 0.1\n"
        yield [
            _agent_file(
                folder, "raybot-draft", f"  type: directline\n  token_endpoint: {draft.token_endpoint}\n{fast}"
            ),
            _agent_file(
                folder, "raybot-published", f"  type: directline\n  token_endpoint: {published.token_endpoint}\n{fast}"
            ),
            _agent_file(
                folder,
                "raybot-preview",
                f"  type: copilot-studio\n  direct_connect_url: "
                f"{preview.direct_connect_url}\n  token_env: {PREVIEW_TOKEN_ENV}\n",
            ),
        ]
