"""What the metrics plane costs.

1. The task hook: throughput of a flat-out Java topology (`keyed`, rate 0, no CPU work, no ackers)
   with the hook and without it (`topology.auto.task.hooks=[]`) on the same running cluster, both at
   the same time (default; the machine's other load hits both alike) or one after the other, for a few
   rounds alternating which goes first. Throughput = spout emits/s from the UI REST API over the
   measurement window, timed at the moments the executors' stats changed (they report every few s).
   Each comparison is repeated for every `--work-us` (CPU per tuple in the busy bolt): 0 is the worst
   case (the hook's cost against Storm's bare per-tuple path, ~0.7 us of CPU per tuple on this
   machine), a few us is a light but real bolt. Each round pairs a hook and a no-hook run; the rounds'
   paired overheads give a 95 % interval, and the target (overhead <= 3 %) is judged on its upper end:
   met, not met, or undecided (pycontrol/bench/hook_overhead.py).
2. The controller: one collection round of the Python model for a synthetic topology of 1,000
   executors (documents parsed from JSON, model built, inspect report and Prometheus families
   rendered; no network). Target: < 1 s.

Writes results/<out>.json.

    .venv/bin/python benchmarks/metrics_overhead.py --home /tmp/mx            # both parts, 10 rounds x 0,2,10 us
    .venv/bin/python benchmarks/metrics_overhead.py --model-only              # part 2 only
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycontrol.bench import metrics_overhead  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", type=Path, help="home of a running `pycontrol cluster up` (for the hook part)")
    ap.add_argument("--model-only", action="store_true", help="only the model part (no cluster needed)")
    ap.add_argument("--rounds", type=int, default=10,
                    help="hook/no-hook pairs per --work-us, order alternated (at least 2 for an interval; "
                         "10 gives the 3 %% verdict a 95 %% t-interval of useful width)")
    ap.add_argument("--mode", choices=["concurrent", "sequential"], default="concurrent",
                    help="run each pair at the same time (default) or one after the other")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--warmup", type=float, default=20.0)
    ap.add_argument("--measure", type=float, default=45.0)
    ap.add_argument("--work-us", default="0,2,10",
                    help="comma list: CPU us per tuple in the busy bolt, one hook/no-hook comparison each "
                         "(0 = the worst case for the hook: Storm's per-tuple path and nothing else)")
    ap.add_argument("--out", default="metrics_overhead")
    a = ap.parse_args()
    if a.rounds < 1 or a.warmup < 0 or a.measure <= 0:
        ap.error("--rounds must be at least 1, --warmup non-negative and --measure positive")
    try:
        work = [int(w) for w in a.work_us.split(",")]
    except ValueError:
        ap.error(f"--work-us must be a comma list of whole microseconds, got {a.work_us!r}")
    if any(w < 0 for w in work):
        ap.error("--work-us values must be non-negative")
    metrics_overhead.main(a, work)


if __name__ == "__main__":
    main()
