"""Latency and traffic of a word count under each scheduler on a real cluster.

The logic of `benchmarks/scheduler_latency.py`, which parses the command line and calls `main`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from pycontrol.paths import REPO_ROOT as REPO
from pycontrol.bench import placement_latency
from pycontrol.bench.migration import machine
from pycontrol.bench.order import rotated
from pycontrol.bench.waiting import wait_for
from pycontrol.cluster import manager
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.secrets import cluster_zk_auth
from pycontrol.cluster.spec import make_spec
from pycontrol.errors import UserError
from pycontrol.storm.rest import StormRest
from pycontrol.workloads import locate, series
from pycontrol.workloads.submit import submit_workload
from pycontrol.zk import connect

SHAPE = ["topology.workers=2", "workload.par.split=4", "workload.par.count=8"]


def log(msg: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {msg}", flush=True)


def placement(rest: StormRest, topo_id: str) -> dict[str, str]:
    """executor id -> host:port, from the UI REST API."""
    out = {}
    t = rest.topology(topo_id)
    for kind in ("spouts", "bolts"):
        for c in t.get(kind, []):
            cid = c.get("spoutId") or c.get("boltId")
            for e in rest.component(topo_id, cid).get("executorStats", []):
                out[e["id"]] = f"{e['host']}:{e['port']}"
    return out


def decision(zk_hosts: str, name: str, home: Path) -> dict | None:
    zk = connect(zk_hosts, auth=cluster_zk_auth(home))
    try:
        path = f"/nonstop/decisions/{name}"
        if not zk.exists(path):
            return None
        return json.loads(zk.get(path)[0] or b"null")
    except ValueError:
        return None
    finally:
        zk.stop()


def inter_node_share(home: Path, name: str) -> float | None:
    out = subprocess.run([str(REPO / ".venv/bin/pycontrol"), "inspect", name, "--json", "--home", str(home),
                          "--wait", "20"], capture_output=True, text=True)
    if out.returncode != 0:
        log(f"inspect failed: {out.stderr.strip()[-300:]}")
        return None
    return json.loads(out.stdout).get("inter_node_share")


def wait_stable(rest: StormRest, topo_id: str, seconds: float, timeout: float) -> dict[str, str]:
    """Until the placement has not changed for `seconds`."""
    deadline = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        try:
            now = placement(rest, topo_id)
        except Exception:  # noqa: BLE001 - the UI answers 500 while a topology starts
            now = None
        if now != last:
            last, since = now, time.monotonic()
        elif now and time.monotonic() - since >= seconds:
            return now
        time.sleep(2)
    raise SystemExit(f"placement of {topo_id} did not settle within {timeout:.0f} s")


def run_one(args, layout: Layout, rest: StormRest, zk_hosts: str, scheduler: str) -> dict:
    name = f"lat-{scheduler}"
    settings = [f"workload.rate={args.rate:g}", "topology.message.timeout.secs=120", *SHAPE, *args.set]
    if scheduler != "default":
        settings.append(f"nonstop.scheduler={scheduler}")
    if scheduler == "aniello-online":
        settings += [f"nonstop.aniello.period.secs={args.online_period}", "nonstop.aniello.improvement.percent=10"]
    submit_workload("wordcount-java", name, settings, layout.control_conf_dir)
    topo_id = wait_for(f"{name} listed", lambda: rest.topology_id(name), 300)
    try:
        first = wait_stable(rest, topo_id, 10, 300)
        log(f"{name}: initial placement {sorted(set(first.values()))}")
        if scheduler == "aniello-online":
            # Traffic-based: it needs measurements, then decides every period.
            end = time.monotonic() + 3 * args.online_period + 30
            while time.monotonic() < end:
                d = decision(zk_hosts, name, layout.home)
                if d and d.get("status") == "applied" and d.get("moves"):
                    log(f"{name}: decision {d.get('reason')}")
                    break
                time.sleep(3)
            wait_stable(rest, topo_id, 10, 300)
        time.sleep(args.warmup)
        t0 = time.time()
        time.sleep(args.measure)
        rows = [r for r in series.read_series(locate.artifact_dirs(layout.logs, topo_id)) if t0 <= r.ts < t0 + args.measure]
        share = inter_node_share(layout.home, name)
        final = placement(rest, topo_id)
        lat = [r for r in rows if r.latency_n > 0]
        result = {
            "scheduler": scheduler, "topology_id": topo_id, "seconds": len(rows),
            "acked_per_s": round(sum(r.acked for r in rows) / max(1, len(rows)), 1),
            "failed": sum(r.failed for r in rows),
            "latency_ms": {
                "p50_of_seconds": round(statistics.median(r.latency_p50_ms for r in lat), 2) if lat else None,
                "mean": round(sum(r.latency_mean_ms * r.latency_n for r in lat) / sum(r.latency_n for r in lat), 2)
                if lat else None,
                "p99_of_seconds_max": round(max(r.latency_p99_ms for r in lat), 2) if lat else None,
            },
            "inter_node_share": share,
            "workers": sorted(set(final.values())),
            "decision": decision(zk_hosts, name, layout.home),
        }
        log(f"{name}: {json.dumps({k: v for k, v in result.items() if k != 'decision'})}")
        return result
    finally:
        rest.kill(topo_id, 0)
        while rest.topology_id(name) is not None:
            time.sleep(1)


def run_repetition(args, rep: int, schedulers: list[str], busy_start: bool) -> list[dict]:
    """One fresh cluster, every scheduler once in this repetition's rotated order, each run with the
    machine's records at its start and end; the cluster goes down at the end whatever happened."""
    spec = make_spec(Path(args.home), nodes=2, slots=4, network="netns", link_bandwidth=args.bandwidth,
                     port_base=args.port_base)
    manager.up(spec, timeout_s=300, echo=log)
    layout, rest = Layout(spec.home), StormRest(spec.ui_url)
    runs = []
    try:
        for position, s in enumerate(rotated(schedulers, rep)):
            log(f"repetition {rep + 1}: running under {s}")
            before = machine.now()
            r = run_one(args, layout, rest, f"{spec.control_host}:{spec.zk_port}", s)
            r.update(repetition=rep, position=position, busy_start=busy_start,
                     machine={"start": before, "end": machine.now()})
            runs.append(r)
    finally:
        if not (args.keep_cluster and rep == args.repeat - 1):
            log(manager.down(spec.home))
    return runs


def main(args: argparse.Namespace) -> None:
    """`--repeat` repetitions on a fresh cluster each, the schedulers' order rotated by one between them
    (so default does not always run first); a repetition that starts on a busy machine (after a bounded
    wait) is flagged and run once more. The JSON is rewritten after every repetition."""
    schedulers = args.schedulers.split(",")
    started, load_before = time.time(), os.getloadavg()
    runs: list[dict] = []
    failures: list[dict] = []
    queue = [(rep, False) for rep in range(args.repeat)]
    while queue:
        rep, again = queue.pop(0)
        start, waited = machine.wait_quiet()
        if start["busy"]:
            log(f"repetition {rep + 1} starts on a busy machine (1-min load {start['loadavg'][0]})")
        try:
            done = run_repetition(args, rep, schedulers, start["busy"])
        except (SystemExit, UserError, RuntimeError, OSError) as e:   # recorded; the other repetitions go on
            log(f"repetition {rep + 1} FAILED: {e}")
            failures.append({"repetition": rep, "error": str(e)})
            continue
        for r in done:
            r["repeat_of_busy"] = again
        runs.extend(done)
        if start["busy"] and not again:
            queue.insert(0, (rep, True))
        write(args, runs, failures, started, load_before)
    write(args, runs, failures, started, load_before)


def write(args, runs: list[dict], failures: list[dict], started: float, load_before) -> None:
    base = {(r["repetition"], r.get("repeat_of_busy")): r for r in runs if r["scheduler"] == "default"}
    for r in runs:
        b = base.get((r["repetition"], r.get("repeat_of_busy")))
        if b is not None:
            r["latency_mean_lower_than_default"] = placement_latency.lower_by(r["latency_ms"]["mean"], b["latency_ms"]["mean"])
    out = {
        "benchmark": "word count (Java) end-to-end latency by scheduler, 2 nodes x 4 slots, shaped inter-node links",
        "command": " ".join(["benchmarks/scheduler_latency.py", *sys.argv[1:]]),
        "when": datetime.fromtimestamp(started, timezone.utc).isoformat(timespec="seconds"),
        "elapsed_s": round(time.time() - started),
        "machine": {"cpus": os.cpu_count(), "loadavg_before": [round(x, 2) for x in load_before],
                    "loadavg_after": [round(x, 2) for x in os.getloadavg()]},
        "shape": SHAPE, "rate_sentences_per_s": args.rate, "link_bandwidth": args.bandwidth,
        "warmup_s": args.warmup, "measure_s": args.measure, "repeat": args.repeat,
        "order": "each repetition on a fresh cluster, the schedulers rotated by one between repetitions",
        "results": runs, "failures": failures,
        "summary": placement_latency.summarize(runs),
        "target": "aniello-online latency at least 20 % lower than default",
    }
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n")
    log(f"wrote {path}")
