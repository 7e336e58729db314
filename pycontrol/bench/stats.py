"""Summaries of repeated measurements for the evidence report and the benchmark analyses (pure).

Two 95 % intervals, each for what it suits:

* the **mean**: Student's t-interval, mean +- t(0.975, n-1) * s / sqrt(n). Used for paired differences
  (e.g. the metrics hook's per-round overhead): the rounds are independent, their differences are close
  to symmetric, and with the 5-15 rounds a benchmark can afford the t-interval keeps its coverage where a
  bootstrap of so few values is too narrow. It needs no randomness, so a result file and its report
  always agree.
* the **median**: a percentile bootstrap (resample with replacement, take each resample's median, the
  2.5th and 97.5th percentiles of those). No distribution is assumed, which suits skewed measures such
  as latencies; the random source is injected (`random.Random(seed)`, fixed seed by default) so the
  same values always give the same interval.

Only the 95 % level is offered: the t quantiles are a table (no SciPy in the project), and one level
everywhere keeps the report's intervals comparable. n < 2 has no interval (None): one run says nothing
about its spread, and the report says "n = 1" instead.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass
from typing import Sequence

from pycontrol.errors import UserError

LEVEL = 0.95
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20261127

# Two-sided 95 % quantiles of Student's t, t(0.975, df). Between tabulated dfs the next smaller df is
# used, which widens the interval slightly (conservative), never narrows it.
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
         10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110,
         18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060,
         26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}


@dataclass(frozen=True)
class Interval:
    low: float
    high: float
    method: str  # "t" or "bootstrap"

    def contains(self, x: float) -> bool:
        return self.low <= x <= self.high


@dataclass(frozen=True)
class Summary:
    n: int
    median: float
    mean: float
    low: float  # min
    high: float  # max
    median_ci: Interval | None
    mean_ci: Interval | None

    def as_dict(self, digits: int = 4) -> dict:
        def r(x: float) -> float:
            return round(x, digits)

        def ci(i: Interval | None) -> dict | None:
            return None if i is None else {"low": r(i.low), "high": r(i.high), "method": i.method,
                                           "level": LEVEL}
        return {"n": self.n, "median": r(self.median), "mean": r(self.mean), "min": r(self.low),
                "max": r(self.high), "median_ci": ci(self.median_ci), "mean_ci": ci(self.mean_ci)}


def _checked(values: Sequence[float]) -> list[float]:
    xs = [float(v) for v in values]
    if not xs:
        raise UserError("no values to summarise")
    if any(math.isnan(x) or math.isinf(x) for x in xs):
        raise UserError(f"values must be finite numbers, got {values!r}")
    return xs


def t_quantile(df: int) -> float:
    """t(0.975, df) from the table, conservatively rounded down to the nearest tabulated df."""
    if df < 1:
        raise UserError(f"degrees of freedom must be at least 1, got {df}")
    if df > 120:
        return 1.960
    return _T975[max(d for d in _T975 if d <= df)]


def mean_interval(values: Sequence[float]) -> Interval | None:
    """Student's t 95 % interval for the mean; None when n < 2."""
    xs = _checked(values)
    if len(xs) < 2:
        return None
    m = statistics.fmean(xs)
    half = t_quantile(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
    return Interval(m - half, m + half, "t")


def median_interval(values: Sequence[float], rng: random.Random | None = None,
                    resamples: int = BOOTSTRAP_RESAMPLES) -> Interval | None:
    """Percentile-bootstrap 95 % interval for the median; None when n < 2. `rng` defaults to
    random.Random(BOOTSTRAP_SEED), so the interval is a function of the values."""
    xs = _checked(values)
    if len(xs) < 2:
        return None
    if resamples < 100:
        raise UserError(f"at least 100 bootstrap resamples are needed, got {resamples}")
    rng = rng if rng is not None else random.Random(BOOTSTRAP_SEED)
    n = len(xs)
    meds = sorted(statistics.median(rng.choices(xs, k=n)) for _ in range(resamples))
    tail = (1 - LEVEL) / 2
    return Interval(_quantile_sorted(meds, tail), _quantile_sorted(meds, 1 - tail), "bootstrap")


def _quantile_sorted(xs: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks of an already sorted sequence."""
    pos = q * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summarize(values: Sequence[float], rng: random.Random | None = None) -> Summary:
    """n, median, mean, min-max and both 95 % intervals of `values`."""
    xs = _checked(values)
    return Summary(n=len(xs), median=statistics.median(xs), mean=statistics.fmean(xs), low=min(xs),
                   high=max(xs), median_ci=median_interval(xs, rng), mean_ci=mean_interval(xs))


def judge_upper(interval: Interval | None, target: float) -> str:
    """A "lower is better" target judged on an interval: "met" when even its upper end is within the
    target, "not met" when even its lower end exceeds it, else "undecided" (it straddles the target).
    Without an interval (n < 2) the answer is "undecided": one value cannot show a target is met."""
    if interval is None:
        return "undecided"
    if interval.high <= target:
        return "met"
    if interval.low > target:
        return "not met"
    return "undecided"
