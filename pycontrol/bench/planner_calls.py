"""What one controller planning call costs: its time and the processes it starts.

The logic of `benchmarks/planner_calls.py`, which parses the command line and calls `main`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time

from pycontrol.controller.planner import JavaPlanner
from pycontrol.controller.policy import TopologyPolicy


class ProcessStarts:
    """Counts subprocess.Popen constructions (subprocess.run goes through it too) while installed."""

    def __init__(self):
        self.count = 0
        self._original = subprocess.Popen.__init__

    def __enter__(self):
        original = self._original

        def counting(popen, *args, **kwargs):
            self.count += 1
            original(popen, *args, **kwargs)
        subprocess.Popen.__init__ = counting
        return self

    def __exit__(self, *exc):
        subprocess.Popen.__init__ = self._original


def measure(calls: int, m) -> dict:
    """`calls` OTD planning calls on the live model `m`, timed one by one, with the process starts of each."""
    planner = JavaPlanner(timeout_s=120)
    policy = TopologyPolicy("otd", {"threshold_asc": 1, "node_cpu_background": False})
    times, starts = [], []
    try:
        with ProcessStarts() as counter:
            for _ in range(calls):
                before = counter.count
                t0 = time.perf_counter()
                plan = planner.plan(m, policy, set())
                times.append((time.perf_counter() - t0) * 1000)
                starts.append(counter.count - before)
                assert plan.moves, plan.note   # the fixed model always has OTD's one move
    finally:
        getattr(planner, "close", lambda: None)()
    later = times[1:] or times
    return {"calls": calls, "first_ms": round(times[0], 1), "later_min_ms": round(min(later), 1),
            "later_median_ms": round(statistics.median(later), 1), "later_max_ms": round(max(later), 1),
            "process_starts_per_call": starts, "load_average": os.getloadavg()}


def main(a: argparse.Namespace, m) -> None:
    result = measure(a.calls, m)
    print(json.dumps(result))
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(result, indent=1) + "\n")
