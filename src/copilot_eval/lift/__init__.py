"""Lift: does a customization help? Two arms over one test set, compared case by case, with delivery proven.

``lift_eval`` plays the arms interleaved; ``vary_arms`` makes them from one agent and a ``--vary``
spec, ``expectations_of`` from two agents; ``decide_delivery`` is the one place a play's delivery
is decided; ``lift_figures`` pairs the plays (a bootstrap interval over cases); ``lift_verdict``
judges them against ``--min-lift`` and ``--max-regression``. See docs/lift.md.
"""

from copilot_eval.lift.arms import Arm, ArmError, CustomizationText, Expectation, expectations_of, vary_arms
from copilot_eval.lift.delivery import Delivery, decide_delivery
from copilot_eval.lift.engine import DEFAULT_LIFT_REPEAT, LiftRun, lift_eval
from copilot_eval.lift.figures import LiftFigures, LiftPlay, PairedCase, lift_figures, smallest_detectable
from copilot_eval.lift.gates import LiftGates, lift_verdict
from copilot_eval.lift.trigger_lift import SkillLift, TriggerLift, trigger_lift

__all__ = [
    "DEFAULT_LIFT_REPEAT",
    "Arm",
    "ArmError",
    "CustomizationText",
    "Delivery",
    "Expectation",
    "LiftFigures",
    "LiftGates",
    "LiftPlay",
    "LiftRun",
    "PairedCase",
    "SkillLift",
    "TriggerLift",
    "decide_delivery",
    "expectations_of",
    "lift_eval",
    "lift_figures",
    "lift_verdict",
    "smallest_detectable",
    "trigger_lift",
    "vary_arms",
]
