"""`pycontrol bench elastic`, the cluster adapter: the Elastic Allocator experiment (seed 003 §3.3)
scaled to one machine. One cluster of 3 nodes, each in a network namespace with its egress link shaped
(tc tbf) when network namespaces can be made (root), else on loopback addresses (then no link and no
bandwidth figures). Word count and join run in the background under Storm's default placement for the
whole session; per repetition, each placement in turn (elastic, random, even: rotated between
repetitions) places a fresh Top-K, whose input steps through the rates with a dwell each. The figures
and their formulas are summary.py's; the node samples sampler.py's."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pycontrol import zk
from pycontrol.bench.elastic import summary
from pycontrol.bench.elastic.link import bytes_per_second
from pycontrol.bench.elastic.sampler import NodeSampler
from pycontrol.bench.migration import machine
from pycontrol.bench.otd.live import CLUSTER_CONF, cluster_session, wait_until
from pycontrol.cluster import ui_token
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.network import check_rights, resolve
from pycontrol.cluster.secrets import cluster_zk_auth
from pycontrol.cluster.spec import ClusterSpec, make_spec
from pycontrol.errors import UserError
from pycontrol.metrics.zk import MetricsZk
from pycontrol.storm import placement
from pycontrol.storm.rest import RestError
from pycontrol.workloads import locate, series
from pycontrol.workloads.submit import submit_workload

NODES, SLOTS = 3, 4
# The background queries, at fixed rates, placed by Storm's default scheduler (as in the paper: already
# running when Top-K arrives). Sizes scaled to a 2-core machine.
BACKGROUND = (("wordcount-java", "ea-wordcount", ("topology.workers=2", "workload.par.split=2", "workload.par.count=2",
                                                  "workload.rate=100")),
              ("join-java", "ea-join", ("topology.workers=2", "workload.par.join=2", "workload.rate=100")))
TOPK, TOPK_NAME = "topk-java", "ea-topk"
TOPK_SETTINGS = ("topology.workers=3", "workload.par.count=3", "workload.tuple.bytes=100",
                 "topology.max.spout.pending=2000", "topology.message.timeout.secs=60")
# How each placement is asked for: the topology's nonstop.scheduler; "even" names none, so Storm's
# DefaultScheduler (EvenScheduler underneath) places it.
SCHEDULER = {"elastic": ("nonstop.scheduler=elastic",), "random": ("nonstop.scheduler=random",), "even": ()}
START_TIMEOUT_S = 600


def run_elastic(home: Path, out: Path, echo: Callable[[str], None], *, port_base: int, repeat: int,
                rates: Sequence[float], dwell_s: float, settle_s: float, link_bandwidth: str,
                network: str = "auto") -> dict:
    """repeat repetitions of the three placements on one cluster; writes out (JSON) and returns it."""
    if repeat < 1:
        raise UserError(f"--repeat must be at least 1, got {repeat}")
    if not rates or any(r <= 0 for r in rates):
        raise UserError(f"--rates must be positive tuples/s, got {list(rates)}")
    if not 0 <= settle_s < dwell_s:
        raise UserError(f"--settle must be >= 0 and below --dwell ({dwell_s:g} s), got {settle_s:g}")
    network, _ = resolve(network)
    if network == "netns":
        check_rights()
    link_bytes = bytes_per_second(link_bandwidth) if network == "netns" else None
    extra = dict(CLUSTER_CONF)
    if link_bytes is not None:
        extra["nonstop.node.bandwidth.bytes.per.sec"] = link_bytes
    spec = make_spec(home, nodes=NODES, slots=SLOTS, network=network, port_base=port_base, extra_conf=extra,
                     link_bandwidth=link_bandwidth if network == "netns" else None)
    clash = ephemeral_clash(max(p for n in spec.node_specs for p in (n.thrift_port, *n.slot_ports)),
                            _ephemeral_low())
    if clash:
        echo(clash)
    cpus = len(os.sched_getaffinity(0))
    # Nodes are not pinned (3 nodes on few CPUs cannot each have their own): each node is credited an
    # equal share of the machine's CPUs, and its CPU is what its worker JVMs use.
    capacity = {n.host: cpus / NODES for n in spec.node_specs}
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.time()
    runs, steps = [], []
    with cluster_session(spec, echo):
        rest = ui_token.rest_client(spec)
        layout = Layout(spec.home)
        auth = cluster_zk_auth(spec.home)
        client = zk.connect(f"{spec.control_host}:{spec.zk_port}", auth=auth)
        mz = MetricsZk.sharing(client, auth=auth)
        if not mz.start(30):
            raise UserError("cannot reach the cluster's ZooKeeper")
        sampler = NodeSampler(mz, [n.host for n in spec.node_specs])
        try:
            for workload, name, settings in BACKGROUND:
                echo(f"background: {workload} as {name} ({' '.join(settings)}), Storm's default placement")
                submit_workload(workload, name, list(settings), layout.control_conf_dir)
            for _, name, _ in BACKGROUND:
                tid = wait_until(f"{name} listed", lambda n=name: rest.topology_id(n), 120)
                wait_until(f"{name} acking", lambda t=tid: placement.acked(rest, t) > 0, START_TIMEOUT_S)
            sampler.start()
            schedule = layout.home / "elastic-topk-rate"
            for i in range(repeat):
                for kind in summary.order(i):
                    echo(f"repetition {i + 1} of {repeat}: Top-K placed by {kind}")
                    run = _one_run(spec, rest, layout, schedule, kind, rates, dwell_s, settle_s, echo)
                    run["repetition"] = i + 1
                    for st in run["steps"]:
                        st["figures"] = summary.step_figures(sampler.samples, st.pop("seconds_rows"),
                                                             st["measured"][0], st["measured"][1], capacity,
                                                             link_bytes)
                        steps.append({"repetition": i + 1, "placement": kind, "rate": st["rate"],
                                      "figures": st["figures"]})
                    runs.append(run)
        finally:
            sampler.stop()
            mz.stop()
            client.stop()
            client.close()
    doc = {"benchmark": "elastic", "started": started, "finished": time.time(), "repeat": repeat,
           "rates": list(rates), "dwell_s": dwell_s, "settle_s": settle_s,
           "cluster": {"nodes": NODES, "slots": SLOTS, "network": network,
                       "network_note": None if network == "netns" else f"loopback: {why_not or 'asked for'}; "
                       "no shaped links, no bandwidth figures",
                       "link_bandwidth": link_bandwidth if network == "netns" else None, "link_bytes_per_s": link_bytes,
                       "node_cpu_capacity_cores": capacity},
           "background": [{"workload": w, "name": n, "settings": list(s)} for w, n, s in BACKGROUND],
           "topk": {"workload": TOPK, "settings": list(TOPK_SETTINGS), "scheduler": {k: list(v) for k, v in SCHEDULER.items()}},
           "formulas": summary.__doc__,
           "summary": summary.summarize_steps(steps), "runs": runs,
           "command": f"pycontrol bench elastic --repeat {repeat} --rates {','.join(f'{r:g}' for r in rates)} "
                      f"--dwell {dwell_s:g} --settle {settle_s:g} --link-bandwidth {link_bandwidth}"}
    doc["summary_lines"] = summary.summary_lines(doc["summary"])
    out.write_text(json.dumps(doc, indent=2))
    return doc


def _one_run(spec: ClusterSpec, rest, layout: Layout, schedule: Path, kind: str, rates: Sequence[float],
             dwell_s: float, settle_s: float, echo: Callable[[str], None]) -> dict:
    """Submits Top-K placed by `kind`, steps its rate, kills it; the steps' stretches and spout seconds."""
    load_start = machine.now()
    _set_rate(schedule, rates[0])
    settings = [*TOPK_SETTINGS, f"workload.rate.schedule={schedule}", *SCHEDULER[kind]]
    submit_workload(TOPK, TOPK_NAME, settings, layout.control_conf_dir)
    tid = wait_until(f"{TOPK_NAME} listed", lambda: rest.topology_id(TOPK_NAME), 120)
    try:
        wait_until(f"{TOPK_NAME} acking", lambda: placement.acked(rest, tid) > 0, START_TIMEOUT_S)
        steps = []
        for rate in rates:
            _set_rate(schedule, rate)
            t0 = time.time()
            echo(f"  {rate:g} tuples/s for {dwell_s:g} s")
            time.sleep(dwell_s)
            steps.append({"rate": rate, "measured": [t0 + settle_s, t0 + dwell_s]})
        # Read while it runs (every worker has reported by now): the placement the figures belong to.
        where = sorted({f"{p.host}:{p.port}" for p in placement.placement(rest, tid)})
        echo(f"  {TOPK_NAME} ran on {where}")
        time.sleep(3)   # the spout writes each second's line shortly after it ends
        rows = series.read_series(locate.artifact_dirs(layout.logs, tid))
        secs = [summary.Second(r.ts, r.acked, r.latency_mean_ms, r.latency_p99_ms) for r in rows]
        for st in steps:
            st["seconds_rows"] = secs
    finally:
        try:
            rest.kill(tid, 0)
        except RestError as e:
            echo(f"  cannot kill {TOPK_NAME}: {e}")
    wait_until(f"{TOPK_NAME} gone", lambda: rest.topology_id(TOPK_NAME) is None, 180)
    return {"placement": kind, "topology_id": tid, "workers": where, "steps": steps,
            "machine_start": load_start, "machine_end": machine.now()}


def ephemeral_clash(highest_port: int, ephemeral_low: int | None) -> str | None:
    """A warning when the cluster's ports reach into the kernel's ephemeral range: a worker's outgoing
    connection can take a slot's port, and the worker placed there then fails to bind (seen at port
    base 36700: "Address already in use", the Top-K run never acked)."""
    if ephemeral_low is None or highest_port < ephemeral_low:
        return None
    return (f"warning: the cluster's ports reach {highest_port}, inside the ephemeral range from {ephemeral_low}: "
            f"a slot may be taken by an outgoing connection; choose a --port-base below {ephemeral_low - 200}")


def _ephemeral_low() -> int | None:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _set_rate(schedule: Path, rate: float) -> None:
    """The FeedSpout re-reads its schedule file when it changes: "0 <rate>" applies at once."""
    tmp = schedule.with_suffix(".tmp")
    tmp.write_text(f"0 {rate:g}\n")
    tmp.replace(schedule)
