"""The Consistent Grouping paper's Storm experiment (its Q4, Figs. 14-15) on the local 2-node cluster.

Not a test: run it by hand on a machine as quiet as you can get, e.g.
    .venv/bin/python benchmarks/grouping_storm.py            # full: 4 groupings x 2 scenarios, ~50 min
    .venv/bin/python benchmarks/grouping_storm.py --quick    # shorter runs and input, ~25 min
It brings up its own cluster (--home, --port-base; taken down at the end unless --keep-cluster) and runs
the `grouping-count` workload (storm-plugins/workloads: Brown corpus words at a fixed rate -> count, with a
fixed processing delay per word (the paper's emulation of a per-key CPU cost) -> periodic aggregation)
once per grouping (CG, KG, PKG, SG) and scenario:
  homogeneous    every counting task costs --cost-us per word;
  heterogeneous  the first --slow-tasks counting tasks are --slowdown times slower (the paper capped two
                 executors with cpulimit; a configured slowdown keeps the capacities exact on a shared
                 machine, where CPU caps would compete with everything else).
Per run, after --warmup-secs (CG needs a few time slots to move virtual workers), over --measure-secs:
throughput (acked words/s), end-to-end latency (FeedSpout: intended emit time -> ack of the word's
tuple), and memory (distinct words per counting task, summed; normalised by the distinct words).
Writes results/grouping/storm.json (storm-quick.json with --quick) and figures next to it. The paper's
target: under heterogeneity CG's latency at least 3.44x lower than KG's, with memory close to KG's.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from pycontrol.cluster import manager, ui_token  # noqa: E402
from pycontrol.cluster.layout import Layout  # noqa: E402
from pycontrol.cluster.spec import make_spec  # noqa: E402
from pycontrol.errors import UserError  # noqa: E402
from pycontrol.grouping import experiment, streams  # noqa: E402
from pycontrol.storm.rest import StormRest  # noqa: E402
from pycontrol.workloads import locate, series  # noqa: E402
from pycontrol.workloads.submit import submit_workload  # noqa: E402

COLORS = {"cg": "tab:blue", "kg": "tab:red", "pkg": "tab:orange", "sg": "tab:gray", "potc": "tab:purple",
          "ch": "tab:brown"}
PAPER_LATENCY_RATIO = 3.44


def log(msg: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {msg}", flush=True)


def settings(args, scenario: str, grouping: str, words: Path) -> list[str]:
    slow = [f"{args.slowdown:g}"] * args.slow_tasks if scenario == "heterogeneous" else []
    return [
        f"workload.input={words}", "workload.total=0", f"workload.rate={args.rate:g}",
        f"workload.grouping={grouping}", f"workload.par.count={args.count_tasks}", f"workload.cost.us={args.cost_us}",
        f"workload.slowdown=[{', '.join(slow)}]", f"workload.aggregate.secs={args.aggregate_secs}",
        f"workload.cg.slot.ms={args.cg_slot_ms}", f"workload.cg.vws={args.cg_vws}",
        f"workload.cg.epsilon={args.cg_epsilon:g}", f"workload.cg.idle={args.cg_idle:g}",
        f"workload.cg.busy={args.cg_busy:g}",
        f"nonstop.metrics.period.secs={args.metrics_period}", f"topology.stats.sample.rate={args.sample_rate:g}",
        f"topology.workers={args.workers}", f"topology.max.spout.pending={args.max_pending}",
        "topology.message.timeout.secs=300",
        # SG = round robin, as in the paper: Storm 2's default load-aware shuffle keeps tuples in the
        # sender's worker while the local tasks' queues are short, i.e. almost always here.
        "topology.disable.loadaware.messaging=true", *args.set]


def submit(layout: Layout, rest: StormRest, name: str, conf: list[str]) -> None:
    """Submits; on a crowded machine the submitting JVM can time out after Nimbus took the topology,
    so a timeout is retried once only if the topology is not listed."""
    for attempt in (1, 2):
        try:
            submit_workload("grouping-count", name, conf, layout.control_conf_dir)
            return
        except UserError as e:
            if "timed out" not in str(e) or attempt == 2:
                raise
            time.sleep(10)
            if rest.topology_id(name) is not None:
                return
            log(f"{name}: {e}; retrying")


def run_one(args, layout: Layout, rest: StormRest, scenario: str, grouping: str, words: Path) -> dict:
    name = f"bench-cg-{scenario[:6]}-{grouping}"
    conf = settings(args, scenario, grouping, words)
    submit(layout, rest, name, conf)
    deadline = time.monotonic() + 120
    while (topo_id := rest.topology_id(name)) is None:
        if time.monotonic() > deadline:
            raise SystemExit(f"{name} never listed")
        time.sleep(1)
    try:
        # t0: the first second in which words were emitted (workers up, the spout running)
        deadline = time.monotonic() + args.start_timeout
        while True:
            rows = series.read_series(locate.artifact_dirs(layout.logs, topo_id))
            started = [r.ts for r in rows if r.emitted > 0]
            if started:
                t0 = started[0]
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"{name}: nothing emitted {args.start_timeout} s after submission")
            time.sleep(2)
        start, end = t0 + args.warmup_secs, t0 + args.warmup_secs + args.measure_secs
        log(f"{name}: emitting since {time.strftime('%H:%M:%S', time.localtime(t0))}; measuring "
            f"{args.measure_secs} s after {args.warmup_secs} s of warm-up")
        while time.time() < end + 3:  # + the spout's last series line
            time.sleep(min(10.0, max(1.0, end + 3 - time.time())))
        dirs = locate.artifact_dirs(layout.logs, topo_id)
        rows = series.read_series(dirs)
        stats = experiment.window_stats(rows, start, end)
        memory = experiment.memory(experiment.newest_snapshots(dirs, "count"))
        timeline = [{"t": r.ts - t0, "acked": r.acked, "latency_mean_ms": r.latency_mean_ms,
                     "latency_p99_ms": r.latency_p99_ms} for r in rows if r.ts < end]
    finally:
        rest.kill(topo_id, 0)
        deadline = time.monotonic() + 120
        while rest.topology_id(name) is not None and time.monotonic() < deadline:
            time.sleep(1)
    signals = None
    if grouping == "cg":
        time.sleep(5)  # workers write their buffered logs out as they stop
        signals = experiment.signals_in_logs(locate.artifact_dirs(layout.logs, topo_id)).get("source:default->count")
    log(f"{name}: {stats['throughput_per_s']} words/s, latency mean {stats['latency_mean_ms']} ms "
        f"p50 {stats['latency_p50_ms']} p99 {stats['latency_p99_ms']}; memory {memory['normalised']} x keys "
        f"(per task {memory['per_task']}); words per task {memory['tuples_per_task']}"
        + (f"; signals {signals}" if grouping == "cg" else ""))
    return {"scenario": scenario, "grouping": grouping, "topology_id": topo_id, "settings": conf,
            "measured": stats, "memory": memory, "cg_signals": signals, "timeline": timeline}


def ratio(a, b):
    return round(a / b, 3) if a is not None and b else None


def compare(runs: list[dict]) -> dict:
    out = {}
    for scenario in sorted({r["scenario"] for r in runs}):
        by = {r["grouping"]: r for r in runs if r["scenario"] == scenario}
        if "cg" not in by:
            continue
        cg = by["cg"]
        out[scenario] = {}
        for other, r in by.items():
            if other == "cg":
                continue
            out[scenario][f"{other}_over_cg"] = {
                "latency_mean": ratio(r["measured"]["latency_mean_ms"], cg["measured"]["latency_mean_ms"]),
                "latency_p99": ratio(r["measured"]["latency_p99_ms"], cg["measured"]["latency_p99_ms"]),
                "throughput": ratio(r["measured"]["throughput_per_s"], cg["measured"]["throughput_per_s"]),
                "memory": ratio(r["memory"]["normalised"], cg["memory"]["normalised"]),
            }
    return out


def plot_scenario(runs: list[dict], scenario: str, path: Path, args) -> None:
    chosen = [r for r in runs if r["scenario"] == scenario]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 7), sharex=True, layout="constrained")
    try:
        for r in chosen:
            t = [p["t"] for p in r["timeline"]]
            color = COLORS.get(r["grouping"], "black")
            top.plot(t, [p["acked"] for p in r["timeline"]], color=color, linewidth=0.9, label=r["grouping"])
            lat = [(p["t"], p["latency_mean_ms"]) for p in r["timeline"] if p["latency_mean_ms"]]
            if lat:
                bottom.plot(*zip(*lat), color=color, linewidth=0.9, label=r["grouping"])
        for ax in (top, bottom):
            ax.axvspan(args.warmup_secs, args.warmup_secs + args.measure_secs, color="green", alpha=0.06)
            ax.grid(alpha=0.3)
        top.set_ylabel("throughput (acked words/s)")
        top.axhline(args.rate, color="black", linestyle=":", linewidth=0.8)
        bottom.set_ylabel("mean end-to-end latency (ms)")
        bottom.set_yscale("log")
        bottom.set_xlabel("seconds since the source started (shaded: measured)")
        top.legend(loc="lower right", fontsize="small", ncol=len(chosen))
        slow = (f"; {args.slow_tasks} of {args.count_tasks} counting tasks {args.slowdown:g}x slower"
                if scenario == "heterogeneous" else "")
        top.set_title(f"{scenario}: {args.rate:g} words/s, {args.cost_us} us per word{slow}", fontsize="small")
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)


def plot_summary(runs: list[dict], path: Path) -> None:
    scenarios = sorted({r["scenario"] for r in runs}, key=lambda s: s != "homogeneous")
    groupings = list(dict.fromkeys(r["grouping"] for r in runs))
    metrics = [("throughput_per_s", "throughput (words/s)", False), ("latency_mean_ms", "mean latency (ms)", True),
               ("memory", "memory (keys per task summed / keys)", False)]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4), layout="constrained")
    try:
        width = 0.8 / max(1, len(groupings))
        for ax, (key, label, log_scale) in zip(axes, metrics):
            for gi, g in enumerate(groupings):
                values = []
                for s in scenarios:
                    r = next((x for x in runs if x["scenario"] == s and x["grouping"] == g), None)
                    v = None if r is None else (r["memory"]["normalised"] if key == "memory" else r["measured"][key])
                    values.append(v or 0)
                ax.bar([i + gi * width for i in range(len(scenarios))], values, width=width, label=g,
                       color=COLORS.get(g, "black"))
            ax.set_xticks([i + width * (len(groupings) - 1) / 2 for i in range(len(scenarios))], scenarios)
            ax.set_ylabel(label)
            if log_scale:
                ax.set_yscale("log")
            ax.grid(axis="y", alpha=0.3)
        axes[0].legend(fontsize="small")
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="shorter warm-up and measurement, smaller input")
    ap.add_argument("--groupings", default="cg,kg,pkg,sg")
    ap.add_argument("--scenarios", default="homogeneous,heterogeneous")
    ap.add_argument("--rate", type=float, default=500.0, help="words/s")
    ap.add_argument("--count-tasks", type=int, default=4)
    ap.add_argument("--cost-us", type=int, default=4000, help="processing delay per word (us)")
    ap.add_argument("--slow-tasks", type=int, default=2)
    ap.add_argument("--slowdown", type=float, default=3.0)
    ap.add_argument("--warmup-secs", type=int, default=None,
                    help="default 120 (quick: 75): CG moves virtual workers, then works off the backlog")
    ap.add_argument("--measure-secs", type=int, default=None, help="default 180 (quick: 45)")
    ap.add_argument("--words", type=int, default=None, help="input prefix of the Brown words (default 400000, "
                                                             "quick 100000; cycled)")
    ap.add_argument("--cg-slot-ms", type=int, default=4000)
    ap.add_argument("--cg-vws", type=int, default=10)
    ap.add_argument("--cg-epsilon", type=float, default=0.2)
    ap.add_argument("--cg-idle", type=float, default=0.7)
    ap.add_argument("--cg-busy", type=float, default=0.9)
    ap.add_argument("--metrics-period", type=int, default=2, help="s between load reports")
    ap.add_argument("--sample-rate", type=float, default=0.2, help="topology.stats.sample.rate (busy estimates)")
    ap.add_argument("--aggregate-secs", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2, help="topology.workers (one per node: JVMs start slowly on 2 cores)")
    ap.add_argument("--max-pending", type=int, default=1000, help="topology.max.spout.pending")
    ap.add_argument("--set", action="append", default=[], help="extra topology setting key=value")
    ap.add_argument("--start-timeout", type=int, default=600, help="s to wait for the first emitted word")
    ap.add_argument("--home", default="/tmp/nonstop-bench-grouping")
    ap.add_argument("--port-base", type=int, default=26000)
    ap.add_argument("--keep-cluster", action="store_true")
    ap.add_argument("--out", default=None, help="JSON file (default results/grouping/storm[-quick].json)")
    args = ap.parse_args()
    args.warmup_secs = args.warmup_secs or (75 if args.quick else 120)
    args.measure_secs = args.measure_secs or (45 if args.quick else 180)
    args.words = args.words or (100_000 if args.quick else 400_000)
    out = Path(args.out) if args.out else REPO / "results" / "grouping" / f"storm{'-quick' if args.quick else ''}.json"
    out.parent.mkdir(parents=True, exist_ok=True)

    home = Path(args.home)
    home.mkdir(parents=True, exist_ok=True)
    all_words = streams.brown_words_file().read_text(encoding="ascii").splitlines()
    words = home / f"brown-words-{args.words}.txt"
    words.write_text("\n".join(all_words[:args.words]) + "\n", encoding="ascii")
    spec = make_spec(home / "cluster", nodes=2, slots=4, port_base=args.port_base)
    load_before = os.getloadavg()
    manager.up(spec, timeout_s=300, echo=log)
    layout, rest = Layout(spec.home), ui_token.rest_client(spec)  # kills need the cluster's UI token
    runs = []
    try:
        for scenario in args.scenarios.split(","):
            for grouping in args.groupings.split(","):
                runs.append(run_one(args, layout, rest, scenario, grouping, words))
    finally:
        if not args.keep_cluster:
            manager.down(spec.home)
    comparison = compare(runs)
    hetero_kg = comparison.get("heterogeneous", {}).get("kg_over_cg", {})
    doc = {
        "benchmark": "Consistent Grouping Storm experiment: counting with a per-word processing delay, CG vs KG, "
                     "PKG, SG, homogeneous and heterogeneous workers, local 2-node cluster",
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "quick": args.quick,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
                    "loadavg_before": load_before, "loadavg_after": os.getloadavg()},
        "setup": {k: v for k, v in vars(args).items() if k not in ("out", "home", "keep_cluster", "set")}
        | {"extra_settings": args.set, "input": f"first {args.words} words of the Brown corpus, cycled"},
        "comparison": comparison,
        "paper_target": {"heterogeneous_latency_kg_over_cg_at_least": PAPER_LATENCY_RATIO,
                         "measured": hetero_kg.get("latency_mean"),
                         "met": (hetero_kg.get("latency_mean") or 0) >= PAPER_LATENCY_RATIO,
                         "memory_kg_over_cg": hetero_kg.get("memory")},
        "runs": runs,
    }
    out.write_text(json.dumps(doc, indent=1))
    stem = out.with_suffix("")
    for scenario in sorted({r["scenario"] for r in runs}):
        plot_scenario(runs, scenario, Path(f"{stem}-{scenario}.png"), args)
    plot_summary(runs, Path(f"{stem}-summary.png"))
    log(f"comparison: {json.dumps(comparison)}")
    log(f"wrote {out} and its figures")


if __name__ == "__main__":
    main()
