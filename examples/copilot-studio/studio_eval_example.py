"""Copilot Studio's own evaluation of Raybot, driven from the command line against a local fake of its API.

    python examples/copilot-studio/studio_eval_example.py [--out DIR]

Starts a fake of the evaluation REST API whose "Raybot nightly" test set holds the six questions of
``raybot.csv``, then runs what a CI job runs:

1. ``copilot-eval studio-eval run --test-set "Raybot nightly" --export EXPORT --fail-under 80 --junit ...``
   on the draft: five of six pass (83 %), the Evaluate tab's export supplies the text; exit 0;
2. ``copilot-eval studio-eval run ... --published --confirm-with DRAFT_DIR``: the platform answers
   HTTP 500 to a run of the published agent (as in the seed's Raybot record); the run folder
   records a runtime limitation, confirmed by the draft run; exit 3 (platform, not the agent).

A real setup gives the environment id, the bot id and a token instead (docs/copilot-studio.md).
"""

from __future__ import annotations

import csv
import os
import sys
import tempfile
from pathlib import Path

from copilot_eval.testing import FakeStudioEval, FakeTestSet, LoopbackServer, case_result, metric_result

HERE = Path(__file__).resolve().parent
TOKEN_ENV = "RAYBOT_PP_TOKEN"
#: What the platform's graders said of the draft's answer to each question (the GPU answer misses num_gpus).
VERDICTS = {
    1: ("Pass", "Explains @ray.remote and .remote() returning an object reference, grounded in the docs."),
    2: ("Pass", "Describes actors as stateful workers created from decorated classes."),
    3: ("Pass", "Names ray.get() on the object reference and that it blocks."),
    4: ("Pass", "Gives ray.init() for a local cluster."),
    5: ("Fail", "Says to use a GPU machine but never mentions num_gpus in the decorator."),
    6: ("Pass", "Explains the shared-memory object store and ray.put()."),
}


def _questions() -> list[dict[str, str]]:
    with (HERE / "raybot.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def raybot_test_set() -> FakeTestSet:
    """The test set as the fake API returns its runs: per case, the General quality verdict."""
    cases = [
        case_result(metric_result("GeneralQuality", status, reason, data={"relevance": "Yes", "groundedness": "Yes"}))
        for status, reason in (VERDICTS[int(row["conversationNumber"])] for row in _questions())
    ]
    return FakeTestSet("Raybot nightly", cases)


def write_export(path: Path) -> Path:
    """The results export the Evaluate tab offers for the draft run (question, reference, answer, verdict)."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_ALL)
        writer.writerow(
            [
                "question",
                "expectedResponse",
                "actualResponse",
                "testMethodType_1",
                "result_1",
                "passingScore_1",
                "explanation_1",
            ]
        )
        for row in _questions():
            status, reason = VERDICTS[int(row["conversationNumber"])]
            answer = row["response"] if status == "Pass" else "Run it on a machine with a GPU."
            writer.writerow([row["question"], row["response"], answer, "GeneralQuality", status, "", reason])
    return path


def _cli(args: list[str]) -> int:
    from typer.main import get_command

    from copilot_eval.cli.app import app

    try:  # outside standalone mode, click returns the code of typer.Exit instead of exiting
        return int(get_command(app).main(args, prog_name="copilot-eval", standalone_mode=False) or 0)
    except SystemExit as exc:
        return int(exc.code or 0)


def main(argv: list[str] | None = None) -> int:
    """Run the draft and the published evaluation; 0 when both end as the story says (exit 0, then 3)."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = Path(args[args.index("--out") + 1]) if "--out" in args else Path(tempfile.mkdtemp(prefix="studio-eval-"))
    out.mkdir(parents=True, exist_ok=True)
    fake = FakeStudioEval([raybot_test_set()], agent_name="Raybot", published_fails=True)
    os.environ.setdefault(TOKEN_ENV, fake.token)  # a real setup exports a user-delegated token
    os.environ.setdefault("COPILOT_EVAL_STUDIO_LEDGER", str(out / "ledger.json"))  # keep the real ledger clean
    export = write_export(out / "raybot-draft-export.csv")
    with LoopbackServer(fake):
        common = ["--environment-id", fake.environment_id, "--bot-id", fake.bot_id, "--api-url", fake.api_url]
        common += ["--token-env", TOKEN_ENV, "--test-set", "Raybot nightly", "--poll-s", "0.05"]
        print("$ copilot-eval studio-eval run --test-set 'Raybot nightly' --export ... --fail-under 80  (the draft)")
        draft = _cli(
            [
                "studio-eval",
                "run",
                *common,
                "--out",
                str(out / "draft"),
                "--export",
                str(export),
                "--fail-under",
                "80",
                "--junit",
                str(out / "draft-junit.xml"),
            ]
        )
        print(f"exit code {draft}\n")
        print("$ copilot-eval studio-eval run --test-set 'Raybot nightly' --published --confirm-with DRAFT_DIR")
        published = _cli(
            [
                "studio-eval",
                "run",
                *common,
                "--published",
                "--out",
                str(out / "published"),
                "--confirm-with",
                str(out / "draft"),
            ]
        )
        print(f"exit code {published} (3: the platform, not the agent)")
    return 0 if (draft, published) == (0, 3) else 1


if __name__ == "__main__":
    raise SystemExit(main())
