"""A lift run that needs no model and no network: a scripted model that answers well only when the
release-check skill's description is in its request.

Run from the repository root:  python examples/lift/run_lift.py

1. ``skills/``: the skill is mounted, so the "with" arm's requests carry its description and the
   model answers SHIPPED; the "without" arm's do not, and it answers "unsure". Six release cases
   flip better, the two others do not move: a lift of +75 points over eight cases, measured.
2. ``misnamed/``: the same skill with its file spelled ``skill.md``. The runtime does not load it,
   so no request of the "with" arm carries its description: every play of that arm is
   ``not_delivered`` and counted apart. The run says so and exits 2; it never reports "no lift".
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

from copilot_eval import CopilotEval
from copilot_eval.lift import lift_eval, vary_arms
from copilot_eval.lift.record import verdict_words
from copilot_eval.models import FunctionModel
from copilot_eval.runs.finish import FinishOptions
from copilot_eval.runs.prepare import read_test_set
from copilot_eval.runs.settings import RunSettings

HERE = Path(__file__).resolve().parent
ANSWERS = {"licence": "MIT", "maintains": "the release team"}


def answer(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
    """The scripted model: it knows a release shipped only when the skill's description reached it."""
    question = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
    for word, reply in ANSWERS.items():
        if word in question:
            return reply
    sent = json.dumps(messages) + json.dumps(tools)
    return "SHIPPED" if "out of the door" in sent else "unsure"


async def lift_of(skills: str, out: Path) -> int:
    """Play the cases with and without the release-check skill from ``skills``; the exit code it would give."""
    agent = CopilotEval(model=FunctionModel(answer), skill_directories=(HERE / skills,), timeout_s=60)
    settings = RunSettings.of(repeat=2, graders=("exact",), out=out, concurrency=2)
    run = await lift_eval(
        read_test_set(HERE / "cases.csv"),
        vary_arms(agent, "skill:release-check"),
        settings,
        finish=FinishOptions(no_history=True),
    )
    print(f"{skills}: {verdict_words(run.figures)}")
    print(f"  flipped better: {', '.join(run.figures.flipped('better')) or 'none'}")
    for arm, reasons in run.figures.apart.items():
        if reasons:
            print(f"  set apart in {arm}: {reasons}")
    line = run.verdict.line()
    print(f"  {line or 'exit 0'}; lift files in {out}")
    return run.verdict.code


def main() -> int:
    """Both runs, into new folders lift-runs/example-*-TIME (a folder holding a lift is continued only with
    --resume, never overwritten); the misnamed one is expected to exit 2."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    good = asyncio.run(lift_of("skills", Path(f"lift-runs/example-skill-{stamp}")))
    misnamed = asyncio.run(lift_of("misnamed", Path(f"lift-runs/example-misnamed-{stamp}")))
    return 0 if (good, misnamed) == (0, 2) else 1


if __name__ == "__main__":
    sys.exit(main())
