"""Statistics over repeated observations of pass and fail: the Wilson score interval.

A pass rate measured over a handful of runs or repeats says little on its own; the interval says
how much. Wilson's interval stays inside 0..1 and behaves at 0 and at n (where the normal
approximation collapses to a point), which is the usual case for a case that always passes.
Only graded observations count: an error or an unknown is neither a success nor a trial.
"""

from __future__ import annotations

import math

Z_95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


def wilson_interval(successes: int, trials: int, *, z: float = Z_95) -> tuple[float, float] | None:
    """The Wilson score interval of ``successes`` out of ``trials`` as fractions (0..1); None without trials."""
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"wilson_interval: need 0 <= successes <= trials (got {successes} of {trials})")
    if trials == 0:
        return None
    share = successes / trials
    z2 = z * z
    centre = (share + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # At 0 and n one end is exactly the bound; floating point would leave it a hair off.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


__all__ = ["Z_95", "wilson_interval"]
