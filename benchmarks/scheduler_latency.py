"""End-to-end latency of the word count under Storm's default placement vs Aniello offline vs Aniello
online, on the 2-node cluster with shaped inter-node links (`--network netns --link-bandwidth`).

Not a test: run it by hand on a quiet machine (needs root for the namespaces):
    .venv/bin/python benchmarks/scheduler_latency.py                       # defaults below
    .venv/bin/python benchmarks/scheduler_latency.py --bandwidth 4mbit --rate 800

One cluster, one run: the same Java word count (same rate, same shape) is submitted once per
scheduler, one after the other, each selected per topology with `nonstop.scheduler` (none = Storm's
DefaultScheduler behind the cluster's NonstopScheduler). Each run: wait until the placement is
stable (for aniello-online: until its first traffic-based decision was applied, or its period has
passed twice), warm up, then measure for `--measure` seconds: latency from each sentence's intended
emit time to its ack (p50/mean/p99 over the window's per-second values), acked/s, failed, and the
inter-node share of tuples from the metrics plane. This kernel has no netem, so the link cost is the
queueing a token bucket adds once a link is busy: pick a bandwidth that the default placement's
inter-node traffic nearly fills (the script prints the measured share and rate).

Writes results/schedulers/real_cluster_latency.json. Target (issue #5): online at least 20 % lower
latency than default.
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

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycontrol.cluster import manager  # noqa: E402
from pycontrol.cluster.layout import Layout  # noqa: E402
from pycontrol.cluster.secrets import cluster_zk_auth  # noqa: E402
from pycontrol.cluster.spec import make_spec  # noqa: E402
from pycontrol.storm.rest import StormRest  # noqa: E402
from pycontrol.workloads import locate, series  # noqa: E402
from pycontrol.workloads.submit import submit_workload  # noqa: E402
from pycontrol.zk import connect  # noqa: E402

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
    deadline = time.monotonic() + 300
    while (topo_id := rest.topology_id(name)) is None:
        if time.monotonic() > deadline:
            raise SystemExit(f"{name} never listed")
        time.sleep(1)
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
        share = inter_node_share(Path(args.home), name)
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--schedulers", default="default,aniello-offline,aniello-online")
    ap.add_argument("--rate", type=float, default=600.0, help="sentences/s (about 18 words each)")
    ap.add_argument("--bandwidth", default="6mbit", help="egress rate of each node's link (tc tbf)")
    ap.add_argument("--warmup", type=float, default=30.0)
    ap.add_argument("--measure", type=float, default=90.0)
    ap.add_argument("--online-period", type=int, default=20, help="nonstop.aniello.period.secs")
    ap.add_argument("--set", action="append", default=[], help="extra topology setting key=value")
    ap.add_argument("--home", default="/tmp/nonstop-bench-latency")
    ap.add_argument("--port-base", type=int, default=24000)
    ap.add_argument("--keep-cluster", action="store_true")
    ap.add_argument("--out", default=str(REPO / "results" / "schedulers" / "real_cluster_latency.json"))
    args = ap.parse_args()

    spec = make_spec(Path(args.home), nodes=2, slots=4, network="netns", link_bandwidth=args.bandwidth,
                     port_base=args.port_base)
    load_before = os.getloadavg()
    manager.up(spec, timeout_s=300, echo=log)
    layout, rest = Layout(spec.home), StormRest(spec.ui_url)
    results = []
    try:
        for s in args.schedulers.split(","):
            log(f"running under {s}")
            results.append(run_one(args, layout, rest, f"{spec.control_host}:{spec.zk_port}", s))
    finally:
        if not args.keep_cluster:
            log(manager.down(spec.home))
    base = next((r for r in results if r["scheduler"] == "default"), None)
    for r in results:
        if base and base["latency_ms"]["mean"] and r["latency_ms"]["mean"] is not None:
            r["latency_mean_vs_default"] = round(r["latency_ms"]["mean"] / base["latency_ms"]["mean"] - 1, 4)
    out = {
        "benchmark": "word count (Java) end-to-end latency by scheduler, 2 nodes x 4 slots, shaped inter-node links",
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "loadavg_before": list(load_before), "loadavg_after": list(os.getloadavg())},
        "shape": SHAPE, "rate_sentences_per_s": args.rate, "link_bandwidth": args.bandwidth,
        "warmup_s": args.warmup, "measure_s": args.measure, "results": results,
        "target": "aniello-online latency at least 20 % lower than default",
    }
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n")
    log(f"wrote {path}")


if __name__ == "__main__":
    main()
