"""ZooKeeper ACLs on the real cluster (on by default): only the cluster's digest principal may write a plan,
create one for a new topology, touch the controller's state or read the metrics documents; Storm itself,
the suite's Java clients and the authenticated command line keep working, and the command line without
(or with wrong) credentials says so in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from kazoo.client import KazooClient
from kazoo.exceptions import NoAuthError, NoNodeError
from kazoo.security import ACL, Id, Permissions

from pycontrol import zk
from pycontrol.cluster import secrets
from pycontrol.controller.leader import LOCK_PATH
from pycontrol.controller.state_store import STATE_PATH
from pycontrol.metrics.zk import DEFAULT_ROOT as METRICS_ROOT
from pycontrol.migration.migrate import where_is, write_plan
from pycontrol.storm import placement
from pycontrol.workloads.submit import submit_workload
from tests.conftest import submitted_topology, wait_for

pytestmark = pytest.mark.cluster

NAME = "acl-wordcount"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wordcount(cluster):
    assert cluster.zk_auth is not None, "the test cluster runs with ZooKeeper ACLs"
    submit_workload("wordcount-java", NAME, ["workload.rate=200", "topology.workers=2"], cluster.conf_dir)
    rest = cluster.rest
    with submitted_topology(cluster, NAME) as (topo_id, owner):
        wait_for("executors on both nodes", lambda: len(placement.by_host(placement.placement(rest, topo_id))) == 2,
                 240)
        wait_for("tuples acked", lambda: placement.acked(rest, topo_id) > 0, 120)
        yield topo_id, owner


def _client(cluster, payload: str | None) -> KazooClient:
    c = KazooClient(hosts=cluster.zk_hosts, auth_data=[("digest", payload)] if payload else None)
    c.start(timeout=15)
    return c


def _pycontrol(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pycontrol", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=300, env={**os.environ, **(env or {})})


def _move_target(cluster, topo_id: str) -> tuple[str, str]:
    """An executor of `count` and the slot of the topology's worker on the other node."""
    places = placement.placement(cluster.rest, topo_id)
    mover = next(p for p in places if p.component == "count")
    target = next(f"{p.host}:{p.port}" for p in places if p.host != mover.host)
    return mover.executor, target


def test_the_suites_znodes_are_the_cluster_principals_alone(cluster, wordcount):
    topo_id, owner = wordcount
    executor, target = _move_target(cluster, topo_id)
    r = _pycontrol("migrate", NAME, "--executor", str(executor), "--to", target, "--wait", "--timeout", "120",
                   "--home", str(cluster.spec.home))
    assert r.returncode == 0, r.stderr
    only = [ACL(Permissions.ALL, Id("digest", cluster.zk_auth.acl_id))]
    # The plan (written by pycontrol), the decision (by Nimbus's scheduler) and the metrics documents (by
    # the workers' hook) all carry the restricted ACL, parents included.
    docs = wait_for("metrics documents", lambda: owner.get_children(f"{METRICS_ROOT}/{topo_id}"), 60)
    for path in [zk.ROOT, zk.PLANS, f"{zk.PLANS}/{NAME}", zk.DECISIONS, f"{zk.DECISIONS}/{NAME}", METRICS_ROOT,
                 f"{METRICS_ROOT}/{topo_id}", f"{METRICS_ROOT}/{topo_id}/{docs[0]}"]:
        assert owner.get_acls(path)[0] == only, path


@pytest.mark.parametrize("payload", [None, "nonstop:not-the-password"], ids=["no-credentials", "wrong-password"])
def test_a_client_without_the_clusters_credentials_can_change_nothing(cluster, wordcount, payload):
    topo_id, owner = wordcount
    owner.ensure_path(zk.CONTROLLER)
    if owner.exists(f"{zk.PLANS}/{NAME}") is None:  # run alone: a plan that leaves an executor where it is
        executor, _ = _move_target(cluster, topo_id)
        where = where_is(cluster.rest, topo_id, executor)
        write_plan(owner, NAME, {executor: (where.split(":")[0], int(where.split(":")[1]))})
    plan_before = owner.get(f"{zk.PLANS}/{NAME}")
    stranger = _client(cluster, payload)
    try:
        with pytest.raises(NoAuthError):
            stranger.set(f"{zk.PLANS}/{NAME}", b'{"moves": [{"executor": [3, 3], "to": "127.0.0.11:1"}]}')
        with pytest.raises(NoAuthError):
            stranger.create(f"{zk.PLANS}/a-new-topology", b"{}")
        with pytest.raises(NoAuthError):
            if stranger.exists(STATE_PATH) is None:
                stranger.create(STATE_PATH, b'{"paused": true}')
            else:
                stranger.set(STATE_PATH, b'{"paused": true}')
        with pytest.raises(NoAuthError):  # the controller's leader lock
            stranger.Lock(LOCK_PATH, "intruder").acquire(timeout=10)
        docs = owner.get_children(f"{METRICS_ROOT}/{topo_id}")
        with pytest.raises(NoAuthError):
            stranger.get(f"{METRICS_ROOT}/{topo_id}/{docs[0]}")
        with pytest.raises(NoAuthError):
            stranger.create(f"{METRICS_ROOT}/{topo_id}/127.0.0.99-1", b"{}")
    finally:
        stranger.stop()
        stranger.close()
    assert owner.get(f"{zk.PLANS}/{NAME}")[0] == plan_before[0]
    with pytest.raises(NoNodeError):
        owner.get(f"{zk.PLANS}/a-new-topology")


def test_the_command_line_without_the_credentials_says_so_in_one_line(cluster, wordcount, tmp_path):
    topo_id, _ = wordcount
    executor, target = _move_target(cluster, topo_id)
    args = ["migrate", NAME, "--executor", str(executor), "--to", target, "--zk", cluster.zk_hosts,
            "--ui", cluster.spec.ui_url, "--home", str(tmp_path / "no-cluster-here")]
    missing = _pycontrol(*args, env={"PYCONTROL_ZK_AUTH": ""})
    assert missing.returncode != 0
    lines = missing.stderr.strip().splitlines()
    assert len(lines) == 1, missing.stderr
    assert "refused to" in lines[0] and f"{zk.PLANS}/{NAME}" in lines[0], lines[0]
    assert "no credentials were given" in lines[0]

    wrong = _pycontrol(*args, env={"PYCONTROL_ZK_AUTH": "nonstop:not-the-password"})
    assert wrong.returncode != 0
    lines = wrong.stderr.strip().splitlines()
    assert len(lines) == 1 and "credentials of user 'nonstop' do not match" in lines[0], wrong.stderr
    assert "not-the-password" not in wrong.stderr
    # Nothing moved: the executor is where it was.
    assert where_is(cluster.rest, topo_id, executor) != target


def test_the_authenticated_command_line_reads_the_controller_state(cluster, wordcount):
    r = _pycontrol("controller", "status", "--json", "--home", str(cluster.spec.home))
    assert r.returncode == 0, r.stderr
    json.loads(r.stdout)


def test_the_ui_shows_neither_the_zookeeper_password_nor_its_token(cluster, wordcount):
    topo_id, _ = wordcount
    shown = "".join(requests.get(f"{cluster.spec.ui_url}/api/v1/{path}", timeout=30).text
                    for path in ["cluster/configuration", f"topology/{topo_id}"])
    assert "storm.zookeeper.auth.payload" in shown and "nonstop.ui.token" in shown
    assert cluster.zk_auth.password not in shown
    assert secrets.load(cluster.layout.secrets_file).ui_token not in shown


def test_the_cluster_home_holding_secrets_and_logs_is_its_owners_alone(cluster, wordcount):
    """secrets.json and the storm.yaml files are 0600, and the home around them (where Nimbus's and the
    workers' logs print their configuration, payload and token included) is 0700."""
    home = cluster.spec.home
    assert home.stat().st_mode & 0o777 == 0o700
    confs = list(home.rglob("storm.yaml"))
    assert confs and all(p.stat().st_mode & 0o777 == 0o600 for p in confs), \
        {str(p): oct(p.stat().st_mode & 0o777) for p in confs}
    assert (home / "secrets.json").stat().st_mode & 0o777 == 0o600
