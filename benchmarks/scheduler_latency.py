"""End-to-end latency of the word count under Storm's default placement vs Aniello offline vs Aniello
online, on the 2-node cluster with shaped inter-node links (`--network netns --link-bandwidth`).

Not a test: run it by hand on a quiet machine (needs root for the namespaces):
    .venv/bin/python benchmarks/scheduler_latency.py                       # defaults below
    .venv/bin/python benchmarks/scheduler_latency.py --bandwidth 4mbit --rate 800

`--repeat` repetitions (default 3), each on a fresh cluster: the same Java word count (same rate, same
shape) is submitted once per scheduler, one after the other, in an order rotated by one between
repetitions (so Storm's default does not always run first), each selected per topology with
`nonstop.scheduler` (none = Storm's DefaultScheduler behind the cluster's NonstopScheduler). Each run:
wait until the placement is stable (for aniello-online: until its first traffic-based decision was
applied, or its period has passed twice), warm up, then measure for `--measure` seconds: latency from each sentence's intended
emit time to its ack (p50/mean/p99 over the window's per-second values), acked/s, failed, and the
inter-node share of tuples from the metrics plane. This kernel has no netem, so the link cost is the
queueing a token bucket adds once a link is busy: pick a bandwidth that the default placement's
inter-node traffic nearly fills (the script prints the measured share and rate).

Each run records the load average and CPU frequency at its start and end; a repetition that starts on
a busy machine (after waiting up to 5 min for it to calm) is flagged and run once more. The summary
(pycontrol/bench/placement_latency.py) gives per scheduler n, median and min-max over the repetitions,
and each scheduler's latency against default's of the same repetition.

Writes results/schedulers/real_cluster_latency.json (rewritten after every repetition). Target (issue
#5): online's p50 at least 20 % lower than default's (median of the paired repetitions).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycontrol.bench import scheduler_latency  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--schedulers", default="default,aniello-offline,aniello-online")
    ap.add_argument("--repeat", type=int, default=3, help="repetitions, each on a fresh cluster, order rotated")
    ap.add_argument("--rate", type=float, default=600.0, help="sentences/s (about 18 words each)")
    ap.add_argument("--bandwidth", default="6mbit", help="egress rate of each node's link (tc tbf)")
    ap.add_argument("--warmup", type=float, default=30.0)
    ap.add_argument("--measure", type=float, default=90.0)
    ap.add_argument("--online-period", type=int, default=20, help="nonstop.aniello.period.secs")
    ap.add_argument("--set", action="append", default=[], help="extra topology setting key=value")
    ap.add_argument("--home", default="/tmp/nonstop-bench-latency")
    ap.add_argument("--port-base", type=int, default=24000)
    ap.add_argument("--keep-cluster", action="store_true")
    ap.add_argument("--out", default=str(REPO / "results" / "schedulers" / "real_cluster_latency.json"))
    args = ap.parse_args()
    scheduler_latency.main(args)


if __name__ == "__main__":
    main()
