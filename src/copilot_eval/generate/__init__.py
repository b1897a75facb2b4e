"""Drafting test sets and trigger sets from what an agent says it is: coverage in code, text from a generator model."""

from copilot_eval.generate.coverage import (
    Capability,
    CoverageError,
    CoverageTuple,
    SourceSpan,
    capabilities_of,
    deal,
    flavour_counts,
    parse_mix,
)

# The package's curated public names, repeating its modules' on purpose: a rename is a decision,
# pinned by tests/test_public_names.py.
__all__ = [
    "Capability",
    "CoverageError",
    "CoverageTuple",
    "SourceSpan",
    "capabilities_of",
    "deal",
    "flavour_counts",
    "parse_mix",
]
