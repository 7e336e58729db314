"""CPU and memory of one slot: a topology's worker JVM and the processes it started (the Python
shell components), read from /proc with psutil (the LogWriter JVM Storm puts in front of each worker
only pipes its output and is left out). Local cluster only (the processes must be here).

CPU is summed per process id, so a Python component that restarts between two samples is counted
from its new start, never negative. RSS is taken at the later sample.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import psutil

WORKER_MAIN = "org.apache.storm.daemon.worker.Worker"
# The supervisor starts each worker JVM under a LogWriter JVM whose command line holds the worker's;
# it only pipes the worker's output, so the slot is the worker JVM and what the worker started.
LOG_WRITER = "org.apache.storm.LogWriter"
_MB = 2 ** 20


@dataclass(frozen=True)
class UsageSample:
    at: float                             # clock time of the sample, s
    worker_cpu_s: float
    children_cpu_s: dict[int, float]      # pid -> CPU seconds so far
    worker_rss_mb: float
    children_rss_mb: float


def usage_between(a: UsageSample, b: UsageSample) -> dict[str, float]:
    """Mean cores over [a, b] (worker, its children, total) and the RSS at b (MB)."""
    span = b.at - a.at
    if span <= 0:
        raise ValueError("the second sample must be later than the first")
    children = sum(max(0.0, cpu - a.children_cpu_s.get(pid, 0.0)) for pid, cpu in b.children_cpu_s.items())
    worker = max(0.0, b.worker_cpu_s - a.worker_cpu_s)
    return {
        "worker_cores": round(worker / span, 4),
        "children_cores": round(children / span, 4),
        "cpu_cores": round((worker + children) / span, 4),
        "worker_rss_mb": round(b.worker_rss_mb, 1),
        "children_rss_mb": round(b.children_rss_mb, 1),
        "rss_mb": round(b.worker_rss_mb + b.children_rss_mb, 1),
        "children": len(b.children_cpu_s),
    }


class WorkerUsage:
    """Samples the worker of `topology_id` listening on `port` (cmdline -Dstorm.id, -Dworker.port)."""

    def __init__(self, topology_id: str, port: int, clock: Callable[[], float] = time.monotonic):
        self.markers = (f"-Dstorm.id={topology_id}", f"-Dworker.port={port}")
        self.clock = clock
        self._worker: psutil.Process | None = None

    def _find(self) -> psutil.Process | None:
        if self._worker is not None and self._worker.is_running():
            return self._worker
        for p in psutil.process_iter(["cmdline"]):
            cmd = p.info["cmdline"] or []
            if WORKER_MAIN in cmd and LOG_WRITER not in cmd and all(m in cmd for m in self.markers):
                self._worker = p
                return p
        return None

    def sample(self) -> UsageSample | None:
        """None when the worker is not (or no longer) running."""
        worker = self._find()
        if worker is None:
            return None
        try:
            with worker.oneshot():
                t = worker.cpu_times()
                rss = worker.memory_info().rss
            kids = worker.children(recursive=True)
        except psutil.Error:
            self._worker = None
            return None
        cpu: dict[int, float] = {}
        kids_rss = 0
        for k in kids:
            try:
                with k.oneshot():
                    kt = k.cpu_times()
                    kids_rss += k.memory_info().rss
                cpu[k.pid] = kt.user + kt.system
            except psutil.Error:
                continue
        return UsageSample(self.clock(), t.user + t.system, cpu, rss / _MB, kids_rss / _MB)
