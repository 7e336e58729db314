"""The main job: a local multi-node cluster with the plugins, a workload placed across the nodes,
shown working end to end, then everything torn down."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from pycontrol.cluster import manager
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import make_spec
from pycontrol.errors import UserError
from pycontrol.storm import placement, submit
from pycontrol.storm.rest import StormRest

TOPOLOGY = "demo-relay"


def wait_until(what: str, check: Callable[[], bool], timeout_s: float, poll_s: float = 2.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise UserError(f"timed out after {timeout_s:.0f} s waiting for {what}")
        time.sleep(poll_s)


def run_demo(home: Path, nodes: int, echo: Callable[[str], None], keep: bool = False) -> dict:
    spec = make_spec(home, nodes=nodes)
    echo(f"bringing up {nodes} nodes x {spec.slots} slots under {home}")
    state = manager.up(spec, echo=echo)
    echo(f"cluster ready in {state.ready_after_s} s; UI REST at {spec.ui_url}")
    result: dict = {"ready_after_s": state.ready_after_s}
    try:
        rest = StormRest(spec.ui_url)
        echo(submit.submit_java("relay", TOPOLOGY, ["workload.rate=200", "topology.workers=%d" % nodes,
                                                     "topology.stats.sample.rate=1.0"],
                                Layout(home).control_conf_dir))
        topo_id = None

        def placed_everywhere() -> bool:
            nonlocal topo_id
            topo_id = topo_id or rest.topology_id(TOPOLOGY)
            return bool(topo_id) and len(placement.by_host(placement.placement(rest, topo_id))) == nodes

        wait_until(f"{TOPOLOGY}'s executors on all {nodes} nodes", placed_everywhere, 180)
        wait_until("acked tuples", lambda: placement.acked(rest, topo_id) > 0, 120)
        time.sleep(10)
        places = placement.by_host(placement.placement(rest, topo_id))
        for host, ps in places.items():
            echo(f"  {host}: " + ", ".join(f"{p.component}{p.executor}@{p.port}" for p in ps))
        n_acked = placement.acked(rest, topo_id)
        echo(f"  acked so far: {n_acked} tuples")
        result.update({"placement": {h: len(ps) for h, ps in places.items()}, "acked": n_acked})
        st = manager.status(home)
        result["rss_mb_total"] = st["rss_mb_total"]
        echo(f"  cluster memory: {st['rss_mb_total']} MB RSS")
        rest.kill(topo_id, 0)
        wait_until(f"{TOPOLOGY} to be gone", lambda: rest.topology_id(TOPOLOGY) is None, 60)
        echo(f"killed {TOPOLOGY}")
    finally:
        if not keep:
            echo(manager.down(home))
    return result
