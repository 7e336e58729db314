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
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycontrol.bench import planner_calls  # noqa: E402
from tests.unit.controller.fakes import model  # noqa: E402

A, B = "h1:1", "h2:1"


def fixed_model():
    return model({"[1,1]": A, "[2,2]": A, "[3,3]": B, "[4,4]": B},
                 {("[1,1]", "[2,2]"): 10.0, ("[1,1]", "[3,3]"): 80.0, ("[1,1]", "[4,4]"): 30.0},
                 components={"[1,1]": "spout", "[2,2]": "bolt", "[3,3]": "bolt", "[4,4]": "bolt"},
                 dag=[("spout", "bolt")], worker_load={A: 0.2, B: 0.2}, node_cpus=2)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--calls", type=int, default=7)
    p.add_argument("--out", type=Path)
    a = p.parse_args()
    if a.calls < 2:
        raise SystemExit("--calls must be at least 2 (the first is reported apart)")
    planner_calls.main(a, fixed_model())


if __name__ == "__main__":
    main()
