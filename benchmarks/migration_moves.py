"""Plan-to-effect times of nonstop migration on a running local cluster.

Submits the relay workload with a bounded stream, moves one executor at a time between the
topology's two workers (alternating relay and sink executors, alternating direction), and records
per move: when the scheduler decided, when the executor ran in the target worker, when each worker
switched its routing, when the old executor was stopped, when the UI REST API showed the new place;
then waits until every tuple is acked and records acked/failed counts. Writes results/<out>.json.

    .venv/bin/python benchmarks/migration_moves.py --home /tmp/mig --moves 6
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycontrol.bench.migration import moves  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", type=Path, required=True, help="home of a running `pycontrol cluster up`")
    ap.add_argument("--moves", type=int, default=6)
    ap.add_argument("--gap", type=float, default=8.0, help="seconds between moves")
    ap.add_argument("--rate", type=int, default=300, help="tuples/s of the spout")
    ap.add_argument("--name", default="bench-mig")
    ap.add_argument("--out", default="migration_moves")
    a = ap.parse_args()
    moves.main(a)


if __name__ == "__main__":
    main()
