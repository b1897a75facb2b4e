"""A case's workspace as a test set names it, and what a play left in it, as plain data.

``CaseWorkspace`` is the ``workspace`` of a case in the JSON test-set format: the fixture the agent
works on (a folder, an archive, or a git repository at a commit), setup commands run before the
agent starts, the paths the agent must not change or read, and the workspace graders of that case.
``WorkspaceRecord`` is what a run keeps about one play's workspace on its case result: what changed,
the patch file, the files the agent read and wrote, and the honesty findings. The workspace layer
(``copilot_eval.workspace``) does the work; this module only holds its shape.
"""

from __future__ import annotations

from pydantic import Field

from copilot_eval.evalsets.confidence import CamelModel


class CaseWorkspace(CamelModel):
    """The fixture a case is played on, copied fresh into each play's working directory."""

    source: str = Field(
        description="A folder, an archive (.zip, .tar.gz, .tgz, .tar) or a git repository (a path or URL, with "
        "'commit'); a relative path is read from the test set file's folder."
    )
    commit: str | None = Field(
        default=None, description="The commit (or tag, branch) of a git repository whose tree is the fixture."
    )
    setup: list[str] = Field(
        default_factory=list,
        description="Shell commands run in the working directory, in order, before the agent starts; their "
        "output is kept, and one that fails makes the case an error.",
    )
    protect: list[str] = Field(
        default_factory=list,
        description="Path globs the agent must not change (tests, answer keys, CI config): a change is a finding.",
    )
    answer_keys: list[str] = Field(
        default_factory=list, description="Path globs of answer-key files: reading one is a finding."
    )
    graders: list[str] = Field(
        default_factory=list,
        description="Grader specs for this case over the workspace after the run, as --grader takes them "
        "(command:CMD, file_exists:PATH, file_contains:PATH=TEXT, file_matches:PATH=REGEX, "
        "json_equals:PATH#KEY.KEY=JSON, diff:..., honesty).",
    )


class WorkspaceFinding(CamelModel):
    """One honesty finding of a play: what kind, on which path, and what was seen."""

    kind: str = Field(description="protected_path_changed, answer_key_read, test_deleted or test_skipped.")
    path: str
    detail: str


class WorkspaceRecord(CamelModel):
    """What one play did to its workspace: the changes, the patch, the files read and written, the findings."""

    directory: str | None = Field(default=None, description="The play's working directory (kept after the run).")
    patch_path: str | None = Field(
        default=None, description="The diff from the fixture to what the agent left, relative to the run folder."
    )
    added: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    changed: list[str] = Field(default_factory=list)
    files_read: list[str] = Field(default_factory=list, description="Files the agent read through its file tools.")
    files_written: list[str] = Field(default_factory=list, description="Files the agent wrote through its file tools.")
    findings: list[WorkspaceFinding] = Field(default_factory=list)


__all__ = ["CaseWorkspace", "WorkspaceFinding", "WorkspaceRecord"]
