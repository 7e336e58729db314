"""OTD against a no-move control and a balanced "ceiling", repeated: the benchmark behind the demo's
part 2 (same pinned cluster and heavy word count, controlled.py), with n repetitions.

Each repetition runs three topologies one after the other on one cluster, each freshly submitted, each
with the same warm-up (controller observing, left out) and then phase_s measured:
* otd: OTD live (calibrated thresholds, as in the demo);
* control: the same controller observing only (plan-only), nothing moved;
* ceiling: the split bolt spread evenly over the nodes by live moves before the warm-up, then plan-only
  (balance.py): what a balanced placement takes on this machine.
The order rotates from one repetition to the next (otd, control, ceiling; then control, ceiling, otd; ...)
so that no kind always runs first on a cold cluster or last on a warm one.

Per run two measures, each the median of its 10 s windows: acked sentences/s (the offered rate is above
what the default placement takes) and the mean worker CPU (cores; the OTD paper's compute measure, its
+51 %). Per repetition and measure: OTD's gain over the control in %, and the share of the achievable
gain it realised, (otd - control) / (ceiling - control), undefined when the ceiling did not beat the
control. Across repetitions: n, median, min-max and 95 % intervals (stats.summarize). The machine's load
is recorded at the start and end of every run; a run first waits (bounded) for the load left by the one
before to drop, and one that still starts busy is flagged (busy_start), not repeated. Pure summary
(summarize_runs, measured); the adapter is run_ab.

`--part comm` runs the communication experiment the same way (runner.comm_experiment: the plain word
count on netns nodes whose links are shaped): OTD against the no-move control only (no ceiling: the
fewest inter-node tuples is all on one node, which OTD reaches by emptying a node), each run measured
over the second half of its phase (after OTD's moves), with the inter-node share as the headline,
beside throughput, latency p50 and the worker-CPU imbalance that consolidation costs."""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pycontrol.bench import stats
from pycontrol.bench.migration import machine
from pycontrol.bench.otd import controlled, runner
from pycontrol.bench.otd.live import CLUSTER_CONF, cluster_session, run_on_cluster, wait_topology_gone
from pycontrol.bench.order import rotated
from pycontrol.cluster.spec import cpus_per_node, make_spec
from pycontrol.errors import UserError

KINDS = ("otd", "control", "ceiling")
BALANCED = "split"
COMM_LINK = "2mbit"     # the comm experiment's shaped links (pycontrol bench otd's default)


@dataclass(frozen=True)
class Design:
    """One experiment the A/B repeats: its kinds of run, its measures (the first is the headline) and how
    much of each run's measured phase is left out before its windows count (OTD's moves first)."""
    part: str
    kinds: tuple[str, ...]
    measures: tuple[str, ...]
    labels: tuple[tuple[str, str], ...]
    skip_share: float = 0.0

    def label(self, measure: str) -> str:
        return dict(self.labels)[measure]


COMPUTE = Design("compute", KINDS, ("throughput", "worker_cpu_mean"),
                 (("throughput", "acked sentences/s"), ("worker_cpu_mean", "mean worker CPU, cores")))
COMM = Design("comm", ("otd", "control"), ("inter_node_share", "throughput", "latency_p50_ms", "worker_cpu_cv"),
              (("inter_node_share", "inter-node tuple share"), ("throughput", "acked sentences/s"),
               ("latency_p50_ms", "latency p50 (ms)"), ("worker_cpu_cv", "worker-CPU imbalance (CV)")),
              skip_share=0.5)
DESIGNS = {d.part: d for d in (COMPUTE, COMM)}


def design(part: str) -> Design:
    if part not in DESIGNS:
        raise UserError(f"--part must be one of {', '.join(DESIGNS)}, got '{part}'")
    return DESIGNS[part]


def order(repetition: int, part: str = "compute") -> list[str]:
    """Repetition i runs the design's kinds rotated by i."""
    return rotated(design(part).kinds, repetition)


def experiment(kind: str, warmup_s: float, phase_s: float, part: str = "compute"):
    if kind not in design(part).kinds:
        raise UserError(f"unknown run kind '{kind}' for --part {part} (one of {', '.join(design(part).kinds)})")
    if part == "comm":
        return runner.comm_experiment(runner.make_options(True, "comm", default_s=warmup_s, otd_s=phase_s,
                                                          control=kind == "control"))
    if kind == "otd":
        return controlled.controller_experiment("otd", warmup_s, phase_s)
    if kind == "control":
        return controlled.controller_experiment("plan-only", warmup_s, phase_s)
    return replace(controlled.controller_experiment("plan-only", warmup_s, phase_s), balance_component=BALANCED)


def realized_share(otd: float, control: float, ceiling: float) -> float | None:
    """(otd - control) / (ceiling - control); None when the ceiling did not beat the control (no gain
    was there to realise, or the runs were too noisy to say)."""
    room = ceiling - control
    return None if room <= 0 else (otd - control) / room


def summarize_runs(reps: Sequence[Mapping[str, float]]) -> dict:
    """reps: per repetition, kind -> one measure's median. Per repetition the gain and realised share; across
    repetitions each kind's, the gain's and the share's summary (n, median, min-max, intervals)."""
    if not reps:
        raise UserError("no repetition to summarize")
    per = []
    for r in reps:
        gain = None if not r["control"] else 100.0 * (r["otd"] - r["control"]) / r["control"]
        share = realized_share(r["otd"], r["control"], r["ceiling"]) if "ceiling" in r else None
        per.append({**r, "gain_pct": gain, "realized_share": share})

    def summary(key: str) -> dict | None:
        vals = [p[key] for p in per if p[key] is not None]
        return stats.summarize(vals).as_dict() if vals else None
    kinds = [k for k in KINDS if k in reps[0]]
    return {"repetitions": per, "summary": {key: summary(key) for key in (*kinds, "gain_pct", "realized_share")},
            "share_undefined_in": sum(p["realized_share"] is None for p in per) if "ceiling" in kinds else 0}


def summary_lines(doc: Mapping, what: str = "acked sentences/s") -> list[str]:
    s = doc["summary"]

    def fmt(key: str, unit: str = "") -> str:
        x = s.get(key)
        if x is None:
            return f"{key}: undefined in every repetition"
        return f"{key}: median {x['median']:.4g}{unit} [{x['min']:.4g}-{x['max']:.4g}] (n = {x['n']})"
    kinds = [k for k in KINDS if k in s]
    against = "control vs balanced ceiling" if "ceiling" in kinds else "no-move control"
    lines = [f"OTD vs {against}, {what} (medians of 10 s windows), "
             f"n = {len(doc['repetitions'])} repetitions, [min-max]:"]
    lines += ["  " + fmt(k) for k in kinds] + ["  " + fmt("gain_pct", " %")]
    if "ceiling" in kinds:
        lines.append("  " + fmt("realized_share"))
    if doc["share_undefined_in"]:
        lines.append(f"  the ceiling did not beat the control in {doc['share_undefined_in']} repetition(s): "
                     f"no realised share there")
    return lines


def _median_of_windows(windows: Sequence[Mapping], measure: str) -> float:
    vals = [w[measure] for w in windows if w.get(measure) is not None]
    if not vals:
        raise UserError(f"a run had no measured window with {measure}")
    return statistics.median(vals)


def measured(data, phase_s: float, node_cpus: Mapping[str, int],
             d: Design = COMPUTE) -> tuple[list[dict], dict[str, float]]:
    """One run's windows over its measured phase (from the design's skip on) and the median of each of its
    measures over them."""
    windows = [w for w in controlled._run_windows(data, phase_s, node_cpus)
               if w["offset_s"] >= d.skip_share * phase_s - 1e-9]
    return windows, {m: _median_of_windows(windows, m) for m in d.measures}


def cluster(d: Design, home: Path, port_base: int):
    """compute: the demo's pinned cluster (nodes of 1 and 3 slots, a CPU each); comm: two netns nodes of 4
    slots whose links are shaped (as `pycontrol bench otd`'s comm part)."""
    if d.part == "comm":
        spec = make_spec(home, nodes=2, slots=4, port_base=port_base, extra_conf=CLUSTER_CONF, network="netns",
                         link_bandwidth=COMM_LINK)
        return spec, {"nodes": 2, "slots": 4, "network": "netns", "link_bandwidth": COMM_LINK}, {}
    pins = cpus_per_node(2, sorted(os.sched_getaffinity(0)))
    spec = make_spec(home, nodes=2, node_slots=controlled.NODE_SLOTS, node_cpus=pins, port_base=port_base,
                     extra_conf=controlled.CLUSTER_CONF)
    node_cpus = {n.host: len(c) for n, c in zip(spec.node_specs, pins)}
    return spec, {"node_slots": list(controlled.NODE_SLOTS), "node_cpus": [list(c) for c in pins]}, node_cpus


def run_ab(home: Path, out: Path, echo: Callable[[str], None], *, port_base: int, warmup_s: float,
           phase_s: float, repeat: int, part: str = "compute") -> dict:
    """n = repeat repetitions of the design's kinds on one cluster; writes out (JSON)."""
    if repeat < 1:
        raise UserError(f"--repeat must be at least 1, got {repeat}")
    d = design(part)
    experiment("otd", warmup_s, phase_s, part)          # the lengths are checked before any cluster starts
    spec, cluster_doc, node_cpus = cluster(d, home, port_base)
    runs, reps = [], {m: [] for m in d.measures}
    started = time.time()
    with cluster_session(spec, echo):
        for i in range(repeat):
            medians = {m: {} for m in d.measures}
            for kind in order(i, part):
                echo(f"repetition {i + 1} of {repeat}: {kind}")
                load_start, waited = machine.wait_quiet()   # the last run's topology leaves load behind
                if load_start["busy"]:
                    echo(f"  starts on a busy machine (1-min load {load_start['loadavg'][0]}): flagged busy_start")
                exp = experiment(kind, warmup_s, phase_s, part)
                data = run_on_cluster(spec, exp, echo)
                wait_topology_gone(spec, exp.topology)
                windows, of_run = measured(data, phase_s, node_cpus, d)
                for m in d.measures:
                    medians[m][kind] = of_run[m]
                runs.append({"repetition": i + 1, "kind": kind, **{f"median_{m}": of_run[m] for m in d.measures},
                             "moves_made": len(data.moves), "initial_moves": data.initial_moves,
                             "windows": windows, "machine_start": load_start, "machine_end": machine.now(),
                             "busy_start": load_start["busy"], "waited_for_quiet_s": waited,
                             "topology_id": data.topology_id})
            for m in d.measures:
                reps[m].append(medians[m])
    doc = {"benchmark": "otd-ab", "part": part, "started": started, "finished": time.time(), "repeat": repeat,
           "warmup_s": warmup_s, "phase_s": phase_s, "measured_from_s": d.skip_share * phase_s,
           "settings": list(exp.settings), "cluster": cluster_doc,
           "measures": list(d.measures), "labels": dict(d.labels),
           "command": f"pycontrol bench otd-ab --part {part} --repeat {repeat} --warmup {warmup_s:g} "
                      f"--duration {phase_s:g}",
           "busy_start_runs": sum(r["busy_start"] for r in runs),
           **summarize_runs(reps[d.measures[0]]), **{m: summarize_runs(reps[m]) for m in d.measures[1:]},
           "runs": runs}
    if part == "compute":
        doc["offered_rate"] = controlled.RATE
    doc["summary_lines"] = [line for m in d.measures
                            for line in summary_lines(doc if m == d.measures[0] else doc[m], d.label(m))]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2))
    return doc
