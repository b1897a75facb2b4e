"""Shared builders for the evaluation API tests: scripted test sets, a served fake, the CLI against it."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.testing import FakeStudioEval, FakeTestSet, case_result, metric_result, no_answer_case

TOKEN_ENV = "STUDIO_EVAL_TEST_TOKEN"

#: The bike-shop questions of the healthy set, with the reference, the answer, and each metric's verdict.
BIKE_SHOP = [
    (
        "What are the opening hours?",
        "Every day from 8:00 to 19:00.",
        "We are open daily, 8:00 to 19:00.",
        [
            ("GeneralQuality", "Pass", "Relevant, grounded and complete: it gives the daily hours."),
            ("CompareMeaning", "Pass", "Same hours as the reference (score 92)."),
        ],
    ),
    (
        "How much is a city bike for a day?",
        "24 euros for a full day.",
        "A city bike costs 24 euros a day.",
        [
            ("GeneralQuality", "Pass", "Answers with the daily price of a city bike."),
            ("CompareMeaning", "Pass", "Same price as the reference (score 88)."),
        ],
    ),
    (
        "Do I need a deposit?",
        "150 euros per bike, 300 for an e-bike.",
        "Yes, 150 euros per bike.",
        [
            ("GeneralQuality", "Pass", "Relevant and grounded in the rental terms."),
            ("CompareMeaning", "Fail", "Leaves out the e-bike deposit (score 45)."),
        ],
    ),
    (
        "Can I bring my dog?",
        "",
        "Dogs in a basket are welcome on cargo bikes.",
        [("GeneralQuality", "Pass", "Abstains from inventing rules; cites the cargo-bike page.")],
    ),
]


def bike_shop_set(**fields: object) -> FakeTestSet:
    """The healthy set: 4 cases, 3 pass, 1 fails on CompareMeaning (75 %)."""
    cases = [
        case_result(
            *(metric_result(t, s, r, data={"relevance": "Yes"} if t == "GeneralQuality" else None) for t, s, r in m)
        )
        for _, _, _, m in BIKE_SHOP
    ]
    fields.setdefault("display_name", "Bike shop nightly")
    return FakeTestSet(cases=cases, **fields)  # type: ignore[arg-type]


def no_answer_set(count: int = 3) -> FakeTestSet:
    """Every case AgentResponseIsNullOrEmpty on every metric (the draft answered nothing the evaluator saw)."""
    return FakeTestSet("Bike shop nightly", [no_answer_case("GeneralQuality", "CompareMeaning") for _ in range(count)])


def export_text(rows: Sequence[tuple[str, str, str, list[tuple[str, str, str]]]] = BIKE_SHOP) -> str:
    """An Evaluate-tab results export of ``rows`` (question, reference, answer, metric verdicts)."""
    width = max(len(m) for *_, m in rows)
    header = ["question", "expectedResponse", "actualResponse"]
    for i in range(1, width + 1):
        header += [f"testMethodType_{i}", f"result_{i}", f"passingScore_{i}", f"explanation_{i}"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerow(header)
    for question, reference, answer, metrics in rows:
        row = [question, reference, answer]
        for method, status, reason in metrics:
            row += [method, status, "50" if method == "CompareMeaning" else "", reason]
        row += [""] * (len(header) - len(row))
        writer.writerow(row)
    return buffer.getvalue()


def write_export(folder: Path, rows: Sequence[tuple[str, str, str, list[tuple[str, str, str]]]] = BIKE_SHOP) -> Path:
    """Write an export of ``rows`` as ``folder/results.csv``."""
    path = folder / "export-results.csv"
    path.write_text(export_text(rows), encoding="utf-8")
    return path


def studio_cli(fake: FakeStudioEval, command: str, *args: str, token_env: str = TOKEN_ENV):
    """Invoke `copilot-eval studio-eval COMMAND` against ``fake`` (token from ``token_env``, no polling delay)."""
    base = [
        "studio-eval",
        command,
        *args,
        "--environment-id",
        fake.environment_id,
        "--bot-id",
        fake.bot_id,
        "--api-url",
        fake.api_url,
        "--token-env",
        token_env,
    ]
    if command in ("run", "get"):
        base += ["--poll-s", "0"]
    return CliRunner().invoke(app, base)
