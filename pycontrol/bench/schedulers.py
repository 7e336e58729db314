"""The schedulers' quality and speed from the Java bench, and their summary.

The logic of `benchmarks/schedulers.py`, which parses the command line and calls `main`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from pycontrol.paths import REPO_ROOT as REPO
from pycontrol.bench import scheduler_quality
from pycontrol.errors import UserError
from pycontrol.jvm import classpath
from pycontrol.jvm.command import JavaCommand, run


BENCH_MAIN = "io.nonstopstorm.scheduling.bench.SchedulerBench"
OUT = REPO / "results" / "schedulers"
DEFAULT_SIZES = "4x12,10x100,50x500,100x1000,250x2500,500x5000,1000x10000"
TARGET_MS = 1000.0
TARGET_SCHEDULERS = ("aniello-online", "otd")
BASELINES = ("storm-default", "storm-ras", "optimum")


def run_bench(args: list[str]) -> dict:
    cmd = JavaCommand(BENCH_MAIN, tuple(args), classpath.planner(), ("-Xmx3g",))
    print("running:", BENCH_MAIN, " ".join(args), flush=True)
    started = time.monotonic()
    done = run(cmd, timeout_s=None, capture_stderr=False)   # the bench's progress goes to the terminal
    if done.returncode != 0:
        raise SystemExit(f"bench failed with exit {done.returncode}")
    print(f"  took {time.monotonic() - started:.0f} s", flush=True)
    return json.loads(done.stdout)


# ---- quality ----

def quality_tables(summary: dict, raw: dict) -> str:
    def cell(v, digits=3):
        return "–" if v is None else f"{v:.{digits}f}"

    def dist(d):
        return f"{d['n']} | {cell(d['median'])} | {cell(d['mean'])} | {cell(d['max'])}"
    names = list(summary["overall"])
    sizes = {f["name"]: (min(i["executors"] for i in f["instances"]), max(i["executors"] for i in f["instances"]))
             for f in raw["families"]}
    seeds = sorted({i["seed"] for f in raw["families"] for i in f["instances"]})
    out = ["### Quality: inter-node traffic relative to the exact optimum and to Storm's schedulers", "",
           f"{summary['instances']} instances: {raw['seeds']} per family, generator seeds {seeds[0]}–{seeds[-1]}; "
           "families: " + ", ".join(f"{n} ({lo}–{hi} executors)" for n, (lo, hi) in sizes.items()) + ".", "",
           "Ratios are of inter-node traffic (lower is better). The optimum is exact under the online "
           "scheduler's constraints (W' workers, at most M(α) executors each, node CPU). An instance is feasible "
           "when some placement of it has no violation; a scheduler that places nothing on a feasible instance "
           "misses it: the misses are listed below, and each one also enters the ratio to the optimum as the ratio "
           f"{summary['miss_penalty']} (pycontrol/bench/scheduler_quality.py). Placements with violations have "
           "no ratio to the optimum ('violating'). Ratios to storm-default are over every placement made. "
           "OTD starts from Storm's default placement: 'otd' is one round, 'otd-converged' repeats rounds until "
           "one moves nothing.", "",
           "| scheduler | placed | violation-free | violating | missed (penalised) | to optimum: n | median | mean "
           "| max | to storm-default: n | median | mean | max |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for n in names:
        s = summary["overall"][n]
        out.append(f"| {n} | {s['placed']}/{s['runs']} | {s['violation_free']} | {s['violating']} | "
                   f"{s['missed']} ({s['penalised']}) | {dist(s['ratio_to_optimum'])} | "
                   f"{dist(s['ratio_to_default'])} |")
    misses = [f"- {n}: " + ", ".join(s["missed_instances"]) for n, s in summary["overall"].items()
              if s["missed_instances"]]
    if misses:
        out += ["", "Missed feasible instances (family, generator seed):", "", *misses]
    out += ["", "Mean ratio to storm-default per family (n = placements compared):", "",
            "| scheduler | " + " | ".join(summary["per_family"]) + " |",
            "|---|" + "---|" * len(summary["per_family"])]
    for n in names:
        cells = []
        for f in summary["per_family"]:
            d = summary["per_family"][f].get(n, {}).get("ratio_to_default", {"n": 0, "mean": None})
            cells.append(f"{cell(d['mean'])} ({d['n']})")
        out.append(f"| {n} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def plot_quality(summary: dict, path: Path) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8))
    panels = ((axes[0], "ratio_to_optimum", "small instances: mean ratio to the exact optimum (misses penalised)",
               [n for n in summary["overall"] if n != "optimum"]),
              (axes[1], "ratio_to_default", "all instances: mean ratio to Storm's default scheduler",
               [n for n in summary["overall"] if n != "storm-default"]))
    for ax, key, title, names in panels:
        values = [summary["overall"][n][key]["mean"] for n in names]
        ax.bar(range(len(names)), [v or 0 for v in values], color="tab:blue")
        for i, v in enumerate(values):
            ax.annotate("n/a" if v is None else f"{v:.2f}", (i, v or 0), ha="center", va="bottom", fontsize=8)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
        ax.set_title(title, fontsize=10)
        ax.set_ylabel("inter-node traffic ratio (lower is better)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


# ---- speed ----

def speed_tables(raw: dict) -> str:
    results = raw["results"]
    sizes = sorted({(r["nodes"], r["executors"]) for r in results}, key=lambda s: s[1])
    names = list(dict.fromkeys(r["scheduler"] for r in results))
    by = {(r["scheduler"], r["nodes"], r["executors"]): r for r in results}

    def cell(r, key):
        if r is None or "skipped" in r:
            return "skip"
        v = r.get(key)
        text = "–" if v is None else (f"{v:.1f}" if v < 100 else f"{v:.0f}")
        return text + ("" if r.get("ok", True) else " (fail)")

    header = "| scheduler | " + " | ".join(f"{n} nodes / {e} ex." for n, e in sizes) + " |"
    out = ["### Speed: one planning round", "",
           f"Machine: {raw['machine']['cores']} cores, load average {raw['machine']['load_average_at_start']:.0f} "
           f"at start (shared). Each cell: the median of {raw['repeats']} runs after {raw['warmup']} warm-up "
           "run(s), CPU time of the planning thread / wall time, ms (wall time is inflated by the machine's "
           "load; storm-ras plans on its own thread: its CPU figure is process CPU).", "",
           "Instance: random DAG of 20 components, each executor sending to 4 receivers, 4 ports per node, "
           "W = 2 x nodes workers, 3x CPU headroom; OTD starts from the aniello-offline placement (every worker "
           "LOW: its worst case); storm-ras runs with its state-search limit raised to 100 000 and its timeout "
           "to 1800 s (Storm's defaults refuse 10 000 executors).", "",
           header, "|---|" + "---|" * len(sizes)]

    def both(r, cpu_key):
        if r is None or "skipped" in r:
            return "skip"
        return f"{cell(r, cpu_key).removesuffix(' (fail)')} / {cell(r, 'median_ms')}"
    for n in names:
        key = "median_cpu_ms" if n == "storm-ras" else "median_thread_cpu_ms"
        out.append(f"| {n} | " + " | ".join(both(by.get((n, s[0], s[1])), key) for s in sizes) + " |")
    largest = sizes[-1]
    out.append("")
    for n in TARGET_SCHEDULERS:
        r = by.get((n, *largest))
        if r and "skipped" not in r:
            cpu = r["median_thread_cpu_ms"]
            out.append(f"- target < {TARGET_MS:.0f} ms per round at {largest[0]} nodes / {largest[1]} executors, {n}: "
                       f"{cpu:.0f} ms thread CPU, {r['median_ms']:.0f} ms wall -> "
                       f"{'met' if cpu < TARGET_MS else 'NOT met'} (on CPU time)")
    notes = [f"- {r['scheduler']} at {r['executors']} executors: {r['note']}" for r in results
             if r.get("note") and (not r.get("ok", True) or r["scheduler"] == "elastic")
             and (r["nodes"], r["executors"]) == largest_done(results, r["scheduler"])]
    skipped = [f"- {r['scheduler']} from {r['executors']} executors: {r['skipped']}" for r in results
               if "skipped" in r and r["scheduler"] != "optimum" and is_first_skip(results, r)]
    return "\n".join(out + notes + skipped) + "\n"


def largest_done(results: list, scheduler: str):
    done = [(r["nodes"], r["executors"]) for r in results if r["scheduler"] == scheduler and "skipped" not in r]
    return max(done, key=lambda s: s[1]) if done else None


def is_first_skip(results: list, r: dict) -> bool:
    skips = [x["executors"] for x in results if x["scheduler"] == r["scheduler"] and "skipped" in x]
    return r["executors"] == min(skips)


def plot_speed(raw: dict, path: Path) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(9, 5.5))
    ax.set_prop_cycle(color=plt.cm.tab20.colors[::2] + plt.cm.tab20.colors[1::2])
    names = list(dict.fromkeys(r["scheduler"] for r in raw["results"]))
    for n in names:
        key = "median_cpu_ms" if n == "storm-ras" else "median_thread_cpu_ms"
        pts = sorted((r["executors"], r[key]) for r in raw["results"]
                     if r["scheduler"] == n and "skipped" not in r and r.get(key))
        if pts:
            ax.plot([p[0] for p in pts], [max(p[1], 0.01) for p in pts], marker="o", label=n,
                    linewidth=2.5 if n in TARGET_SCHEDULERS else 1.2)
    ax.axhline(TARGET_MS, color="red", linestyle="--", linewidth=1, label="1 s target")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("executors (nodes ≈ executors / 10)")
    ax.set_ylabel("CPU time of one planning round, ms")
    ax.set_title("Scheduler planning time")
    ax.legend(fontsize=8, ncol=2)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main(a: argparse.Namespace) -> None:
    a.out.mkdir(parents=True, exist_ok=True)
    try:
        classpath.planner()
    except UserError as e:
        raise SystemExit(f"error: {e}")
    # what the evidence report shows for each file: when, with which command, the load at the end
    provenance = {"command": " ".join(["benchmarks/schedulers.py", *sys.argv[1:]]),
           "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    if a.what in ("quality", "all"):
        began, load = time.monotonic(), os.getloadavg()[0]
        raw = run_bench(["quality", "--seeds", str(a.seeds)])
        (a.out / "quality.json").write_text(json.dumps({**provenance, "load_average_at_start": load,
                                                        "load_average_at_end": os.getloadavg()[0],
                                                        "elapsed_s": round(time.monotonic() - began),
                                                        "summary": scheduler_quality.summarise(raw), "raw": raw},
                                                       indent=1))
    if a.what in ("speed", "all"):
        began, load = time.monotonic(), os.getloadavg()[0]
        raw = run_bench(["speed", "--sizes", a.sizes, "--repeats", str(a.repeats), "--warmup", str(a.warmup),
                         "--cap-seconds", str(a.cap_seconds), "--budget-seconds", str(a.budget_seconds)])
        (a.out / "speed.json").write_text(json.dumps({**provenance, "load_average_at_start": load,
                                                      "load_average_at_end": os.getloadavg()[0],
                                                      "elapsed_s": round(time.monotonic() - began), **raw},
                                                     indent=1))
    print(render(a.out))


def render(out: Path) -> str:
    """summary.md and the plots from whatever results are in `out` (a rerun of one part keeps the other)."""
    sections = []
    plots = True
    if (out / "quality.json").is_file():
        doc = json.loads((out / "quality.json").read_text())
        # aggregated from the raw results each time, so a file written before a change of the rules
        # renders under the current ones
        summary = scheduler_quality.summarise(doc["raw"])
        sections.append(quality_tables(summary, doc["raw"]))
        plots &= plot_quality(summary, out / "quality.png")
    if (out / "speed.json").is_file():
        raw = json.loads((out / "speed.json").read_text())
        sections.append(speed_tables(raw))
        plots &= plot_speed(raw, out / "speed.png")
    if not plots:
        sections.append("(matplotlib is not importable: JSON and tables only, no PNG plots)\n")
    text = "\n".join(sections)
    (out / "summary.md").write_text("# Scheduler benchmarks\n\nWritten by benchmarks/schedulers.py.\n\n" + text)
    return text
