"""The comment block written before a CSV header, in the layout of today's downloadable templates.

Each line is one field starting with ``#``. The text is ours: it states how the file is read and
the limits of the rule set the file is meant for, taken from the rule set itself so that the
block can never disagree with what ``validate`` enforces.
"""

from __future__ import annotations

from copilot_eval.evalsets.csv_templates import CsvTemplate
from copilot_eval.evalsets.rule_sets import RuleSet, rule_set_named


def _limits(rules: RuleSet, template: CsvTemplate) -> list[str]:
    lines = []
    if template.has_numbers:
        if rules.max_pairs_per_set is not None:
            lines.append(f"# - at most {rules.max_pairs_per_set} question-and-answer pairs in the whole set")
        if rules.max_pairs_per_conversation is not None:
            lines.append(f"# - at most {rules.max_pairs_per_conversation} question-and-answer pairs per conversation")
        if rules.max_conversations is not None:
            lines.append(f"# - at most {rules.max_conversations} conversations")
    elif rules.max_questions is not None:
        lines.append(f"# - at most {rules.max_questions} questions")
    if rules.max_question_length is not None:
        lines.append(f"# - at most {rules.max_question_length} characters per question, spaces included")
    lines.append(f"# - at most {rules.max_reference_length} characters per reference answer")
    lines.append(f"# - at most {rules.max_file_bytes // (1024 * 1024)} MB per file")
    return lines


def preamble_lines(template: CsvTemplate, profile: str | RuleSet | None = None) -> list[str]:
    """The comment lines for a file in ``template`` checked against rule set ``profile``."""
    rules = rule_set_named(profile)
    reference = template.header[template.response_column]
    lines = [f"# Test set for Copilot Studio evaluation ({template.name} template), written by copilot-eval.", "#"]
    if template.has_numbers:
        if rules.unique_numbers:
            lines.append("# Each row is one question; every conversationNumber is used once.")
        else:
            lines.append("# Rows that share a conversationNumber form one conversation, asked in file order.")
    else:
        lines.append("# Each row is one question, asked in a fresh conversation.")
    if rules.reference_required:
        lines.append(f"# {reference} holds the reference answer and must not be empty.")
    else:
        lines.append(f"# {reference} holds the reference answer; leave it empty when the graders need none.")
    lines += ["#", f"# Limits ({rules.name} rules):", *_limits(rules, template)]
    return lines


__all__ = ["preamble_lines"]
