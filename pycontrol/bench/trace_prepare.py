"""Trace preparation throughput.

The logic of `benchmarks/trace_prepare.py`, which parses the command line and calls `main`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from pycontrol.traces.formats import make_format
from pycontrol.traces.prepare import PrepareOptions, prepare_trace
from pycontrol.traces.session import build_session

MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def generate_clf(path: Path, events: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    urls = [f"/english/{'images' if i % 3 else 'pages'}/obj{i}.{'gif' if i % 3 else 'html'}" for i in range(5000)]
    weights = [1 / r for r in range(1, len(urls) + 1)]
    picks = rng.choices(urls, weights=weights, k=events)
    t = datetime(1998, 6, 10, 12, 0, 0, tzinfo=timezone.utc).timestamp()
    with path.open("w") as f:
        for i, url in enumerate(picks):
            rate = 400 * (1 + 0.5 * math.sin(t / 60))  # one swing every ~6 minutes
            t += rng.expovariate(rate)
            if rng.random() < 0.005:
                f.write("#garbage line without structure\n")
            ts = datetime.fromtimestamp(t, tz=timezone.utc)
            stamp = f"{ts.day:02d}/{MONTHS[ts.month - 1]}/{ts.year}:{ts:%H:%M:%S} +0000"
            status, size = (304, "-") if rng.random() < 0.2 else (200, str(rng.randint(200, 40000)))
            f.write(f"10.0.{i % 256}.{rng.randint(1, 254)} - - [{stamp}] \"GET {url} HTTP/1.0\" {status} {size}\n")


def run_master(master: str, inputs: list[tuple[int, Path]], work: Path) -> list[dict]:
    t = time.monotonic()
    spark = build_session(master, app_name=f"bench-{master}")
    startup = time.monotonic() - t
    runs = []
    try:
        fmt = make_format("clf")
        options = PrepareOptions(plots=False)
        warm = inputs[0][1]
        prepare_trace(spark, [warm], fmt, work / "warmup", options)
        for events, path in inputs:
            phases = []
            t0 = time.monotonic()
            summary = prepare_trace(spark, [path], fmt, work / f"out-{master}-{events}", options,
                                    log=lambda m: phases.append((round(time.monotonic() - t0, 2), m)))
            wall = time.monotonic() - t0
            replayed = summary["events"]["replayed"]
            runs.append({"master": master, "format": "clf", "events": replayed,
                         "lines": summary["lines"]["total"], "bad_lines": summary["lines"]["bad"],
                         "input_mb": round(path.stat().st_size / 2**20, 2), "wall_s": round(wall, 2),
                         "events_per_s": round(replayed / wall), "phases": phases,
                         "load_avg_after": os.getloadavg()[0]})
            print(f"{master:9} {replayed:>9} events  {wall:7.2f} s  {replayed / wall:>9.0f} events/s", flush=True)
    finally:
        spark.stop()
    return [{"startup_s": round(startup, 2), "master": master}, *runs]


def main(args: argparse.Namespace) -> None:
    sizes = [int(s) for s in args.sizes.split(",")]
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="trace-bench-") as tmp:
        work = Path(tmp)
        inputs = []
        for n in sizes:
            path = work / f"access-{n}.log"
            generate_clf(path, n)
            inputs.append((n, path))
        results = []
        for master in args.masters.split(","):
            results.extend(run_master(master, inputs, work))
    doc = {
        "benchmark": "trace prepare (clf), events/s excluding Spark start-up",
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_avg_before": load_before, "load_avg_after": os.getloadavg()[0]},
        "startup": [r for r in results if "startup_s" in r],
        "runs": [r for r in results if "startup_s" not in r],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"wrote {args.out}")
