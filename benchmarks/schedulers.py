"""Scheduler benchmarks: placement quality and planning speed of every scheduler core.

Runs the scheduling plugin's Java bench (io.nonstopstorm.scheduling.bench.SchedulerBench) on Storm's
lib/, then writes under results/schedulers/:

  quality.json   per instance and scheduler: inter-node traffic, violations, slots; plus a summary
                 (pycontrol/bench/scheduler_quality.py: misses on feasible instances reported and penalised)
  speed.json     per size and scheduler: median wall / thread-CPU / process-CPU time of one round
                 (the tables give thread CPU and wall time side by side, with the number of runs)
  summary.md     the tables, for people (rendered from the two JSON files, so one part can be rerun)
  quality.png, speed.png   plots (only if matplotlib can be imported)

Usage:  .venv/bin/python benchmarks/schedulers.py [quality|speed|all|render] [--seeds N] [--sizes 4x12,...]
Needs:  mvn -q -pl storm-plugins/scheduling -am package   (the plugin jar in build/dist/extlib)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycontrol.bench import schedulers  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", nargs="?", choices=("quality", "speed", "all", "render"), default="all",
                   help="render: only rewrite summary.md and the plots from the saved JSON")
    p.add_argument("--seeds", type=int, default=20, help="quality: instances per family")
    p.add_argument("--sizes", default=schedulers.DEFAULT_SIZES, help="speed: NODESxEXECUTORS,...")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--cap-seconds", type=float, default=10.0)
    p.add_argument("--budget-seconds", type=float, default=15.0)
    p.add_argument("--out", type=Path, default=schedulers.OUT)
    a = p.parse_args()
    schedulers.main(a)


if __name__ == "__main__":
    main()
