"""A workload's live display: while a phase runs, one line every few seconds with the phase, the time
left, and the workload's throughput and latency over the last complete seconds of the FeedSpout's
series. `status_line` is pure; `watch` waits for a deadline, printing those lines."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from pycontrol.workloads.series import Second

RECENT_S = 5     # seconds averaged in a line
SETTLE_S = 2     # the spout writes each second's line shortly after it ends


def status_line(phase: str, left_s: float, rows: Sequence[Second], now_ts: float) -> str:
    """"[phase] 23 s left | acked 298/s | latency p99 41 ms" from the last RECENT_S complete seconds."""
    last = int(now_ts) - SETTLE_S
    recent = [r for r in rows if last - RECENT_S <= r.ts < last]
    head = f"[{phase}] {max(0, round(left_s)):>3} s left"
    if not recent:
        return f"{head} | no series yet"
    acked = sum(r.acked for r in recent) / RECENT_S
    lat = [r.latency_p99_ms for r in recent if r.latency_n]
    return f"{head} | acked {acked:.0f}/s | latency p99 {max(lat):.0f} ms" if lat else f"{head} | acked {acked:.0f}/s | no acks"


class Throttled:
    """A status line at most every `every_s`, for loops that poll more often (e.g. the warm-up's)."""

    def __init__(self, phase: str, echo: Callable[[str], None], every_s: float = 5.0,
                 clock: Callable[[], float] = time.time):
        self.phase, self.echo, self.every_s, self.clock = phase, echo, every_s, clock
        self.next_at = float("-inf")

    def __call__(self, rows: Sequence[Second], left_s: float) -> None:
        now = self.clock()
        if now >= self.next_at:
            self.echo(status_line(self.phase, left_s, rows, now))
            self.next_at = now + self.every_s


def watch(phase: str, until: float, read_rows: Callable[[], Sequence[Second]], echo: Callable[[str], None],
          every_s: float = 5.0, clock: Callable[[], float] = time.time,
          sleep: Callable[[float], None] = time.sleep, stop: threading.Event | None = None) -> None:
    """Returns at `until` (epoch seconds), or once `stop` is set, printing a status line every `every_s`."""
    next_line = clock()
    while (now := clock()) < until and not (stop is not None and stop.is_set()):
        if now >= next_line:
            echo(status_line(phase, until - now, read_rows(), now))
            next_line = now + every_s
        sleep(min(1.0, max(0.0, until - now)))
