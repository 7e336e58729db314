"""The sizing mappers compared on a real cluster.

The logic of `benchmarks/sizing_compare.py`, which parses the command line and calls `main`.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pycontrol.paths import REPO_ROOT as REPO
from pycontrol import zk
from pycontrol.cluster import manager
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.secrets import cluster_zk_auth
from pycontrol.cluster.spec import make_spec
from pycontrol.profiling.harness import machine_facts
from pycontrol.profiling.running import RunningTopology
from pycontrol.profiling.sweep import SearchSettings, find_peak_rate
from pycontrol.profiling.trials import ProfilingError, RateFile, TrialRunner, TrialSettings
from pycontrol.sizing import deploy
from pycontrol.sizing.allocate import Allocation, allocate
from pycontrol.sizing.dag import Dag, load_dag
from pycontrol.sizing.evaluate import allocations_differ, distinct, r2_fit, r2_identity, shortfall
from pycontrol.sizing.models import ModelSet, load_models, model_catalog
from pycontrol.sizing.predict import Placement, predict
from pycontrol.storm.rest import StormRest

MEASURED = REPO / "pycontrol" / "sizing" / "data" / "measured" / "micro_tasks.yaml"
OUT = REPO / "results" / "sizing"
TOPOLOGY = {"linear": "micro-linear-py", "diamond": "micro-diamond-py", "star": "micro-star-py"}
PAIRS = {"mba+sam": ("mba", "sam"), "lsa+rsm": ("lsa", "rsm"), "lsa+dsm": ("lsa", "dsm")}
# Workers on a busy 2-core machine can take minutes to start; Storm's 120 s would restart them.
SLOW_START = {"nimbus.task.launch.secs": 1800, "supervisor.worker.start.timeout.secs": 1800}


def log(msg: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {msg}", flush=True)


def measured_settings(path: Path) -> tuple[list[str], float | None]:
    """The harness settings the models were measured with (applied to the DAG runs too) and the slot
    memory quantum (MB) their memory fractions refer to."""
    import yaml
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    settings: list[str] = []
    slot_mb = None
    for m in (doc.get("measurements") or {}).values():
        s = m.get("settings") or {}
        settings.extend(x for x in s.get("topology_settings") or [] if x not in settings)
        slot_mb = slot_mb or s.get("slot_memory_mb")
    return settings, slot_mb


def placement_of(topo: RunningTopology, dag: Dag) -> tuple[Placement, int]:
    """The placement as the predictor takes it (DAG tasks per worker) and the number of workers used."""
    places = topo.wait_placed(0) + topo.acker_places()
    slots: dict[str, dict[str, int]] = {}
    node_of: dict[str, str] = {}
    names = {t.name for t in dag.tasks}
    for p in places:
        slot = f"{p.host}:{p.port}"
        node_of[slot] = p.host
        per = slots.setdefault(slot, {})
        if p.component in names:
            per[p.component] = per.get(p.component, 0) + 1
    return Placement.from_mapping(slots, node_of), len(slots)


def scheduler_decision(cluster: dict, name: str) -> dict | None:
    """What the nonstop scheduler (slot-aware or ras) recorded for the topology: "applied", or
    "fallback" when it failed and Storm's default placed it instead (then the run is not that mapper)."""
    client = zk.connect(cluster["zk"], auth=cluster["zk_auth"])
    try:
        found = zk.read_json(client, f"{zk.DECISIONS}/{name}.scheduler")
    finally:
        client.stop()
        client.close()
    return {"status": found[0].get("status"), "reason": found[0].get("reason")} if found else None


class Run:
    """One (DAG, Ω, pair): submitted at 1 t/s, then measured when its turn comes."""

    def __init__(self, args, cluster: dict, dag: Dag, omega: float, pair: str, allocation: Allocation,
                 models: ModelSet, extra: list[str], slot_mb: float, allocations_differ: bool):
        self.args, self.cluster, self.dag, self.omega, self.models = args, cluster, dag, omega, models
        self.allocation = allocation
        allocator, self.mapper = PAIRS[pair]
        self.name = f"sz-{dag.name}-{int(omega)}-{pair.replace('+', '-')}"
        self.rate_file = RateFile(Path(args.home) / f"{self.name}.rate")
        self.rate_file.set(1.0)
        common = ["workload.rate=1.0", f"workload.rate.schedule={self.rate_file.path}",
                  "topology.message.timeout.secs=300", *extra]
        component_conf = None
        if self.mapper == "sam":
            settings = deploy.sam_settings(allocation)
        elif self.mapper == "dsm":
            settings = deploy.dsm_settings(allocation)
        else:
            requests = deploy.ras_requests(allocation, models, {t.name: t.model for t in dag.tasks}, slot_mb)
            settings = deploy.rsm_settings(allocation, requests["source"], slot_mb)
            component_conf = {t: r for t, r in requests.items() if t != "source"}
        self.record: dict[str, Any] = {
            "dag": dag.name, "planned_rate": omega, "pair": pair, "allocator": allocator, "mapper": self.mapper,
            "threads": {t: a.threads for t, a in allocation.tasks.items()}, "allocated_slots": allocation.slots,
            "allocations_differ": allocations_differ,
            "allocated": {"cpu": round(allocation.cpu_total, 4), "memory": round(allocation.memory_total, 4)}}
        self.started = time.monotonic()
        log(f"{self.name}: submitting {allocation.total_threads} threads, ρ = {allocation.slots}")
        self.topo = RunningTopology.submit(cluster["rest"], cluster["conf_dir"], cluster["logs"], TOPOLOGY[dag.name],
                                           self.name, [*settings, *common], component_conf)
        self.runner: TrialRunner | None = None
        self.failure: ProfilingError | None = None

    def ready(self) -> None:
        """Waits until placed and steady at 1 t/s (a failure is kept for `measure` to record)."""
        try:
            self.topo.wait_placed(self.allocation.total_threads, timeout_s=self.args.start_timeout)
            self.runner = TrialRunner(self.topo.rows, self.rate_file, self.args.trials, log=log)
            self.runner.settle(1.0)
            self.record["startup_seconds"] = round(time.monotonic() - self.started, 1)
        except ProfilingError as e:
            self.failure = e

    def measure(self) -> dict[str, Any]:
        record, name, omega = self.record, self.name, self.omega
        try:
            if self.failure is not None:
                raise self.failure
            runner = self.runner
            record["base_latency_ms"] = round(runner.settle(1.0), 1)   # again: the base of now
            placement, used = placement_of(self.topo, self.dag)
            record["slots_used"] = used
            if self.mapper in ("sam", "rsm"):
                record[f"{self.mapper}_decision"] = scheduler_decision(self.cluster, name)
            record["placement"] = {s.slot: dict(s.threads) for s in placement.slots}
            for routing in ("fill", "shuffle"):
                p = predict(self.dag, self.models, placement, routing=routing)
                record[f"predicted_rate_{routing}"] = round(p.supported_rate, 3)
            log(f"{name}: {used} workers; predicted {record['predicted_rate_fill']} (fill), "
                f"{record['predicted_rate_shuffle']} (shuffle) t/s; base latency {record['base_latency_ms']} ms")
            begun = time.monotonic()
            search = find_peak_rate(runner.run, omega, self.args.search,
                                    deadline=begun + self.args.search_minutes * 60, clock=time.monotonic)
            peak = search.peak
            record["observed_rate"] = peak.rate if peak else 0.0
            record["stable_at_plan"] = next((t.stable for t in search.trials if abs(t.rate - omega) < 1e-6), None)
            record["shortfall"] = round(shortfall(omega, record["observed_rate"]), 4)
            record["search"] = search.to_dict()
            record["search_seconds"] = round(time.monotonic() - begun, 1)
        except ProfilingError as e:
            record["error"] = str(e)
            log(f"{name}: {e}")
        finally:
            self.topo.kill()
        record["seconds"] = round(time.monotonic() - self.started, 1)
        log(f"{name}: observed stable rate {record.get('observed_rate')} t/s (planned {omega:g})")
        return record


def batches(todo: list, slots: int) -> list[list]:
    """Runs submitted together (each idles at 1 t/s until measured; none is measured before all are
    up, since starting workers and Python processes would load the machine): as many as their
    ρ + 1 slots fit, so workers start once per batch. RSM runs go alone (RAS decides by the resources
    other topologies hold)."""
    out: list[list] = []
    used = 0
    alone = False
    for item in todo:
        need = item[3].slots + 1
        rsm = PAIRS[item[2]][1] == "rsm"
        if out and not rsm and not alone and used + need <= slots:
            out[-1].append(item)
            used += need
        else:
            out.append([item])
            used = need
            alone = rsm
    return out


def bring_up(args, slot_mb: float) -> tuple[Any, dict]:
    spec = make_spec(Path(args.home), nodes=args.nodes, slots=args.slots, port_base=args.port_base,
                     extra_conf={**SLOW_START, **deploy.ras_node_capacity(args.slots, slot_mb)})
    log(f"cluster: starting at {spec.home}")
    manager.up(spec, timeout_s=600, echo=log)
    layout = Layout(spec.home)
    return spec, {"rest": StormRest(spec.ui_url), "conf_dir": layout.control_conf_dir, "logs": layout.logs,
                  "zk": f"{spec.control_host}:{spec.zk_port}", "zk_auth": cluster_zk_auth(spec.home)}


def summarise(runs: list[dict]) -> dict[str, Any]:
    ok = [r for r in runs if "observed_rate" in r]
    out: dict[str, Any] = {"runs": len(runs), "measured": len(ok)}
    for routing in ("fill", "shuffle"):
        pred = [r[f"predicted_rate_{routing}"] for r in ok]
        obs = [r["observed_rate"] for r in ok]
        out[f"r2_fit_{routing}"] = r2_fit(pred, obs) if ok else None
        out[f"r2_identity_{routing}"] = r2_identity(pred, obs) if ok else None
        out[f"distinct_predictions_{routing}"] = distinct(pred)
    # An R² over runs whose allocations agree measures the mappers, not the allocators (issue: the
    # comparison was degenerate while every allocation was one slot).
    out["runs_where_allocations_differ"] = sum(1 for r in ok if r.get("allocations_differ"))
    per_pair = {}
    for pair in PAIRS:
        mine = [r for r in ok if r["pair"] == pair]
        if mine:
            per_pair[pair] = {"runs": len(mine),
                              "mean_allocated_slots": sum(r["allocated_slots"] for r in mine) / len(mine),
                              "mean_slots_used": sum(r["slots_used"] for r in mine) / len(mine),
                              "max_shortfall": max(r["shortfall"] for r in mine),
                              "mean_shortfall": sum(r["shortfall"] for r in mine) / len(mine)}
    out["per_pair"] = per_pair
    return out


def plot(doc: dict, path: Path) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    runs = [r for r in doc["runs"] if "observed_rate" in r]
    if not runs:
        return False
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    cases = sorted({(r["dag"], r["planned_rate"]) for r in runs})
    width = 0.8 / len(PAIRS)
    for i, pair in enumerate(PAIRS):
        xs, used, alloc = [], [], []
        for k, case in enumerate(cases):
            r = next((r for r in runs if (r["dag"], r["planned_rate"]) == case and r["pair"] == pair), None)
            if r:
                xs.append(k + i * width)
                used.append(r["slots_used"])
                alloc.append(r["allocated_slots"])
        ax1.bar(xs, used, width, label=f"{pair} used")
        ax1.scatter(xs, alloc, marker="_", s=200, color="black", zorder=3)
    ax1.set_xticks([k + width for k in range(len(cases))], [f"{d}@{w:g}" for d, w in cases])
    ax1.set_ylabel("slots (bars: used; ticks: allocated ρ)")
    ax1.legend(fontsize=8)
    for pair in PAIRS:
        mine = [r for r in runs if r["pair"] == pair]
        ax2.scatter([r["predicted_rate_shuffle"] for r in mine], [r["observed_rate"] for r in mine], label=pair)
    top = max(max(r["predicted_rate_shuffle"] for r in runs), max(r["observed_rate"] for r in runs)) * 1.1
    ax2.plot([0, top], [0, top], color="grey", lw=0.8)
    s = doc["summary"]
    r2 = s.get("r2_fit_shuffle")
    ax2.set_title(f"predicted (shuffle) vs observed rate; R² = {r2:.2f}" if r2 is not None else
                  "predicted (shuffle) vs observed rate")
    ax2.set_xlabel("predicted rate, t/s")
    ax2.set_ylabel("observed stable rate, t/s")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main(args: argparse.Namespace) -> None:
    if args.quick:
        args.dags, args.rates = "linear", "5,10"
        args.trial_secs, args.search_minutes = 15.0, 3.0
    args.trials = TrialSettings(trial_secs=args.trial_secs, warmup_secs=5.0, settle_timeout_secs=args.start_timeout)
    args.search = SearchSettings(growth=1.5, precision=args.precision, max_trials=8 if args.precision >= 0.1 else 10)

    if not args.models.is_file():
        raise SystemExit(f"{args.models} missing: build the task models first (pycontrol model build, see "
                         f"pycontrol/sizing/data/measured/README.md)")
    models = model_catalog(args.models)
    measured = sorted(load_models(args.models))
    dag_models = sorted({t.model for d in args.dags.split(",") for t in load_dag(d).tasks} - {"source", "sink"})
    from_paper = [m for m in dag_models if m not in measured]
    if from_paper:
        log(f"warning: no measured model for {', '.join(from_paper)}; the paper's values stand in")
    extra, slot_mb = measured_settings(args.models)
    cluster_slots = args.nodes * args.slots
    slot_mb = slot_mb or round(machine_facts()["memory_mb"] / cluster_slots)
    dags = [load_dag(d) for d in args.dags.split(",")]
    rates = [float(x) for x in args.rates.split(",")]
    pairs = args.pairs.split(",")

    plan, skipped, comparisons = [], [], []
    for dag in dags:
        for omega in rates:
            by_allocator = {PAIRS[p][0]: allocate(dag, models, omega, PAIRS[p][0]) for p in pairs}
            cmp = allocations_differ({n: {t: x.threads for t, x in a.tasks.items()} for n, a in by_allocator.items()},
                                     {n: a.slots for n, a in by_allocator.items()})
            comparisons.append({"dag": dag.name, "planned_rate": omega, **cmp})
            log(f"  {dag.name}@{omega:g}: allocators {'differ' if cmp['differ'] else 'agree'} "
                f"(slots {cmp['slots']}, threads differ in {cmp['threads_differ_in'] or 'no task'})")
            for pair in pairs:
                a = by_allocator[PAIRS[pair][0]]
                if a.slots > cluster_slots:
                    skipped.append({"dag": dag.name, "planned_rate": omega, "pair": pair, "allocated_slots": a.slots,
                                    "reason": f"needs {a.slots} slots, the cluster has {cluster_slots}"})
                else:
                    plan.append((dag, omega, pair, a, cmp["differ"]))
    log(f"{len(plan)} runs planned, {len(skipped)} skipped (do not fit)")
    for dag, omega, pair, a, _ in plan:
        log(f"  {dag.name}@{omega:g} {pair}: ρ = {a.slots}, threads {dict((t, x.threads) for t, x in a.tasks.items())}")
    for s_ in skipped:
        log(f"  skipped {s_['dag']}@{s_['planned_rate']:g} {s_['pair']}: {s_['reason']}")
    if args.dry_run:
        return
    # A plain `kill` ends the benchmark like Ctrl-C: the clusters are taken down on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    load_before = os.getloadavg()
    began = time.monotonic()
    runs: list[dict] = []
    args.out.mkdir(parents=True, exist_ok=True)
    out = args.out / ("sizing_compare_quick.json" if args.quick else "sizing_compare.json")

    def write(complete: bool) -> dict:
        """The results so far (rewritten after every run, so an interrupted benchmark keeps them)."""
        doc = {
            "benchmark": "MBA+SAM vs LSA+RSM vs LSA+DSM on the local cluster (seed 002 §8.4-8.5)",
            "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "quick": args.quick,
            "complete": complete,
            "wall_seconds": round(time.monotonic() - began, 1),
            "machine": {**machine_facts(), "loadavg_before": load_before},
            "cluster": {"nodes": args.nodes, "slots_per_node": args.slots, "slot_memory_mb": slot_mb},
            "models": str(args.models.relative_to(REPO) if args.models.is_relative_to(REPO) else args.models),
            "models_from_paper": from_paper,
            "topology_settings": extra,
            "criteria": {"trial_secs": args.trial_secs, "warmup_secs": args.trials.warmup_secs,
                         "max_latency_slope_ms_per_s": args.trials.max_slope_ms_per_s,
                         "min_rate_ratio": args.trials.min_rate_ratio,
                         "search": {"growth": args.search.growth, "precision": args.search.precision,
                                    "minutes": args.search_minutes}},
            "skipped": skipped,
            "allocations": comparisons,
            "runs": runs,
            "summary": summarise(runs),
        }
        out.write_text(json.dumps(doc, indent=1))
        return doc

    # SAM and DSM runs first (they share batches), then the RSM runs one by one.
    todo = sorted(plan, key=lambda p: PAIRS[p[2]][1] == "rsm")
    if todo:
        spec, cluster = bring_up(args, slot_mb)
        try:
            for batch in batches(todo, cluster_slots):
                submitted = [Run(args, cluster, dag, omega, pair, a, models, extra, slot_mb, differ)
                             for dag, omega, pair, a, differ in batch]
                for r in submitted:      # every worker of the batch up before any measurement
                    r.ready()
                for r in submitted:
                    runs.append(r.measure())
                    write(complete=False)
        finally:
            manager.down(spec.home)
    doc = write(complete=True)
    log(f"wrote {out}")
    if plot(doc, out.with_suffix(".png")):
        log(f"wrote {out.with_suffix('.png')}")
    log(f"summary: {json.dumps(doc['summary'])}")
