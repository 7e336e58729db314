"""What the leader-epoch fence and the digest ACLs cost a control cycle: the cycle's ZooKeeper path with
and without each (four variants: open or ACL'd znodes with an authenticated client, unfenced or fenced).

A cycle that acts does, on ZooKeeper: read the state, save the write-ahead record (compare-and-set),
write one plan per topology, save the completed state. Fenced, each plan write is a transaction with a
check of the epoch znode, and the lead is re-checked before each topology. This runs that path with the
controller's own code (StateStore, Realizer, Leadership, zk.write_json / zk.write_json_fenced) on a
real ZooKeeper, under a scratch root; the scheduler's decision and the placement answer at once, so the
numbers are the ZooKeeper part only (a real cycle adds the collect phase and the scheduler's round).

    .venv/bin/python benchmarks/controller_fence.py --zk 127.0.0.1:24501 --runs 7

Writes results/controller/fence_cost.json: per variant and number of topologies per action, the mean
cycle time of each run, their median and min-max, and the load average at the start and the end. The
variants' order rotates from run to run. Run it alone on the machine, on a ZooKeeper nothing else uses.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycontrol.bench import controller_fence  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--zk", required=True, help="ZooKeeper HOST:PORT (e.g. a local cluster's)")
    ap.add_argument("--runs", type=int, default=7, help="runs per variant (>= 5)")
    ap.add_argument("--cycles", type=int, default=40, help="acting cycles per run")
    ap.add_argument("--topologies", type=int, nargs="+", default=[1, 10], help="topologies moved per action")
    ap.add_argument("--out", type=Path, default=REPO / "results/controller/fence_cost.json")
    args = ap.parse_args()
    if args.runs < 5:
        ap.error("--runs must be >= 5")
    controller_fence.main(args)


if __name__ == "__main__":
    main()
