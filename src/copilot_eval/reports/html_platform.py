"""The part of a run report that says which platform run it is: ids, states, snapshot, export join."""

from __future__ import annotations

from copilot_eval.evalsets.platform_record import PlatformRunRecord
from copilot_eval.reports.html_page import esc, link, table


def platform_html(record: PlatformRunRecord | None, *, snapshot_link: str | None = None) -> str:
    """A "Platform run" section for a run the platform made (empty for our own runs)."""
    if record is None:
        return ""
    surface = {True: "published agent", False: "draft", None: "unknown"}[record.published]
    facts = [
        ("source", esc(record.source)),
        ("environment", esc(record.environment_id)),
        ("bot", esc(record.bot_id)),
        ("test set", esc(f"{record.test_set_name or ''} ({record.test_set_id or 'id unknown'})")),
        (
            "run",
            esc(f"{record.run_name or ''} ({record.run_id})") if record.run_id else "none: the run request was refused",
        ),
        ("surface", esc(surface)),
        ("state", esc(f"{record.state} ({record.execution_state})" if record.execution_state else record.state)),
        ("started / ended", esc(f"{record.start_time or 'unknown'} / {record.end_time or 'unknown'}")),
    ]
    if record.http_status is not None:
        facts.append(("HTTP status of the run request", esc(record.http_status)))
    if record.snapshot is not None:
        name = link(snapshot_link, record.snapshot.path, relative=True) if snapshot_link else esc(record.snapshot.path)
        facts.append(
            (
                "tested agent snapshot",
                f"{name}, {esc(record.snapshot.bytes)} bytes, sha256 {esc(record.snapshot.sha256)}",
            )
        )
    join = record.export_join
    if join is not None:
        facts.append(
            (
                "text joined from",
                esc(f"{join.file}: {join.matched} of {join.rows} rows, matched by {join.matched_by} ({join.detail})"),
            )
        )
    elif record.run_id:
        facts.append(("text", "not joined: the evaluation API returns test case ids only"))
    return '<h2 id="platform">Platform run</h2>' + table(["fact", "value"], [[esc(k), v] for k, v in facts])


__all__ = ["platform_html"]
