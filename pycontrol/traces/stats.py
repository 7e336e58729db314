"""Pure statistics of a prepared trace: no Spark, no I/O.

Rates: the replay's per-second event counts, zero seconds included, summarised from a histogram
(events-per-second value -> number of seconds), so a long trace never has to be held in memory.

Keys: a frequency table streamed in descending count order through `KeyStatsBuilder`, which keeps
the top k, top-k shares, entropy and the log-spaced rank/count points of the Zipf fit.

Zipf fit: log f = c - s·log r by least squares over log-spaced ranks (equal weight per decade)
whose count is at least `min_count`. Plain regression over every rank lets the tail of ties and
single occurrences dominate and is biased by 0.1-0.2; this form recovers s within about 0.02 on
generated Zipf streams (tests/unit/traces/test_stats.py).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import asdict, dataclass
from typing import Iterable, Iterator, Mapping


# -- per-second rates -----------------------------------------------------------------------------

@dataclass(frozen=True)
class RateStats:
    seconds: int            # length of the series: last event's second + 1 (second 0 = trace start)
    events: int
    mean: float             # events/s over the whole series, empty seconds included
    peak: int               # busiest second
    peak_to_mean: float
    std: float              # population standard deviation of the per-second counts
    cv: float               # std/mean: burstiness of the arrival rate (0 = perfectly steady)
    index_of_dispersion: float  # var/mean: 1 for Poisson arrivals, >1 for bursty ones
    empty_seconds: int
    p50: int
    p95: int
    p99: int

    def to_json(self) -> dict:
        return asdict(self)


def rate_stats(histogram: Mapping[int, int], seconds: int) -> RateStats:
    """Stats of a per-second count series given as {count: number of seconds with that count}.

    Seconds missing from the histogram (up to `seconds`) are empty seconds.
    """
    if seconds <= 0:
        raise ValueError(f"a rate series needs at least one second, got {seconds}")
    counted = sum(n for c, n in histogram.items() if c > 0)
    if counted > seconds:
        raise ValueError(f"histogram covers {counted} non-empty seconds, more than the {seconds} in the series")
    if any(c < 0 or n < 0 for c, n in histogram.items()):
        raise ValueError("per-second counts and their multiplicities must be non-negative")
    full = {c: n for c, n in histogram.items() if c > 0 and n > 0}
    empty = seconds - counted
    if empty:
        full[0] = empty
    events = sum(c * n for c, n in full.items())
    mean = events / seconds
    var = max(0.0, math.fsum(n * (c - mean) ** 2 for c, n in full.items()) / seconds)
    std = math.sqrt(var)
    peak = max(full)
    return RateStats(
        seconds=seconds, events=events, mean=mean, peak=peak,
        peak_to_mean=peak / mean if mean else 0.0, std=std,
        cv=std / mean if mean else 0.0, index_of_dispersion=var / mean if mean else 0.0,
        empty_seconds=empty, p50=_percentile(full, seconds, 0.50),
        p95=_percentile(full, seconds, 0.95), p99=_percentile(full, seconds, 0.99))


class RateSeriesBuilder:
    """Consumes the non-empty seconds of a series (second, count) in ascending order; gives the
    RateStats and up to `max_buckets` equal-width plot buckets (start second, mean rate, busiest
    second) without holding the series."""

    def __init__(self, seconds: int, max_buckets: int = 2000):
        if seconds <= 0 or max_buckets <= 0:
            raise ValueError("a rate series needs at least one second and one bucket")
        self.seconds = seconds
        self.width = max(1, math.ceil(seconds / max_buckets))
        self._histogram: dict[int, int] = {}
        self._totals: dict[int, int] = {}
        self._peaks: dict[int, int] = {}
        self._last = -1

    def add(self, second: int, count: int) -> None:
        if not (self._last < second < self.seconds) or count <= 0:
            raise ValueError(f"second {second} (count {count}) is out of order, outside the "
                             f"{self.seconds}-second series or empty")
        self._last = second
        self._histogram[count] = self._histogram.get(count, 0) + 1
        b = second // self.width
        self._totals[b] = self._totals.get(b, 0) + count
        self._peaks[b] = max(self._peaks.get(b, 0), count)

    @property
    def events(self) -> int:
        return sum(c * n for c, n in self._histogram.items())

    def stats(self) -> RateStats:
        return rate_stats(self._histogram, self.seconds)

    def buckets(self) -> list[tuple[int, float, int]]:
        out = []
        for b in range(math.ceil(self.seconds / self.width)):
            start = b * self.width
            span = min(self.width, self.seconds - start)
            out.append((start, self._totals.get(b, 0) / span, self._peaks.get(b, 0)))
        return out


def _percentile(histogram: Mapping[int, int], total: int, q: float) -> int:
    """Nearest-rank percentile of the expanded series."""
    rank = max(1, math.ceil(q * total))
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= rank:
            return value
    return max(histogram)


# -- Zipf fit -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ZipfFit:
    exponent: float      # s in f(r) ∝ r^-s
    intercept: float     # ln of the fitted count at rank 1
    r2: float
    points: int          # log-spaced ranks used
    max_rank: int        # highest rank used (last rank with count >= min_count)
    min_count: int

    def to_json(self) -> dict:
        return asdict(self)


RANKS_PER_DECADE = 20


def iter_log_spaced_ranks(per_decade: int = RANKS_PER_DECADE) -> Iterator[int]:
    """Distinct integer ranks 1, 2, 3, ... spaced evenly in log r (every rank while they are
    dense, then about `per_decade` per factor of ten), without end."""
    step = 10 ** (1 / per_decade)
    r, last = 1.0, 0
    while True:
        k = int(round(r))
        if k != last:
            yield k
            last = k
        r *= step


def log_spaced_ranks(n: int, per_decade: int = RANKS_PER_DECADE) -> list[int]:
    """The ranks of `iter_log_spaced_ranks` up to n."""
    return list(itertools.takewhile(lambda k: k <= n, iter_log_spaced_ranks(per_decade)))


def fit_zipf(points: Iterable[tuple[int, int]], min_count: int = 10) -> ZipfFit | None:
    """Least-squares fit of ln count = a - s·ln rank over the (rank, count) points with
    count >= min_count; None when fewer than 3 such points exist (too few keys to say)."""
    used = sorted((r, c) for r, c in points if c >= min_count and r >= 1)
    if len(used) < 3:
        return None
    xs = [math.log(r) for r, _ in used]
    ys = [math.log(c) for _, c in used]
    n = len(used)
    mx, my = math.fsum(xs) / n, math.fsum(ys) / n
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    sxy = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys))
    syy = math.fsum((y - my) ** 2 for y in ys)
    slope = sxy / sxx
    intercept = my - slope * mx
    r2 = 1.0 if syy == 0 else (sxy * sxy) / (sxx * syy)
    return ZipfFit(exponent=-slope, intercept=intercept, r2=r2, points=n,
                   max_rank=used[-1][0], min_count=min_count)


# -- key frequency stats --------------------------------------------------------------------------

@dataclass(frozen=True)
class KeyCount:
    key: str
    count: int
    share: float


@dataclass(frozen=True)
class KeyStats:
    events: int
    distinct: int
    top: list[KeyCount]              # the k most frequent keys, most frequent first
    top_share: dict[int, float]      # share of all events taken by the top 1, 10, 100, ... keys
                                     # (cuts above the number of distinct keys are left out)
    entropy_bits: float
    normalized_entropy: float        # entropy / log2(distinct): 1 = uniform keys
    rank_points: list[tuple[int, int]]  # (rank, count) at log-spaced ranks, for plots and the fit
    zipf: ZipfFit | None

    def to_json(self) -> dict:
        return {
            "events": self.events, "distinct": self.distinct,
            "top": [asdict(k) for k in self.top],
            "top_share": {str(k): v for k, v in self.top_share.items()},
            "entropy_bits": self.entropy_bits, "normalized_entropy": self.normalized_entropy,
            "zipf": self.zipf.to_json() if self.zipf else None,
        }


SHARE_CUTS = (1, 10, 100, 1000, 10000)


class KeyStatsBuilder:
    """Consumes (key, count) in descending count order, one pass, constant memory beyond top k."""

    def __init__(self, top_k: int = 10, zipf_min_count: int = 10):
        if top_k < 0:
            raise ValueError("top_k must be >= 0")
        self._top_k = top_k
        self._min_count = zipf_min_count
        self._top: list[tuple[str, int]] = []
        self._cum_at: dict[int, int] = {}
        self._points: list[tuple[int, int]] = []
        self._rank = 0
        self._events = 0
        self._sum_c_log_c = 0.0
        self._last = math.inf
        self._point_ranks = iter_log_spaced_ranks()
        self._next_point = next(self._point_ranks)

    def add(self, key: str, count: int) -> None:
        if count <= 0:
            raise ValueError(f"key {key!r} has count {count}; only keys that occur belong in the table")
        if count > self._last:
            raise ValueError("key counts must arrive in descending order")
        self._last = count
        self._rank += 1
        self._events += count
        self._sum_c_log_c += count * math.log2(count)
        if self._rank <= self._top_k:
            self._top.append((key, count))
        if self._rank in SHARE_CUTS:
            self._cum_at[self._rank] = self._events
        if self._rank == self._next_point:
            self._points.append((self._rank, count))
            self._next_point = next(self._point_ranks)

    def result(self) -> KeyStats:
        n, d = self._events, self._rank
        if n == 0:
            return KeyStats(0, 0, [], {}, 0.0, 0.0, [], None)
        entropy = max(0.0, math.log2(n) - self._sum_c_log_c / n)
        return KeyStats(
            events=n, distinct=d,
            top=[KeyCount(k, c, c / n) for k, c in self._top],
            top_share={k: c / n for k, c in sorted(self._cum_at.items())},
            entropy_bits=entropy,
            normalized_entropy=entropy / math.log2(d) if d > 1 else 0.0,
            rank_points=list(self._points),
            zipf=fit_zipf(self._points, self._min_count))


def key_stats(counts: Iterable[tuple[str, int]], top_k: int = 10, zipf_min_count: int = 10) -> KeyStats:
    """KeyStats of any (key, count) iterable: sorts it (count desc, key asc) first."""
    builder = KeyStatsBuilder(top_k, zipf_min_count)
    for key, count in sorted(counts, key=lambda kc: (-kc[1], kc[0])):
        builder.add(key, count)
    return builder.result()
