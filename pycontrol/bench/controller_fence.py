"""What the leader-epoch fence and the digest ACLs cost a control cycle.

The logic of `benchmarks/controller_fence.py`, which parses the command line and calls `main`.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import time
import uuid
from datetime import datetime, timezone

from pycontrol import zk
from pycontrol.bench.order import rotated
from pycontrol.controller.actions import Move
from pycontrol.controller.clock import SystemClock
from pycontrol.controller.leader import Leadership
from pycontrol.controller.realize import Realizer
from pycontrol.controller.state_store import StateStore
from pycontrol.wire.decision_document import Decision
from pycontrol.zkauth import ZkAuth

VARIANTS = ("open-unfenced", "open-fenced", "acl-unfenced", "acl-fenced")


class ZkOnlyIO:
    """The cluster as a cycle's ZooKeeper work sees it: plans are real znode writes (fenced or not);
    the decision and the new placement are there at once."""

    def __init__(self, client, root: str, fence=None):
        self.client, self.root, self.fence = client, root, fence
        self.where: dict[str, dict[str, str]] = {}

    def topology_id(self, name):
        return f"{name}-1"

    def placement(self, topology_id, system=False):
        return dict(self.where.get(topology_id[:-2], {}))

    def write_plan(self, topology, moves):
        path, doc = f"{self.root}/plans/{topology}", {"request_id": "bench", "placement": moves}
        version = zk.write_json(self.client, path, doc) if self.fence is None else \
            zk.write_json_fenced(self.client, path, doc, self.fence())
        self.where[topology] = dict(moves)
        return version

    def wait_decision(self, topology, topology_id, version, timeout_s):
        return Decision("applied", "", version, topology_id, "bench", 0, [])


def run(client, root: str, fenced: bool, topologies: int, cycles: int) -> float:
    """Mean seconds per acting cycle."""
    store = StateStore(client, f"{root}/state")
    lead = Leadership(client, "bench", path=f"{root}/leader", epoch_path=f"{root}/epoch") if fenced else None
    if lead is not None and not lead.acquire(10):
        raise SystemExit("could not take the bench lock")
    io = ZkOnlyIO(client, root, lead.fence if lead else None)
    realizer = Realizer(io, store, SystemClock(), verify_timeout_s=5, poll_s=0.01,
                        leading=lead.is_leader if lead else (lambda: True))
    slots = ("h1:6700", "h2:6700")
    try:
        t0 = time.perf_counter()
        for n in range(cycles):
            state, version = store.load()
            moves = [Move(f"t{i}", "[1-1]", slots[n % 2], slots[(n + 1) % 2]) for i in range(topologies)]
            realizer.realize(state, version, n + 1, moves, {})
        return (time.perf_counter() - t0) / cycles
    finally:
        if lead is not None:
            lead.release()


def main(args: argparse.Namespace) -> None:
    load_start = os.getloadavg()
    # "acl": an authenticated client whose znodes get the suite's digest-only ACL (as on a secured cluster);
    # "open": no credentials, open ACL (a cluster started with --no-zk-acl).
    clients = {"open": zk.connect(args.zk),
               "acl": zk.connect(args.zk, auth=ZkAuth("bench", secrets.token_urlsafe(16)))}
    base = f"/nonstop-bench/fence-{uuid.uuid4().hex[:8]}"
    clients["open"].ensure_path(base)   # open, so both clients can create their roots below it
    results = []
    try:
        for t in args.topologies:
            per = {v: [] for v in VARIANTS}
            for r in range(args.runs):
                for variant in rotated(VARIANTS, r):
                    access, fencing = variant.split("-")
                    client = clients[access]
                    root = f"{base}/{variant}-{t}-{r}"
                    per[variant].append(run(client, root, fencing == "fenced", t, args.cycles))
                    client.delete(root, recursive=True)
            for variant, xs in per.items():
                ms = [round(x * 1000, 3) for x in xs]
                results.append({"variant": variant, "topologies_per_action": t, "runs_ms_per_cycle": ms,
                                "median_ms": round(statistics.median(ms), 3), "min_ms": min(ms), "max_ms": max(ms)})
                print(f"{t:>3} topologies {variant:>13}: median {statistics.median(ms):7.2f} ms/cycle "
                      f"(min {min(ms):.2f}, max {max(ms):.2f}, n={len(ms)})", flush=True)
    finally:
        clients["open"].delete("/nonstop-bench", recursive=True)
        for c in clients.values():
            c.stop()
            c.close()
    load_end = os.getloadavg()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({
        "benchmark": "controller_fence", "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "zookeeper": args.zk, "runs": args.runs, "cycles_per_run": args.cycles,
        "note": "ZooKeeper path of an acting cycle only (state load, write-ahead, plans, completion); "
                "decision and placement answer at once; a shared 2-core machine",
        "load_average_start": [round(x, 2) for x in load_start], "load_average_end": [round(x, 2) for x in load_end],
        "results": results}, indent=2) + "\n")
    print(f"wrote {args.out}")
