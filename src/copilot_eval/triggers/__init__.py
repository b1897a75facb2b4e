"""Trigger evaluations: does the model pick a skill or custom agent for the prompts meant for it, and only then?

``read_trigger_set(path)`` reads labelled prompts (our YAML/JSON, a CSV, skill-creator's trigger
JSON); ``await trigger_eval(agent, trigger_set)`` plays each prompt in fresh sessions of the agent
through the real runtime; ``decide_trigger_outcome(result, needs)`` is the one decision of a play's
outcome from its evidence; ``summarise_triggers`` the figures (docs/skills.md).
"""

from copilot_eval.triggers.catalogue import Catalogue, CatalogueEntry, delivery_marker, list_catalogue
from copilot_eval.triggers.figures import (
    ANOTHER,
    PlayRecord,
    PromptFigures,
    SkillFigures,
    TriggerFigures,
    sample_size_for,
    summarise_triggers,
)
from copilot_eval.triggers.outcome import CatalogueNeeds, Choice, TriggerOutcome, decide_trigger_outcome, first_choice
from copilot_eval.triggers.runner import TriggerRun, trigger_eval
from copilot_eval.triggers.split import split_trigger_set
from copilot_eval.triggers.trigger_reader import read_trigger_set, trigger_set_from_data
from copilot_eval.triggers.trigger_set import KNOWN_TAGS, NONE, TriggerPrompt, TriggerSet, TriggerSetError

__all__ = [
    "ANOTHER",
    "KNOWN_TAGS",
    "NONE",
    "Catalogue",
    "CatalogueEntry",
    "CatalogueNeeds",
    "Choice",
    "PlayRecord",
    "PromptFigures",
    "SkillFigures",
    "TriggerFigures",
    "TriggerOutcome",
    "TriggerPrompt",
    "TriggerRun",
    "TriggerSet",
    "TriggerSetError",
    "decide_trigger_outcome",
    "delivery_marker",
    "first_choice",
    "list_catalogue",
    "read_trigger_set",
    "sample_size_for",
    "split_trigger_set",
    "summarise_triggers",
    "trigger_eval",
    "trigger_set_from_data",
]
