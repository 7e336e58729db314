"""The real 2-node cluster: separate processes, distinct nodes, a topology across both, acked."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pycontrol.cli import main
from pycontrol.cluster import manager, processes
from pycontrol.errors import UserError
from pycontrol.storm import placement, submit
from tests.conftest import wait_for

pytestmark = pytest.mark.cluster


def test_every_daemon_is_its_own_live_process(cluster):
    roles = sorted(p.role for p in cluster.state.processes)
    assert roles == ["nimbus", "supervisor", "supervisor", "ui", "zookeeper"]
    pids = {p.pid for p in cluster.state.processes}
    assert len(pids) == 5
    assert all(processes.is_alive(p) for p in cluster.state.processes)


def test_every_keeper_was_told_its_daemon_started(cluster):
    """So an early failure after start-up (e.g. a halt on a ZooKeeper outage) is restarted, not taken
    for a start-up failure."""
    assert all(processes.ready_file(p).exists() for p in cluster.state.processes)


def test_supervisors_are_two_nodes_with_their_own_addresses_and_slots(cluster):
    sups = cluster.rest.supervisors()
    assert sorted(s["host"] for s in sups) == ["127.0.0.11", "127.0.0.12"]
    assert [int(s["slotsTotal"]) for s in sups] == [4, 4]
    assert len({s["id"] for s in sups}) == 2


def test_up_on_a_running_cluster_starts_nothing_new(cluster):
    again = manager.up(cluster.spec)
    assert [p.pid for p in again.processes] == [p.pid for p in cluster.state.processes]


def test_a_different_shape_on_a_running_cluster_is_refused(cluster):
    from pycontrol.cluster.spec import make_spec
    other = make_spec(cluster.spec.home, nodes=3, port_base=cluster.spec.port_base)
    with pytest.raises(UserError, match="already running"):
        manager.up(other)


def test_status_reports_nodes_slots_and_memory(cluster):
    st = manager.status(cluster.spec.home)
    assert st["running"] is True
    assert {s["host"] for s in st["supervisors"]} == {n.host for n in cluster.spec.node_specs}
    assert st["rss_mb_total"] > 0


def test_relay_topology_spans_both_nodes_and_acks_every_tuple(cluster):
    total = 3000
    submit.submit_java("relay", "it-relay", [f"workload.total={total}", "workload.rate=600",
                                             "topology.workers=2", "topology.stats.sample.rate=1.0"],
                       cluster.conf_dir)
    rest = cluster.rest
    topo_id = wait_for("it-relay listed", lambda: rest.topology_id("it-relay"), 60)
    try:
        hosts = wait_for("executors on both nodes",
                         lambda: (h := placement.by_host(placement.placement(rest, topo_id))) and len(h) == 2 and h,
                         180, poll_s=2)
        assert set(hosts) == {"127.0.0.11", "127.0.0.12"}
        # Every sequence number comes back acked (replays of failures count once, when they succeed).
        acked = wait_for(f"{total} acked", lambda: (a := placement.acked(rest, topo_id)) >= total and a, 180, poll_s=2)
        assert acked == total
    finally:
        rest.kill(topo_id, 0)
        wait_for("it-relay gone", lambda: rest.topology_id("it-relay") is None, 60)


def test_cli_unknown_workload_and_bad_setting_are_clear_errors(cluster):
    runner = CliRunner()
    home = ["--home", str(cluster.spec.home)]
    r = runner.invoke(main, ["topology", "submit", "no-such-workload", *home], standalone_mode=False)
    assert isinstance(r.exception, UserError) and "unknown workload 'no-such-workload'" in str(r.exception)
    r = runner.invoke(main, ["topology", "submit", "relay", "--set", "workers", *home], standalone_mode=False)
    assert isinstance(r.exception, UserError) and "bad --set 'workers'" in str(r.exception)
    r = runner.invoke(main, ["topology", "kill", "not-running", *home], standalone_mode=False)
    assert isinstance(r.exception, UserError) and "no topology named 'not-running'" in str(r.exception)


def test_cli_status_json_and_topology_list(cluster):
    runner = CliRunner()
    r = runner.invoke(main, ["cluster", "status", "--json", "--home", str(cluster.spec.home)])
    assert r.exit_code == 0, r.output
    assert '"running": true' in r.output
    r = runner.invoke(main, ["topology", "list", "--home", str(cluster.spec.home)])
    assert r.exit_code == 0, r.output
