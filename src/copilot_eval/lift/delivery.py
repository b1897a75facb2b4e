"""The one place a lift play's delivery is decided: did this arm's model get what tells the arms apart?

Read from the request audit only (``result.model_was_sent`` on each expectation's marker): a
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


def decide_delivery(result: Any, expectations: tuple[Expectation, ...]) -> Delivery:
    """``delivered`` when every required text reached the model where it should and none where it should not."""
    seen: dict[str, bool | None] = {}
    missing, leaked, unknown = [], [], []
    for expectation in expectations:
        marker = expectation.text.marker
        sent = result.model_was_sent(marker) if marker is not None and hasattr(result, "model_was_sent") else None
        seen[expectation.text.sha256] = sent
        if not expectation.text.required:
            continue
        if marker is None:
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
