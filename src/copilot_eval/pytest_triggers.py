"""Trigger sets as pytest items: ``pytest skills.triggers.yaml --copilot-agent agent.yaml``.

With ``--copilot-agent``, a file named ``*.triggers.yaml`` (``.yml``, ``.json``, ``.csv``) is a
trigger set: one item per prompt. The first item to run plays the whole set once
(``trigger_eval``, three runs of each prompt, stopping at the choice) and every item reads its
prompt's verdict from it: ``pass``, a failure naming what was chosen, or a failure marked
``(not an agent failure)`` when no play of the prompt counted (errors, setup problems,
undelivered descriptions), never a pass and never a skip. Only the prompts whose items this session
kept are played: ``--copilot-shard I/N`` (and ``-k``) deselect a trigger set's prompts as they do a
test set's cases, and the budget options (``--copilot-max-tokens`` ...) apply to every play's session.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

# The plugin imports this module in every pytest session; the trigger layers and the runtime are imported inside the
# functions that read and play a trigger set, each marked "on use".

TRIGGER_SET_SUFFIXES = (".triggers.yaml", ".triggers.yml", ".triggers.json", ".triggers.csv")
NOT_AN_AGENT_FAILURE = "(not an agent failure)"


def is_trigger_set_name(path: Path) -> bool:
    """Whether the file's name marks it as a trigger set."""
    return path.name.lower().endswith(TRIGGER_SET_SUFFIXES)


class TriggerPromptFailed(AssertionError):
    """The prompt's share of plays that made the expected choice is below the threshold."""


class TriggerPromptNotCounted(AssertionError):
    """No play of the prompt counted: errors, setup problems or undelivered descriptions."""


class TriggerSetFile(pytest.File):
    """One trigger set: an item per prompt, the set played once for all of them."""

    played: Any = None

    def __init__(self, *, settings: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.settings = settings  # pytest_evalset's: the agent and where evidence goes

    def collect(self) -> Iterator[pytest.Item]:
        """Read the set once; one that cannot be used is a collection error listing every problem."""
        # on use, only for a trigger set: the trigger layers
        from copilot_eval.triggers import TriggerSetError, read_trigger_set

        try:
            self.trigger_set = read_trigger_set(self.path)
        except TriggerSetError as error:
            raise pytest.UsageError(str(error)) from None
        for prompt in self.trigger_set.prompts:
            yield TriggerPromptItem.from_parent(
                self, name=f"prompt {prompt.number}: {prompt.prompt[:50]}", number=prompt.number
            )

    def selected(self) -> Any:
        """The set as this session plays it: only the prompts whose items were kept (``--copilot-shard``, ``-k``).

        Every name the whole set expects stays watched, so a shard's figures mean what the whole set's do.
        """
        kept = {
            item.number for item in self.session.items if isinstance(item, TriggerPromptItem) and item.parent is self
        }
        prompts = [prompt for prompt in self.trigger_set.prompts if prompt.number in kept]
        return replace(self.trigger_set, prompts=tuple(prompts), extra_names=self.trigger_set.names)

    def play(self, agent: Any, evidence_dir: Path | None) -> Any:
        """The selected prompts' run, played on first use (on the runtime host, like a test set's units).

        ``agent`` is the session's, with the plugin's budget options applied (``pytest_budget``), as for test sets.
        """
        if self.played is None:
            # on use, only for a trigger set: the runtime and the trigger layers
            from copilot_eval.runtime.process.host import runtime_host
            from copilot_eval.triggers import trigger_eval
            from copilot_eval.triggers.resume import forget_checkpoint

            out = evidence_dir / f"triggers-{self.path.stem}" if evidence_dir is not None else None
            if out is not None:  # each session plays afresh, as its evidence is written afresh: no --resume here
                forget_checkpoint(out)
            self.played = runtime_host().run_sync(trigger_eval(agent, self.selected(), out=out))
        return self.played


class TriggerPromptItem(pytest.Item):
    """One prompt of a trigger set: its verdict over its plays."""

    def __init__(self, *, number: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.number = number

    def runtest(self) -> None:
        """Play the set (once per file), then map this prompt's verdict onto the test's outcome."""
        parent = self.parent
        assert isinstance(parent, TriggerSetFile)
        run = parent.play(parent.settings.agent, parent.settings.evidence_dir)
        figures = next(p for p in run.figures.prompts if p.prompt.number == self.number)
        choices = ", ".join(f"{name} {count}" for name, count in sorted(figures.choices.items())) or "none"
        apart = ", ".join(f"{count} {kind}" for kind, count in sorted(figures.apart.items())) or "none"
        said = f"expected {figures.prompt.expected}; chosen: {choices}; apart: {apart}"
        self.user_properties.append(("copilot_eval_status", figures.verdict))
        if figures.verdict == "fail":
            raise TriggerPromptFailed(f"{figures.hits} of {figures.counted} plays made the expected choice: {said}")
        if figures.verdict != "pass":
            reasons = sorted({p.reason for p in run.plays if p.number == self.number and p.chosen is None})
            raise TriggerPromptNotCounted(
                f"ERROR {NOT_AN_AGENT_FAILURE}: no play counted: {said}; " + "; ".join(reasons)
            )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | Any:
        """Our own verdicts print as their message, without a traceback into the plugin."""
        if isinstance(excinfo.value, (TriggerPromptFailed, TriggerPromptNotCounted)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """Where the prompt is written."""
        parent = self.parent
        line = None
        if isinstance(parent, TriggerSetFile):
            line = parent.trigger_set.prompt(self.number).line
        return self.path, None if line is None else line - 1, self.name
