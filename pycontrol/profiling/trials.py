"""One rate trial on a running topology fed by the FeedSpout: set the target rate through the spout's
rate-schedule file, let it run, judge the per-second latency series, and drain a backlog.

Stability is `pycontrol.workloads.stability.judge` on the trial's seconds after a warm-up: the
median latency's slope at most `max_slope_ms_per_s` (the paper's criterion; 1 ms/s is its
0.001 s/s, but a trial of seconds instead of the paper's 12 minutes needs more room for noise; the
slope is Theil-Sen's, so one second of a busy neighbour near the end does not read as a trend), acked throughput at least `min_rate_ratio` of the target, mean latency at most the
topology's base latency (measured at a low rate by `settle`) plus `latency_allowance_ms`, nothing
failed (the acked ratio allows for the tuples a short window cannot see acked, see
`_acked_ratio`). A trial that is clearly overloaded is cut short: its median latency exceeds base +
`abort_after_ms` for three seconds in a row, a tuple failed, or the spout stopped writing its
series (held back by backpressure). After an unstable trial the rate drops to 0 until nothing is
pending, so the next trial starts from an empty topology.

The series' seconds carry the target rate the spout was following, so a trial reads exactly the
seconds at its own rate, whenever the spout picked the change up.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pycontrol.profiling.sweep import Trial
from pycontrol.profiling.usage import UsageSample, usage_between
from pycontrol.workloads.series import Second
from pycontrol.workloads.stability import judge, theil_sen_slope


class ProfilingError(Exception):
    """A run that cannot go on (the topology never settled, its worker vanished, ...)."""


@dataclass(frozen=True)
class TrialSettings:
    trial_secs: float = 15.0
    warmup_secs: float = 4.0
    max_slope_ms_per_s: float = 10.0
    min_rate_ratio: float = 0.95
    latency_allowance_ms: float = 1000.0
    abort_after_ms: float = 2000.0
    stall_secs: float = 6.0
    drain_timeout_secs: float = 120.0
    stuck_secs: int = 10
    settle_timeout_secs: float = 600.0
    settle_seconds: int = 8
    poll_secs: float = 1.0

    def __post_init__(self) -> None:
        if not self.trial_secs > self.warmup_secs + 2:
            raise ValueError(f"a trial ({self.trial_secs} s) must be longer than its warm-up "
                             f"({self.warmup_secs} s) plus 2 s")


class RateFile:
    """The FeedSpout's workload.rate.schedule file; the spout re-reads it once a second."""

    def __init__(self, path: Path):
        self.path = path

    def set(self, rate: float) -> None:
        # "0 r": from the switch on (the spout re-anchors its schedule at the change). Written to a
        # temp file and renamed, so the spout never reads half a line.
        tmp = self.path.with_name(f".{self.path.name}.tmp")
        tmp.write_text(f"0 {rate!r}\n", encoding="ascii")
        os.replace(tmp, self.path)


# The spout reports its target rate rounded to 3 decimals; trials use such rates to begin with.
RATE_DECIMALS = 3


def _same_rate(a: float | None, b: float) -> bool:
    return a is not None and abs(a - b) <= 0.6 * 10 ** -RATE_DECIMALS


class TrialRunner:
    """Trials on one running topology. `read_rows` returns its merged series (all seconds so far),
    `usage` samples the measured slot (None: no CPU/memory), `clock` is wall time (the series'
    seconds are epoch seconds)."""

    def __init__(self, read_rows: Callable[[], list[Second]], rate_file: RateFile,
                 settings: TrialSettings = TrialSettings(),
                 usage: Callable[[], UsageSample | None] | None = None,
                 clock: Callable[[], float] = time.time, sleep: Callable[[float], None] = time.sleep,
                 log: Callable[[str], None] = lambda _msg: None):
        self.read_rows = read_rows
        self.rate_file = rate_file
        self.settings = settings
        self.usage = usage
        self.clock = clock
        self.sleep = sleep
        self.log = log
        self.base_latency_ms: float | None = None

    # --- start-up ------------------------------------------------------------------------------

    def settle(self, rate: float) -> float:
        """Run at a low `rate` until latency is steady; returns (and keeps) the base latency, ms.

        Steady = over the last `settle_seconds` seconds the median latency neither spreads nor
        trends (Theil-Sen slope within 2 % of it per second): a backlog left from a slow start-up
        drains with a steadily falling latency, which must not pass for the base latency."""
        s = self.settings
        rate = round(rate, RATE_DECIMALS)
        self.rate_file.set(rate)
        deadline = self.clock() + s.settle_timeout_secs
        while self.clock() < deadline:
            self.sleep(s.poll_secs)
            rows = [r for r in self.read_rows() if _same_rate(r.target_rate, rate) and r.latency_n > 0]
            recent = rows[-s.settle_seconds:]
            if len(recent) < s.settle_seconds or recent[-1].failed:
                continue
            p50 = [r.latency_p50_ms for r in recent]
            mid = statistics.median(p50)
            trend = theil_sen_slope([float(r.ts) for r in recent], p50)
            if max(p50) - min(p50) <= 0.2 * mid + 20 and abs(trend) <= 0.02 * mid + 2:
                self.base_latency_ms = mid
                return mid
        raise ProfilingError(f"latency did not settle at {rate:g} t/s within {s.settle_timeout_secs:g} s "
                             f"(did the topology start? are its workers running?)")

    # --- trials --------------------------------------------------------------------------------

    def run(self, rate: float) -> Trial:
        if self.base_latency_ms is None:
            raise ProfilingError("settle() first: trials are judged against the base latency")
        s = self.settings
        rate = round(rate, RATE_DECIMALS)
        started = self.clock()
        self.rate_file.set(rate)
        end = started + 1 + s.trial_secs      # the spout picks a change up within a second
        warm_end = started + 1 + s.warmup_secs
        first: UsageSample | None = None
        aborted = None
        while self.clock() < end:
            self.sleep(s.poll_secs)
            if first is None and self.usage is not None and self.clock() >= warm_end:
                first = self.usage()
            if self.clock() >= warm_end + 2:
                aborted = self._overloaded(self.read_rows(), rate, started)
                if aborted:
                    break
        last = self.usage() if self.usage is not None and first is not None else None
        rows = self._trial_rows(rate, started, until=None if aborted else end - 1)
        v = judge(rows, rate, warmup_s=int(s.warmup_secs), max_slope_ms_per_s=s.max_slope_ms_per_s,
                  min_rate_ratio=self._acked_ratio(rate, len(rows) - int(s.warmup_secs)),
                  min_seconds=max(3, int(s.trial_secs - s.warmup_secs) - 3),
                  max_mean_latency_ms=self.base_latency_ms + s.latency_allowance_ms,
                  slope_method="theil-sen")
        stable, reason = (False, f"aborted: {aborted}") if aborted else (v.sustainable, v.reason)
        acked = v.acked_rate
        if aborted and rows:   # cut short before the judged part: what was acked at all is the hint
            acked = round(sum(r.acked for r in rows) / len(rows), 2)
        usage = usage_between(first, last) if first is not None and last is not None else {}
        if not stable:
            self.drain()
        trial = Trial(rate=rate, stable=stable, reason=reason, acked_rate=acked,
                      latency_mean_ms=v.latency_mean_ms, latency_p99_ms=v.latency_p99_ms,
                      latency_slope_ms_per_s=v.latency_slope_ms_per_s,
                      seconds=round(self.clock() - started, 1), cpu_cores=usage.get("cpu_cores"),
                      rss_mb=usage.get("rss_mb"), usage=usage)
        measured = f", cores {usage['cpu_cores']}, rss {usage['rss_mb']} MB" if usage else ""
        self.log(f"  {rate:9.3f} t/s: {'stable  ' if stable else 'UNSTABLE'} {reason} (acked {acked}/s, "
                 f"latency mean {v.latency_mean_ms:.0f} ms, slope {v.latency_slope_ms_per_s} ms/s{measured}, "
                 f"{trial.seconds:.0f} s)")
        return trial

    def _acked_ratio(self, rate: float, seconds: int) -> float:
        """`min_rate_ratio` less what a short window cannot count: the tuples still in flight at its
        end (rate x base latency) and one for rounding. At 2 t/s, 500 ms latency and 10 s that is
        2 of 20 tuples, which would otherwise fail a 95 % test every time."""
        expected = rate * max(1, seconds)
        slack = 1 + rate * self.base_latency_ms / 1000.0
        return max(0.5, self.settings.min_rate_ratio - slack / expected)

    def _trial_rows(self, rate: float, started: float, until: float | None) -> list[Second]:
        """The seconds at this trial's rate; waits (a few s) for the spout to write up to `until`."""
        give_up = self.clock() + 2 * self.settings.stall_secs
        while True:
            rows = [r for r in self.read_rows() if r.ts >= int(started) and _same_rate(r.target_rate, rate)]
            if until is None or (rows and rows[-1].ts >= int(until)) or self.clock() >= give_up:
                return rows
            self.sleep(self.settings.poll_secs)

    def _overloaded(self, all_rows: list[Second], rate: float, started: float) -> str | None:
        s = self.settings
        now = self.clock()
        if not all_rows or all_rows[-1].ts < now - s.stall_secs:
            return "the spout stopped writing its series (held back by backpressure)"
        rows = [r for r in all_rows if r.ts >= int(started) and _same_rate(r.target_rate, rate)]
        if sum(r.failed for r in rows):
            return "tuples failed"
        recent = [r for r in rows if r.latency_n > 0][-3:]
        limit = self.base_latency_ms + s.abort_after_ms
        if len(recent) == 3 and all(r.latency_p50_ms > limit for r in recent):
            return f"median latency above {limit:.0f} ms"
        return None

    def drain(self) -> float:
        """Rate 0 until nothing is pending; returns the seconds it took. Tuples that stay in flight
        without any ack for `stuck_secs` are lost somewhere (they fail at the message timeout and
        are replayed); waiting longer would not bring them back, so the drain ends there."""
        s = self.settings
        started = self.clock()
        self.rate_file.set(0.0)
        deadline = started + s.drain_timeout_secs
        while self.clock() < deadline:
            self.sleep(s.poll_secs)
            rows = [r for r in self.read_rows() if r.ts > int(started) and _same_rate(r.target_rate, 0.0)]
            # Nothing in flight and nothing left to emit: tuples that fell due while the spout was held
            # back keep their due times and are still emitted at rate 0 (behind_ms > 0 until then).
            if rows and rows[-1].pending == 0 and rows[-1].emitted == 0 and rows[-1].behind_ms == 0:
                return self.clock() - started
            quiet = rows[-int(s.stuck_secs):]
            if len(quiet) >= s.stuck_secs and all(r.acked == 0 and r.emitted == 0 and r.behind_ms == 0
                                                  and r.pending == quiet[-1].pending for r in quiet):
                self.log(f"  {quiet[-1].pending} tuple(s) stuck in flight; they will time out and be replayed")
                return self.clock() - started
        self.log(f"  still tuples pending after draining {s.drain_timeout_secs:g} s")
        return self.clock() - started
