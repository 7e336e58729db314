"""The Consistent Grouping paper's Storm experiment (its Q4, Figs. 14-15) on the local 2-node cluster.

Not a test: run it by hand on a machine as quiet as you can get, e.g.
    .venv/bin/python benchmarks/grouping_storm.py --repeat 3      # 4 groupings x 2 scenarios x 3, ~35 min
    .venv/bin/python benchmarks/grouping_storm.py --repeat 3 --quick --scenarios homogeneous --groupings cg,sg,kg
                                                                  # ~10 min: p99 at equal load and memory
(storm-plugins/grouping/README.md gives the commands for n = 3 of each scenario and what they answer.)
It brings up its own cluster (--home, --port-base; taken down at the end unless --keep-cluster) and runs
the `grouping-count` workload (storm-plugins/workloads: Brown corpus words at a fixed rate -> count, with a
fixed processing delay per word (the paper's emulation of a per-key CPU cost) -> periodic aggregation)
once per grouping (CG, KG, PKG, SG), scenario and repeat: rounds of all groupings, each round in the order
of --groupings rotated by one more place, so that neither drift on the machine nor the first run after
the cluster came up (slower: the daemons are still busy) always falls on the same grouping:
  homogeneous    every counting task costs --cost-us per word; every grouping gets the same offered load
                 --rate, below saturation for all of them (a run that fell behind is marked not sustained,
                 and the latency target is then not judged): the latency comparison;
  heterogeneous  the first --slow-tasks counting tasks are --slowdown times slower (the paper capped two
                 executors with cpulimit; a configured slowdown keeps the capacities exact on a shared
                 machine), offered --saturation-rate, above what any grouping can take, with the spout
                 held back by topology.max.spout.pending: the acked rate is then the grouping's maximum
                 sustainable throughput (a closed-loop capacity measurement; latency is not the measure).
Per run, after the scenario's warm-up (CG needs a few time slots to move virtual workers), over the
measured seconds: throughput (acked words/s), end-to-end latency (FeedSpout: intended emit time -> ack of
the word's tuple; p99 pooled over all tuples of the window, the per-second p99s' median, the mean),
memory (distinct words per counting task, summed; normalised by the distinct words) and CG's VW moves.
Writes results/grouping/storm-equal-load.json (or --out): the runs, per scenario and grouping n / median / range of
each figure, and the issue's targets (CG's p99 within 1.2x SG's, memory within 1.2x KG's, maximum
throughput above KG's and PKG's under heterogeneity); figures next to it.
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

from pycontrol.bench.migration import machine  # noqa: E402
from pycontrol.bench.order import rotated  # noqa: E402
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


def log(msg: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {msg}", flush=True)


def offered_rate(args, scenario: str) -> float:
    return args.rate if scenario == "homogeneous" else args.saturation_rate


def warmup_secs(args, scenario: str) -> int:
    return args.warmup_secs if scenario == "homogeneous" else args.hetero_warmup_secs


def settings(args, scenario: str, grouping: str, words: Path) -> list[str]:
    slow = [f"{args.slowdown:g}"] * args.slow_tasks if scenario == "heterogeneous" else []
    return [
        f"workload.input={words}", "workload.total=0", f"workload.rate={offered_rate(args, scenario):g}",
        f"workload.grouping={grouping}", f"workload.par.count={args.count_tasks}", f"workload.cost.us={args.cost_us}",
        f"workload.slowdown=[{', '.join(slow)}]", f"workload.aggregate.secs={args.aggregate_secs}",
        f"workload.cg.slot.ms={args.cg_slot_ms}", f"workload.cg.vws={args.cg_vws}",
        f"workload.cg.epsilon={args.cg_epsilon:g}", f"workload.cg.idle={args.cg_idle:g}",
        f"workload.cg.busy={args.cg_busy:g}", f"workload.cg.signals={args.cg_signals}",
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


def run_one(args, layout: Layout, rest: StormRest, scenario: str, grouping: str, repeat: int, words: Path) -> dict:
    name = f"bench-cg-{scenario[:6]}-{grouping}-{repeat}"
    conf = settings(args, scenario, grouping, words)
    rate, warmup = offered_rate(args, scenario), warmup_secs(args, scenario)
    submitted = time.monotonic()
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
        start, end = t0 + warmup, t0 + warmup + args.measure_secs
        log(f"{name}: emitting {rate:g} words/s since {time.strftime('%H:%M:%S', time.localtime(t0))}; "
            f"measuring {args.measure_secs} s after {warmup} s of warm-up")
        while time.time() < end + 3:  # + the spout's last series line
            time.sleep(min(10.0, max(1.0, end + 3 - time.time())))
        dirs = locate.artifact_dirs(layout.logs, topo_id)
        rows = series.read_series(dirs)
        stats = experiment.window_stats(rows, start, end)
        memory = experiment.memory(experiment.newest_snapshots(dirs, "count"))
        timeline = [{"t": r.ts - t0, "acked": r.acked, "latency_mean_ms": r.latency_mean_ms,
                     "latency_p99_ms": r.latency_p99_ms} for r in rows if r.ts < end]
    finally:
        # not waited for: the next run's warm-up covers this one's shutdown (collect() waits at the end)
        rest.kill(topo_id, 0)
    window = [r for r in rows if start <= r.ts < end and r.latency_n]
    latency = {"n": sum(r.latency_n for r in window),
               "p99_pooled_ms": experiment.pooled_quantile(rows, start, end),
               "p99_per_second_median_ms": experiment.spread(r.latency_p99_ms for r in window)["median"]}
    sustained = experiment.sustained(stats, rate, args.max_pending)
    log(f"{name}: {stats['throughput_per_s']} words/s ({'sustained' if sustained else 'NOT sustained'}), "
        f"latency mean {stats['latency_mean_ms']} ms, p99 {latency['p99_pooled_ms']} (per-second median "
        f"{latency['p99_per_second_median_ms']}, n {latency['n']}); memory {memory['normalised']} x keys; "
        f"words per task {memory['tuples_per_task']}; {time.monotonic() - submitted:.0f} s")
    return {"scenario": scenario, "grouping": grouping, "repeat": repeat, "name": name, "topology_id": topo_id,
            "settings": conf, "offered_per_s": rate, "sustained": sustained, "measured": stats, "latency": latency,
            "memory": memory, "cg_signals": None, "cg_moves": None, "timeline": timeline}


def collect_cg_logs(layout: Layout, rest: StormRest, runs: list[dict]) -> None:
    """CG's signals and VW moves from the worker logs, once every run's topology is gone (workers write their
    buffered logs out as they stop)."""
    deadline = time.monotonic() + 120
    while any(rest.topology_id(r["name"]) is not None for r in runs) and time.monotonic() < deadline:
        time.sleep(1)
    for r in runs:
        if r["grouping"] == "cg":
            dirs = locate.artifact_dirs(layout.logs, r["topology_id"])
            r["cg_signals"] = experiment.signals_in_logs(dirs).get("source:default->count")
            r["cg_moves"] = experiment.moves_in_logs(dirs).get("source:default->count", {"moves": 0})["moves"]
            log(f"{r['name']}: signals {r['cg_signals']}; VW moves {r['cg_moves']}")


def plot_scenario(runs: list[dict], scenario: str, path: Path, args) -> None:
    chosen = [r for r in runs if r["scenario"] == scenario and r["repeat"] == 1]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 7), sharex=True, layout="constrained")
    try:
        for r in chosen:
            t = [p["t"] for p in r["timeline"]]
            color = COLORS.get(r["grouping"], "black")
            top.plot(t, [p["acked"] for p in r["timeline"]], color=color, linewidth=0.9, label=r["grouping"])
            lat = [(p["t"], p["latency_p99_ms"]) for p in r["timeline"] if p["latency_p99_ms"]]
            if lat:
                bottom.plot(*zip(*lat), color=color, linewidth=0.9, label=r["grouping"])
        warmup = warmup_secs(args, scenario)
        for ax in (top, bottom):
            ax.axvspan(warmup, warmup + args.measure_secs, color="green", alpha=0.06)
            ax.grid(alpha=0.3)
        top.set_ylabel("throughput (acked words/s)")
        top.axhline(offered_rate(args, scenario), color="black", linestyle=":", linewidth=0.8)
        bottom.set_ylabel("p99 latency per second (ms)")
        bottom.set_yscale("log")
        bottom.set_xlabel("seconds since the source started (shaded: measured)")
        top.legend(loc="lower right", fontsize="small", ncol=max(1, len(chosen)))
        slow = (f"; {args.slow_tasks} of {args.count_tasks} counting tasks {args.slowdown:g}x slower"
                if scenario == "heterogeneous" else "")
        top.set_title(f"{scenario} (first repeat): {offered_rate(args, scenario):g} words/s offered, "
                      f"{args.cost_us} us per word{slow}", fontsize="small")
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)


def plot_summary(summary: dict, path: Path) -> None:
    """Medians with min-max bars: homogeneous p99 at equal load, memory, heterogeneous max throughput."""
    panels = [("homogeneous", "latency_p99_ms", "p99 latency at equal load (ms)"),
              ("homogeneous", "memory", "memory, homogeneous (x keys)"),
              ("heterogeneous", "throughput_per_s", "max sustainable throughput,\nheterogeneous (words/s)"),
              ("heterogeneous", "memory", "memory, heterogeneous (x keys)")]
    panels = [p for p in panels if p[0] in summary]
    fig, axes = plt.subplots(1, max(1, len(panels)), figsize=(4 * max(1, len(panels)), 4), layout="constrained",
                             squeeze=False)
    try:
        for ax, (scenario, metric, label) in zip(axes[0], panels):
            groupings = list(summary[scenario])
            med = [summary[scenario][g][metric]["median"] or 0 for g in groupings]
            # clipped: the median is rounded and can fall a hair outside the range
            lo = [max(0, m - (summary[scenario][g][metric]["min"] or 0)) for g, m in zip(groupings, med)]
            hi = [max(0, (summary[scenario][g][metric]["max"] or 0) - m) for g, m in zip(groupings, med)]
            ax.bar(groupings, med, yerr=[lo, hi], capsize=4, color=[COLORS.get(g, "black") for g in groupings])
            ax.set_title(label + f"\n(median, range; n = {summary[scenario][groupings[0]]['runs']})",
                         fontsize="small")
            ax.grid(axis="y", alpha=0.3)
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=1, help="runs per grouping and scenario (n)")
    ap.add_argument("--quick", action="store_true", help="shorter warm-ups and measurement (15/35 s, 20 s)")
    ap.add_argument("--groupings", default="cg,kg,pkg,sg")
    ap.add_argument("--scenarios", default="homogeneous,heterogeneous")
    ap.add_argument("--rate", type=float, default=400.0,
                    help="homogeneous offered words/s, equal for all groupings (the counting tasks take 1000/s)")
    ap.add_argument("--saturation-rate", type=float, default=1000.0,
                    help="heterogeneous offered words/s, above every grouping's capacity (the tasks take ~670/s)")
    ap.add_argument("--count-tasks", type=int, default=4)
    ap.add_argument("--cost-us", type=int, default=4000, help="processing delay per word (us)")
    ap.add_argument("--slow-tasks", type=int, default=2)
    ap.add_argument("--slowdown", type=float, default=3.0)
    ap.add_argument("--warmup-secs", type=int, default=None, help="homogeneous warm-up (default 20 s)")
    ap.add_argument("--hetero-warmup-secs", type=int, default=None,
                    help="heterogeneous warm-up (default 45 s): CG moves virtual workers for a few slots")
    ap.add_argument("--measure-secs", type=int, default=None, help="default 30 s")
    ap.add_argument("--words", type=int, default=100_000, help="input prefix of the Brown words (cycled)")
    ap.add_argument("--cg-slot-ms", type=int, default=4000)
    ap.add_argument("--cg-vws", type=int, default=10)
    ap.add_argument("--cg-epsilon", type=float, default=0.2)
    ap.add_argument("--cg-idle", type=float, default=0.7)
    ap.add_argument("--cg-busy", type=float, default=0.9)
    ap.add_argument("--cg-signals", choices=("metrics", "none"), default="metrics",
                    help="none: PoRC over an even VW table (isolates the signal path)")
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
    ap.add_argument("--out", default=None, help="JSON file (default results/grouping/storm-equal-load.json)")
    args = ap.parse_args()
    args.warmup_secs = args.warmup_secs or (15 if args.quick else 20)
    args.hetero_warmup_secs = args.hetero_warmup_secs or (35 if args.quick else 45)
    args.measure_secs = args.measure_secs or (20 if args.quick else 30)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    scenarios = args.scenarios.split(",")
    groupings = args.groupings.split(",")
    if unknown := set(scenarios) - {"homogeneous", "heterogeneous"}:
        ap.error(f"unknown scenarios {sorted(unknown)}")
    out = Path(args.out) if args.out else REPO / "results" / "grouping" / "storm-equal-load.json"
    out.parent.mkdir(parents=True, exist_ok=True)

    home = Path(args.home)
    home.mkdir(parents=True, exist_ok=True)
    all_words = streams.brown_words_file().read_text(encoding="ascii").splitlines()
    words = home / f"brown-words-{args.words}.txt"
    words.write_text("\n".join(all_words[:args.words]) + "\n", encoding="ascii")
    spec = make_spec(home / "cluster", nodes=2, slots=4, port_base=args.port_base)
    load_before = os.getloadavg()
    began = time.monotonic()
    manager.up(spec, timeout_s=300, echo=log)
    layout, rest = Layout(spec.home), ui_token.rest_client(spec)  # kills need the cluster's UI token
    runs = []
    try:
        for repeat in range(1, args.repeat + 1):
            for scenario in scenarios:
                for grouping in rotated(groupings, repeat - 1):
                    start = machine.now()   # the load around each run: a busy start shows per run, not per file
                    run = run_one(args, layout, rest, scenario, grouping, repeat, words)
                    runs.append(run | {"machine": {"start": start, "end": machine.now()}})
        collect_cg_logs(layout, rest, runs)
    finally:
        if not args.keep_cluster:
            manager.down(spec.home)
    summary = experiment.summarise(runs)
    doc = {
        "benchmark": "Consistent Grouping Storm experiment: counting with a per-word processing delay, CG vs KG, "
                     "PKG, SG; homogeneous at equal offered load (latency), heterogeneous at saturation (maximum "
                     "sustainable throughput); local 2-node cluster",
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "wall_secs": round(time.monotonic() - began),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
                    "loadavg_before": load_before, "loadavg_after": os.getloadavg()},
        "setup": {k: v for k, v in vars(args).items() if k not in ("out", "home", "keep_cluster", "set")}
        | {"extra_settings": args.set, "input": f"first {args.words} words of the Brown corpus, cycled"},
        "summary": summary,
        "targets": experiment.targets(summary),
        "runs": runs,
    }
    out.write_text(json.dumps(doc, indent=1))
    stem = out.with_suffix("")
    for scenario in scenarios:
        plot_scenario(runs, scenario, Path(f"{stem}-{scenario}.png"), args)
    plot_summary(summary, Path(f"{stem}-summary.png"))
    log(f"targets: {json.dumps(doc['targets'])}")
    log(f"wrote {out} and its figures ({doc['wall_secs']} s)")


if __name__ == "__main__":
    main()
