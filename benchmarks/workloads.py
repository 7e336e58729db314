"""Highest sustainable rate of the Python (streamparse) and the Java word count on the local 2-node cluster.

Not a test: run it by hand, on a machine as quiet as you can get, e.g.
    .venv/bin/python benchmarks/workloads.py                       # both word counts
    .venv/bin/python benchmarks/workloads.py --workloads wordcount-py --step-secs 40
It brings up its own cluster (--home, --port-base; taken down at the end unless --keep-cluster),
submits each word count (default 2 workers, split 4, count 8 on this 2-core machine;
--paper-shape for the N-Storm paper's 8 workers, split 12, count 24; --set overrides) and raises
the sentence rate in steps through the FeedSpout's rate-schedule file: a staircase x2 per step
until two steps in a row are not sustainable, then a second run x1.25 per step from the best good
rate, likewise. The result is the highest rate judged sustainable. Sustainable
(pycontrol.workloads.stability): after each step's warm-up the median latency, measured from the
intended emit time, does not grow (slope <= --max-slope ms/s), acked throughput >= 95 % of the
target, mean latency <= --max-latency, nothing failed. For every step it records where CPU time went (cores used by the worker
JVMs and by each Python component class, from /proc via psutil), and it profiles the Python bolts
outside Storm (own work vs. the multilang process per tuple).
Writes results/workloads.json.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycontrol.bench import workloads  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workloads", default="wordcount-java,wordcount-py")
    ap.add_argument("--start-rates", default="wordcount-java=250,wordcount-py=25",
                    help="first step per workload (sentences/s)")
    ap.add_argument("--step-secs", type=int, default=30)
    ap.add_argument("--warmup-secs", type=int, default=10)
    ap.add_argument("--max-steps", type=int, default=8)
    ap.add_argument("--max-slope", type=float, default=1.0, help="ms of latency growth per s")
    ap.add_argument("--max-latency", type=float, default=1000.0, help="ms of mean latency in a step")
    ap.add_argument("--set", action="append", default=[], help="extra topology setting key=value")
    ap.add_argument("--paper-shape", action="store_true", help="8 workers, split 12, count 24 (default: 2, 4, 8)")
    ap.add_argument("--start-timeout", type=int, default=600, help="s to wait for a submitted topology to settle")
    ap.add_argument("--settle-ms", type=float, default=200.0,
                    help="start the staircase once the median latency stayed below this for 5 s")
    ap.add_argument("--home", default="/tmp/nonstop-bench-workloads")
    ap.add_argument("--port-base", type=int, default=24500)
    ap.add_argument("--keep-cluster", action="store_true")
    ap.add_argument("--out", default=str(REPO / "results" / "workloads.json"))
    args = ap.parse_args()
    workloads.main(args)


if __name__ == "__main__":
    main()
