"""What a run is a part of and what it ran: its shard, the fingerprints of its inputs, a merge.

Fingerprints are content hashes (``sha256:<hex>``) of the test set, of the agent configuration
with the files it names, and of the graders. Shards of one run carry equal fingerprints; merge
and the history store compare them instead of trusting file names.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from copilot_eval.evalsets.confidence import CamelModel


class ShardInfo(CamelModel):
    """This run played shard ``index`` (1-based) of ``count``."""

    index: int = Field(ge=1)
    count: int = Field(ge=1)

    @model_validator(mode="after")
    def _index_within_count(self) -> ShardInfo:
        if self.index > self.count:
            raise ValueError(f"shard index {self.index} is above the shard count {self.count}")
        return self

    def label(self) -> str:
        """``I/N``, as given to ``--shard``."""
        return f"{self.index}/{self.count}"


class RunFingerprints(CamelModel):
    """Content hashes of a run's inputs; ``None`` where the input was not a file that can be hashed."""

    test_set: str | None = None
    agent: str | None = None
    graders: str | None = None
    played_agent: str | None = Field(
        default=None,
        description="The agent apart from where it is reached (its target) and its name: surfaces with the same "
        "one play one agent and may confirm each other's runtime limitation; others are an A/B comparison.",
    )


class MergeRecord(CamelModel):
    """A run merged from shard runs: which shards it holds, and what is missing when it is partial."""

    shard_count: int = Field(ge=1)
    shards: list[int] = Field(default_factory=list, description="Indices of the shards merged, ascending.")
    missing_shards: list[int] = Field(default_factory=list)
    missing_conversations: list[int] = Field(
        default_factory=list, description="conversationNumbers with at least one repeat not played in any shard."
    )
    complete: bool = Field(description="Every conversation of the set, every repeat, was played.")


__all__ = ["MergeRecord", "RunFingerprints", "ShardInfo"]
