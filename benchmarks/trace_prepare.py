"""Throughput of `trace prepare` (events/s) on local[1] and local[2] as the input grows.

Not a test: run it by hand on a quiet machine, e.g.
    .venv/bin/python benchmarks/trace_prepare.py --sizes 25000,100000,400000
Inputs are generated web access logs (Common Log Format, World Cup 1998 style): Zipf(1.0) URL
popularity over 5,000 URLs, a rate that swings between 0.5x and 1.5x of 400 req/s, 0.5% garbage
lines. Timings exclude Spark start-up and a warm-up run per master; plots are off (the figure
cost does not grow with the input). Writes results/trace_prepare.json.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycontrol.bench import trace_prepare  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="25000,100000,400000", help="comma-separated event counts")
    ap.add_argument("--masters", default="local[1],local[2]")
    ap.add_argument("--out", type=Path, default=REPO / "results" / "trace_prepare.json")
    args = ap.parse_args()
    trace_prepare.main(args)


if __name__ == "__main__":
    main()
