"""Which scanners run: the built-in set by name, ``--scan NAME,...`` read once, ``none`` for none.

The default is every built-in deterministic scanner; a judge scanner (which asks a model) runs only
when named, as ``judge:PATH`` (its agent file), never by default.
"""

from __future__ import annotations

from pathlib import Path

from copilot_eval.scans.action_scanners import Loop, ObeyedInstruction, ProtectedPaths
from copilot_eval.scans.answer_scanners import ClaimedAction, EmptyAnswer, PlatformErrorAnswer, Refusal
from copilot_eval.scans.protocol import Scanner

BUILTIN_SCANNERS: tuple[Scanner, ...] = (
    PlatformErrorAnswer(),
    Refusal(),
    Loop(),
    ObeyedInstruction(),
    ProtectedPaths(),
    ClaimedAction(),
    EmptyAnswer(),
)
"""The built-in deterministic scanners, in the order they run and are shown."""

BUILTIN_NAMES: tuple[str, ...] = tuple(scanner.name for scanner in BUILTIN_SCANNERS)
NO_SCAN = "none"
"""``--scan none``: no scanner runs."""
JUDGE_PREFIX = "judge:"


class ScanChoiceError(ValueError):
    """A ``--scan`` value that names no scanner; the message lists the names there are."""


def choose_scanners(value: str | None, *, option: str = "--scan") -> tuple[Scanner, ...]:
    """The scanners ``value`` names (``None``: the built-in set; ``none``: none); ScanChoiceError otherwise."""
    if value is None:
        return BUILTIN_SCANNERS
    names = [part.strip() for part in value.split(",") if part.strip()]
    if names == [NO_SCAN]:
        return ()
    if not names:
        raise ScanChoiceError(f"{option} is empty: name scanners ({', '.join(BUILTIN_NAMES)}), 'builtin' or 'none'")
    chosen: list[Scanner] = []
    for name in names:
        if name == "builtin":
            chosen += [s for s in BUILTIN_SCANNERS if s not in chosen]
        elif name.startswith(JUDGE_PREFIX):
            from copilot_eval.scans.judge import JudgeScanner  # a judge loads the runtime: only when named

            try:
                chosen.append(JudgeScanner.from_file(Path(name.removeprefix(JUDGE_PREFIX))))
            except (OSError, ValueError) as exc:  # the agent file's own error names its file and fields
                raise ScanChoiceError(f"{option} {name}: {exc}") from None
        elif name == NO_SCAN:
            raise ScanChoiceError(f"{option}: 'none' cannot be combined with other scanners")
        else:
            found = next((s for s in BUILTIN_SCANNERS if s.name == name), None)
            if found is None:
                raise ScanChoiceError(
                    f"{option}: no scanner named {name!r}; the built-in ones are {', '.join(BUILTIN_NAMES)} "
                    f"(or 'builtin', 'none', '{JUDGE_PREFIX}PATH' for a judge agent file)"
                )
            if found not in chosen:
                chosen.append(found)
    return tuple(chosen)


def gate_names(
    value: str | None, scanners: tuple[Scanner, ...], *, option: str = "--fail-on-finding"
) -> frozenset[str]:
    """The scanners ``--fail-on-finding`` turns into gates; each must be among those that run."""
    if not value:
        return frozenset()
    names = frozenset(part.strip() for part in value.split(",") if part.strip())
    running = {scanner.name for scanner in scanners}
    unknown = sorted(names - running)
    if unknown:
        raise ScanChoiceError(
            f"{option} {', '.join(unknown)}: not among the scanners that run ({', '.join(sorted(running)) or 'none'}); "
            "add it to --scan"
        )
    return names


__all__ = [
    "BUILTIN_NAMES",
    "BUILTIN_SCANNERS",
    "JUDGE_PREFIX",
    "NO_SCAN",
    "ScanChoiceError",
    "choose_scanners",
    "gate_names",
]
