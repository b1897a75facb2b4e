"""Benchmark: a trigger evaluation's sessions per second beside the plain-SDK loop, and what stopping at the choice saves.

20 prompts x 3 runs over a 10-skill catalogue, answered by a scripted router (a `skill` call, then
a closing answer of several turns, as a model that goes on with the task would; or a plain answer
for the prompts no skill should take), played three ways on the same machine, C at a time:

  - plain:   the bare SDK on one started client: create_session with the skill folder, send, wait
             for the root's idle, disconnect (no evidence, no audit, no decision, no run folder);
  - ours:    trigger_eval with --no-stop-at-choice (the listing session, the audit, the evidence
             of every play, the decisions and the figures included);
  - stopped: trigger_eval with --stop-at-choice (the default).

Prints sessions per second for each, ours / plain (goal: at least 0.9) and stopped / ours (the
saving, in time and in model requests: a scripted model answers at once, so here the saving is in
requests, each of which costs seconds with a real model). The three run in turn, twice, so the
machine's drift hits all alike; the better of the two rounds of each is kept. Absolute figures depend on the machine's load; the ratios are measured
in the same run.

    python benchmarks/triggers.py [--concurrency C]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from copilot_eval import CopilotEval, ScriptedModel
from copilot_eval.runtime.process.client_factory import start_client
from copilot_eval.runtime.process.locate import locate_runtime
from copilot_eval.triggers import NONE, TriggerPrompt, TriggerSet, trigger_eval

SKILLS = [f"skill-{index:02d}" for index in range(10)]
RUNS = 3


def catalogue(root: Path) -> Path:
    """Ten skills, each with a description of its own words."""
    for index, name in enumerate(SKILLS):
        (root / name).mkdir(parents=True)
        text = f"---\nname: {name}\ndescription: Handles topic{index} requests, such as topic{index} reports.\n---\nSteps.\n"
        (root / name / "SKILL.md").write_text(text, encoding="utf-8")
    return root


def trigger_set() -> TriggerSet:
    """Twenty prompts: sixteen positives over eight of the ten skills, four for no skill (the other two are siblings)."""
    prompts = [TriggerPrompt(i + 1, f"please do topic{i % 8} work number {i}", SKILLS[i % 8]) for i in range(16)]
    prompts += [TriggerPrompt(17 + i, f"small talk number {i}", NONE, ("negative-control",)) for i in range(4)]
    return TriggerSet(name="bench", prompts=tuple(prompts), extra_names=tuple(SKILLS))


def router() -> ScriptedModel:
    """A skill call for topicN, then three more turns of the task; a plain answer otherwise."""
    rules: list[dict] = [
        {
            "when": {"prompt_contains": f"topic{index} "},
            "turns": [
                {"tool_calls": [{"name": "skill", "arguments": {"skill": SKILLS[index]}}]},
                {"tool_calls": [{"name": "view", "arguments": {"path": "/etc/hostname"}}]},
                {"tool_calls": [{"name": "view", "arguments": {"path": "/etc/os-release"}}]},
                {"text": "done with the task"},
            ],
        }
        for index in range(10)
    ]
    rules.append({"turns": [{"text": "just chatting"}]})
    return ScriptedModel.from_dict({"rules": rules})


async def plain_loop(model: ScriptedModel, skills: Path, prompts: list[str], concurrency: int) -> float:
    """The bare SDK: one client, C sessions at a time; returns the wall seconds."""
    from copilot import PermissionHandler

    client = await start_client(locate_runtime().path, request_handler=model.endpoint(working_directory=None))
    limit = asyncio.Semaphore(concurrency)
    failures: list[str] = []

    async def one(prompt: str) -> None:
        async with limit:
            idle = asyncio.Event()

            def on_event(event) -> None:
                if event.type.value == "session.error":
                    failures.append(str(event.data))
                if event.type.value == "session.idle" and not event.agent_id:
                    idle.set()

            session = await client.create_session(
                model=model.session_model,
                provider=model.provider_config(),
                working_directory=tempfile.mkdtemp(),
                skill_directories=[str(skills)],
                on_permission_request=PermissionHandler.approve_all,
                on_event=on_event,
            )
            await session.send(prompt)
            await asyncio.wait_for(idle.wait(), 120)
            await session.disconnect()

    await one("warm up")
    started = time.perf_counter()
    await asyncio.gather(*(one(p) for p in prompts))
    elapsed = time.perf_counter() - started
    await client.stop()
    assert not failures, f"the plain loop's sessions failed: {failures[:2]}"
    return elapsed


async def main(concurrency: int) -> None:
    skills = catalogue(Path(tempfile.mkdtemp(prefix="bench-skills-")))
    model = router()
    agent = CopilotEval(name="bench", model=model, skill_directories=(skills,), timeout_s=120)
    chosen = trigger_set()
    prompts = [p.prompt for _ in range(RUNS) for p in chosen.prompts]
    sessions = len(prompts)
    await trigger_eval(agent, chosen.with_prompts(chosen.prompts[:2]), runs=1)  # warm the pool
    best: dict[str, float] = {}
    requests: dict[str, int] = {}
    for _ in range(2):
        plain = await plain_loop(model, skills, prompts, concurrency)
        started = time.perf_counter()
        ours_run = await trigger_eval(agent, chosen, runs=RUNS, stop_at_choice=False, concurrency=concurrency)
        ours = time.perf_counter() - started
        started = time.perf_counter()
        stopped_run = await trigger_eval(agent, chosen, runs=RUNS, stop_at_choice=True, concurrency=concurrency)
        stopped = time.perf_counter() - started
        assert ours_run.figures.correct == stopped_run.figures.correct == sessions, "the router is always right"
        for name, value in (("plain", plain), ("ours", ours), ("stopped", stopped)):
            best[name] = min(best.get(name, value), value)
        for name, played in (("ours", ours_run), ("stopped", stopped_run)):
            requests[name] = sum(len(result.request_audit or []) for result in played.results.values())
    print(f"{sessions} sessions (20 prompts x {RUNS} runs, 10 skills), concurrency {concurrency}")
    for name in ("plain", "ours", "stopped"):
        print(f"  {name:8s} {best[name]:6.1f} s  {sessions / best[name]:5.2f} sessions/s")
    print(f"ours / plain (sessions per second): {best['plain'] / best['ours']:.2f} (goal >= 0.9)")
    print(
        f"stop at the choice: {best['stopped'] / best['ours']:.2f} of the time played to the end "
        f"({sessions / best['stopped']:.2f} vs {sessions / best['ours']:.2f} sessions/s); model requests "
        f"{requests['stopped']} vs {requests['ours']} ({requests['stopped'] / requests['ours']:.2f})"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--concurrency", type=int, default=4)
    asyncio.run(main(parser.parse_args().concurrency))
