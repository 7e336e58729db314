"""ansible/site.yml builds a working three-host cluster with its secure defaults, and a second run
changes nothing.

The hosts are network namespaces with their own addresses and their own /etc, /opt, /var and /run
(tests/ops/netns_hosts.py); Ansible enters them with the nsenter connection, as inventories/netns
says. Daemons run under start-stop-daemon (no systemd as PID 1 here); their systemd units are
rendered too and checked with systemd-analyze. The defaults stay on: ZooKeeper digest auth, the UI
REST server on loopback (reached here from inside its host's namespace), and the firewall, loaded in
each host's namespace only. This machine (the bridge address) is the operator, listed as an admin
source; an extra namespace that is no cluster member plays the stranger. Everything is torn down at
the end and checked gone. One deployment is shared by the module's tests, which run in file order.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from kazoo.client import KazooClient
from kazoo.exceptions import NoAuthError

from pycontrol.storm import placement
from pycontrol.storm.rest import StormRest
from tests.ops import dashboard_queries, wheelhouse
from tests.ops.conftest import ANSIBLE_DIR, OPS_VENV, REPO, ops_bin, run, system_tool
from tests.ops.netns_hosts import NetnsHosts

pytestmark = [pytest.mark.ops, pytest.mark.slow]

# Must match inventories/netns/group_vars/all.yml (node_address) and exist nowhere else.
SUBNET = "10.232.0"
BRIDGE_ADDRESS = f"{SUBNET}.1"
# A host on the cluster's network that is not in the inventory: the firewall must drop it.
STRANGER, STRANGER_ADDRESS = "stranger", f"{SUBNET}.50"
FIREWALL_TABLE = "nonstop_storm"
TOPOLOGY = "ops-relay"
# Long enough (90 s at 200/s) that traffic still flows while Prometheus and the controller are checked.
RELAY_TOTAL = 18000
RELAY_RATE = 200
# What the roles install with apt; the namespaces have no network, so they must be there already.
PACKAGES = ["openjdk-17-jre-headless", "prometheus", "prometheus-node-exporter", "python3-venv", "nftables"]
# Ports as in ansible/group_vars/all.yml.
ZK_PORT, NIMBUS_PORT, SUPERVISOR_PORT, UI_PORT, NODE_EXPORTER_PORT, PROMETHEUS_PORT, PYCONTROL_METRICS_PORT, CONTROLLER_PORT = (
    2181, 6627, 6628, 8080, 9100, 9090, 9465, 9466)
# The daemon JVMs' JMX exporter agents (nonstop_jvm_exporter_ports): group -> port.
JVM_EXPORTER_PORTS = {"zookeeper": 7070, "nimbus": 7071, "ui": 7072, "supervisors": 7073}
PYCONTROL_LEFT_OUT = ("pyspark",)
RECAP = re.compile(r"^(\S+)\s*:\s*ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)", re.M)


@dataclass
class PlaybookRun:
    rc: int
    recap: dict[str, dict[str, int]]
    log: Path
    seconds: float

    def tail(self, n: int = 60) -> str:
        return "\n".join(self.log.read_text().splitlines()[-n:])


@dataclass
class Deployment:
    hosts: NetnsHosts
    groups: dict[str, list[str]]
    address: dict[str, str]
    env: dict[str, str]
    extra_vars: list[str]
    log_dir: Path
    secrets: Path
    first: PlaybookRun
    # The idempotence run, started as soon as the first one succeeded: it re-checks every task while
    # the checks below wait on the cluster, so it costs the module little wall time.
    second: PlaybookProcess | None

    def addresses(self, group: str) -> list[str]:
        return [self.address[h] for h in self.groups[group]]

    def url(self, group: str, port: int, path: str = "") -> str:
        return f"http://{self.addresses(group)[0]}:{port}{path}"


    def secret(self, name: str) -> str:
        """A secret the playbook generated on this machine (nonstop_secrets_dir)."""
        return (self.secrets / name).read_text().strip()

    def ui(self) -> InHostRest:
        """The UI REST API as the controller sees it: on loopback of the UI host, with the token."""
        session = requests.Session()
        session.headers["Authorization"] = f"Bearer {self.secret('ui-token')}"
        return InHostRest(self.hosts, self.groups["ui"][0], StormRest(f"http://127.0.0.1:{UI_PORT}", session=session))


class InHostRest:
    """A StormRest whose calls run in one host's network namespace (placement.* take it as it is)."""

    def __init__(self, hosts: NetnsHosts, host: str, rest: StormRest):
        self._hosts, self._host, self._rest = hosts, host, rest

    def __getattr__(self, name: str):
        attr = getattr(self._rest, name)
        if not callable(attr):
            return attr
        return lambda *args, **kwargs: self._hosts.call_in(self._host, attr, *args, **kwargs)


def inventory() -> tuple[dict[str, list[str]], dict[str, str]]:
    """Groups and each host's address, as the netns inventory defines them."""
    p = run([ops_bin("ansible-inventory"), "-i", "inventories/netns", "--list"], cwd=ANSIBLE_DIR, timeout_s=60)
    assert p.returncode == 0, p.stderr
    inv = json.loads(p.stdout)
    groups = {g: sorted(v.get("hosts", [])) for g, v in inv.items() if g not in ("_meta", "all", "ungrouped")}
    groups["storm"] = sorted({h for g in inv["storm"]["children"] for h in groups[g]})
    hostvars = inv["_meta"]["hostvars"]
    return groups, {h: f"{SUBNET}.{10 + int(v['node_index'])}" for h, v in hostvars.items()}


class PlaybookProcess:
    """ansible-playbook site.yml running in the background, its output in log."""

    def __init__(self, env: dict[str, str], extra_vars: list[str], log: Path):
        argv = [str(ops_bin("ansible-playbook")), "-i", "inventories/netns", "site.yml"]
        for ev in extra_vars:
            argv += ["-e", ev]
        self.log = log
        self.t0 = time.monotonic()
        with log.open("w") as out:
            self.popen = subprocess.Popen(argv, cwd=ANSIBLE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT)

    def result(self, timeout_s: float = 1500) -> PlaybookRun:
        try:
            rc = self.popen.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.stop()     # before the hosts go: a playbook left running reports them unreachable
            raise
        seconds = round(time.monotonic() - self.t0, 1)
        recap = {m.group(1): {"ok": int(m.group(2)), "changed": int(m.group(3)), "unreachable": int(m.group(4)),
                              "failed": int(m.group(5))} for m in RECAP.finditer(self.log.read_text())}
        return PlaybookRun(rc, recap, self.log, seconds)

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()
            self.popen.wait(timeout=60)


def missing_packages() -> list[str]:
    p = run(["dpkg-query", "--show", "--showformat=${Package} ${db:Status-Abbrev}\n", *PACKAGES])
    installed = {line.split()[0] for line in p.stdout.splitlines() if line.rstrip().endswith("ii")}
    return [pkg for pkg in PACKAGES if pkg not in installed]


def wait_for(what: str, check, timeout_s: float, poll_s: float = 2.0):
    deadline = time.monotonic() + timeout_s
    last = None
    while time.monotonic() < deadline:
        try:
            value = check()
        except (requests.RequestException, OSError, ValueError) as e:
            value, last = None, e
        if value:
            return value
        time.sleep(poll_s)
    raise AssertionError(f"timed out after {timeout_s:.0f} s waiting for {what} (last error: {last})")


@pytest.fixture(scope="module")
def deployment(tmp_path_factory) -> Deployment:
    if os.geteuid() != 0:
        pytest.skip("network namespaces and overlay mounts need root")
    for tool in ("nsenter", "unshare", "start-stop-daemon", "ip", "systemd-analyze"):
        system_tool(tool)
    if missing := missing_packages():
        pytest.skip(f"packages the roles expect are not installed: {missing} (`./nonstop setup` installs them)")
    dist = REPO / "build" / "dist"
    if not (dist / "storm" / "lib").is_dir() or not (dist / "extlib" / "nonstop-metrics.jar").is_file():
        pytest.skip("build/dist incomplete: run `mvn -q -DskipTests package`")

    work = tmp_path_factory.mktemp("ops-cluster")
    wheels = work / "wheels"
    # pyspark (456 MB, used only by `pycontrol trace`) is left out to keep the test fast: the
    # controller host gets every other dependency, pinned, installed with --no-deps.
    controller_packages = wheelhouse.build(["pycontrol"], wheels / "pycontrol", exclude=PYCONTROL_LEFT_OUT)
    wheelhouse.build(["streamparse==5.0.1", "pystorm==3.1.4", "setuptools"], wheels / "storm-python")
    vars_file = work / "test-vars.json"
    secrets = work / "secrets"
    vars_file.write_text(json.dumps({"pycontrol_packages": controller_packages, "pycontrol_pip_extra_args": "--no-deps",
                                     "nonstop_secrets_dir": str(secrets), "nonstop_firewall_admin_sources": [BRIDGE_ADDRESS]}))

    groups, address = inventory()
    assert STRANGER_ADDRESS not in address.values()
    hosts = NetnsHosts({**address, STRANGER: STRANGER_ADDRESS}, BRIDGE_ADDRESS, work / "netns", tag="nsops")
    env = {**os.environ, "NONSTOP_NETNS_DIR": str(hosts.pid_dir), "NONSTOP_WHEELHOUSE": str(wheels),
           "PATH": f"{OPS_VENV / 'bin'}:{os.environ['PATH']}", "ANSIBLE_NOCOLOR": "1",
           "ANSIBLE_LOCAL_TEMP": str(work / "ansible-tmp")}
    extra_vars = [f"@{vars_file}"]
    log_dir = work / "logs"
    log_dir.mkdir()
    hosts.up()
    try:
        first = PlaybookProcess(env, extra_vars, log_dir / "first-run.log").result()
        second = PlaybookProcess(env, extra_vars, log_dir / "second-run.log") if first.rc == 0 else None
        try:
            yield Deployment(hosts, groups, address, env, extra_vars, log_dir, secrets, first, second)
        finally:
            if second is not None:
                second.stop()
    finally:
        hosts.down()
        left = hosts.leftovers()
        assert not left, f"left behind after tear-down: {left}"


def test_first_run_builds_the_cluster_on_every_host(deployment):
    run1 = deployment.first
    print(f"first run: {run1.seconds} s")
    assert run1.rc == 0, f"ansible-playbook failed (log {run1.log}):\n{run1.tail()}"
    assert set(run1.recap) == set(deployment.address), run1.recap      # the stranger is no inventory host
    assert all(r["failed"] == 0 and r["unreachable"] == 0 and r["changed"] > 0 for r in run1.recap.values())


def srvr_mode(address: str) -> str | None:
    with socket.create_connection((address, ZK_PORT), timeout=3) as s:
        s.sendall(b"srvr")
        out = b"".join(iter(lambda: s.recv(4096), b"")).decode()
    m = re.search(r"^Mode: (\w+)", out, re.M)
    return m.group(1) if m else None


def test_zookeeper_runs_as_an_ensemble_with_one_leader(deployment):
    modes = sorted(srvr_mode(a) for a in deployment.addresses("zookeeper"))
    assert modes == sorted(["leader"] + ["follower"] * (len(modes) - 1)), modes


def test_every_supervisor_host_registered_with_its_own_address(deployment):
    rest = deployment.ui()
    hosts = wait_for("both supervisors in the UI", lambda: (
        h := sorted(s["host"] for s in rest.supervisors())) == sorted(deployment.addresses("supervisors")) and h, 120)
    assert len(hosts) == len(deployment.groups["supervisors"])


def tcp_outcome(deployment, host: str | None, address: str, port: int) -> str:
    """How a TCP connection from host's network (None: this machine) to address:port ends: connected,
    refused (nothing listens there) or dropped (no answer: the firewall)."""
    def attempt() -> str:
        try:
            with socket.create_connection((address, port), timeout=3):
                return "connected"
        except ConnectionRefusedError:
            return "refused"
        except (socket.timeout, TimeoutError):
            return "dropped"
    return attempt() if host is None else deployment.hosts.call_in(host, attempt)


def test_the_firewall_is_loaded_in_every_host_and_not_on_this_machine(deployment):
    for host in deployment.address:
        p = in_host(deployment, host, ["nft", "list", "table", "inet", FIREWALL_TABLE])
        assert p.returncode == 0 and "drop" in p.stdout, f"{host}: {p.stdout}{p.stderr}"
    assert FIREWALL_TABLE not in run(["nft", "list", "tables"]).stdout


def test_a_stranger_is_dropped_at_zookeeper_nimbus_and_the_supervisors_where_members_connect(deployment):
    member = deployment.groups["supervisors"][0]
    ports = [(deployment.addresses("zookeeper")[0], ZK_PORT), (deployment.addresses("nimbus")[0], NIMBUS_PORT),
             (deployment.addresses("supervisors")[-1], SUPERVISOR_PORT)]
    for address, port in ports:
        assert tcp_outcome(deployment, member, address, port) == "connected", f"member to {address}:{port}"
        assert tcp_outcome(deployment, STRANGER, address, port) == "dropped", f"stranger to {address}:{port}"


def test_the_ui_rest_server_answers_on_its_own_host_only(deployment):
    ui_host, ui_address = deployment.groups["ui"][0], deployment.addresses("ui")[0]
    assert deployment.ui().cluster_summary()
    for host in [h for h in deployment.address if h != ui_host] + [None]:
        # Refused, not dropped: the firewall admits members and the operator; nothing listens there.
        assert tcp_outcome(deployment, host, ui_address, UI_PORT) == "refused", host or "this machine"
    assert tcp_outcome(deployment, STRANGER, ui_address, UI_PORT) == "dropped"


@pytest.fixture(scope="module")
def relay(deployment):
    """The relay workload, submitted from outside the hosts the way a user would."""
    nimbus = f"{deployment.addresses('nimbus')[0]}:{NIMBUS_PORT}"
    # Submitted from this machine, an admin source: Nimbus is reachable, the UI (loopback there) is not.
    p = run([REPO / ".venv" / "bin" / "pycontrol", "topology", "submit", "relay", "--name", TOPOLOGY,
             "--nimbus", nimbus, "--ui", f"http://127.0.0.1:{UI_PORT}", "--set", "topology.workers=2", "--set", f"workload.total={RELAY_TOTAL}",
             "--set", f"workload.rate={RELAY_RATE}", "--set", "topology.stats.sample.rate=1.0"], timeout_s=180,
            # The cluster's ZooKeeper payload, which its workers must run on (ACLs are on by default).
            env={**os.environ, "PYCONTROL_ZK_AUTH": f"nonstop:{deployment.secret('zookeeper-auth')}"})
    assert p.returncode == 0, f"submit failed: {p.stdout}\n{p.stderr}"
    rest = deployment.ui()
    topo_id = wait_for(f"{TOPOLOGY} listed", lambda: rest.topology_id(TOPOLOGY), 60)
    yield rest, topo_id
    rest.kill(topo_id, 0)
    wait_for(f"{TOPOLOGY} gone", lambda: rest.topology_id(TOPOLOGY) is None, 90)


def test_a_topology_runs_across_both_supervisor_hosts(deployment, relay):
    rest, topo_id = relay
    hosts = wait_for("executors on both supervisor hosts", lambda: (
        h := placement.by_host(placement.placement(rest, topo_id))) and len(h) == 2 and h, 240)
    assert set(hosts) == set(deployment.addresses("supervisors"))


def prometheus_api(deployment, path: str, **params) -> dict:
    r = requests.get(deployment.url("monitoring", PROMETHEUS_PORT, f"/api/v1/{path}"), params=params, timeout=10)
    r.raise_for_status()
    return r.json()["data"]


def test_prometheus_scrapes_every_node_exporter_daemon_jvm_pycontrol_and_the_controller(deployment):
    expected = {("node", f"{a}:{NODE_EXPORTER_PORT}") for a in deployment.address.values()}
    expected |= {("jvm", f"{a}:{port}") for g, port in JVM_EXPORTER_PORTS.items() for a in deployment.addresses(g)}
    expected |= {("pycontrol", f"{a}:{PYCONTROL_METRICS_PORT}") for a in deployment.addresses("controller")}
    expected |= {("controller", f"{a}:{CONTROLLER_PORT}") for a in deployment.addresses("controller")}
    expected |= {("prometheus", f"{a}:{PROMETHEUS_PORT}") for a in deployment.addresses("monitoring")}

    def all_up():
        active = prometheus_api(deployment, "targets")["activeTargets"]
        seen = {(t["labels"]["job"], t["labels"]["instance"]): t["health"] for t in active}
        return set(seen) == expected and all(h == "up" for h in seen.values()) and seen

    seen = wait_for("every target up", all_up, 90)
    node_labels = {t["labels"]["instance"]: t["labels"].get("node")
                   for t in prometheus_api(deployment, "targets")["activeTargets"] if t["labels"]["job"] == "node"}
    assert node_labels == {f"{a}:{NODE_EXPORTER_PORT}": a for a in deployment.address.values()}
    assert len(seen) == len(expected)
    # Every daemon JVM reports its heap, labelled with what it is and where it runs.
    heaps = prometheus_api(deployment, "query", query='sum by (daemon, node) (jvm_memory_used_bytes{area="heap"})')
    daemon_of = {"zookeeper": "zookeeper", "nimbus": "nimbus", "ui": "ui", "supervisors": "supervisor"}
    assert {(r["metric"]["daemon"], r["metric"]["node"]) for r in heaps["result"]} == {
        (daemon_of[g], a) for g in JVM_EXPORTER_PORTS for a in deployment.addresses(g)}
    assert all(float(r["value"][1]) > 0 for r in heaps["result"])


def test_pycontrol_exporter_reports_the_topology_per_supervisor_node(deployment, relay):
    def series():
        result = prometheus_api(deployment, "query",
                                query=f'nonstop_executor_executed_tuples_per_second{{topology="{TOPOLOGY}"}}')["result"]
        return result and {r["metric"]["node"] for r in result} == set(deployment.addresses("supervisors")) and result

    result = wait_for("per-executor rates of the relay in Prometheus", series, 120)
    assert {r["metric"]["component"] for r in result} >= {"spout"} or len(result) > 1


def prometheus_query(deployment, expr: str) -> list:
    return prometheus_api(deployment, "query", query=expr)["result"]


def test_the_controller_leads_and_decides_on_the_topology_from_its_own_host(deployment, relay):
    p = in_host(deployment, deployment.groups["controller"][0],
                ["start-stop-daemon", "--status", "--pidfile", "/run/nonstop-storm/pycontrol.pid"])
    assert p.returncode == 0, "the pycontrol controller is not running"

    def value(expr: str) -> float | None:
        result = prometheus_query(deployment, expr)
        return float(result[0]["value"][1]) if result else None

    assert wait_for("the controller to lead", lambda: value("max(nonstop_controller_is_leader)") == 1, 120)
    # A decision on real data (dry-run or no-action) means collect and evaluate worked; planning
    # failures (e.g. the planners' jars missing on the controller host) would be "error" decisions.
    decided = f'sum(nonstop_controller_decisions_total{{topology="{TOPOLOGY}", kind=~"dry-run|no-action"}})'
    assert wait_for("a decision on the relay", lambda: (value(decided) or 0) > 0, 180)
    errors = value(f'sum(nonstop_controller_decisions_total{{topology="{TOPOLOGY}", kind="error"}})')
    assert errors == 0, f"the controller's decisions failed {errors} time(s): see /var/log/pycontrol on the host"
    assert value(f'max(nonstop_controller_dry_run{{topology="{TOPOLOGY}"}})') == 1


def zookeeper_reads(deployment, host: str, paths: list[str], auth: str | None) -> dict[str, str]:
    """path -> "read" or "noauth" for a ZooKeeper client in host's network, with or without the digest payload."""
    def read() -> dict[str, str]:
        zk = KazooClient(hosts=f"{deployment.addresses('zookeeper')[0]}:{ZK_PORT}",
                         auth_data=[("digest", auth)] if auth else None)
        zk.start(timeout=20)
        try:
            out = {}
            for path in paths:
                try:
                    zk.get(path)
                    out[path] = "read"
                except NoAuthError:
                    out[path] = "noauth"
            return out
        finally:
            zk.stop()
            zk.close()
    return deployment.hosts.call_in(host, read)


def znodes_below(deployment, host: str, root: str, auth: str) -> list[str]:
    def walk() -> list[str]:
        zk = KazooClient(hosts=f"{deployment.addresses('zookeeper')[0]}:{ZK_PORT}", auth_data=[("digest", auth)])
        zk.start(timeout=20)
        try:
            children = [f"{root}/{c}" for c in zk.get_children(root)]
            return children + [f"{c}/{g}" for c in children for g in zk.get_children(c)]
        finally:
            zk.stop()
            zk.close()
    return deployment.hosts.call_in(host, walk)


def test_zookeeper_state_needs_the_digest_payload(deployment, relay):
    """The suite's znodes under /nonstop: read with the payload, NoAuth without, from another host."""
    rendered = in_host(deployment, deployment.groups["storm"][0], ["cat", "/etc/storm/storm.yaml"]).stdout
    assert "storm.zookeeper.auth.payload" in rendered, "ZooKeeper digest auth is on by default"
    payload = f"nonstop:{deployment.secret('zookeeper-auth')}"
    member = deployment.groups["supervisors"][0]
    nonstop = wait_for("the suite's znodes", lambda: znodes_below(deployment, member, "/nonstop", payload), 60)
    assert zookeeper_reads(deployment, member, nonstop, payload) == {p: "read" for p in nonstop}
    assert zookeeper_reads(deployment, member, nonstop, None) == {p: "noauth" for p in nonstop}


def test_dashboard_queries_return_series_with_their_legend_labels(deployment, relay):
    """Every panel, on the metrics this deployment exports. Its controller only explains (dry-run),
    so the panel of applied actions' gains stays empty here; test_grafana_live.py covers it."""
    after_action = set(dashboard_queries.dashgen_metrics().AFTER_AN_APPLIED_ACTION)
    queries = [q for q in dashboard_queries.panel_queries({"topology": TOPOLOGY}) if not q.metrics & after_action]
    assert len(queries) > 40
    dashboard_queries.wait_until_answered(lambda e: prometheus_query(deployment, e), queries, 180)


def test_the_topology_acks_every_tuple(deployment, relay):
    rest, topo_id = relay
    acked = wait_for(f"{RELAY_TOTAL} acked", lambda: (a := placement.acked(rest, topo_id)) >= RELAY_TOTAL and a, 300)
    assert acked == RELAY_TOTAL


def host_pid(deployment, host: str) -> str:
    return (deployment.hosts.pid_dir / f"{host}.pid").read_text().strip()


def in_host(deployment, host: str, argv: list[str], timeout_s: float = 60):
    """A command in the host's mount and UTS namespaces (its files, its hostname)."""
    return run(["nsenter", "--mount", "--uts", "--net", "--target", host_pid(deployment, host), *argv], timeout_s=timeout_s)


def test_rendered_systemd_units_pass_systemd_analyze(deployment):
    checked = 0
    for host in deployment.address:
        ls = in_host(deployment, host, ["ls", "/opt/nonstop-storm/bin"])
        assert ls.returncode == 0, ls.stderr
        for name in ls.stdout.split():
            p = in_host(deployment, host, ["systemd-analyze", "verify", f"/etc/systemd/system/{name}.service"])
            assert p.returncode == 0, f"{host} {name}.service: {p.stdout}{p.stderr}"
            checked += 1
    assert checked >= 3 + 1 + 1 + 2 + 3 + 1 + 2   # zk x3, nimbus, ui, supervisors, node exporters, prometheus, pycontrol x2


def test_second_run_changes_nothing(deployment):
    assert deployment.second is not None, "no second run: the first one failed"
    run2 = deployment.second.result()
    print(f"second run: {run2.seconds} s")
    assert run2.rc == 0, f"second run failed (log {run2.log}):\n{run2.tail()}"
    changed = {h: r["changed"] for h, r in run2.recap.items() if r["changed"]}
    assert not changed, f"not idempotent: {changed}; see {run2.log}:\n" + "\n".join(
        line for line in run2.log.read_text().splitlines() if line.startswith("changed:"))
    assert set(run2.recap) == set(deployment.address)
