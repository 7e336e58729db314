"""`pycontrol bench otd`: the paper's OTD experiment side by side with Storm's default placement.

(a) compute: the heavy word count (split computes harmonic numbers; no cost drift, see NO_DRIFT_S): average
    worker CPU and throughput, default vs OTD (targets: CPU +51 %, throughput +14 %). Each node is
    pinned to its own CPU (--node-cpus), so a node's capacity is its own, as on separate machines, and
    the nodes offer different slot counts (COMPUTE_NODE_SLOTS).
(b) comm: the plain word count on shaped inter-node links (--network netns, --link-bandwidth):
    inter-node tuple share, throughput and latency (targets: share -88 %, throughput +19 %, latency -14 %).
(c) scaling: one OTD round's time as executors x workers grow.

Both live experiments offer far more sentences than the cluster can take (max.spout.pending bounds what
is in flight), so throughput is the capacity the placement allows, and latency is measured from each
sentence's emit (the processing delay), not from intended times that only fall further behind.

Each live experiment runs on its own fresh cluster: Storm's default placement first (the controller
observing), then OTD; "default" and "OTD" figures are the two phases' windows (summary.py)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

from pycontrol.bench.otd import plots, scaling, summary
from pycontrol.bench.otd.live import CALIBRATION_BAND, CLUSTER_CONF, Experiment, RunData, run_experiment
from pycontrol.cluster.spec import cpus_per_node, make_spec
from pycontrol.errors import UserError
from pycontrol.workloads.submit import EVEN_SHUFFLE

PARTS = ("compute", "comm", "scaling")
TARGETS = {"compute": {"worker_cpu_mean": 51.0, "throughput": 14.0},
           "comm": {"inter_node_share": -88.0, "throughput": 19.0, "latency_p50_ms": -14.0}}
PLOTTED = {"compute": ("throughput", "worker_cpu_mean", "worker_cpu_cv", "inter_node_share"),
           "comm": ("inter_node_share", "throughput", "latency_p50_ms", "worker_cpu_cv")}
# Communication experiment: every worker has room (the nodes share one machine), so Algorithm 2 decides;
# moves may take a worker's last executor, as the paper's algorithms do. Why these values: "Tuning
# history" in results/otd/README.md.
COMM_OTD = {"threshold_asc": 1, "node_cpu_background": False, "low_cpu": 0.95, "high_cpu": 1.0,
            "low_queue": 50000, "high_queue": 100000, "may_take_last_executor": True}
# Compute experiment: pinned nodes make a worker's share absolute, so fixed thresholds mean the same on
# every run; 0.9 / 0.86 sit just under a saturated node's reading ("Tuning history", results/otd/README.md).
COMPUTE_OTD = {"threshold_asc": 1, "node_cpu_background": False, "high_cpu": 0.9, "low_cpu": 0.86,
               "low_queue": 50000, "high_queue": 100000, "may_take_last_executor": True}


@dataclass(frozen=True)
class Options:
    parts: tuple[str, ...]
    default_s: float
    otd_s: float
    compute_rate: int
    comm_rate: int
    link_bandwidth: str
    band: float | None        # compute: calibrate the CPU thresholds from the default phase instead
    sizes: str
    warmup: int
    repeats: int
    quick: bool
    control: bool = False     # phase 2 only observes (policy plan-only): the warm-up control
    pin_nodes: bool = True    # compute: each node on its own CPU(s)


# The OTD phase is long enough that its last half (the "OTD" figures) comes after OTD's moves.
QUICK = {"default_s": 60, "otd_s": 480, "sizes": scaling.QUICK_SIZES, "warmup": 1, "repeats": 3}
FULL = {"default_s": 180, "otd_s": 720, "sizes": scaling.FULL_SIZES, "warmup": 2, "repeats": 5}


# No drift of the heavy word count's per-key cost: with shuffled sentences a drift moves every split's
# cost alike and only shifts the total, which a control saw as +90 % throughput between phases.
NO_DRIFT_S = 86_400
# Before the default phase is measured: JVMs compiling on pinned cores warm up for minutes, and a cold
# default phase flatters OTD.
COMPUTE_WARMUP_S = 300.0
SATURATING_RATE = 100_000   # sentences/s offered: far above what the local cluster takes
PENDING = 100               # sentences in flight per spout task
# Nodes of different sizes (1 and 5 slots): Storm spreads executors evenly over workers, not by node
# capacity, so node2 holds five sixths of the splits on one CPU and node1 idles.
COMPUTE_NODE_SLOTS = (1, 5)
COMPUTE_WORKERS = sum(COMPUTE_NODE_SLOTS)
COMPUTE_SPLITS = 24         # 4 per worker: fine enough that moving splits can even the nodes out
# Enough in flight that the nodes' CPUs, not the spout's pending limit, bound throughput once balanced.
COMPUTE_PENDING = 1000
# 10 s metrics windows: 5 s readings of a saturated pinned node swing more than one split's share.
COMPUTE_METRICS_PERIOD_S = 10


def make_options(quick: bool, parts: str = "all", default_s: float | None = None, otd_s: float | None = None,
                 compute_rate: int = SATURATING_RATE, comm_rate: int = SATURATING_RATE, link_bandwidth: str = "2mbit",
                 band: float | None = None, sizes: str | None = None, control: bool = False,
                 pin_nodes: bool = True) -> Options:
    base = QUICK if quick else FULL
    chosen = PARTS if parts == "all" else tuple(p.strip() for p in parts.split(",") if p.strip())
    bad = [p for p in chosen if p not in PARTS]
    if bad or not chosen:
        raise UserError(f"--parts: unknown {bad or parts!r}; choose from {', '.join(PARTS)} (or all)")
    default_s = base["default_s"] if default_s is None else default_s
    otd_s = base["otd_s"] if otd_s is None else otd_s
    if default_s < 20 or otd_s < 30:
        raise UserError(f"--default-seconds must be >= 20 and --otd-seconds >= 30 (a few controller cycles), "
                        f"got {default_s:g} and {otd_s:g}")
    if compute_rate < 1 or comm_rate < 1:
        raise UserError("--compute-rate and --comm-rate must be positive")
    if band is not None and not 0 < band < 1:
        raise UserError(f"--band must be between 0 and 1, got {band}")
    return Options(tuple(chosen), float(default_s), float(otd_s), compute_rate, comm_rate, link_bandwidth, band,
                   scaling.parse_sizes(sizes or base["sizes"]), base["warmup"], base["repeats"], quick, control,
                   pin_nodes)


def compute_experiment(opts: Options) -> Experiment:
    return Experiment("wordcount-heavy-java", "otd-compute",
                      (f"topology.workers={COMPUTE_WORKERS}", f"workload.par.split={COMPUTE_SPLITS}",
                       "workload.par.count=4",
                       f"workload.rate={opts.compute_rate}", f"topology.max.spout.pending={COMPUTE_PENDING}",
                       "workload.latency.from=emit", f"workload.heavy.drift.secs={NO_DRIFT_S}",
                       "topology.message.timeout.secs=120", EVEN_SHUFFLE,
                       f"nonstop.metrics.period.secs={COMPUTE_METRICS_PERIOD_S}"),
                      opts.default_s, opts.otd_s, dict(COMPUTE_OTD), calibrate_band=_band(opts),
                      second_policy=_second_policy(opts), warmup_s=COMPUTE_WARMUP_S)


def comm_experiment(opts: Options) -> Experiment:
    return Experiment("wordcount-java", "otd-comm",
                      ("topology.workers=4", "workload.par.split=4", "workload.par.count=4",
                       f"workload.rate={opts.comm_rate}", f"topology.max.spout.pending={PENDING}",
                       "workload.latency.from=emit", "topology.message.timeout.secs=120", EVEN_SHUFFLE),
                      opts.default_s, opts.otd_s, dict(COMM_OTD), second_policy=_second_policy(opts))


def node_cpus(nodes: int, cpus: list[int]) -> tuple[tuple[int, ...], ...]:
    """Each node its own block of the CPUs (spec.cpus_per_node); () when there are fewer CPUs than nodes."""
    try:
        return cpus_per_node(nodes, cpus)
    except UserError:
        return ()


def _band(opts: Options) -> float | None:
    """Unpinned nodes share the machine, so a worker's share of "its node" means little in absolute terms:
    then the thresholds come from the default phase (mean share x (1 +- band))."""
    if opts.band is not None:
        return opts.band
    return None if opts.pin_nodes else CALIBRATION_BAND


def _second_policy(opts: Options) -> str:
    return "plan-only" if opts.control else "otd"


def run_summary(part: str, data: RunData) -> dict:
    samples = [s.to_dict() for s in data.samples]
    doc = summary.summarise(samples, data.seconds, data.moves, data.phases, targets=TARGETS[part])
    doc["decisions"] = data.decisions
    doc["otd_params"] = data.otd_params
    doc["cycle_log"] = data.cycles
    return doc


def write_run(part: str, exp: Experiment, data: RunData, out: Path, extra: dict) -> tuple[dict, list[Path]]:
    doc = run_summary(part, data)
    samples = [s.to_dict() for s in data.samples]
    t0 = data.phases["default"][0]
    series = summary.plot_series(samples, data.seconds, data.moves, t0, data.phases["otd"][0])
    full = {"experiment": part, "workload": exp.workload, "settings": list(exp.settings), **extra, "summary": doc,
            "phases": data.phases, "samples": samples, "seconds": data.seconds}
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{part}.json"
    path.write_text(json.dumps(full, indent=2))
    png = plots.plot_run(series, PLOTTED[part], f"OTD vs Storm's default: {exp.workload}", out / f"{part}.png")
    return doc, [path, png]


def run_benchmark(opts: Options, home: Path, port_base: int, out: Path,
                  echo: Callable[[str], None]) -> tuple[dict, list[Path]]:
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    written: list[Path] = []
    report: dict = {"started": started, "options": asdict(opts), "parts": {}}
    for part in opts.parts:
        t = time.monotonic()
        try:
            doc, paths = _run_part(part, opts, home, port_base, out, echo)
        except UserError as e:
            # One part failing (a cluster that never settles) leaves the others' results standing.
            echo(f"{part} failed: {e}")
            doc, paths = {"error": str(e)}, []
        written += paths
        report["parts"][part] = doc | {"wall_s": round(time.monotonic() - t, 1)}
        echo(f"{part} done in {time.monotonic() - t:.0f} s")
    p = out / "summary.json"
    p.write_text(json.dumps(report, indent=2))
    written.append(p)
    return report, written


def _run_part(part: str, opts: Options, home: Path, port_base: int, out: Path,
              echo: Callable[[str], None]) -> tuple[dict, list[Path]]:
    out.mkdir(parents=True, exist_ok=True)
    if part == "scaling":
        echo(f"scaling: one OTD round on synthetic instances {opts.sizes}")
        doc = scaling.run_scaling(opts.sizes, opts.warmup, opts.repeats)
        p = out / "scaling.json"
        p.write_text(json.dumps(doc, indent=2))
        keys = ("nodes", "executors", "workers", "e_times_n", "median_ms", "median_thread_cpu_ms",
                "thread_cpu_us_per_pair")
        png = plots.plot_scaling(doc["rows"], out / "scaling.png")
        return {"rows": [{k: r[k] for k in keys} for r in doc["rows"]]}, [p, png]
    exp = compute_experiment(opts) if part == "compute" else comm_experiment(opts)
    net = {"network": "netns", "link_bandwidth": opts.link_bandwidth} if part == "comm" else {}
    pins = node_cpus(2, sorted(os.sched_getaffinity(0))) if part == "compute" and opts.pin_nodes else ()
    if part == "compute" and opts.pin_nodes and not pins:
        echo("compute: fewer than 2 CPUs here, so the nodes are not pinned (they share the machine)")
    slots = {"node_slots": COMPUTE_NODE_SLOTS} if part == "compute" else {}
    spec = make_spec(home / part, nodes=2, slots=4, port_base=port_base, extra_conf=CLUSTER_CONF,
                     node_cpus=pins, **net, **slots)
    echo(f"{part}: {exp.workload}, {opts.default_s:g} s default then {opts.otd_s:g} s OTD")
    data = run_experiment(spec, exp, echo)
    doc, paths = write_run(part, exp, data, out, {"cluster": {"nodes": 2, "node_slots": [len(n.slot_ports)
                                                                                        for n in spec.node_specs],
                                                              **net,
                                                              "node_cpus": [list(c) for c in pins]}})
    return {k: doc[k] for k in ("default", "otd", "change_pct", "targets", "moves_made", "decisions",
                                "otd_params")}, paths
