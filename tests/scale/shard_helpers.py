"""A small conversation set and scripted agents, played whole or shard by shard, for merge and Ray tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from copilot_eval.evalsets import ShardInfo
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.plan import plan_run
from copilot_eval.runs.settings import RunSettings

SCRIPT = """rules:
  - when: {prompt_contains: "wrong"}
    turns: [{text: "I do not know"}]
  - turns: [{text: "answer to: {prompt}"}]
"""


def write_project(folder: Path, *, conversations: int = 7, changed_question: bool = False) -> dict[str, Path]:
    """set.csv (two turns per conversation, conversation 3 answered wrongly), agent.yaml, other-agent.yaml."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "script.yaml").write_text(SCRIPT, encoding="utf-8")
    (folder / "agent.yaml").write_text("name: echo\nmodel: {scripted: script.yaml}\ntimeout_s: 30\n")
    (folder / "other-agent.yaml").write_text("name: echo\nmodel: {scripted: script.yaml}\ntimeout_s: 31\n")
    rows = ['"conversationNumber","question","response"']
    for n in range(1, conversations + 1):
        for turn in (1, 2):
            question = f"c{n} t{turn}" + (" wrong" if n == 3 and turn == 2 else "")
            if changed_question and n == 1 and turn == 1:
                question += " changed"
            rows.append(f'"{n}","{question}","answer to: {question}"')
    (folder / "set.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return {"set": folder / "set.csv", "agent": folder / "agent.yaml", "other": folder / "other-agent.yaml"}


async def play(
    set_path: Path,
    agent_path: Path,
    out: Path,
    *,
    shard: ShardInfo | None = None,
    graders: list[str] | None = None,
    repeat: int = 1,
    **settings: Any,
) -> Any:
    """Plan and play like `copilot-eval run` does (its plan, fingerprints included), in this process."""
    plan = plan_run(
        set_path,
        [agent_path],
        RunSettings.of(graders=graders or ["exact"], repeat=repeat, out=out, shard=shard, **settings),
    )
    return await run_eval_set(
        plan.test_set,
        plan.surfaces[0].agent,
        plan.settings,
        fingerprints=plan.fingerprints,
        agent_file=agent_path,
        validate=False,
    )


def shard(index: int, count: int) -> ShardInfo:
    """ShardInfo(index, count)."""
    return ShardInfo(index=index, count=count)


def outcomes(run: Any) -> list[tuple[int, int, int, str, str | None]]:
    """(conversation, turn, repeat, status, answer) of every result, sorted: what two runs must share."""
    return sorted(
        (r.conversation_number, r.turn or 1, r.repeat_index or 0, r.effective_status.value, r.actual_response)
        for r in run.results or []
    )
