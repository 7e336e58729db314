"""Shared fixtures. Integration tests share ONE real local cluster per session (it takes ~1 min
to start on two cores); it is torn down at the end and checked to leave nothing behind."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import pytest

from pycontrol import zk
from pycontrol.cluster import manager, ports, processes, ui_token
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.secrets import cluster_zk_auth
from pycontrol.cluster.spec import ClusterSpec, make_spec
from pycontrol.cluster.storm_conf import marker

# Far from the default port base (17000) so tests never collide with a user's running cluster.
TEST_PORT_BASE = int(os.environ.get("PYCONTROL_TEST_PORT_BASE", "27000"))
# On a busy 2-core machine a worker JVM can take minutes to start; with Storm's 120 s Nimbus would
# reassign its executors (and the supervisor kill it) before it is up, again and again.
SLOW_START = {"nimbus.task.launch.secs": 900, "supervisor.worker.start.timeout.secs": 900}
# The session's cluster: a supervisor that Storm halts and the cluster manager relaunches must not cost the rest
# of the session a node. Storm 2.8.3's supervisor can halt when a rebalance deletes a topology's stormcode.ser
# while a slot reads it (seen in a CI run: "Unable to read local file" ... "Halting process"); its relaunch misses
# a few heartbeats, Storm's blacklist scheduler (3 bad rounds) then took the node out for the rest of the run, and
# every later test that needs both nodes failed.
SESSION_CLUSTER = {**SLOW_START, "blacklist.scheduler.tolerance.count": 1_000_000}
# For clusters whose tests kill or relaunch workers or stop supervisors: a worker coming back on this busy
# box must not be declared dead (Storm's default: 30 s) and its executors placed elsewhere meanwhile.
RELAUNCH_PATIENT = {
    **SLOW_START,
    "nimbus.task.timeout.secs": 120,
    "supervisor.worker.timeout.secs": 120,
    "blacklist.scheduler.tolerance.count": 1_000_000,
}


def pytest_collection_modifyitems(session, config, items):
    """Tests marked `disruptive` (they restart the shared cluster's daemons) run after all others,
    so no other test meets a cluster that is still recovering. The sort is stable: order is kept."""
    items.sort(key=lambda item: item.get_closest_marker("disruptive") is not None)


class LiveCluster:
    def __init__(self, spec: ClusterSpec, state: manager.State):
        self.spec = spec
        self.state = state
        self.layout = Layout(spec.home)
        self.rest = ui_token.rest_client(spec)
        self.zk_hosts = f"{spec.control_host}:{spec.zk_port}"
        # The cluster's ZooKeeper credentials (ACLs are on by default), as every CLI command reads them.
        self.zk_auth = cluster_zk_auth(spec.home)

    @property
    def conf_dir(self) -> Path:
        return self.layout.control_conf_dir


def assert_nothing_left(spec: ClusterSpec) -> None:
    strays = processes.find_strays(marker(Layout(spec.home)), spec.home)
    assert not strays, f"processes left behind: {[(p.pid, p.name()) for p in strays]}"
    busy = ports.first_busy(spec.all_ports())
    assert busy is None, f"port still in use after down: {busy}"


@contextmanager
def live_cluster(spec: ClusterSpec) -> Iterator[LiveCluster]:
    """The cluster of `spec`, up for the block; down after it, with nothing left behind."""
    state = manager.up(spec, timeout_s=300)
    try:
        yield LiveCluster(spec, state)
    finally:
        manager.down(spec.home)
        assert_nothing_left(spec)


@pytest.fixture(scope="session")
def cluster(tmp_path_factory) -> LiveCluster:
    with live_cluster(make_spec(tmp_path_factory.mktemp("cluster"), nodes=2, slots=4, port_base=TEST_PORT_BASE,
                                extra_conf=SESSION_CLUSTER)) as c:
        yield c


@contextmanager
def submitted_topology(cluster: LiveCluster, name: str) -> Iterator[tuple[str, object]]:
    """The topology `name`, just submitted: once Nimbus lists it, yields its id and a ZooKeeper client with
    the cluster's credentials; afterwards closes the client, kills the topology and waits until it is gone."""
    rest = cluster.rest
    topo_id = wait_for(f"{name} listed", lambda: rest.topology_id(name), 60)
    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    try:
        yield topo_id, client
    finally:
        client.stop()
        client.close()
        rest.kill(topo_id, 0)
        wait_for(f"{name} gone", lambda: rest.topology_id(name) is None, 90)


def python_children(pid: int, module: str) -> set[int]:
    """Live child processes of a worker whose command line names `module` (a multilang component).
    A child that exits while being read (a zombie, or gone) is not live: a moved executor's old child
    is exactly that for a moment, and reading its command line then raises."""
    found = set()
    for c in psutil.Process(pid).children(recursive=True):
        try:
            if c.status() != psutil.STATUS_ZOMBIE and any(module in part for part in c.cmdline()):
                found.add(c.pid)
        except (psutil.ZombieProcess, psutil.NoSuchProcess):
            continue
    return found


def wait_for(what: str, check, timeout_s: float = 120, poll_s: float = 1.0):
    """Poll until check() returns a truthy value; return it. A wait over 2 s is printed (a failed test's
    captured output then shows where its time went)."""
    started = time.monotonic()
    deadline = started + timeout_s
    while True:
        value = check()
        if value:
            if (took := time.monotonic() - started) > 2:
                print(f"waited {took:.1f} s for {what}", flush=True)
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s} s waiting for {what}")
        time.sleep(poll_s)
