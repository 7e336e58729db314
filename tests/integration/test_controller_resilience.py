"""The controller daemon on the real cluster through ZooKeeper trouble: it leads again after ZooKeeper
was down, a deposed leader's late plan write is refused by the epoch fence, and a killed topology leaves
nothing of the controller's behind."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from dataclasses import replace

import pytest
import yaml
from kazoo.client import KazooClient
from prometheus_client.parser import text_string_to_metric_families

from pycontrol import zk
from pycontrol.cluster import manager
from pycontrol.controller.decisions import DECISIONS_PATH
from pycontrol.controller.leader import Leadership
from pycontrol.controller.realize import StormClusterIO
from pycontrol.controller.safety import SafetyState
from pycontrol.controller.state_store import FencedOut, StateStore
from pycontrol.migration.migrate import wait_decision, write_plan
from pycontrol.wire.executor import ExecutorId
from pycontrol.workloads.submit import submit_workload
from tests.conftest import wait_for

pytestmark = pytest.mark.cluster

ZK_DOWN_S = 15
# After ZooKeeper serves again: kazoo's reconnect backoff (<= 5 s), a new session and lock if the old
# session expired (<= 5 s to contend), and one cycle of 2 s; the rest is margin for a loaded machine.
LEADS_AGAIN_WITHIN_S = 60


def zk_hosts(cluster) -> str:
    return f"{cluster.spec.control_host}:{cluster.spec.zk_port}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daemon:
    """`pycontrol run` as its own process, read through its /metrics endpoint."""

    def __init__(self, cluster, tmp_path, ident: str, topologies: dict | None = None):
        cfg = tmp_path / f"{ident}.yml"
        cfg.write_text(yaml.safe_dump({"cycle_s": 2, "verify_timeout_s": 30, "defaults": {"policy": "off"},
                                       "topologies": topologies or {}}))
        self.port = free_port()
        self.log = tmp_path / f"{ident}.log"
        with self.log.open("w") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "pycontrol", "run", "--config", str(cfg), "--ui",
                                          cluster.spec.ui_url, "--zk", zk_hosts(cluster), "--id", ident,
                                          "--metrics-port", str(self.port),
                                          "--home", str(cluster.spec.home)],  # its ZooKeeper credentials
                                         stdout=out, stderr=subprocess.STDOUT)

    def samples(self) -> list:
        assert self.proc.poll() is None, f"the controller exited:\n{self.log.read_text()[-3000:]}"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=5) as r:
                text = r.read().decode()
        except OSError:
            return []
        return [s for f in text_string_to_metric_families(text) for s in f.samples]

    def value(self, name: str) -> float | None:
        return next((s.value for s in self.samples() if s.name == name), None)

    def leading_cycles(self) -> float | None:
        """Cycles run so far, if it leads now."""
        got = {s.name: s.value for s in self.samples() if not s.labels}
        return got.get("nonstop_controller_cycles_total") if got.get("nonstop_controller_is_leader") == 1 else None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def lock_holders(cluster) -> list[str]:
    client = zk.connect(zk_hosts(cluster), auth=cluster.zk_auth)
    try:
        return Leadership(client, "reader").contenders()
    finally:
        client.stop()
        client.close()


def test_a_standby_leads_when_the_leaders_session_expires_and_the_old_leaders_late_plan_is_fenced(cluster):
    base = f"/nonstop-test/{uuid.uuid4().hex}"
    topology = f"it-fence-{uuid.uuid4().hex[:8]}"
    a, b = zk.connect(zk_hosts(cluster), auth=cluster.zk_auth), zk.connect(zk_hosts(cluster), auth=cluster.zk_auth)
    try:
        la = Leadership(a, "ctl-a", path=f"{base}/leader", epoch_path=f"{base}/epoch")
        lb = Leadership(b, "ctl-b", path=f"{base}/leader", epoch_path=f"{base}/epoch")
        io_a = StormClusterIO(a, cluster.rest, fence=la.fence)
        io_b = StormClusterIO(b, cluster.rest, fence=lb.fence)
        assert la.acquire(5) and not lb.acquire(1)
        first = io_a.write_plan(topology, {"[1,1]": "127.0.0.1:1"})

        # Expire a's session as ZooKeeper does when a client stays away too long: a second client with
        # the same session id and password ends it.
        twin = KazooClient(hosts=zk_hosts(cluster), client_id=a.client_id)
        twin.start(timeout=10)
        twin.stop()
        twin.close()
        wait_for("the standby leading", lambda: lb.acquire(1), 60, 0.2)
        assert lb.fence().version == la.fence().version + 1
        second = io_b.write_plan(topology, {"[1,1]": "127.0.0.1:2"})
        assert second == first + 1

        # The old leader writes late, on its new session, before (or without) noticing it was deposed.
        wait_for("the old leader's client on a new session", lambda: a.connected, 60, 0.2)
        with pytest.raises(FencedOut, match="another controller leads"):
            io_a.write_plan(topology, {"[1,1]": "127.0.0.1:3"})
        doc, version = zk.read_json(b, f"{zk.PLANS}/{topology}")
        assert version == second and doc["placement"] == {"[1,1]": "127.0.0.1:2"}
        assert not la.is_leader() and lb.is_leader()
        wait_for("the old leader standing by", lambda: not la.acquire(1) and la.contenders() == ["ctl-b"],
                 30, 0.2)
    finally:
        for path in (f"{zk.PLANS}/{topology}", f"{zk.DECISIONS}/{topology}"):
            zk.delete_if_exists(b, path)
        b.delete(base, recursive=True)
        for c in (a, b):
            c.stop()
            c.close()


def test_a_killed_topology_leaves_no_state_series_or_znodes_after_the_next_cycle(cluster, tmp_path):
    name = f"it-prune-{uuid.uuid4().hex[:6]}"
    rest = cluster.rest
    submit_workload("wordcount-java", name, ["topology.workers=1", "workload.rate=10"], cluster.conf_dir)
    topo_id = wait_for(f"{name} listed", lambda: rest.topology_id(name), 120)
    client = zk.connect(zk_hosts(cluster), auth=cluster.zk_auth)
    daemon = Daemon(cluster, tmp_path, "it-ctl-prune", {name: {"policy": "plan-only"}})
    store = StateStore(client)
    try:
        # What the controller keeps about a topology it acted on: its state entry (as after an action),
        # a plan and the scheduler's decision on it (a plan for a slot that does not exist: rejected).
        store.update(lambda s: replace(s, topologies={**s.topologies, name: SafetyState(last_action_at=time.time())}))
        _, version = write_plan(client, name, {ExecutorId(1, 1): ("127.0.0.1", 1)})
        assert wait_decision(client, name, topo_id, version, 120).status == "rejected"

        def series():
            return [s for s in daemon.samples() if s.labels.get("topology") == name]
        wait_for("the topology's series", series, 180, 1)
        wait_for("its decision record", lambda: client.exists(f"{DECISIONS_PATH}/{name}"), 60, 1)
        assert name in store.load()[0].topologies, "a running topology is kept"

        rest.kill(topo_id, 0)
        wait_for(f"{name} gone from the REST list", lambda: rest.topology_id(name) is None, 120)
        wait_for("the controller's state entry gone", lambda: name not in store.load()[0].known(), 120, 1)
        wait_for("its series gone", lambda: not series(), 60, 1)
        for path in (f"{zk.PLANS}/{name}", f"{zk.DECISIONS}/{name}", f"{DECISIONS_PATH}/{name}"):
            assert client.exists(path) is None, f"{path} left behind"
    finally:
        daemon.stop()
        if rest.topology_id(name) is not None:
            rest.kill(topo_id, 0)
        client.stop()
        client.close()


@pytest.mark.disruptive
def test_the_controller_leads_again_and_cycles_after_zookeeper_was_down(cluster, tmp_path):
    daemon = Daemon(cluster, tmp_path, "it-ctl-blip")
    try:
        wait_for("the controller leading and cycling", lambda: (daemon.leading_cycles() or 0) >= 1, 120, 0.5)
        cluster.state = manager.stop_daemon(cluster.spec.home, "zookeeper")
        stopped = time.monotonic()
        wait_for("the controller standing down", lambda: daemon.value("nonstop_controller_is_leader") == 0,
                 ZK_DOWN_S, 0.2)
        time.sleep(max(0.0, ZK_DOWN_S - (time.monotonic() - stopped)))   # the outage itself, not a check
        cycles_down = daemon.value("nonstop_controller_cycles_total")
        cluster.state = manager.start_daemon(cluster.spec.home, "zookeeper", timeout_s=60)
        back = time.monotonic()
        wait_for("the controller leading again and running a cycle",
                 lambda: (daemon.leading_cycles() or 0) > cycles_down, LEADS_AGAIN_WITHIN_S, 0.5)
        took = time.monotonic() - back
        # No stale lock node of the old session blocks anyone: it alone holds the lock.
        assert lock_holders(cluster) == ["it-ctl-blip"]
        how = [ln for ln in daemon.log.read_text().splitlines() if "leads again" in ln or "is the leader" in ln]
        print(f"led again and cycled {took:.1f} s after ZooKeeper was back ({ZK_DOWN_S} s down): {how[-1]}")
    finally:
        daemon.stop()
    assert daemon.proc.returncode == 0, daemon.log.read_text()[-3000:]
