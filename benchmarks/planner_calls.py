"""What one controller planning call costs: N calls of the controller's planner (JavaPlanner, OTD) on one
fixed live model (one spout feeding three bolts on two workers, the controller unit tests' `keyed` model),
timed one by one, with the processes started per call counted (every start goes through subprocess.Popen).

    .venv/bin/python benchmarks/planner_calls.py --calls 7

Prints, and with --out writes, min / median / max of the call times in ms (the first call separately: it
may start a JVM the later calls reuse) and the process starts per call. Each cycle of the controller
calls the planner once per topology it plans, so per cycle that is these numbers times the topologies.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pycontrol.controller.planner import JavaPlanner  # noqa: E402
from pycontrol.controller.policy import TopologyPolicy  # noqa: E402
from tests.unit.controller.fakes import model  # noqa: E402

A, B = "h1:1", "h2:1"


def fixed_model():
    return model({"[1-1]": A, "[2-2]": A, "[3-3]": B, "[4-4]": B},
                 {("[1-1]", "[2-2]"): 10.0, ("[1-1]", "[3-3]"): 80.0, ("[1-1]", "[4-4]"): 30.0},
                 components={"[1-1]": "spout", "[2-2]": "bolt", "[3-3]": "bolt", "[4-4]": "bolt"},
                 dag=[("spout", "bolt")], worker_load={A: 0.2, B: 0.2}, node_cpus=2)


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


def measure(calls: int) -> dict:
    planner = JavaPlanner(timeout_s=120)
    m, policy = fixed_model(), TopologyPolicy("otd", {"threshold_asc": 1, "node_cpu_background": False})
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


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--calls", type=int, default=7)
    p.add_argument("--out", type=Path)
    a = p.parse_args()
    if a.calls < 2:
        raise SystemExit("--calls must be at least 2 (the first is reported apart)")
    result = measure(a.calls)
    print(json.dumps(result))
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
