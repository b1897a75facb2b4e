"""The one place a lift play's delivery is decided: did this arm's model get what tells the arms apart?

Read from the request audit only (``result.model_was_sent`` on each expectation's marker, and for
an instruction file the customizations audit's decision on its path, ``result.customizations``): a
text the arm must carry that no request carried, or a text it must not carry that one did, makes
the play ``not_delivered``, and it is counted apart from every figure. A text that is only sent
when used (a skill's body) is recorded but never decides. ``unknown`` when the audit cannot say.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from copilot_eval.lift.arms import Expectation

__all__ = ["Delivery", "DeliveryStatus", "decide_delivery"]

DeliveryStatus = Literal["delivered", "not_delivered", "unknown"]


@dataclass(frozen=True)
class Delivery:
    """A play's delivery: its status, why, and what the audit saw of each text (by its hash)."""

    status: DeliveryStatus
    reason: str | None = None
    seen: dict[str, bool | None] = field(default_factory=dict)  # sha256 -> sent to the model (None: cannot say)


def _label(expectation: Expectation) -> str:
    text = expectation.text
    return f"{text.kind} {text.name} (sha256 {text.sha256[:12]})"


def _file_audit(result: Any, expectation: Expectation) -> tuple[bool | None, str | None]:
    """The customizations audit's word on an instruction file the arm must carry, by its path; (None, None) if silent.

    ``capture.customizations`` decides an instruction file's delivery for every command; here it
    says whether the file at that path reached the model, and why not (listed only, a wrong suffix ...).
    """
    if expectation.text.kind != "instructions" or not expectation.present:
        return None, None
    files = getattr(result, "customizations", None)
    if files is None:
        return None, None
    found = [item for item in files if item.path == expectation.text.name]
    if not found or found[0].status is None:
        return None, None
    status = found[0].status
    return status == "delivered", None if status == "delivered" else f"{status}: {found[0].reason or ''}".rstrip(": ")


def decide_delivery(result: Any, expectations: tuple[Expectation, ...]) -> Delivery:
    """``delivered`` when every required text reached the model where it should and none where it should not.

    An instruction file the arm must carry is judged by the customizations audit on its path when
    that audit has a word on it (``delivered``, or ``listed``/``not_delivered`` ... with its reason);
    every other text by its marker in the requests.
    """
    seen: dict[str, bool | None] = {}
    missing, leaked, unknown = [], [], []
    for expectation in expectations:
        marker = expectation.text.marker
        sent = result.model_was_sent(marker) if marker is not None and hasattr(result, "model_was_sent") else None
        by_path, why = _file_audit(result, expectation)
        if by_path is not None:
            sent = by_path
        seen[expectation.text.sha256] = sent
        if not expectation.text.required:
            continue
        if by_path is False:
            missing.append(f"{_label(expectation)} ({why})")
        elif by_path is True:
            continue
        elif marker is None:
            unknown.append(f"{_label(expectation)}: no piece of it is unique to one arm")
        elif sent is None:
            unknown.append(f"{_label(expectation)}: the request audit did not say")
        elif expectation.present and not sent:
            missing.append(_label(expectation))
        elif not expectation.present and sent:
            leaked.append(_label(expectation))
    problems = []
    if missing:
        problems.append("never reached the model: " + "; ".join(missing))
    if leaked:
        problems.append("reached the model in the arm that must not have it: " + "; ".join(leaked))
    if problems:
        return Delivery("not_delivered", ". ".join(problems), seen)
    if unknown:
        return Delivery("unknown", "; ".join(unknown), seen)
    return Delivery("delivered", None, seen)
