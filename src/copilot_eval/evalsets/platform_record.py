"""Where a run came from when a platform ran it: Copilot Studio's evaluation API, as plain data.

Our own runs leave this out. A run read from the platform's evaluation API records the ids a
reader needs to find it again (environment, bot, test set, run), the platform's own states, the
agent snapshot that was tested (a ZIP beside ``run.json``, with its sha256), and how the text of an
Evaluate-tab export was joined to the platform's results, since the API returns none.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from copilot_eval.evalsets.confidence import CamelModel

FINISHED_PLATFORM_STATES = frozenset({"Completed", "Failed", "Cancelled", "Abandoned", "Deleted"})
"""Run states after which the platform changes nothing more about a run (the evaluation API's own
words). A reader of run folders (the history) needs them to tell a run read while it was still
going from its finished read; ``studio_eval.shapes.FINISHED_RUN_STATES`` is the same set (a test
keeps them equal: that layer imports no run model)."""


class SnapshotRecord(CamelModel):
    """The tested agent's snapshot as downloaded: where it is in the run folder, its size and sha256."""

    path: str = Field(description="Relative to the run folder.")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    bytes: int = Field(ge=0)
    content_type: str | None = None


class ExportJoinRecord(CamelModel):
    """How the rows of an Evaluate-tab results export were matched to the platform's test cases."""

    file: str = Field(description="The export's file name.")
    matched_by: str = Field(
        description="explanation (each row's grader explanations equal one case's AI reasons), "
        "explanation+position (the rest placed by a row order the explanations confirmed), or position "
        "(asked for with --export-match position; not verified)."
    )
    rows: int = Field(ge=0)
    matched: int = Field(ge=0)
    by_explanation: int = Field(ge=0)
    by_position: int = Field(ge=0)
    detail: str | None = None


class PlatformRunRecord(CamelModel):
    """The platform run behind an EvalRun: ids, states, surface, snapshot, export join."""

    source: str = Field(description="Which platform API produced the run, e.g. copilot-studio-evaluation-api.")
    api_url: str | None = None
    environment_id: str
    bot_id: str
    test_set_id: str | None = None
    test_set_name: str | None = None
    run_id: str | None = Field(default=None, description="Absent when the platform refused to start the run.")
    run_name: str | None = None
    state: str | None = Field(default=None, description="The run's state as the platform wrote it.")
    execution_state: str | None = None
    published: bool | None = Field(
        default=None,
        description="Whether the published agent was run (false: the draft); unknown for a run read by id.",
    )
    connection_id: str | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    total_test_cases: int | None = Field(default=None, ge=0)
    http_status: int | None = Field(default=None, description="The status of a refused run request.")
    snapshot: SnapshotRecord | None = None
    export_join: ExportJoinRecord | None = None


__all__ = ["FINISHED_PLATFORM_STATES", "ExportJoinRecord", "PlatformRunRecord", "SnapshotRecord"]
