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
(summarize_runs, measured); the adapter is run_ab."""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from pycontrol.bench import stats
from pycontrol.bench.migration import machine
from pycontrol.bench.otd import controlled
from pycontrol.bench.otd.live import cluster_session, run_on_cluster, wait_topology_gone
from pycontrol.bench.order import rotated
from pycontrol.cluster.spec import cpus_per_node, make_spec
from pycontrol.errors import UserError

KINDS = ("otd", "control", "ceiling")
BALANCED = "split"


def order(repetition: int) -> list[str]:
    """Repetition i runs KINDS rotated by i."""
    return rotated(KINDS, repetition)


def experiment(kind: str, warmup_s: float, phase_s: float):
    if kind == "otd":
        return controlled.controller_experiment("otd", warmup_s, phase_s)
    if kind == "control":
        return controlled.controller_experiment("plan-only", warmup_s, phase_s)
    if kind == "ceiling":
        return replace(controlled.controller_experiment("plan-only", warmup_s, phase_s), balance_component=BALANCED)
    raise UserError(f"unknown run kind '{kind}' (one of {', '.join(KINDS)})")


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
        per.append({**{k: r[k] for k in KINDS}, "gain_pct": gain,
                    "realized_share": realized_share(r["otd"], r["control"], r["ceiling"])})

    def summary(key: str) -> dict | None:
        vals = [p[key] for p in per if p[key] is not None]
        return stats.summarize(vals).as_dict() if vals else None
    return {"repetitions": per, "summary": {key: summary(key) for key in (*KINDS, "gain_pct", "realized_share")},
            "share_undefined_in": sum(p["realized_share"] is None for p in per)}


def summary_lines(doc: Mapping, what: str = "acked sentences/s") -> list[str]:
    s = doc["summary"]

    def fmt(key: str, unit: str = "") -> str:
        x = s[key]
        if x is None:
            return f"{key}: undefined in every repetition"
        return f"{key}: median {x['median']:.4g}{unit} [{x['min']:.4g}-{x['max']:.4g}] (n = {x['n']})"
    lines = [f"OTD vs control vs balanced ceiling, {what} (medians of 10 s windows), "
             f"n = {len(doc['repetitions'])} repetitions, [min-max]:"]
    lines += ["  " + fmt(k) for k in KINDS] + ["  " + fmt("gain_pct", " %"), "  " + fmt("realized_share")]
    if doc["share_undefined_in"]:
        lines.append(f"  the ceiling did not beat the control in {doc['share_undefined_in']} repetition(s): "
                     f"no realised share there")
    return lines


MEASURES = ("throughput", "worker_cpu_mean")


def _median_of_windows(windows: Sequence[Mapping], measure: str) -> float:
    vals = [w[measure] for w in windows if w.get(measure) is not None]
    if not vals:
        raise UserError(f"a run had no measured window with {measure}")
    return statistics.median(vals)


def measured(data, phase_s: float, node_cpus: Mapping[str, int]) -> tuple[list[dict], dict[str, float]]:
    """One run's windows over its measured phase and the median of each of MEASURES over them."""
    windows = controlled._run_windows(data, phase_s, node_cpus)
    return windows, {m: _median_of_windows(windows, m) for m in MEASURES}


def run_ab(home: Path, out: Path, echo: Callable[[str], None], *, port_base: int, warmup_s: float,
           phase_s: float, repeat: int) -> dict:
    """n = repeat repetitions of (otd, control, ceiling) on one pinned cluster; writes out (JSON)."""
    if repeat < 1:
        raise UserError(f"--repeat must be at least 1, got {repeat}")
    pins = cpus_per_node(2, sorted(os.sched_getaffinity(0)))
    spec = make_spec(home, nodes=2, node_slots=controlled.NODE_SLOTS, node_cpus=pins, port_base=port_base,
                     extra_conf=controlled.CLUSTER_CONF)
    node_cpus = {n.host: len(c) for n, c in zip(spec.node_specs, pins)}
    runs, reps = [], {m: [] for m in MEASURES}
    started = time.time()
    with cluster_session(spec, echo):
        for i in range(repeat):
            medians = {m: {} for m in MEASURES}
            for kind in order(i):
                echo(f"repetition {i + 1} of {repeat}: {kind}")
                load_start, waited = machine.wait_quiet()   # the last run's topology leaves load behind
                if load_start["busy"]:
                    echo(f"  starts on a busy machine (1-min load {load_start['loadavg'][0]}): flagged busy_start")
                data = run_on_cluster(spec, experiment(kind, warmup_s, phase_s), echo)
                wait_topology_gone(spec, controlled.TOPOLOGY)
                windows, of_run = measured(data, phase_s, node_cpus)
                for m in MEASURES:
                    medians[m][kind] = of_run[m]
                runs.append({"repetition": i + 1, "kind": kind, "median_acked_per_s": medians["throughput"][kind],
                             "median_worker_cpu_mean": medians["worker_cpu_mean"][kind],
                             "moves_made": len(data.moves), "initial_moves": data.initial_moves,
                             "windows": windows, "machine_start": load_start, "machine_end": machine.now(),
                             "busy_start": load_start["busy"], "waited_for_quiet_s": waited,
                             "topology_id": data.topology_id})
            for m in MEASURES:
                reps[m].append(medians[m])
    doc = {"benchmark": "otd-ab", "started": started, "finished": time.time(), "repeat": repeat,
           "warmup_s": warmup_s, "phase_s": phase_s, "offered_rate": controlled.RATE,
           "settings": list(controlled.SETTINGS), "cluster": {"node_slots": list(controlled.NODE_SLOTS),
                                                                "node_cpus": [list(c) for c in pins]},
           "command": f"pycontrol bench otd-ab --repeat {repeat} --warmup {warmup_s:g} --duration {phase_s:g}",
           "busy_start_runs": sum(r["busy_start"] for r in runs),
           **summarize_runs(reps["throughput"]), "worker_cpu_mean": summarize_runs(reps["worker_cpu_mean"]),
           "runs": runs}
    doc["summary_lines"] = summary_lines(doc) + summary_lines(doc["worker_cpu_mean"], "mean worker CPU, cores")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2))
    return doc
