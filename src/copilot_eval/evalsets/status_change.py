"""The one rule for how a case moved between two runs: regressed, improved, or something a grade cannot say.

``compare``, ``run --baseline`` (``--fail-on-regression``) and ``gate`` all read a case's move from
here, so the three never disagree on what a regression is. Only a graded status (``pass`` or
``fail``) on both sides says anything about the agent: a case that passed and now ends in
``error``, ``unknown`` or ``not_run`` was not graded now, so it is neither a regression nor a pass
and is listed apart (**error**); a case graded now that had no grade then is **ungraded_then**,
never an improvement.
"""

from __future__ import annotations

GRADED_STATUSES: tuple[str, ...] = ("pass", "fail")
"""The statuses that grade the agent; every other status (error, unknown, not_run) is not a grade."""

STATUS_CHANGES: tuple[str, ...] = (
    "regressed",
    "error",
    "improved",
    "failing",
    "new",
    "removed",
    "ungraded_then",
    "unchanged",
)
"""Every kind of move of one case, most urgent first."""


def status_change(before: str | None, after: str | None) -> str:
    """The kind of move from ``before`` to ``after`` (case statuses; None where the run lacks the case).

    ``error`` whenever the case is not graded now (whatever it was then), ``ungraded_then`` when it
    is graded now but was not then, ``regressed`` pass to fail, ``improved`` fail to pass,
    ``failing`` fail to fail, ``unchanged`` pass to pass; ``new`` and ``removed`` for one side only.
    """
    if before is None:
        return "new"
    if after is None:
        return "removed"
    if after not in GRADED_STATUSES:
        return "error"
    if before not in GRADED_STATUSES:
        return "ungraded_then"
    if before == after:
        return "failing" if after == "fail" else "unchanged"
    return "regressed" if before == "pass" else "improved"


__all__ = ["GRADED_STATUSES", "STATUS_CHANGES", "status_change"]
