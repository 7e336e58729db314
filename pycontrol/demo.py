"""The main job: a local multi-node cluster with the plugins, the heavy word count with a drifting
skew started under Storm's default placement, then the controller with policy otd moving executors
live for a bounded time; at the end a summary (moves and their reasons, throughput, worker-CPU
balance, inter-node share before vs after) printed and written as JSON and PNG, and everything torn
down (unless keep)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from pycontrol.bench.otd import plots, summary
from pycontrol.bench.otd.live import CALIBRATION_BAND, CLUSTER_CONF, Experiment, run_experiment
from pycontrol.cluster.spec import make_spec
from pycontrol.errors import UserError

TOPOLOGY = "demo-otd"
WORKLOAD = "wordcount-heavy-java"
# OTD's queue thresholds sit out of the way: CPU decides (its thresholds come from the baseline).
OTD_PARAMS = {"threshold_asc": 1, "node_cpu_background": False, "low_queue": 50000, "high_queue": 100000}
MIN_DURATION_S, MIN_BASELINE_S = 30, 20


def demo_experiment(duration_s: float, baseline_s: float, rate: int) -> Experiment:
    if duration_s < MIN_DURATION_S:
        raise UserError(f"--duration must be at least {MIN_DURATION_S} s (a few controller cycles), got {duration_s:g}")
    if baseline_s < MIN_BASELINE_S:
        raise UserError(f"--baseline must be at least {MIN_BASELINE_S} s, got {baseline_s:g}")
    if rate < 1:
        raise UserError(f"--rate must be positive, got {rate}")
    # 6 split executors over 4 workers: Storm's round-robin placement leaves two workers with two.
    return Experiment(WORKLOAD, TOPOLOGY, ("topology.workers=4", "workload.par.split=6", "workload.par.count=4",
                                           f"workload.rate={rate}", "topology.max.spout.pending=100",
                                           "workload.heavy.drift.secs=45", "topology.message.timeout.secs=120"),
                      baseline_s, duration_s, dict(OTD_PARAMS), calibrate_band=CALIBRATION_BAND)


def summary_lines(doc: dict) -> list[str]:
    """The printed summary: moves with their reasons, then each metric before vs after."""
    lines = [f"moves made: {doc['moves_made']}"]
    for m in doc["moves"]:
        lines.append(f"  {m['executor']}: {m['from_slot']} -> {m['to_slot']}: {m['reason']}")
    for metric in summary.METRICS:
        b, a, c = doc["default"][metric], doc["otd"][metric], doc["change_pct"][metric]
        lines.append(f"{summary.LABELS[metric]:<30} default {_fmt(b):>9}   OTD {_fmt(a):>9}   "
                     f"change {'-' if c is None else f'{c:+.1f} %'}")
    return lines


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"


def run_demo(home: Path, nodes: int, echo: Callable[[str], None], keep: bool = False, duration_s: float = 270,
             baseline_s: float = 60, rate: int = 2000, out_dir: Path | None = None, port_base: int = 17000,
             metrics_port: int = 0) -> dict:
    exp = demo_experiment(duration_s, baseline_s, rate)
    spec = make_spec(home, nodes=nodes, port_base=port_base, extra_conf=CLUSTER_CONF)
    data = run_experiment(spec, exp, echo, keep=keep, metrics_port=metrics_port)
    samples = [s.to_dict() for s in data.samples]
    doc = summary.summarise(samples, data.seconds, data.moves, data.phases)
    doc |= {"decisions": data.decisions, "otd_params": data.otd_params, "workload": WORKLOAD,
            "settings": list(exp.settings), "nodes": nodes, "slots": spec.slots}
    out = out_dir or Path("results") / "demo" / datetime.now().strftime("%Y%m%d-%H%M%S")
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(doc, indent=2))
    (out / "samples.json").write_text(json.dumps({"phases": data.phases, "samples": samples,
                                                  "seconds": data.seconds}, indent=2))
    series = summary.plot_series(samples, data.seconds, data.moves, data.phases["default"][0], data.phases["otd"][0])
    plots.plot_run(series, summary.METRICS, f"demo: {WORKLOAD}, Storm's default then OTD", out / "timeline.png")
    for line in summary_lines(doc):
        echo(line)
    echo(f"results in {out.resolve()} (summary.json, samples.json, timeline.png)")
    doc["results_dir"] = str(out.resolve())
    return doc
