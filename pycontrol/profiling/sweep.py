"""The adaptive sweep of the profiling harness (seed 002 Algorithm 1), as pure functions.

Rate search for one thread count τ: try a start rate; while every trial is stable, multiply the
rate by `growth` (coarse steps); once a stable and an unstable rate bracket the peak, bisect until
the bracket is within `precision` of its top. If the very first trials are unstable, divide by
`growth` instead (or jump to the acked rate the overloaded trial achieved, if that is lower: it
is what the task kept up with). The peak stable rate is the highest stable trial. Trials are
noisy on a shared machine, so the bracket's top is the lowest unstable rate *above* the best
stable one; an unstable trial below it is kept in the log but does not move the bracket.

Thread sweep: run the rate search for each τ of a list in order; the start of each search is the
previous peak scaled linearly in τ (a guess the search corrects either way). Stop adding threads
once the peak rate's least-squares slope over the trailing `window` thread counts falls below
`min_slope` (docs/seed-specs.md §1.3: the prose's λ_ω^min ≈ -0.001; undefined, so continue, until two
points exist), or when a thread count has no stable rate at all, or when the time budget is spent.
Each remaining thread count gets an equal share of the remaining budget.

`measure(rate) -> Trial` and `profile(τ, start_hint, deadline) -> RateSearch` are injected, and so
is the clock, so everything here runs without a cluster.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from pycontrol.workloads.stability import slope

# Stop reasons of a rate search and of a thread sweep.
CONVERGED = "converged"          # the bracket is within the precision
NOTHING_STABLE = "nothing-stable"  # even the smallest rate tried was unstable
BUDGET = "budget"                # the time budget ran out first
MAX_TRIALS = "max-trials"
DONE = "done"                    # every thread count of the list was profiled
FLAT = "flat"                    # the peak rate stopped growing with threads


@dataclass(frozen=True)
class Trial:
    """One run of the task at one target rate."""

    rate: float                   # target input rate, tuples/s
    stable: bool
    reason: str
    acked_rate: float = 0.0       # tuples/s acked after the warm-up
    latency_mean_ms: float = 0.0
    latency_p99_ms: float = 0.0
    latency_slope_ms_per_s: float = 0.0
    seconds: float = 0.0          # wall time the trial took, draining included
    cpu_cores: float | None = None  # cores used by the task's slot (worker + its processes)
    rss_mb: float | None = None     # resident memory of the task's slot
    usage: Mapping[str, float] = field(default_factory=dict)  # the parts of cpu_cores and rss_mb

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["usage"] = dict(self.usage)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Trial:
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in d.items() if k in known})


@dataclass(frozen=True)
class SearchSettings:
    growth: float = 2.0       # coarse step factor
    precision: float = 0.1    # converged when (hi - lo) <= precision * hi
    min_rate: float = 0.05    # a search that must go below this gives up (nothing stable)
    max_trials: int = 12

    def __post_init__(self) -> None:
        if not self.growth > 1:
            raise ValueError(f"growth must be > 1, got {self.growth}")
        if not 0 < self.precision < 1:
            raise ValueError(f"precision must be in (0, 1), got {self.precision}")
        if not self.min_rate > 0:
            raise ValueError(f"min_rate must be > 0, got {self.min_rate}")
        if self.max_trials < 1:
            raise ValueError(f"max_trials must be >= 1, got {self.max_trials}")


@dataclass(frozen=True)
class RateSearch:
    start: float
    trials: tuple[Trial, ...]
    stopped: str

    @property
    def peak(self) -> Trial | None:
        """The stable trial with the highest rate (None if no trial was stable)."""
        stable = [t for t in self.trials if t.stable]
        return max(stable, key=lambda t: t.rate) if stable else None

    def bracket(self) -> tuple[float | None, float | None]:
        return bracket(self.trials)

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "stopped": self.stopped, "trials": [t.to_dict() for t in self.trials]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RateSearch:
        return cls(float(d["start"]), tuple(Trial.from_dict(t) for t in d["trials"]), str(d["stopped"]))


def bracket(trials: Sequence[Trial]) -> tuple[float | None, float | None]:
    """(highest stable rate, lowest unstable rate above it); None where there is none."""
    stable = [t.rate for t in trials if t.stable]
    lo = max(stable) if stable else None
    above = [t.rate for t in trials if not t.stable and (lo is None or t.rate > lo)]
    return lo, (min(above) if above else None)


def next_rate(trials: Sequence[Trial], settings: SearchSettings) -> float | None:
    """The rate to try after `trials` (at least one); None when the search is over."""
    if not trials:
        raise ValueError("next_rate needs at least one trial; the first rate is the start rate")
    lo, hi = bracket(trials)
    if hi is None:
        return lo * settings.growth
    if lo is None:
        candidate = hi / settings.growth
        overloaded = next(t for t in trials if t.rate == hi)
        if 0 < overloaded.acked_rate < candidate:
            # What the task kept up with under overload is a better guess than halving, but never
            # a jump of more than two coarse steps (an aborted trial may have acked little).
            candidate = max(overloaded.acked_rate, hi / settings.growth ** 2)
        return candidate if candidate >= settings.min_rate else None
    if hi - lo <= settings.precision * hi:
        return None
    return (lo + hi) / 2


def find_peak_rate(measure: Callable[[float], Trial], start: float, settings: SearchSettings = SearchSettings(),
                   *, deadline: float | None = None, clock: Callable[[], float] | None = None) -> RateSearch:
    """Adaptive search for the peak stable rate from `start` (see the module doc).

    The first trial always runs; later ones only before `deadline` (in `clock`'s time)."""
    if not (start > 0 and math.isfinite(start)):
        raise ValueError(f"start rate must be a finite number > 0, got {start!r}")
    if deadline is not None and clock is None:
        raise ValueError("a deadline needs a clock")
    trials: list[Trial] = []
    rate: float | None = start
    while True:
        trials.append(measure(rate))
        rate = next_rate(trials, settings)
        if rate is None:
            stopped = CONVERGED if any(t.stable for t in trials) else NOTHING_STABLE
            break
        if len(trials) >= settings.max_trials:
            stopped = MAX_TRIALS
            break
        if deadline is not None and clock() >= deadline:
            stopped = BUDGET
            break
    return RateSearch(start, tuple(trials), stopped)


@dataclass(frozen=True)
class ThreadSweep:
    searches: Mapping[int, RateSearch]  # τ -> its rate search, in the order run
    stopped: str

    def peaks(self) -> dict[int, float]:
        return {tau: s.peak.rate for tau, s in self.searches.items() if s.peak is not None}


def start_hint(searches: Mapping[int, RateSearch], tau: int) -> float | None:
    """The last profiled thread count's peak, scaled linearly to τ threads (None: no peak yet)."""
    for prev in reversed(list(searches)):
        peak = searches[prev].peak
        if peak is not None:
            return peak.rate * tau / prev
    return None


def trailing_slope(peaks: Mapping[int, float], window: int) -> float | None:
    """Least-squares slope of peak rate vs threads over the last `window` points; None if < 2."""
    points = list(peaks.items())[-window:]
    if len(points) < 2:
        return None
    return slope([float(t) for t, _ in points], [r for _, r in points])


def sweep_threads(thread_counts: Sequence[int], profile: Callable[[int, float | None, float | None], RateSearch],
                  *, budget_s: float | None = None, clock: Callable[[], float] | None = None,
                  min_slope: float = -0.001, window: int = 3) -> ThreadSweep:
    """Profile each τ in order (see the module doc). `profile(τ, start_hint, deadline)`."""
    counts = list(thread_counts)
    if not counts or any(isinstance(t, bool) or not isinstance(t, int) or t < 1 for t in counts):
        raise ValueError(f"thread counts must be whole numbers >= 1, got {counts}")
    if counts != sorted(set(counts)):
        raise ValueError(f"thread counts must be increasing and distinct, got {counts}")
    if window < 2:
        raise ValueError(f"window must be >= 2, got {window}")
    if budget_s is not None and clock is None:
        raise ValueError("a budget needs a clock")
    end = clock() + budget_s if budget_s is not None else None
    searches: dict[int, RateSearch] = {}
    stopped = DONE
    for i, tau in enumerate(counts):
        deadline = None
        if end is not None:
            now = clock()
            if now >= end and searches:
                stopped = BUDGET
                break
            deadline = now + max(0.0, end - now) / (len(counts) - i)
        search = profile(tau, start_hint(searches, tau), deadline)
        searches[tau] = search
        if search.peak is None:
            stopped = NOTHING_STABLE
            break
        lam = trailing_slope(ThreadSweep(searches, stopped).peaks(), window)
        if lam is not None and lam < min_slope and tau != counts[-1]:
            stopped = FLAT
            break
    return ThreadSweep(searches, stopped)
