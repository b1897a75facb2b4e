"""Trajectories: expected steps matched against the calls an agent recorded, with a readable diff.

Pure: no I/O and nothing above ``evidence``, so the result helpers (``CopilotResult.trajectory``),
the pytest assertion helper and the trajectory grader all use this one engine.
"""

from copilot_eval.evidence.trajectory.alignment import MatchMode
from copilot_eval.evidence.trajectory.calls import CALL_KINDS, CallKind, ObservedCall
from copilot_eval.evidence.trajectory.check import assert_trajectory, check_trajectory
from copilot_eval.evidence.trajectory.steps import ANY, AnyValue, Equals, Regex, Step, StepLike
from copilot_eval.evidence.trajectory.verdict import METRICS, Metric, TrajectoryMatch, match_trajectory

__all__ = [
    "ANY",
    "CALL_KINDS",
    "METRICS",
    "AnyValue",
    "CallKind",
    "Equals",
    "MatchMode",
    "Metric",
    "ObservedCall",
    "Regex",
    "Step",
    "StepLike",
    "TrajectoryMatch",
    "assert_trajectory",
    "check_trajectory",
    "match_trajectory",
]
