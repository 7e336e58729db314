"""A second, short-lived cluster in network namespaces: shaped links, nodes pinned to CPUs and with
different slot counts, a crash left
behind and cleaned by the next `up`, and a `down` that leaves no process, namespace or link."""

from __future__ import annotations

import os
import signal
import subprocess

import pytest

from pycontrol.cluster import manager, network, processes, ui_token
from pycontrol.cluster.secrets import cluster_zk_auth
from pycontrol.cluster.spec import make_spec
from pycontrol.metrics.zk import MetricsZk
from pycontrol.storm import placement, submit
from tests.conftest import TEST_PORT_BASE, assert_nothing_left, wait_for

pytestmark = [pytest.mark.cluster, pytest.mark.slow,
              pytest.mark.skipif(os.geteuid() != 0, reason="network namespaces need root")]


def test_netns_cluster_shaped_links_crash_recovery_and_clean_down(tmp_path):
    cpus = sorted(os.sched_getaffinity(0))
    # node1 on the first CPU, node2 on the last (the same one on a 1-CPU machine: pins may overlap).
    spec = make_spec(tmp_path / "nscluster", nodes=2, network="netns", link_bandwidth="200mbit",
                     port_base=TEST_PORT_BASE + 1000, node_cpus=f"{cpus[0]};{cpus[-1]}", node_slots="1;2")
    first = manager.up(spec, timeout_s=300)
    try:
        rest = ui_token.rest_client(spec)
        # Each supervisor offers its own node's slots.
        assert sorted((s["host"], int(s["slotsTotal"])) for s in rest.supervisors()) == \
            [(spec.node_specs[0].host, 1), (spec.node_specs[1].host, 2)]
        for n in spec.node_specs:
            q = subprocess.run(["ip", "netns", "exec", n.netns, "tc", "qdisc", "show", "dev", network.NODE_IF],
                               capture_output=True, text=True).stdout
            assert "tbf" in q and "200Mbit" in q, q

        # Workers in different namespaces talk over the shaped links: every tuple is acked.
        submit.submit_java("relay", "ns-relay", ["workload.total=400", "workload.rate=200",
                                                 "topology.workers=2", "topology.stats.sample.rate=1.0"],
                           spec.home / "storm" / "conf")
        topo_id = wait_for("ns-relay listed", lambda: rest.topology_id("ns-relay"), 60)
        hosts = wait_for("executors in both namespaces",
                         lambda: (h := placement.by_host(placement.placement(rest, topo_id))) and len(h) == 2 and h,
                         180, poll_s=2)
        assert set(hosts) == {n.host for n in spec.node_specs}
        assert wait_for("400 acked", lambda: placement.acked(rest, topo_id) >= 400, 180, poll_s=2)

        # Pinned nodes: each node's workers run on its CPU only, and its metrics report that one CPU.
        pinned = {port: n.cpus for n in spec.node_specs for port in n.slot_ports}
        workers = processes.worker_cpus(spec.home)
        assert workers and all(workers[port] == pinned[port] for port in workers), (workers, pinned)
        mz = MetricsZk(f"{spec.control_host}:{spec.zk_port}", auth=cluster_zk_auth(spec.home))
        assert mz.start(30)
        try:
            docs = wait_for("metrics of both workers", lambda: len(d := mz.read(topo_id).docs) == 2 and d, 120)
            assert {d.node_cpu_count for d in docs.values()} == {1}
        finally:
            mz.stop()

        # A crash: Nimbus dies and nobody runs `down`. The next `up` must notice and start clean.
        nimbus = next(p for p in first.processes if p.role == "nimbus")
        os.kill(nimbus.pid, signal.SIGKILL)
        wait_for("nimbus dead", lambda: not processes.is_alive(nimbus), 30, poll_s=0.2)
        second = manager.up(spec, timeout_s=300)
        assert {p.pid for p in second.processes}.isdisjoint({p.pid for p in first.processes})
        assert not any(processes.is_alive(p) for p in first.processes)
        assert rest.topology_id("ns-relay") is None  # a fresh cluster, not the crashed one's leftovers
    finally:
        manager.down(spec.home)
    assert_nothing_left(spec)
    assert network.leftovers(spec) == []
