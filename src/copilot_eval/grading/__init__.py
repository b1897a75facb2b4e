"""Graders: turn (case, evidence) into pass / fail / error / unknown with a score and a reason.

Deterministic graders (exact, keywords, similarity, capability) need no model; the judges
(compare meaning, general quality, labels) run an LLM judge through the Copilot runtime.
"""

from __future__ import annotations

from copilot_eval.grading.capability import CapabilityUse
from copilot_eval.grading.combine import combine_grades
from copilot_eval.grading.compare_meaning import CompareMeaning
from copilot_eval.grading.exact import ExactMatch, Normalisation
from copilot_eval.grading.general_quality import GeneralQuality
from copilot_eval.grading.instructions import InstructionsDelivered
from copilot_eval.grading.judge import LlmJudge, parse_judge_answer
from copilot_eval.grading.keywords import KeywordMatch
from copilot_eval.grading.labels import LabelClassifier
from copilot_eval.grading.protocol import CaseEvidence, Grade, Grader
from copilot_eval.grading.similarity import TextSimilarity
from copilot_eval.grading.spec import SPEC_FORMS, GraderSpecError, parse_grader_spec

__all__ = [
    "SPEC_FORMS",
    "CapabilityUse",
    "CaseEvidence",
    "CompareMeaning",
    "ExactMatch",
    "GeneralQuality",
    "Grade",
    "Grader",
    "GraderSpecError",
    "InstructionsDelivered",
    "KeywordMatch",
    "LabelClassifier",
    "LlmJudge",
    "Normalisation",
    "TextSimilarity",
    "combine_grades",
    "parse_grader_spec",
    "parse_judge_answer",
]
