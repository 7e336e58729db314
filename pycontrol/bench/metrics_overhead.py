"""What the metrics hook and the live model cost.

The logic of `benchmarks/metrics_overhead.py`, which parses the command line and calls `main`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

import psutil

from pycontrol.paths import REPO_ROOT as REPO
from pycontrol.cluster import ui_token
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.manager import State
from pycontrol.bench import hook_overhead
from pycontrol.bench.migration import machine
from pycontrol.storm import rest_info
from pycontrol.metrics.prometheus import Snapshot, families
from pycontrol.wire.executor import ExecutorId
from pycontrol.wire.metrics_document import SCHEMA, parse_document
from pycontrol.model.diagnose import report
from pycontrol.model.live import build_model
from pycontrol.storm import submit
from pycontrol.storm.rest import RestError, StormRest


# --- part 2: the model ----------------------------------------------------------------------------

def synthetic_round(executors: int = 1000, components: int = 10, workers: int = 50, nodes: int = 10,
                    fanout: int = 10, seed: int = 7) -> tuple[rest_info.TopologyInfo, list[str], int]:
    """A chain of `components` components with executors/components executors each (one task per
    executor), spread round-robin over workers and nodes; each executor sends to `fanout` random
    executors of the next component. Returns the REST view, the workers' documents (JSON text) and
    the number of pairs."""
    rnd = random.Random(seed)
    per = executors // components
    tasks = {c: list(range(1 + c * per, 1 + (c + 1) * per)) for c in range(components)}
    worker_of = {t: t % workers for c in tasks for t in tasks[c]}
    host = [f"10.0.0.{1 + w % nodes}" for w in range(workers)]
    port = [6700 + w // nodes for w in range(workers)]
    comps = [{"id": f"c{c}", "type": "spout" if c == 0 else "bolt", "tasks": tasks[c],
              "inputs": [] if c == 0 else [{"component": f"c{c - 1}", "stream": "default",
                                            "grouping": "fields", "fields": ["key"]}]}
             for c in range(components)]
    docs = {w: {"schema": SCHEMA, "version": 1, "topology_id": "synthetic-1-1",
                "worker": {"host": host[w], "port": port[w], "pid": 1000 + w, "started_at_ms": 0, "cpu_cores": 0.5},
                "window": {"end_ms": 1_000_000, "seconds": 5.0, "seq": 3, "period_s": 5},
                "node": {"cpu_count": 8, "cpu_mhz": 2600.0, "cpu_busy_cores": 3.5,
                         "net": [{"interface": "eth0", "rx_bytes_per_s": 1e6, "tx_bytes_per_s": 1e6}]},
                "executors": [], "traffic": [], "components": comps} for w in range(workers)}
    pairs = 0
    for c in range(components):
        for t in tasks[c]:
            d = docs[worker_of[t]]
            d["executors"].append({"id": [t, t], "component": f"c{c}", "tasks": [t],
                                   "cpu_cores": round(rnd.random(), 4), "child_processes": 0, "child_cpu_cores": 0.0,
                                   "queue_length": rnd.randrange(100), "queue_capacity": 32768,
                                   "emitted_per_s": 100.0, "executed_per_s": 100.0})
            if c + 1 < components:
                for dst in sorted(rnd.sample(tasks[c + 1], fanout)):
                    n = rnd.randrange(1, 1000)
                    d["traffic"].append({"src_task": t, "dst_task": dst, "tuples": n, "tuples_per_s": n / 5.0})
                    pairs += 1
    places = tuple(rest_info.ExecutorPlace(ExecutorId(t, t), f"c{c}", host[worker_of[t]], port[worker_of[t]])
                   for c in tasks for t in tasks[c])
    info = rest_info.TopologyInfo("synthetic-1-1", "synthetic", "ACTIVE", 60,
                                  tuple(f"{host[w]}:{port[w]}" for w in range(workers)),
                                  {f"c{c}": rest_info.ComponentInfo(f"c{c}", comps[c]["type"], per, per)
                                   for c in range(components)}, places)
    return info, [json.dumps(d) for d in docs.values()], pairs


def bench_model(repeats: int = 7) -> dict:
    info, texts, pairs = synthetic_round()
    # CPU time of this process is the cost; wall time is also reported (it includes whatever else
    # the machine runs, which on a shared box can be many times more).
    runs = []
    for _ in range(repeats):
        w0, t0 = time.perf_counter(), time.process_time()
        docs = {d.worker: d for d in (parse_document(t) for t in texts)}
        t1 = time.process_time()
        model = build_model(info, docs, now_ms=1_001_000)
        t2 = time.process_time()
        report(model)
        t3 = time.process_time()
        sum(len(f.samples) for f in families(Snapshot([model], rest_up=True, zk_up=True)))
        t4 = time.process_time()
        runs.append({"parse_cpu_s": t1 - t0, "build_cpu_s": t2 - t1, "report_cpu_s": t3 - t2,
                     "prometheus_cpu_s": t4 - t3, "total_cpu_s": t4 - t0, "total_wall_s": time.perf_counter() - w0})
    med = {k: round(statistics.median(r[k] for r in runs), 4) for k in runs[0]}
    return {"executors": model.executors.number_of_nodes(), "workers": len(model.workers),
            "nodes": len(model.nodes), "pairs": pairs, "document_bytes": sum(len(t) for t in texts),
            "repeats": repeats, "median": med, "max_total_cpu_s": round(max(r["total_cpu_s"] for r in runs), 4),
            "target_total_s": 1.0, "meets_target": med["total_cpu_s"] < 1.0}


# --- part 1: the hook -----------------------------------------------------------------------------

def _emitted(rest: StormRest, topo_id: str) -> int | None:
    try:
        for s in rest.topology(topo_id, window=":all-time").get("spouts", []):
            if s.get("spoutId") == "keys":
                return int(s.get("emitted") or 0)
    except RestError:
        return None
    return None


def _next_report(rest: StormRest, topo_id: str, after: int | None, timeout_s: float = 60) -> tuple[float, int]:
    """(time, value) of the first observed change of the spout's emitted count: executor stats arrive
    every few seconds, so timing the change (polled every 0.25 s) times the value."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        v = _emitted(rest, topo_id)
        if v is not None and v != after and v > 0:
            return time.monotonic(), v
        time.sleep(0.25)
    raise SystemExit(f"no stats from {topo_id} within {timeout_s:.0f} s")


SETTINGS = ["workload.rate=0", "workload.busy=2", "workload.idle=2", "topology.acker.executors=0"]


def _submit(rest: StormRest, conf_dir: Path, name: str, hook: bool, workers: int, work_us: int) -> str:
    settings = SETTINGS + [f"workload.busy.work.us={work_us}", f"topology.workers={workers}"] + (
        [] if hook else ["topology.auto.task.hooks=[]"])
    submit.submit_java("keyed", name, settings, conf_dir)
    deadline = time.monotonic() + 300
    while (topo_id := rest.topology_id(name)) is None:
        if time.monotonic() > deadline:
            raise SystemExit(f"{name} not listed")
        time.sleep(1)
    return topo_id


def _kill(rest: StormRest, names: list[str]) -> None:
    for n in names:
        if (topo_id := rest.topology_id(n)) is not None:
            rest.kill(topo_id, 0)
    deadline = time.monotonic() + 120
    while any(rest.topology_id(n) is not None for n in names) and time.monotonic() < deadline:
        time.sleep(1)


def _worker_cpu_s(topo_id: str) -> float:
    """CPU seconds used so far by the topology's worker JVMs on this machine."""
    total = 0.0
    for p in psutil.process_iter(["cmdline"]):
        cmd = p.info["cmdline"] or []
        # the worker JVM, not the LogWriter that launched it (whose arguments hold the worker's command)
        if f"-Dstorm.id={topo_id}" in cmd and cmd and "org.apache.storm.LogWriter" not in cmd:
            try:
                t = p.cpu_times()
                total += t.user + t.system
            except psutil.Error:
                pass
    return total


def _measure(rest: StormRest, topo_ids: dict[str, str], measure_s: float) -> dict[str, tuple[float, int, float]]:
    """(seconds, emits, worker CPU seconds) of each topology over (about) the same `measure_s` window.
    CPU per tuple does not depend on how the machine's CPU was shared, throughput does."""
    start = {n: (*_next_report(rest, t, _emitted(rest, t)), _worker_cpu_s(t)) for n, t in topo_ids.items()}
    time.sleep(measure_s)
    end = {n: (*_next_report(rest, t, _emitted(rest, t)), _worker_cpu_s(t)) for n, t in topo_ids.items()}
    return {n: (end[n][0] - start[n][0], end[n][1] - start[n][1], end[n][2] - start[n][2]) for n in topo_ids}


def bench_hook(home: Path, rounds: int, workers: int, warmup_s: float, measure_s: float, mode: str,
               work_us: int) -> dict:
    state = State.load(Layout(home))
    if state is None:
        raise SystemExit(f"no running cluster in {home}: start one with `pycontrol cluster up --home {home}`")
    rest = ui_token.rest_client(state.spec)  # kills need the cluster's UI token
    conf_dir = Layout(home).control_conf_dir
    load_at_start = list(os.getloadavg())
    phases = []
    for r in range(rounds):
        # Alternate which variant goes first, so neither is favoured by submission order or load drift.
        order = (True, False) if r % 2 == 0 else (False, True)
        names = {hook: f"bench-{'hook' if hook else 'nohook'}-{r}" for hook in order}
        # concurrent: both run at once and share the machine, so whatever else runs on it hits both alike;
        # sequential: each runs alone.
        groups = [list(order)] if mode == "concurrent" else [[h] for h in order]
        for group in groups:
            # The machine around each measurement (load, CPU frequency); a busy start is flagged, not hidden.
            before = machine.now()
            try:
                ids = {names[h]: _submit(rest, conf_dir, names[h], h, workers, work_us) for h in group}
                for t in ids.values():
                    _next_report(rest, t, None, timeout_s=300)  # running
                time.sleep(warmup_s)
                for n, (secs, emitted, cpu) in _measure(rest, ids, measure_s).items():
                    p = {"round": r, "topology": n, "hook": n.startswith("bench-hook"), "seconds": round(secs, 2),
                         "emitted": emitted, "tuples_per_s": round(emitted / secs, 1),
                         "worker_cpu_s": round(cpu, 2), "cpu_ns_per_tuple": round(cpu * 1e9 / emitted, 1),
                         "machine_start": before, "machine_end": machine.now(), "busy_start": before["busy"]}
                    print(json.dumps(p), flush=True)
                    phases.append(p)
            finally:
                _kill(rest, [names[h] for h in group])
    on = [p["tuples_per_s"] for p in phases if p["hook"]]
    off = [p["tuples_per_s"] for p in phases if not p["hook"]]
    return {"workload": f"keyed flat out (rate 0, {work_us} us CPU per tuple in busy, no ackers): "
                        "spout -> busy(2) + idle(2), fields grouping", "work_us": work_us,
            "mode": mode, "workers_per_topology": workers, "warmup_s": warmup_s, "measure_s": measure_s,
            "load_avg_at_start": load_at_start, "load_avg_at_end": list(os.getloadavg()), "phases": phases, "with_hook_tuples_per_s": round(statistics.mean(on), 1),
            "without_hook_tuples_per_s": round(statistics.mean(off), 1),
            **hook_overhead.analyse(phases)}


def main(a: argparse.Namespace, work: list[int]) -> None:
    began = time.monotonic()
    out: dict = {"command": " ".join(["benchmarks/metrics_overhead.py", *sys.argv[1:]]),
                 "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                 "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                             "load_avg_at_start": list(os.getloadavg())},
                 "model_round": bench_model()}
    print(json.dumps(out["model_round"]), flush=True)
    if not a.model_only:
        if a.home is None:
            raise SystemExit("--home is required for the hook part (or pass --model-only)")
        out["hook"] = [bench_hook(a.home.resolve(), a.rounds, a.workers, a.warmup, a.measure, a.mode, w)
                       for w in work]
        out["machine"]["load_avg_at_end"] = list(os.getloadavg())
    out["elapsed_s"] = round(time.monotonic() - began)
    path = REPO / "results" / f"{a.out}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {path}")
