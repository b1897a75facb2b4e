"""The dashboard's review queue: the same queue as ``copilot-eval review``, one form per case.

``/runs/ID/review`` lists the run's case results in the queue's order (graders disagreeing first,
then wavering judges, then the rest), each with its question, reference, answer and every grader's
verdict, and a form: pass or fail, who, an optional note. A verdict is posted back to the same
address and stored with source ``dashboard``; the page then shows the run re-scored with people's
verdicts. Each form carries a token bound to the browser session and the run (``local_guard``), so
only pages the dashboard served to that session can post.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_eval.evalsets.quality_parts import quality_parts
from copilot_eval.history.human_verdicts import Rescored
from copilot_eval.history.review_queue import ReviewItem
from copilot_eval.reports.html_page import badge, esc, page

_STYLE = (
    "<style>form.verdict{margin:.5em 0}form.verdict input[type=text]{width:14em}"
    ".item{border:1px solid #ccc;border-radius:6px;padding:.6em 1em;margin:1em 0}"
    ".why{color:#a15c00}</style>"
)


def _grades(item: ReviewItem) -> str:
    rows = []
    for grade in item.grades:
        parts = quality_parts(grade)
        shown = ", ".join(f"{part} {value}" for part, value in parts.items())
        rows.append(
            f"<li>{esc(grade.method)}: {badge(grade.status.value)} {esc(grade.explanation or grade.error_reason or '')}"
            + (f" <small>[{esc(shown)}]</small>" if shown else "")
            + "</li>"
        )
    return f"<ul>{''.join(rows)}</ul>" if rows else "<p>no grader verdicts</p>"


def _form(item: ReviewItem, token: str, reviewer: str) -> str:
    return (
        f'<form class="verdict" method="post" action="review">'
        f'<input type="hidden" name="token" value="{esc(token)}">'
        f'<input type="hidden" name="case" value="{esc(item.case_key)}">'
        f'<input type="hidden" name="repeat" value="{item.repeat_index}">'
        f'<label><input type="radio" name="verdict" value="pass" required> pass</label> '
        f'<label><input type="radio" name="verdict" value="fail"> fail</label> '
        f'<label>reviewer <input type="text" name="reviewer" value="{esc(reviewer)}" required></label> '
        f'<label>note <input type="text" name="note"></label> '
        f'<button type="submit">save verdict</button></form>'
    )


def _item(item: ReviewItem, token: str, reviewer: str) -> str:
    turn = f" turn {item.turn}" if item.turn > 1 else ""
    why = f' <span class="why">({esc(item.first_because)})</span>' if item.first_because else ""
    before = (
        f"<p>reviewed before: {esc(item.given.verdict)} by {esc(item.given.reviewer)} ({esc(item.given.source)})</p>"
        if item.given is not None
        else ""
    )
    return (
        f'<div class="item" id="case-{esc(item.case_key)}-{item.repeat_index}">'
        f"<h3>case {item.conversation_number}{turn}: graders say {badge(item.status)}{why}</h3>"
        f"<p><b>question</b> {esc(item.question or '(not in the run folder)')}</p>"
        f"<p><b>reference</b> {esc(item.reference or '(none)')}</p>"
        f"<p><b>answer</b> {esc(item.answer if item.answer is not None else '(no answer)')}</p>"
        f"{_grades(item)}{before}{_form(item, token, reviewer)}</div>"
    )


def review_page_html(
    run: dict[str, object], items: Sequence[ReviewItem], rescored: Rescored, *, token: str, reviewer: str = ""
) -> str:
    """The review page of one stored run."""
    head = f'<p id="rescored">{esc(rescored.summary())}</p>'
    body = (
        _STYLE
        + head
        + (f"<p>{len(items)} case results to review.</p>" if items else "<p>Every case has a person's verdict.</p>")
        + "".join(_item(item, token, reviewer) for item in items)
        + '<p><a href="report.html">the run\'s report</a> · <a href="/">the dashboard</a></p>'
    )
    title = f"review run {run['id']}: {run.get('test_set_name')}"
    return page(title, esc(run.get("agent_name") or "unnamed agent"), body)


__all__ = ["review_page_html"]
