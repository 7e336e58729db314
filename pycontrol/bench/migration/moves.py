"""Live moves on a running cluster, one at a time.

The logic of `benchmarks/migration_moves.py`, which parses the command line and calls `main`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from pycontrol.paths import REPO_ROOT as REPO
from pycontrol import zk
from pycontrol.bench.migration import machine
from pycontrol.bench.waiting import wait_for
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.secrets import cluster_zk_auth
from pycontrol.cluster.manager import State
from pycontrol.migration.migrate import migrate
from pycontrol.migration.observe import wait_move_done, worker_pids
from pycontrol.storm import placement, submit
from pycontrol.storm.rest import StormRest



def main(a: argparse.Namespace) -> None:
    machine_start = machine.now()
    state = State.load(Layout(a.home.resolve()))
    if state is None:
        raise SystemExit(f"no cluster running from {a.home}")
    spec = state.spec
    rest = StormRest(spec.ui_url)
    total = int(a.rate * (a.moves * (a.gap + 12) + 30))
    submit.submit_java("relay", a.name, [f"workload.total={total}", f"workload.rate={a.rate}", "topology.workers=2",
                                         "topology.stats.sample.rate=1.0"], Layout(spec.home).control_conf_dir)
    topo_id = wait_for("topology listed", lambda: rest.topology_id(a.name), 60)
    client = zk.connect(f"{spec.control_host}:{spec.zk_port}", auth=cluster_zk_auth(spec.home))
    moves = []
    try:
        wait_for("executors on both nodes", lambda: len(placement.by_host(placement.placement(rest, topo_id))) == 2, 240)
        wait_for("tuples acked", lambda: placement.acked(rest, topo_id) > 0, 120)
        slots = {f"{p.host}:{p.port}" for p in placement.placement(rest, topo_id)}
        pids = worker_pids(spec, topo_id, slots)
        for i in range(a.moves):
            places = placement.placement(rest, topo_id)
            slots = sorted({f"{p.host}:{p.port}" for p in places})
            component = "relay" if i % 2 == 0 else "sink"
            source = slots[i // 2 % 2]
            target = next(s for s in slots if s != source)
            mover = next((p for p in places if p.component == component and f"{p.host}:{p.port}" == source), None)
            if mover is None:
                mover = next(p for p in places if p.component == component)
                source = f"{mover.host}:{mover.port}"
                target = next(s for s in slots if s != source)
            t0_ms = time.time() * 1000
            host, port = target.rsplit(":", 1)
            r = migrate(client, rest, a.name, mover.executor, (host, int(port)), wait=True, timeout_s=120)
            tl = wait_move_done(spec, mover.executor, source, target, t0_ms, 120)
            moves.append({"executor": str(mover.executor), "component": component, "from": source, "to": target,
                          "decision": r.decision.status, "decided_ms": round(r.decided_after_s * 1000),
                          "rest_visible_ms": round(r.visible_after_s * 1000),
                          **{k: round(v) if isinstance(v, float) else v for k, v in tl.__dict__.items()}})
            print(json.dumps(moves[-1]))
            time.sleep(a.gap)
        wait_for(f"all {total} tuples acked", lambda: placement.acked(rest, topo_id) >= total, 600, 2)
        time.sleep(6)
        stats = next(s for s in rest.topology(topo_id)["topologyStats"] if s["window"] == ":all-time")
        same_jvms = worker_pids(spec, topo_id, slots) == pids
    finally:
        client.stop()
        client.close()
        rest.kill(topo_id, 0)

    def summary(key):
        xs = [m[key] for m in moves]
        return {"median": statistics.median(xs), "min": min(xs), "max": max(xs)}

    out = {"total": total, "acked": int(stats.get("acked") or 0), "failed": int(stats.get("failed") or 0),
           "worker_jvms_unchanged": same_jvms, "rate": a.rate, "moves": moves,
           "summary_ms": {k: summary(k) for k in ("decided_ms", "started_ms", "source_switched_ms",
                                                  "target_switched_ms", "stopped_ms", "rest_visible_ms")},
           "settings": {"nimbus.monitor.freq.secs": 2, "T_W_ms": 1000, "D_K_ms": 2000, "push": True},
           "machine": {"start": machine_start, "end": machine.now()}}
    path = REPO / "results" / f"{a.out}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(out, indent=2))
    print(f"wrote {path}: acked {out['acked']}/{total}, failed {out['failed']}, JVMs unchanged: {same_jvms}")
